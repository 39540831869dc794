/**
 * The wave server on Deno: `deno run --allow-net --allow-env --allow-read src/server/runtimes/deno.ts`
 * (configured by the same environment variables as the Node server). The client is Deno's
 * connection info, or per WAVE_TRUST_PROXY. SIGTERM drains like the Node server.
 */
import { clientAddress, setClientAddress } from '../client-identity.js';
import { handlerFromEnv } from './shared.js';

declare const Deno: {
  env: { toObject(): Record<string, string> };
  readTextFileSync(path: string): string;
  addSignalListener(signal: 'SIGTERM' | 'SIGINT', fn: () => void): void;
  exit(code: number): never;
  serve(
    options: { port: number; hostname: string; onListen(addr: { hostname: string; port: number }): void },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Response | Promise<Response>,
  ): { shutdown(): Promise<void>; finished: Promise<void> };
};

const env = Deno.env.toObject();
const draining = new AbortController();
const shutdown = new AbortController();
const { handler, config } = handlerFromEnv(env, { readFile: (path) => Deno.readTextFileSync(path), draining: draining.signal, shutdown: shutdown.signal });
const server = Deno.serve(
  {
    port: config.port,
    hostname: env.HOST ?? '127.0.0.1',
    onListen: ({ hostname, port }) => console.log(JSON.stringify({ level: 'info', msg: 'listening', runtime: 'deno', url: `http://${hostname}:${port}/wave` })),
  },
  (request, info) => {
    setClientAddress(request, clientAddress(info.remoteAddr.hostname, request.headers, config.trustProxy));
    return handler(request);
  },
);
Deno.addSignalListener('SIGTERM', () => {
  draining.abort();
  // Open streams may finish until the deadline; then they end with `server_shutdown`.
  const deadline = setTimeout(() => shutdown.abort(), config.drainMs);
  void server.shutdown().then(() => {
    clearTimeout(deadline);
    Deno.exit(0);
  });
});
