/**
 * Load bench (not a test): 1,000 concurrent streaming conversations on one Node wave server.
 *   node --import tsx test/bench/load.bench.ts   (or `npm run bench -- load`)
 *
 * The wave server runs in its own process (src/server/node.ts, the production entry) so its memory
 * is its own; this process plays 1,000 widgets and a slow fake OpenAI-compatible upstream (first
 * token after 500 ms, then one every 2 s for 30 s, so every stream is still open when the last one
 * opens). Loopback only; bounded: it stops by itself after
 * the conversations end or after 120 s, whichever comes first.
 *
 * The streams open over LOAD_RAMP_MS (default 5 s: 200 new conversations a second); LOAD_STREAMS
 * changes the count.
 *
 * Prints: server memory per open stream (heap and RSS, after GC), p50/p99 time to first byte
 * (the `meta` event) and to the first model token (minus the upstream's own 500 ms), errors.
 */
import { spawn } from 'node:child_process';
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const STREAMS = Number(process.env.LOAD_STREAMS ?? 1000);
const FIRST_TOKEN_MS = 500;
const TOKENS = 15;
const TOKEN_EVERY_MS = 2000;
const RAMP_MS = Number(process.env.LOAD_RAMP_MS ?? 5000);
const HARD_LIMIT_MS = 120_000;
const ORIGIN = 'https://load.example';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;

/** The slow upstream: every request gets a reply that trickles out over ~8.5 s. */
const timers = new Set<ReturnType<typeof setTimeout>>();
let upstreamOpen = 0;
let upstreamPeak = 0;
const upstream = createServer({ noDelay: true }, (req, res) => {
  req.resume();
  req.on('end', () => {
    upstreamOpen++;
    upstreamPeak = Math.max(upstreamPeak, upstreamOpen);
    res.on('close', () => upstreamOpen--);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.flushHeaders();
    let sent = 0;
    const next = () => {
      if (res.destroyed) return;
      if (sent === TOKENS) {
        res.end(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`);
        return;
      }
      res.write(chunk(`word${sent++} `));
      const t = setTimeout(() => (timers.delete(t), next()), TOKEN_EVERY_MS);
      timers.add(t);
    };
    const t = setTimeout(() => (timers.delete(t), next()), FIRST_TOKEN_MS);
    timers.add(t);
  });
});
upstream.maxConnections = STREAMS * 2;
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

/** The wave server process; answers `mem` on IPC with its memory after a full GC. */
const serverScript = `
const { startServer } = await import(${JSON.stringify(`${ROOT}src/server/node.ts`)});
const server = await startServer({ port: 0, env: process.env, overrides: { logger: { info() {}, warn() {}, error() {} } } });
process.on('message', (m) => {
  if (m === 'mem') { globalThis.gc(); globalThis.gc(); const u = process.memoryUsage(); const c = process.cpuUsage(); process.send({ heap: u.heapUsed, rss: u.rss, external: u.external, open: server.openStreams(), cpu: (c.user + c.system) / 1000 }); }
  if (m === 'stop') server.close().then(() => process.exit(0));
});
process.send({ port: server.port });
`;
const child = spawn(process.execPath, [...(process.env.LOAD_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.LOAD_PROFILE}`] : []), '--expose-gc', '--import', 'tsx', '--input-type=module', '-e', serverScript], {
  cwd: ROOT,
  env: {
    ...process.env,
    WAVE_PROVIDER: 'openai',
    WAVE_BASE_URL: upstreamUrl,
    WAVE_MODEL: 'slow-fake',
    WAVE_SITES: JSON.stringify([{ id: 'load', allowedOrigins: [ORIGIN] }]),
    // One client address (loopback) opens every stream: the per-client limit is off for the bench.
    WAVE_RATE_LIMIT: '0',
  },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const hardStop = setTimeout(() => {
  console.log(`stopped after the ${HARD_LIMIT_MS / 1000} s limit`);
  child.kill('SIGKILL');
  process.exit(1);
}, HARD_LIMIT_MS);

type Mem = { heap: number; rss: number; external: number; open: number; cpu: number };
const ask = <T>(message: string, pick: (m: unknown) => m is T): Promise<T> =>
  new Promise((resolve) => {
    const onMessage = (m: unknown) => {
      if (!pick(m)) return;
      child.off('message', onMessage);
      resolve(m);
    };
    child.on('message', onMessage);
    if (message) child.send(message);
  });
const isMem = (m: unknown): m is Mem => typeof m === 'object' && m !== null && 'heap' in m;
const { port } = await ask('', (m): m is { port: number } => typeof m === 'object' && m !== null && 'port' in m);

const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
const body = JSON.stringify({ v: 1, siteId: 'load', conversationId: 'c', messages: [{ role: 'user', content: 'Tell me about the mugs.' }], tools: [], context: null });

interface Result {
  ttfb: number;
  firstToken: number;
  ok: boolean;
  error?: string;
}

let open = 0;
let allOpen: () => void = () => undefined;
const allOpenPromise = new Promise<void>((resolve) => (allOpen = resolve));

function conversation(): Promise<Result> {
  return new Promise((resolve) => {
    const started = performance.now();
    let ttfb = -1;
    let firstToken = -1;
    let text = '';
    const req = httpRequest(
      { host: '127.0.0.1', port, path: '/wave', method: 'POST', agent, headers: { 'content-type': 'application/json', origin: ORIGIN, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (data: string) => {
          if (ttfb < 0) ttfb = performance.now() - started;
          text += data;
          if (firstToken < 0 && text.includes('"type":"text"')) {
            firstToken = performance.now() - started - FIRST_TOKEN_MS;
            if (++open === STREAMS) allOpen();
          }
        });
        res.on('end', () => {
          const ok = res.statusCode === 200 && text.includes('event: end') && !text.includes('event: error');
          resolve({ ttfb, firstToken, ok, ...(ok ? {} : { error: `${res.statusCode} ${text.slice(-200)}` }) });
        });
        res.on('error', (error) => resolve({ ttfb, firstToken, ok: false, error: error.message }));
      },
    );
    req.on('error', (error) => resolve({ ttfb, firstToken, ok: false, error: error.message }));
    req.end(body);
  });
}

// Warm up (JIT, module loading), then take the baseline.
await Promise.all(Array.from({ length: 5 }, () => conversation()));
const base = await ask('mem', isMem);

const runs: Promise<Result>[] = [];
for (let i = 0; i < STREAMS; i++) {
  runs.push(conversation());
  if (i % 10 === 9) await new Promise((r) => setTimeout(r, RAMP_MS / (STREAMS / 10)));
}
const anyDone = Promise.race(runs).then(() => 'a stream ended before all were open');
const reached = await Promise.race([allOpenPromise.then(() => 'open'), anyDone]);
const peak = await ask('mem', isMem);
const results = await Promise.all(runs);
const end = await ask('mem', isMem);
child.send('stop');
await new Promise<void>((resolve) => child.once('exit', () => resolve()));
clearTimeout(hardStop);
for (const t of timers) clearTimeout(t);
upstream.close();
agent.destroy();

const pct = (values: number[], p: number) => {
  const sorted = values.filter((v) => v >= 0).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const errors = results.filter((r) => !r.ok);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const kb = (bytes: number) => (bytes / 1024).toFixed(1);
console.log(`${STREAMS} concurrent streaming conversations opened over ${RAMP_MS / 1000} s, one Node wave server, slow fake upstream (${FIRST_TOKEN_MS} ms to first token, ${TOKENS} tokens over ${(TOKENS * TOKEN_EVERY_MS) / 1000} s)`);
console.log(`all open at once: ${reached === 'open' ? 'yes' : `no (${reached})`}; server open streams at the peak: ${peak.open}; upstream connections at the peak: ${upstreamPeak}`);
console.log(`server memory, ${base.open} → ${peak.open} open: heap ${mb(base.heap)} → ${mb(peak.heap)} MB, RSS ${mb(base.rss)} → ${mb(peak.rss)} MB`);
console.log(`memory per open stream: heap ${kb((peak.heap - base.heap) / Math.max(1, peak.open))} KB, heap+external ${kb((peak.heap + peak.external - base.heap - base.external) / Math.max(1, peak.open))} KB, RSS ${kb((peak.rss - base.rss) / Math.max(1, peak.open))} KB`);
console.log(`time to first byte (meta): p50 ${pct(results.map((r) => r.ttfb), 50).toFixed(1)} ms, p99 ${pct(results.map((r) => r.ttfb), 99).toFixed(1)} ms`);
const decile = Math.max(1, Math.floor(STREAMS / 10));
console.log(`time to first byte by opening order: first ${decile} p50 ${pct(results.slice(0, decile).map((r) => r.ttfb), 50).toFixed(1)} ms, last ${decile} p50 ${pct(results.slice(-decile).map((r) => r.ttfb), 50).toFixed(1)} ms`);
console.log(`time to first model token, less the upstream's ${FIRST_TOKEN_MS} ms: p50 ${pct(results.map((r) => r.firstToken), 50).toFixed(1)} ms, p99 ${pct(results.map((r) => r.firstToken), 99).toFixed(1)} ms`);
console.log(`server CPU per conversation (open, 15 tokens, end): ${((end.cpu - base.cpu) / STREAMS).toFixed(2)} ms; load average during the run: ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores`);
console.log(`errors: ${errors.length}${errors.length ? ` (first: ${errors[0]!.error})` : ''}`);
