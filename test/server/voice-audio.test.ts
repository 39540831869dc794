// The level meter on real audio: Chromium's fake microphone plays a WAV (speech, then silence)
// into getUserMedia; the page meters it with createLevelMeter. Per-launch flags are why this is
// a playwright-core script test in Node rather than a wtr test.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

// test/chromium.mjs has no declaration file; a typed dynamic import keeps this file strict.
const chromiumModule: string = '../chromium.mjs';
const { chromiumArgs, chromiumPath } = (await import(chromiumModule)) as { chromiumArgs: string[]; chromiumPath(): string };

const root = fileURLToPath(new URL('../..', import.meta.url));
const wav = (name: string) => fileURLToPath(new URL(`../fixtures/audio/${name}`, import.meta.url));

let server: Server;
let origin = '';

before(async () => {
  const bundle = await build({
    stdin: {
      contents: `
        import { createLevelMeter } from './src/voice/level-meter.ts';
        window.sampleLevels = async (durationMs) => {
          const stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false } });
          const ctx = new AudioContext();
          await ctx.resume();
          const meter = createLevelMeter(ctx, ctx.createMediaStreamSource(stream));
          const levels = [];
          const start = performance.now();
          await new Promise((resolve) => {
            const tick = () => {
              levels.push(meter.level());
              if (performance.now() - start < durationMs) setTimeout(tick, 16); else resolve();
            };
            tick();
          });
          meter.dispose();
          const afterDispose = meter.level();
          stream.getTracks().forEach((t) => t.stop());
          await ctx.close();
          return { levels, afterDispose };
        };`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    write: false,
    target: 'es2022',
  });
  const script = bundle.outputFiles[0]!.text;
  server = createServer((req, res) => {
    if (req.url === '/meter.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(script);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>meter</title><script type="module" src="/meter.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Launches Chromium with `file` as the microphone and samples level() for `ms`. */
async function levelsFor(file: string, ms: number): Promise<{ levels: number[]; afterDispose: number }> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [
      ...chromiumArgs,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${file}`,
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => 'sampleLevels' in window);
    return await page.evaluate((d) => (window as unknown as { sampleLevels(d: number): Promise<{ levels: number[]; afterDispose: number }> }).sampleLevels(d), ms);
  } finally {
    await browser.close();
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('createLevelMeter on real audio (Chromium fake microphone)', () => {
  it('rises while the microphone carries speech', async () => {
    const { levels, afterDispose } = await levelsFor(wav('speech.wav'), 2000);
    assert.ok(levels.length > 30, `sampled ${levels.length} times`);
    assert.ok(levels.every((l) => l >= 0 && l <= 1), 'levels stay within 0..1');
    const peak = Math.max(...levels);
    assert.ok(peak > 0.5, `peak level during speech was ${peak.toFixed(3)}`);
    assert.ok(mean(levels) > 0.25, `mean level during speech was ${mean(levels).toFixed(3)}`);
    // Speech has gaps between words: the wave follows them rather than sitting at the top.
    assert.ok(Math.min(...levels.slice(10)) < peak - 0.2, 'the level falls between words');
    assert.equal(afterDispose, 0);
  });

  it('rests in silence', async () => {
    const { levels } = await levelsFor(wav('silence.wav'), 1000);
    assert.ok(levels.length > 15);
    const peak = Math.max(...levels);
    assert.ok(peak < 0.05, `peak level in silence was ${peak.toFixed(3)}`);
  });
});
