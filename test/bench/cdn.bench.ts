/**
 * The CDN file's weight and start-up: sizes (raw, gzip, brotli) of what loads before the widget
 * is usable (the loader plus the chunks its entry imports statically) and of everything it may
 * load later; then the time from the script's load event to `window.VAWaveWidget` in headless
 * Chromium, served over loopback by the wave server. Run `npm run build` first (npm run bench does).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../chromium.mjs';
import { startServer } from '../../src/server/node.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

function sizes(files: string[]): { raw: number; gzip: number; brotli: number } {
  let raw = 0, gzip = 0, brotli = 0;
  for (const f of files) {
    const bytes = readFileSync(dist + f);
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
    brotli += brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return { raw, gzip, brotli };
}

/** The chunks an ES module pulls in by static `import … from`/`import "…"` (not `import()`). */
function staticGraph(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(dist + file, 'utf8');
    for (const m of code.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["'](\.\/[^"']+\.mjs)["']/g)) {
      visit('cdn/' + m[1]!.slice(2));
    }
  };
  visit(entry);
  return [...seen];
}

function row(label: string, s: { raw: number; gzip: number; brotli: number }) {
  console.log(`${label.padEnd(34)} raw ${kb(s.raw).padStart(9)}   gzip ${kb(s.gzip).padStart(8)}   brotli ${kb(s.brotli).padStart(8)}`);
}

const all = ['wave-chat.js', ...readdirSync(dist + 'cdn').filter((f) => f.endsWith('.mjs')).map((f) => 'cdn/' + f)];
const initial = ['wave-chat.js', ...staticGraph('cdn/wave-chat.mjs')];
console.log('CDN file and chunks (targets: before usable ≤ 45 KB gzip, everything ≤ 110 KB gzip)');
row('dist/wave-chat.js (loader)', sizes(['wave-chat.js']));
row('before the widget is usable', sizes(initial));
for (const f of all.filter((f) => !initial.includes(f))) row(`  later, on use: ${f.replace(/-[\w-]+\.mjs$/, '')}`, sizes([f]));
row('everything it may load', sizes(all));
// A page validates with one engine: the interpreter (default) or ajv (opt-in), never both.
const ajv = all.filter((f) => /\/ajv-/.test(f));
const interpreter = all.filter((f) => /\/json-schema-interpreter-/.test(f));
row('the most one page loads (default)', sizes(all.filter((f) => !ajv.includes(f))));
row('the most one page loads (ajv)', sizes(all.filter((f) => !interpreter.includes(f))));

// Time from the script's load event to window.VAWaveWidget, median of 15 cold page loads.
const server = await startServer({ port: 0, host: '127.0.0.1', env: { ...process.env, WAVE_PROVIDER: 'offline' } });
const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs, headless: true });
const times: number[] = [];
try {
  for (let i = 0; i < 15; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/task-board.html`);
    // A string, so the bench's compiler adds no helpers to the page function.
    const ms = (await page.evaluate(`new Promise((resolve) => {
      const script = document.querySelector('script[src$="wave-chat.js"]');
      const entry = performance.getEntriesByName(script.src)[0];
      const loadedAt = entry ? entry.responseEnd : 0;
      const poll = () => {
        const ready = performance.getEntriesByName('wave-chat-ready')[0];
        if (ready) resolve(ready.startTime - loadedAt);
        else setTimeout(poll, 5);
      };
      poll();
    })`)) as number;
    times.push(ms);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
times.sort((a, b) => a - b);
console.log(`script loaded → window.VAWaveWidget ready: median ${times[7]!.toFixed(1)} ms, worst ${times[14]!.toFixed(1)} ms (15 cold loads; target ≤ 100 ms)`);
