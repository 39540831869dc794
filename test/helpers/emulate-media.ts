/**
 * Emulates `prefers-color-scheme` and `prefers-reduced-motion` in Chromium and Firefox alike
 * (the `wave-emulate-media` command of web-test-runner.config.mjs: CDP in Chromium, the
 * content preferences in Firefox), and waits until the page's media queries report it.
 * `null` returns a feature to the browser's own value.
 */
import { executeServerCommand } from '@web/test-runner-commands';
import { until } from './until.js';

export interface MediaFeatures {
  colorScheme?: 'light' | 'dark' | null;
  reducedMotion?: 'reduce' | 'no-preference' | null;
}

/** @example await emulateMedia({ colorScheme: 'dark' }); */
export async function emulateMedia(features: MediaFeatures): Promise<void> {
  await executeServerCommand('wave-emulate-media', features);
  const queries: string[] = [];
  if (features.colorScheme) queries.push(`(prefers-color-scheme: ${features.colorScheme})`);
  if (features.reducedMotion) queries.push(`(prefers-reduced-motion: ${features.reducedMotion})`);
  // Firefox applies a preference change on its next style flush: wait until it shows.
  await until(() => queries.every((q) => matchMedia(q).matches), `media emulation to take effect: ${queries.join(' and ')}`);
}
