/**
 * Browser side of `npm run bench -- markdown`: CommonMark conformance of the transcript's
 * renderer, and the cost of streaming one 12 KB reply in ~1,600 deltas through <wave-transcript>.
 */
import { render } from 'lit';
import { Lexer } from 'marked';
import { WaveTranscript } from '../../components/wave-transcript.js';
import { renderMarkdown } from '../../components/markdown.js';
import type { TranscriptItem } from '../../src/agent/types.js';
import examples from '../corpora/commonmark-spec/examples.json';
import { COMMONMARK_BASE, canonical, canonicalExpected, hasRawHtml, type CommonMarkExample } from '../helpers/commonmark.js';

// package.json's `sideEffects` lets the bundler drop a bare define import: define here.
if (!customElements.get('wave-transcript')) customElements.define('wave-transcript', WaveTranscript);

const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

/** Blink's own counters, when the page runs under `runInChromium` (see BENCH_METRICS there). */
const blinkMetrics = (): Promise<Record<string, number>> | undefined =>
  (globalThis as unknown as Record<string, (() => Promise<Record<string, number>>) | undefined>)['__waveBenchMetrics']?.();

function conformance(): Record<string, number | string> {
  const all = examples as CommonMarkExample[];
  const plain = all.filter((e) => !hasRawHtml(e));
  const options = { baseUrl: COMMONMARK_BASE, allowedImageOrigins: [new URL(COMMONMARK_BASE).origin] };
  const misses = plain.filter((e) => {
    const host = document.createElement('div');
    render(renderMarkdown(e.markdown, options), host);
    return canonical(host) !== canonicalExpected(e.html);
  });
  return {
    'CommonMark examples without raw HTML matched': `${plain.length - misses.length}/${plain.length} (${((1 - misses.length / plain.length) * 100).toFixed(1)} %)`,
    'CommonMark misses (example numbers)': misses.map((e) => e.number).join(', '),
  };
}

/** A ~12 KB reply of the kinds of blocks models write. */
function reply(): string {
  const parts: string[] = [];
  for (let i = 0; parts.join('\n\n').length < 12_000; i++) {
    parts.push(
      i % 5 === 0
        ? `## Step ${i}`
        : i % 5 === 1
          ? `Here is **item ${i}** with \`code\`, a [link](https://example.com/${i}) and some plain words to read through carefully.`
          : i % 5 === 2
            ? `- first point ${i}\n- second point with _emphasis_\n- third point`
            : i % 5 === 3
              ? '```js\nconst total = items.reduce((a, b) => a + b.price, 0);\nconsole.log(total);\n```'
              : `| name | price |\n|---|---|\n| mug ${i} | 12 cr |\n| pack | 30 cr |`,
    );
  }
  return parts.join('\n\n');
}

function deltas(text: string, count: number): string[] {
  const size = Math.ceil(text.length / count);
  const out: string[] = [];
  for (let end = size; end < text.length; end += size) out.push(text.slice(0, end));
  out.push(text);
  return out;
}

async function transcriptWith(text: string, streaming: boolean): Promise<WaveTranscript> {
  const el = document.createElement('wave-transcript') as WaveTranscript;
  el.style.cssText = 'display:block;height:600px;overflow:auto';
  el.items = [{ kind: 'message', id: 'r', role: 'assistant', text, streaming } as TranscriptItem];
  document.body.append(el);
  await el.updateComplete;
  return el;
}

/**
 * Main-thread time spent in the element's updates (lexing, rendering, committing to the DOM, and
 * any layout an update forces); the style and layout of the frames that follow are not in it.
 */
function timeUpdates(el: WaveTranscript): { total: () => number; count: () => number; worst: () => number; longestWait: () => number } {
  const target = el as unknown as { performUpdate(): void };
  const original = target.performUpdate;
  let total = 0;
  let count = 0;
  let worst = 0;
  let last = -1;
  let longestWait = 0;
  target.performUpdate = function (this: WaveTranscript) {
    const t0 = performance.now();
    if (last >= 0) longestWait = Math.max(longestWait, t0 - last);
    last = t0;
    original.call(this);
    const spent = performance.now() - t0;
    total += spent;
    worst = Math.max(worst, spent);
    count++;
  };
  return { total: () => total, count: () => count, worst: () => worst, longestWait: () => longestWait };
}

/** The streaming figures alone (the CDN bench shows them too). */
export async function streaming(): Promise<Record<string, number | string>> {
  await WaveTranscript.markdownReady();
  const text = reply();
  const steps = deltas(text, 1600);

  // Rendering the whole reply once, fresh (median of 5).
  const renderOnce = async (): Promise<number> => {
    const once: number[] = [];
    for (let i = 0; i < 5; i++) {
      const el = await transcriptWith('', false);
      const timer = timeUpdates(el);
      el.items = [{ kind: 'message', id: 'r', role: 'assistant', text, streaming: false }];
      await el.updateComplete;
      once.push(timer.total());
      el.remove();
    }
    once.sort((a, b) => a - b);
    return once[2]!;
  };
  const onceMs = await renderOnce();

  // One delta per frame: every delta is rendered (the most work streaming can cause).
  const paced = await transcriptWith('', true);
  const pacedTimer = timeUpdates(paced);
  const blinkBefore = await blinkMetrics();
  let worstFrame = 0;
  let last = await frame();
  for (const sofar of steps) {
    paced.items = [{ kind: 'message', id: 'r', role: 'assistant', text: sofar, streaming: true }];
    const now = await frame();
    worstFrame = Math.max(worstFrame, now - last);
    last = now;
  }
  await paced.updateComplete;
  const blinkAfter = await blinkMetrics();
  paced.remove();
  // The frames' own style and layout (not in the update figures above): Blink's counters over the
  // same frames; all of the page's, but the transcript is the only thing on it that changes.
  const blink: Record<string, number | string> = {};
  if (blinkBefore && blinkAfter) {
    const spent = (key: string) => (blinkAfter[key]! - blinkBefore[key]!) * 1000;
    blink['one delta per frame: the frames\' own style + layout, not in the total (ms)'] = +(spent('RecalcStyleDuration') + spent('LayoutDuration')).toFixed(1);
    blink['one delta per frame: of which style (ms) / style recalculations'] = `${spent('RecalcStyleDuration').toFixed(1)} / ${blinkAfter['RecalcStyleCount']! - blinkBefore['RecalcStyleCount']!}`;
    blink['one delta per frame: of which layout (ms) / layouts'] = `${spent('LayoutDuration').toFixed(1)} / ${blinkAfter['LayoutCount']! - blinkBefore['LayoutCount']!}`;
  }

  // A burst: deltas arrive faster than frames (each in its own task), as a fast stream does.
  const burst = await transcriptWith('', true);
  const burstTimer = timeUpdates(burst);
  const channel = new MessageChannel();
  const nextTask = () => new Promise<void>((resolve) => {
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
  for (const sofar of steps) {
    burst.items = [{ kind: 'message', id: 'r', role: 'assistant', text: sofar, streaming: true }];
    await nextTask();
  }
  burst.items = [{ kind: 'message', id: 'r', role: 'assistant', text, streaming: false }];
  await burst.updateComplete;
  burst.remove();

  // What re-lexing the whole message on every delta would cost (the old renderer), lexing alone.
  const t0 = performance.now();
  for (const sofar of steps) Lexer.lex(sofar, { gfm: true, breaks: true });
  const wholeLexMs = performance.now() - t0;

  // "Once" again with every path the stream took run many times since (optimised, in cache): the
  // stream's updates each run cold, so against this the same stream costs several times more.
  const onceAfter = await renderOnce();
  return {
    'reply size (chars)': text.length,
    deltas: steps.length,
    'render once (ms, median of 5)': +onceMs.toFixed(2),
    'one delta per frame: renders': pacedTimer.count(),
    'one delta per frame: total render work (ms)': +pacedTimer.total().toFixed(1),
    'one delta per frame: total ÷ once': +(pacedTimer.total() / onceMs).toFixed(2),
    'render once after the stream, code warm (ms, median of 5)': +onceAfter.toFixed(2),
    'one delta per frame: total ÷ once after the stream': +(pacedTimer.total() / onceAfter).toFixed(2),
    'one delta per frame: worst update (ms)': +pacedTimer.worst().toFixed(2),
    'one delta per frame: longest frame (ms)': +worstFrame.toFixed(1),
    // How long the visitor may see the reply stand still while its text arrives (every frame here).
    'one delta per frame: longest time between two updates (ms)': +pacedTimer.longestWait().toFixed(1),
    ...blink,
    'burst: renders for all deltas': burstTimer.count(),
    'burst: total render work (ms)': +burstTimer.total().toFixed(1),
    'burst: total ÷ once': +(burstTimer.total() / onceMs).toFixed(2),
    'lexing the whole message on every delta instead (ms, lexing alone)': +wholeLexMs.toFixed(1),
  };
}

export default async function run(): Promise<Record<string, number | string>> {
  return { ...conformance(), ...(await streaming()) };
}
