// The level meter on real audio: Chromium's fake microphone plays a WAV (speech, then silence)
// into getUserMedia; the page meters it with createLevelMeter. Per-launch flags are why this is
// a playwright-core script test in Node rather than a wtr test.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { audioFixture as wav, launchWithMicrophone, serveBundledPage } from '../helpers/fake-microphone.js';

let page: { origin: string; close(): Promise<void> };

before(async () => {
  page = await serveBundledPage(`
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
        };`);
});

after(() => page.close());

/** Launches Chromium with `file` as the microphone and samples level() for `ms`. */
async function levelsFor(file: string, ms: number): Promise<{ levels: number[]; afterDispose: number }> {
  const browser = await launchWithMicrophone(file);
  try {
    const tab = await browser.newPage();
    await tab.goto(`${page.origin}/`);
    await tab.waitForFunction(() => 'sampleLevels' in window);
    return await tab.evaluate((d) => (window as unknown as { sampleLevels(d: number): Promise<{ levels: number[]; afterDispose: number }> }).sampleLevels(d), ms);
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
