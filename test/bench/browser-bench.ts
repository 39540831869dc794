/**
 * Runs a browser-side benchmark in headless Chromium: esbuild bundles `entryFile` (whose
 * default export is an async function returning figures) and the page evaluates it.
 * Reusable by every area's bench: `const figures = await runInChromium('test/bench/x.page.ts')`.
 */
import { dirname, resolve } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../chromium.mjs';

/** Options for {@link runInChromium}. */
export interface RunInChromiumOptions {
  /** The page the bundle runs in (default: an empty HTML document). */
  html?: string;
  /** Aborts the run and closes the browser. */
  signal?: AbortSignal;
  /** Extra esbuild `define`s, e.g. `{ 'process.env.NODE_ENV': '"production"' }`. */
  define?: Record<string, string>;
  /** The export to run (default: the default export). */
  exportName?: string;
  /** CPU slowdown through CDP (`Emulation.setCPUThrottlingRate`), e.g. 4 for a mid-range phone. */
  cpuSlowdown?: number;
}

/**
 * What a bench page may call to read Blink's own counters (CDP `Performance.getMetrics`: e.g.
 * `LayoutDuration`, `RecalcStyleDuration` in seconds, `LayoutCount`), for work the page's own
 * timers cannot see (the style, layout and paint of each frame). Absent outside `runInChromium`.
 *
 * @example
 * const before = await globalThis[BENCH_METRICS]?.();
 */
export const BENCH_METRICS = '__waveBenchMetrics';

const GLOBAL = '__waveBenchRun';

/**
 * Bundles `entryFile` for the browser and returns what its default export resolves to.
 * The value must survive structured cloning (numbers, strings, plain objects…).
 *
 * @example
 * const figures = await runInChromium('test/bench/core.page.ts');
 * console.log(figures); // { 'register 128 tools (ms, median of 20)': 1.2, … }
 */
export async function runInChromium(entryFile: string, options: RunInChromiumOptions = {}): Promise<unknown> {
  const entry = resolve(entryFile);
  const bundle = await build({
    stdin: {
      contents: `import { ${options.exportName ?? 'default'} as run } from ${JSON.stringify(entry)};\nglobalThis.${GLOBAL} = run;`,
      resolveDir: dirname(entry),
      sourcefile: 'bench-entry.js',
      loader: 'js',
    },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    define: options.define ?? {},
  });
  const code = bundle.outputFiles[0]!.text;
  options.signal?.throwIfAborted();
  const browser = await chromium.launch({
    executablePath: (chromiumPath as () => string)(),
    args: chromiumArgs as string[],
    headless: true,
  });
  const onAbort = () => void browser.close();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    if (options.cpuSlowdown && options.cpuSlowdown > 1) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: options.cpuSlowdown });
    }
    await cdp.send('Performance.enable');
    await page.exposeFunction(BENCH_METRICS, async () =>
      Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value])),
    );
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.setContent(options.html ?? '<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>');
    await page.addScriptTag({ content: code });
    if (errors.length > 0) throw new Error(`the bench bundle failed to load: ${errors.join('; ')}`);
    return await page.evaluate(
      (name) => (globalThis as unknown as Record<string, () => Promise<unknown>>)[name]!(),
      GLOBAL,
    );
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await browser.close();
  }
}

/** The median of a list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
