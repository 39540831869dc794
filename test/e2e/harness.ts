/**
 * End-to-end harness: the real `npm start` server process (built bundles, offline model) and
 * headless Chromium driven by playwright-core.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../chromium.mjs';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface RunningServer {
  url: string;
  port: number;
  process: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** Starts `node bin/wave-server.mjs` (what `npm start` runs after building) and waits for its URL. */
export async function startWaveServer(options: { port?: number; env?: Record<string, string> } = {}): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, ['bin/wave-server.mjs'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = `http://localhost:${port}`;
  // Ready when the process prints its URL (it listens before printing): no polling, no sleeps.
  await new Promise<void>((resolve, reject) => {
    const guard = setTimeout(() => finish(new Error(`wave server did not start:\n${output}`)), 20_000);
    const onData = (d: Buffer): void => {
      output += d.toString();
      if (output.includes('wave-chat demo: http://')) finish();
    };
    const onExit = (code: number | null): void => finish(new Error(`wave server exited (${String(code)}):\n${output}`));
    function finish(error?: Error): void {
      clearTimeout(guard);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', onExit);
  });
  return {
    url,
    port,
    process: child,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: [...chromiumArgs, ...extraArgs], headless: true });
}

/** Collects page errors and console errors so a test can assert the widget never crashed. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return errors;
}

/** A locator's text, rendered or not (off-screen transcript rows skip rendering, so innerText can be empty). */
export async function textOf(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}
