/**
 * Element rendering bench: a `<wave-chat>` with 500 transcript messages in headless Chromium.
 * Prints the longest long task (PerformanceObserver 'longtask') and the longest frame (rAF
 * deltas) for a bulk render, for streaming into the 500-message transcript, and for chips.
 * Target: no frame over 50 ms. Run: node --import tsx test/bench/elements.bench.ts
 */
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import { chromiumArgs, chromiumPath } from '../chromium.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

const entry = `
import './components/define.ts';
import { WaveChat } from './components/wave-chat.ts';
import { FakeSession, awaitingChip } from './test/components/fake-session.ts';

const session = new FakeSession();
WaveChat.createSession = () => session;
const chat = document.createElement('wave-chat');
chat.setAttribute('open', '');
chat.style.setProperty('--wave-panel-height', '700px');
document.body.append(chat);

const longTasks = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) longTasks.push(e.duration); })
  .observe({ type: 'longtask', buffered: true });

function frameRecorder() {
  const deltas = [];
  let last = performance.now();
  let on = true;
  const tick = (t) => { deltas.push(t - last); last = t; if (on) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  return () => { on = false; return deltas; };
}
const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
const md = (i) => i % 2
  ? 'Here is **answer ' + i + '** with a [link](https://example.com/' + i + ') and \`code\`:\\n\\n- one\\n- two\\n\\n| a | b |\\n|---|---|\\n| ' + i + ' | x |'
  : 'visitor question number ' + i;

async function scenario(name, body) {
  await frame();
  longTasks.length = 0;
  const stop = frameRecorder();
  const t0 = performance.now();
  await body();
  await chat.updateComplete;
  await frame(); await frame();
  const total = performance.now() - t0;
  const deltas = stop();
  const sorted = [...deltas].sort((a, b) => a - b);
  return { name, p95FrameMs: sorted[Math.floor(sorted.length * 0.95)] ?? 0, totalMs: total, longestFrameMs: Math.max(0, ...deltas), longestTaskMs: Math.max(0, ...longTasks), frames: deltas.length };
}

window.runBench = async () => {
  const results = [];
  const items = Array.from({ length: 500 }, (_, i) => ({ kind: 'message', id: 'm' + i, role: i % 2 ? 'assistant' : 'user', text: md(i), streaming: false }));
  const transcript = () => chat.shadowRoot.querySelector('wave-transcript');
  results.push(await scenario('bulk render of 500 messages (until all rows are in the DOM)', async () => {
    session.update({ items });
    await chat.updateComplete;
    await transcript().whenFullyRendered();
  }));
  results.push(await scenario('500 messages appended one per frame', async () => {
    session.update({ items: [] });
    await frame();
    for (let i = 0; i < 500; i++) { session.update({ items: items.slice(0, i + 1) }); await frame(); }
  }));
  results.push(await scenario('streaming 200 deltas into message 501', async () => {
    let text = '';
    for (let i = 0; i < 200; i++) {
      text += 'word' + i + (i % 20 === 19 ? '\\n\\n' : ' ');
      session.update({ items: [...items, { kind: 'message', id: 'live', role: 'assistant', text, streaming: true }] });
      await frame();
    }
  }));
  results.push(await scenario('50 chips updating (running → succeeded) after 500 messages', async () => {
    const chips = Array.from({ length: 50 }, (_, i) => ({ kind: 'tool', id: 't' + i, name: 'add', status: 'running', label: 'Adding…' }));
    session.update({ items: [...items, ...chips] });
    await frame();
    session.update({ items: [...items, ...chips.map((c) => ({ ...c, status: 'succeeded', label: 'Added', spent: 10 }))] });
    await frame();
    session.update({ items: [...items, awaitingChip('c1')] });
  }));
  return results;
};
window.benchReady = true;
`;

const bundle = await build({
  stdin: { contents: entry, resolveDir: root, loader: 'ts', sourcefile: 'bench-entry.ts' },
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  write: false,
  minify: true,
  tsconfig: `${root}tsconfig.json`,
  logLevel: 'error',
});
const code = bundle.outputFiles[0]!.text;

const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs, headless: true });
try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  page.on('pageerror', (e) => console.log('page error', e.message));
  await page.setContent('<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>');
  await page.addScriptTag({ content: code, type: 'module' });
  await page.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady === true);
  const results = (await page.evaluate(() => (window as unknown as { runBench: () => Promise<unknown> }).runBench())) as {
    name: string;
    totalMs: number;
    longestFrameMs: number;
    longestTaskMs: number;
    p95FrameMs: number;
    frames: number;
  }[];
  console.log(`bundle (elements + core, minified): ${(code.length / 1024).toFixed(1)} KiB`);
  for (const r of results) {
    console.log(
      `${r.name}: total ${r.totalMs.toFixed(1)} ms, longest frame ${r.longestFrameMs.toFixed(1)} ms, longest task ${r.longestTaskMs.toFixed(1)} ms (p95 frame ${r.p95FrameMs.toFixed(1)} ms) over ${r.frames} frames`,
    );
  }
  const worst = Math.max(...results.map((r) => Math.max(r.longestFrameMs, r.longestTaskMs)));
  console.log(`worst frame or task: ${worst.toFixed(1)} ms (target ≤ 50 ms)`);
} finally {
  await browser.close();
}
