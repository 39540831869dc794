// Voice benchmarks: `node --import tsx test/bench/voice.bench.ts`. Prints figures; asserts nothing.
//  1. start() → the session's first frame at a local fake realtime server (broker + engine + ws).
//  2. main-thread cost of level() in Chromium at 60 calls/s on a real (fake-device) microphone.
//  3. cost of encoding one 100 ms microphone chunk (resample 48→24 kHz, PCM16, base64).
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { WebSocket, WebSocketServer } from 'ws';
import { createRealtimeBroker } from '../../src/server/voice-broker.js';
import { bytesToBase64, floatToPcm16, resample } from '../../src/voice/pcm.js';
import { createRealtimeEngine } from '../../src/voice/realtime-engine.js';
import type { WebSocketConstructorLike } from '../../src/voice/realtime-engine.js';
import { chromiumArgs, chromiumPath } from '../chromium.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

async function firstFrameLatency(runs: number): Promise<number[]> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'realtime' });
  await once(wss, 'listening');
  const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/v1/realtime?model=m`;
  let onFirst: () => void = () => {};
  wss.on('connection', (socket) => socket.once('message', () => onFirst()));
  const broker = createRealtimeBroker({ baseUrl: 'https://provider.invalid/v1', apiKey: 'sk', model: 'm', wsUrl: url, fetch: async () => Response.json({ value: 'ek', expires_at: 2e9 }) });
  const tools = Array.from({ length: 20 }, (_, i) => ({ name: `tool_${i}`, description: `Tool ${i}.`, parameters: { type: 'object', properties: { a: { type: 'string' } } }, confirm: false, cost: 0, tier3: false }));
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const engine = createRealtimeEngine({
      createSession: ({ tools: t, context, signal }) => broker.createSession({ v: 1, siteId: 's', conversationId: 'c', tools: t, context }, { id: 's' }, signal),
      WebSocketImpl: WebSocket as unknown as WebSocketConstructorLike,
      audio: null,
    });
    const first = new Promise<void>((resolve) => (onFirst = resolve));
    const t0 = performance.now();
    await engine.start({ signal: new AbortController().signal, tools, context: JSON.stringify({ page: 'shop', items: 12 }), runTool: () => new Promise(() => {}), isConfirming: () => false, onState() {}, onTranscript() {}, onEnd() {} });
    await first;
    times.push(performance.now() - t0);
    engine.stop();
  }
  for (const c of wss.clients) c.terminate();
  await new Promise((r) => wss.close(r));
  return times;
}

async function levelCost(seconds: number): Promise<{ perCallUs: number; msPerSecond: number; calls: number }> {
  const bundle = await build({
    stdin: {
      contents: `
        import { createLevelMeter } from './src/voice/level-meter.ts';
        window.bench = async (seconds) => {
          const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
          const ctx = new AudioContext();
          await ctx.resume();
          const meter = createLevelMeter(ctx, ctx.createMediaStreamSource(stream));
          let spent = 0, calls = 0;
          await new Promise((resolve) => {
            const id = setInterval(() => {
              const t = performance.now(); meter.level(); spent += performance.now() - t; calls++;
              if (calls >= seconds * 60) { clearInterval(id); resolve(); }
            }, 1000 / 60);
          });
          meter.dispose(); await ctx.close();
          return { spent, calls };
        };`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    write: false,
  });
  const script = bundle.outputFiles[0]!.text;
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': req.url === '/b.js' ? 'text/javascript' : 'text/html' });
    res.end(req.url === '/b.js' ? script : '<!doctype html><script type="module" src="/b.js"></script>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const wav = fileURLToPath(new URL('../fixtures/audio/speech.wav', import.meta.url));
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [...chromiumArgs, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${wav}`, '--autoplay-policy=no-user-gesture-required'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.waitForFunction(() => 'bench' in window);
    const { spent, calls } = await page.evaluate((s) => (window as unknown as { bench(s: number): Promise<{ spent: number; calls: number }> }).bench(s), seconds);
    return { perCallUs: (spent / calls) * 1000, msPerSecond: spent / seconds, calls };
  } finally {
    await browser.close();
    server.close();
  }
}

function encodeCost(iterations: number): number {
  const chunk = new Float32Array(4800).map((_, i) => 0.3 * Math.sin(i / 7)); // 100 ms at 48 kHz
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) bytesToBase64(floatToPcm16(resample(chunk, 48000, 24000)));
  return ((performance.now() - t0) / iterations) * 1000;
}

const latencies = await firstFrameLatency(50);
console.log(`voice: start() → first frame at fake server (broker + ws, 20 tools), 50 runs: median ${quantile(latencies, 0.5).toFixed(2)} ms, p95 ${quantile(latencies, 0.95).toFixed(2)} ms`);
const level = await levelCost(3);
console.log(`voice: level() in Chromium at 60 calls/s: ${level.perCallUs.toFixed(1)} µs per call, ${level.msPerSecond.toFixed(3)} ms main thread per second (${level.calls} calls)`);
console.log(`voice: encode one 100 ms mic chunk (48→24 kHz, PCM16, base64) in Node: ${encodeCost(2000).toFixed(1)} µs`);
