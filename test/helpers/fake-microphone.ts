/**
 * Real-audio browser tests (Node): a page serving one esbuild-bundled entry, and headless
 * Chromium whose fake microphone plays a WAV from test/fixtures/audio. Per-launch flags are why
 * these run under node:test with playwright-core rather than in the test runner.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../chromium.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Path of an audio fixture, e.g. `audioFixture('speech.wav')`. */
export const audioFixture = (name: string): string => fileURLToPath(new URL(`../fixtures/audio/${name}`, import.meta.url));

/** Serves `/` with a module script bundled from `entry` (TypeScript, imports resolved from the repo root). */
export async function serveBundledPage(entry: string): Promise<{ origin: string; close(): Promise<void> }> {
  const bundle = await build({
    stdin: { contents: entry, resolveDir: root, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    target: 'es2022',
  });
  const script = bundle.outputFiles[0]!.text;
  const server = createServer((req, res) => {
    if (req.url === '/entry.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(script);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>audio</title><script type="module" src="/entry.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Headless Chromium whose microphone plays `wavPath`; playback needs no user gesture. */
export function launchWithMicrophone(wavPath: string): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      ...chromiumArgs,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${wavPath}`,
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}
