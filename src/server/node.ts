/**
 * The Node entry of the wave server: a node:http server that adapts IncomingMessage ⇄ Request /
 * Response with streaming, serves the wave handler at /wave and static files (demo pages at `/`,
 * bundles at `/dist/`). Only this module and node-adapter.ts import `node:`.
 *
 * Operations: the client is the socket's address (or per WAVE_TRUST_PROXY); WAVE_REDIS_URL shares
 * the rate limit through Redis; on SIGTERM the server stops accepting, lets open streams finish
 * for WAVE_DRAIN_MS, then ends the rest with the error event `server_shutdown`.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config.js';
import { createWaveHandler } from './handler.js';
import { toNodeListener } from './node-adapter.js';
import { RedisRateLimitStore, type RateLimitStore } from './rate-limit.js';
import type { WaveServerOptions } from './types.js';

export { toNodeListener } from './node-adapter.js';

/** The strict policy of the `/csp/` demo pages: what the widget must work under (SPEC §12). */
export const STRICT_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; require-trusted-types-for 'script'; trusted-types wave-chat lit-html";

export const MIME_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.d.ts': 'text/plain; charset=utf-8',
};

/** Serves files under `roots` (URL prefix → directory); false when no prefix matched. */
async function serveStatic(req: IncomingMessage, res: ServerResponse, roots: [string, string][]): Promise<boolean> {
  const rawPath = (req.url ?? '/').split('?')[0]!.split('#')[0]!;
  let pathname: string;
  try {
    pathname = decodeURIComponent(rawPath);
  } catch {
    sendText(res, 400, 'Bad request');
    return true;
  }
  const match = roots.find(([prefix]) => pathname.startsWith(prefix) || pathname === prefix.replace(/\/$/, ''));
  if (!match) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    sendText(res, 405, 'Method not allowed');
    return true;
  }
  const [prefix, dir] = match;
  const relative = pathname.slice(Math.min(prefix.length, pathname.length));
  // No NULs, no backslashes, no `..` and no dotfiles: refuse rather than normalise.
  const segments = relative.split('/');
  if (pathname.includes('\0') || relative.includes('\\') || segments.some((s) => s === '..' || s.startsWith('.'))) {
    sendText(res, 404, 'Not found');
    return true;
  }
  const root = resolve(dir);
  let file = resolve(root, ...segments.filter(Boolean));
  try {
    let info = await stat(file);
    if (info.isDirectory()) {
      if (!pathname.endsWith('/')) {
        res.writeHead(301, { location: `${rawPath}/`, 'cache-control': 'no-cache' });
        res.end();
        return true;
      }
      file = resolve(file, 'index.html');
      info = await stat(file);
    }
    // Symlinks must not lead outside the root either.
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(file)]);
    if (!info.isFile() || !(realFile === realRoot || realFile.startsWith(realRoot + sep))) throw new Error('outside');
    const type = MIME_TYPES[file.endsWith('.d.ts') ? '.d.ts' : extname(file).toLowerCase()] ?? 'application/octet-stream';
    const headers: Record<string, string | number> = {
      'content-type': type,
      'content-length': info.size,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    };
    if (pathname.startsWith('/csp/')) headers['content-security-policy'] = STRICT_CSP;
    // The widget's files, like a CDN's: a page on another origin loads the script, and the script
    // imports its chunks from its own origin as modules (CORS fetches). Public files, no credentials.
    if (prefix === '/dist/') headers['access-control-allow-origin'] = '*';
    res.writeHead(200, headers);
    if (req.method === 'HEAD') res.end();
    else createReadStream(realFile).on('error', () => res.destroy()).pipe(res);
  } catch {
    sendText(res, 404, 'Not found');
  }
  return true;
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' });
  res.end(text);
}

/** Two levels up from src/server/ or dist/server/ is the package root. */
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface StartServerOptions {
  /** Default: PORT from `env`, else 8787; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1 (HOST from `env` overrides). */
  host?: string;
  /** URL prefix → directory; default `{ '/': demo/, '/dist/': dist/ }` of this package. */
  staticRoots?: Record<string, string>;
  /** Configuration source (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Handler options that replace the configured ones (tests: a provider, a logger, no rate limit). */
  overrides?: Partial<WaveServerOptions>;
}

export interface RunningServer {
  /** e.g. `http://127.0.0.1:8787/` */
  url: string;
  port: number;
  /** What serves the model, safe to print. */
  providerLabel: string;
  /** Wave streams being answered right now. */
  openStreams(): number;
  /**
   * Graceful stop: accept nothing new (`/health` says draining), let open streams finish for up
   * to `deadlineMs` (default WAVE_DRAIN_MS), end the rest with the `server_shutdown` error event,
   * then close.
   */
  drain(deadlineMs?: number): Promise<void>;
  /** Immediate stop: every connection is cut. */
  close(): Promise<void>;
}

/** One JSON log line of the server's own life (start, drain, stop). */
function lifecycleLog(level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, string | number> = {}): void {
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
  if (level === 'info') console.log(line);
  else console.error(line);
}

/** Connects to WAVE_REDIS_URL with the `redis` package; never prints the URL (it may hold a password). */
async function connectRedis(url: string): Promise<{ store: RateLimitStore; quit(): Promise<void> }> {
  const { createClient } = await import('redis');
  let started = false;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 5000,
      // At start-up a Redis that cannot be reached is a configuration error; later, keep trying.
      reconnectStrategy: (retries: number) => (started ? Math.min(100 * 2 ** retries, 2000) : retries >= 2 ? new Error('cannot connect') : 200),
    },
  });
  let reported = false;
  client.on('error', (error: unknown) => {
    // The client reconnects by itself; say so once per outage, not per retry.
    if (reported) return;
    reported = true;
    lifecycleLog('error', 'redis unavailable: rate-limited requests are refused (503) until it is back', {
      error: error instanceof Error ? error.name : 'error',
    });
  });
  client.on('ready', () => (reported = false));
  try {
    await client.connect();
    started = true;
  } catch {
    if (client.isOpen) client.destroy();
    throw new ConfigError('WAVE_REDIS_URL', 'cannot connect to Redis');
  }
  return {
    store: new RedisRateLimitStore({ client }),
    quit: async () => {
      await client.close().catch(() => client.destroy());
    },
  };
}

/**
 * Starts the wave server with static files; rejects with ConfigError for bad configuration.
 *
 * @example
 * const server = await startServer({ port: 0, env: { WAVE_PROVIDER: 'offline' } });
 * console.log(server.url);
 * await server.close();
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const readFile = (path: string) => readFileSync(path, 'utf8');
  const host = options.host ?? env.HOST ?? '127.0.0.1';
  // Validate the configuration before opening a port.
  let config = loadConfig(env, { readFile, ...(options.port !== undefined ? { port: options.port } : {}) });
  const roots = Object.entries(options.staticRoots ?? { '/': resolve(PACKAGE_ROOT, 'demo'), '/dist/': resolve(PACKAGE_ROOT, 'dist') })
    // Longest prefix first, so /dist/ wins over /.
    .sort(([a], [b]) => b.length - a.length);
  let listener: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const open = new Set<ServerResponse>();
  let idle: (() => void) | null = null;
  const draining = new AbortController();
  const shutdown = new AbortController();
  const redis = config.redisUrl && !options.overrides?.rateLimitStore ? await connectRedis(config.redisUrl) : null;

  const server = createServer({ noDelay: true }, (req, res) => {
    const pathname = (req.url ?? '/').split('?')[0]!;
    if (pathname === '/wave' || pathname.startsWith('/wave/')) {
      if (!listener) return sendText(res, 503, 'Starting');
      open.add(res);
      res.on('close', () => {
        open.delete(res);
        if (open.size === 0) idle?.();
      });
      return listener(req, res);
    }
    serveStatic(req, res, roots)
      .then((served) => {
        if (!served) sendText(res, 404, 'Not found');
      })
      .catch(() => res.destroy());
  });
  try {
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(config.port, host, () => {
        server.off('error', reject);
        resolveListen();
      });
    });
  } catch (error) {
    await redis?.quit();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  // With port 0 the demo site's origins are known only now.
  if (port !== config.port) config = loadConfig(env, { readFile, port });
  const handler = createWaveHandler({
    sites: config.sites,
    provider: config.provider,
    basePath: '/wave',
    rateLimit: config.rateLimit,
    ...(redis ? { rateLimitStore: redis.store } : {}),
    draining: draining.signal,
    shutdown: shutdown.signal,
    ...(config.voiceBroker ? { voiceBroker: config.voiceBroker } : {}),
    ...options.overrides,
  });
  listener = toNodeListener(handler, { trustProxy: config.trustProxy });
  const urlHost = host.includes(':') ? `[${host}]` : host;

  const closed = new Promise<void>((resolveClosed) => server.once('close', () => resolveClosed()));
  let stopping: Promise<void> | null = null;
  const finish = async () => {
    server.close();
    server.closeAllConnections();
    await closed;
    await redis?.quit();
  };
  const drain = (deadlineMs = config.drainMs): Promise<void> =>
    (stopping ??= (async () => {
      draining.abort();
      server.close();
      server.closeIdleConnections();
      lifecycleLog('info', 'draining', { openStreams: open.size, deadlineMs });
      if (open.size > 0) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await new Promise<void>((resolveIdle) => {
          idle = resolveIdle;
          timer = setTimeout(resolveIdle, deadlineMs);
        });
        clearTimeout(timer);
      }
      if (open.size > 0) {
        lifecycleLog('warn', 'drain deadline passed: ending open streams', { openStreams: open.size });
        shutdown.abort();
        // The error events are written; give them a moment to leave before the sockets go.
        let timer: ReturnType<typeof setTimeout> | undefined;
        await new Promise<void>((resolveIdle) => {
          idle = resolveIdle;
          timer = setTimeout(resolveIdle, 1000);
        });
        clearTimeout(timer);
      }
      await finish();
      lifecycleLog('info', 'stopped');
    })());
  return {
    url: `http://${urlHost}:${port}/`,
    port,
    providerLabel: options.overrides?.provider && typeof options.overrides.provider !== 'function'
      ? `${options.overrides.provider.name} ${options.overrides.provider.model}`
      : config.providerLabel,
    openStreams: () => open.size,
    drain,
    close: () => (stopping ??= finish()),
  };
}

const USAGE = `Usage: wave-server [--port N] [--host H]

Serves the wave-chat demo pages, the built bundles and the wave endpoint (/wave).
Configuration by environment: WAVE_PROVIDER (offline|openai|anthropic), WAVE_BASE_URL,
WAVE_API_KEY, WAVE_API_KEY_HEADER, WAVE_API_VERSION, WAVE_MODEL, WAVE_VOICE_MODEL,
WAVE_SITES, WAVE_ALLOWED_ORIGINS, WAVE_TRUST_PROXY, WAVE_REDIS_URL, WAVE_RATE_LIMIT, WAVE_DRAIN_MS,
PORT, HOST. On SIGTERM it stops accepting and lets open replies finish (WAVE_DRAIN_MS).`;

/**
 * The CLI (bin/wave-server.mjs): starts the server and prints where; on bad configuration prints
 * the variable at fault and sets exit code 2. Resolves with the running server, or undefined.
 *
 * @example
 * await main(process.argv.slice(2), process.env);
 */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<RunningServer | undefined> {
  let port: number | undefined;
  let host: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      return undefined;
    }
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const next = () => inline ?? argv[++i];
    if (flag === '--port') {
      const raw = next();
      port = Number(raw);
      if (raw === undefined || !/^\d+$/.test(raw) || port > 65535) {
        console.error(`wave-server: --port expects a port number, got "${raw ?? ''}"`);
        process.exitCode = 2;
        return undefined;
      }
    } else if (flag === '--host') {
      host = next();
    } else {
      console.error(`wave-server: unknown argument "${arg}"\n\n${USAGE}`);
      process.exitCode = 2;
      return undefined;
    }
  }
  let server: RunningServer;
  try {
    server = await startServer({ env, ...(port !== undefined ? { port } : {}), ...(host !== undefined ? { host } : {}) });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`wave-server: configuration error: ${error.message}`);
      process.exitCode = 2;
      return undefined;
    }
    const code = (error as { code?: unknown }).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      console.error(`wave-server: cannot listen on port ${port ?? env.PORT ?? 8787} (${String(code)}); set PORT or --port`);
      process.exitCode = 2;
      return undefined;
    }
    throw error;
  }
  const shownHost = /^(127\.0\.0\.1|localhost|0\.0\.0\.0|::1?|)$/.test(host ?? env.HOST ?? '127.0.0.1') ? 'localhost' : (host ?? env.HOST);
  console.log(`wave-chat demo: http://${shownHost}:${server.port}/`);
  console.log(`provider: ${server.providerLabel}`);
  process.once('SIGINT', () => void server.close().then(() => process.exit(0)));
  process.once('SIGTERM', () => void server.drain().then(() => process.exit(0)));
  return server;
}
