/**
 * The CDN file's weight and start-up: sizes (raw, gzip, brotli) of what loads before the widget
 * is usable (the loader plus the chunks its entry imports statically) and of everything it may
 * load later; then the time from the script's load event to `window.VAWaveWidget` in headless
 * Chromium, served over loopback by the wave server. Run `npm run build` first (npm run bench does).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { build } from 'esbuild';
import { chromium, type Page } from 'playwright-core';
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

function row(label: string, s: { raw: number; gzip: number; brotli: number }) {
  console.log(`${label.padEnd(34)} raw ${kb(s.raw).padStart(9)}   gzip ${kb(s.gzip).padStart(8)}   brotli ${kb(s.brotli).padStart(8)}`);
}

const all = ['wave-chat.js', ...readdirSync(dist + 'cdn').filter((f) => f.endsWith('.mjs') && f !== 'wave-chat.mjs').map((f) => 'cdn/' + f)];
// dist/wave-chat.js is one classic script (it imports nothing statically); cdn/wave-chat.mjs is a one-line module alias of it.
const initial = ['wave-chat.js'];
console.log('CDN file and chunks (targets: before usable ≤ 45 KB gzip, everything ≤ 110 KB gzip)');
row('before the widget is usable', sizes(initial));
for (const f of all.filter((f) => !initial.includes(f))) row(`  later, on use: ${f.replace(/-[\w-]+\.mjs$/, '')}`, sizes([f]));
row('everything it may load', sizes(all));
// A page validates with one engine: the interpreter (default) or ajv (opt-in), never both.
const ajv = all.filter((f) => /\/ajv-/.test(f));
const interpreter = all.filter((f) => /\/json-schema-interpreter-/.test(f));
row('the most one page loads (default)', sizes(all.filter((f) => !ajv.includes(f))));
row('the most one page loads (ajv)', sizes(all.filter((f) => !interpreter.includes(f))));

// The yardstick: a bare Lit element (a button), bundled here, served from the same origin.
const bare = await build({
  stdin: {
    contents: `import { LitElement, html } from 'lit';
class BareLit extends LitElement {
  render() { return html\`<button type="button">Chat</button>\`; }
  firstUpdated() { performance.mark('bare-ready'); }
}
customElements.define('bare-lit', BareLit);`,
    resolveDir: fileURLToPath(new URL('.', import.meta.url)),
    loader: 'js',
  },
  bundle: true,
  minify: true,
  format: 'esm',
  write: false,
});
const bareCode = bare.outputFiles[0]!.text;
const bareHtml = '<!doctype html><html><head><meta charset="utf-8"><title>bare</title></head><body><main><h1>Bare Lit</h1></main><bare-lit></bare-lit><script type="module" src="/bare-lit.mjs"></script></body></html>';
console.log(`bare Lit element (built by this bench)  gzip ${kb(gzipSync(bareCode, { level: 9 }).length).padStart(8)}`);

/** Code arrived (the last script response: the entry module) → the ready mark, in the page. */
const codeToUsable = (script: string, mark: string) => `new Promise((resolve) => {
  const poll = () => {
    const ready = performance.getEntriesByName(${JSON.stringify(mark)})[0];
    if (!ready) return void setTimeout(poll, 5);
    const arrived = performance.getEntriesByType('resource')
      .filter((e) => e.initiatorType === 'script' || e.name.endsWith('.mjs') || e.name.endsWith('.js'))
      .filter((e) => e.name.includes(${JSON.stringify(script)}))
      .reduce((m, e) => Math.max(m, e.responseEnd), 0);
    resolve(ready.startTime - arrived);
  };
  poll();
})`;

/** Pointer over the launcher (intent), then a press: pointerdown → the composer's textarea focused in an open panel, painted. */
async function panelOpenAfterIntent(page: Page, launcher: string, ready: string): Promise<number> {
  await page.waitForFunction(ready);
  await page.hover(launcher);
  await page.waitForTimeout(300); // the intent prefetch runs
  await page.evaluate(`window.__openMs = new Promise((resolve) => {
    addEventListener('pointerdown', () => {
      const t0 = performance.now();
      const deep = () => { let a = document.activeElement; while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement; return a; };
      const check = () => {
        const a = deep();
        if (a && a.tagName === 'TEXTAREA') requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
        else setTimeout(check, 1);
      };
      check();
    }, { capture: true, once: true });
  }); 0`);
  await page.click(launcher);
  return (await page.evaluate('window.__openMs')) as number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// Desktop profile (no throttling), interleaved: the widget and the bare element, load by load.
{
  const server = await startServer({ port: 0, host: '127.0.0.1', env: { ...process.env, WAVE_PROVIDER: 'offline' } });
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs, headless: true });
  const wave: number[] = [];
  const bareTimes: number[] = [];
  const wavePanel: number[] = [];
  const barePanel: number[] = [];
  try {
    for (let i = 0; i < 11; i++) {
      for (const which of ['wave', 'bare'] as const) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        await page.route('**/bare-lit.html', (r) => r.fulfill({ contentType: 'text/html', body: bareHtml }));
        await page.route('**/bare-lit.mjs', (r) => r.fulfill({ contentType: 'text/javascript', body: bareCode }));
        if (which === 'wave') {
          await page.goto(`${server.url}/task-board.html`);
          wave.push((await page.evaluate(codeToUsable('/wave-chat.js', 'wave-chat-ready'))) as number);
          wavePanel.push(await panelOpenAfterIntent(page, 'wave-chat [part~="launcher"]', `!!window.VAWaveWidget`));
        } else {
          await page.goto(`${server.url}/bare-lit.html`);
          bareTimes.push((await page.evaluate(codeToUsable('/bare-lit.mjs', 'bare-ready'))) as number);
          // The bare element has no panel: a press on its button, to a painted frame (the floor).
          await page.evaluate(`window.__openMs = new Promise((resolve) => addEventListener('pointerdown', () => { const t0 = performance.now(); requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0)); }, { capture: true, once: true })); 0`);
          await page.click('bare-lit button');
          barePanel.push((await page.evaluate('window.__openMs')) as number);
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const w = median(wave), b = median(bareTimes);
  console.log(`desktop, code arrived → usable: wave-chat median ${w.toFixed(1)} ms, bare Lit element ${b.toFixed(1)} ms (${(w / b).toFixed(2)}×; target ≤ 1.5×; 11 interleaved loads each)`);
  console.log(`desktop, press after intent → panel open, composer focused, painted: wave-chat median ${median(wavePanel).toFixed(1)} ms (target ≤ 100 ms); a bare element's press to paint ${median(barePanel).toFixed(1)} ms`);
}

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
