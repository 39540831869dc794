/**
 * The wave server on Bun: `bun src/server/runtimes/bun.ts` (configured by the same environment
 * variables as the Node server). The client is `server.requestIP(request)`, or per
 * WAVE_TRUST_PROXY. SIGTERM drains like the Node server.
 */
import { readFileSync } from 'node:fs';
import { clientAddress, setClientAddress } from '../client-identity.js';
import { handlerFromEnv } from './shared.js';

interface BunServer {
  port: number;
  hostname: string;
  requestIP(request: Request): { address: string } | null;
  stop(closeActiveConnections?: boolean): Promise<void>;
}
declare const Bun: {
  env: Record<string, string | undefined>;
  serve(options: { port: number; hostname: string; idleTimeout: number; fetch(request: Request, server: BunServer): Promise<Response> }): BunServer;
};

const draining = new AbortController();
const shutdown = new AbortController();
const { handler, config } = handlerFromEnv(Bun.env, { readFile: (path) => readFileSync(path, 'utf8'), draining: draining.signal, shutdown: shutdown.signal });
const server = Bun.serve({
  port: config.port,
  hostname: Bun.env.HOST ?? '127.0.0.1',
  // Bun closes connections idle for 10 s by default; the keep-alive comment comes every 15 s.
  idleTimeout: 60,
  fetch(request, srv) {
    setClientAddress(request, clientAddress(srv.requestIP(request)?.address, request.headers, config.trustProxy));
    return handler(request);
  },
});
console.log(JSON.stringify({ level: 'info', msg: 'listening', runtime: 'bun', url: `http://${server.hostname}:${server.port}/wave` }));
process.once('SIGTERM', () => {
  draining.abort();
  const deadline = setTimeout(() => shutdown.abort(), config.drainMs);
  void server.stop().then(() => {
    clearTimeout(deadline);
    process.exit(0);
  });
});
