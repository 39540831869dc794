/**
 * Core bench (registry, deferral, sanitizer, validator), measured in headless Chromium.
 * Run: node --import tsx test/bench/core.bench.ts
 */
import { fileURLToPath } from 'node:url';
import { runInChromium } from './browser-bench.js';

const figures = (await runInChromium(fileURLToPath(new URL('./core.page.ts', import.meta.url)))) as Record<
  string,
  number | string
>;
for (const [label, value] of Object.entries(figures)) console.log(`${label}: ${value}`);
