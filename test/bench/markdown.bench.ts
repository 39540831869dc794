/**
 * `npm run bench -- markdown`: the transcript's Markdown in headless Chromium. Prints the share
 * of CommonMark spec examples (without raw HTML) rendered as the spec says, under the forgiving
 * comparison of test/helpers/commonmark.ts, and the cost of streaming a 12 KB reply in ~1,600
 * deltas against rendering it once (issue 13: total ≤ 3× once, no frame over 16 ms), on the
 * desktop profile and again with the CPU 4× slower (the CDN bench's mobile profile).
 */
import { runInChromium } from './browser-bench.js';

const figures = (await runInChromium('test/bench/markdown.page.ts')) as Record<string, number | string>;
for (const [name, value] of Object.entries(figures)) console.log(`${name}: ${value}`);
const mobile = (await runInChromium('test/bench/markdown.page.ts', { exportName: 'streaming', cpuSlowdown: 4 })) as Record<string, number | string>;
for (const [name, value] of Object.entries(mobile)) if (name.startsWith('one delta') || name.startsWith('render once')) console.log(`CPU 4× slower, ${name}: ${value}`);
