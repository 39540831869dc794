import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { main, STRICT_CSP, startServer, type RunningServer } from '../../src/server/node.js';
import type { ModelProvider, ProviderEvent } from '../../src/server/providers/types.js';
import { captureLogger } from './helpers.js';

/** Yields one text delta, then waits for the test to release it: proves the first chunk was flushed. */
class GatedProvider implements ModelProvider {
  readonly name = 'gated';
  readonly model = 'gated-model';
  readonly offline = false;
  release: () => void = () => undefined;
  async *step(): AsyncGenerator<ProviderEvent> {
    const gate = new Promise<void>((resolve) => (this.release = resolve));
    yield { type: 'text', delta: 'one ' };
    await gate;
    yield { type: 'text', delta: 'two' };
    yield { type: 'end', reason: 'stop' };
  }
}
const gated = new GatedProvider();

/** A raw GET, so the path reaches the server exactly as written (fetch would normalise `..`). */
function rawGet(url: string, path: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('startServer (node:http)', () => {
  let dir: string;
  let server: RunningServer;
  const logger = captureLogger();

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wave-static-'));
    await mkdir(join(dir, 'demo', 'csp'), { recursive: true });
    await mkdir(join(dir, 'dist'));
    await writeFile(join(dir, 'demo', 'index.html'), '<!doctype html><title>demo</title>');
    await writeFile(join(dir, 'demo', 'csp', 'index.html'), '<!doctype html><title>csp</title>');
    await writeFile(join(dir, 'demo', 'app.css'), 'body{}');
    await writeFile(join(dir, 'demo', '.env'), 'SECRET=1');
    await writeFile(join(dir, 'dist', 'wave-chat.js'), 'console.log(1)');
    await writeFile(join(dir, 'secret.txt'), 'TOP-SECRET-FILE');
    await symlink(join(dir, 'secret.txt'), join(dir, 'demo', 'link.txt'));
    server = await startServer({
      port: 0,
      env: {},
      staticRoots: { '/': join(dir, 'demo'), '/dist/': join(dir, 'dist') },
      overrides: {
        logger,
        provider: gated,
      },
    });
  });

  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the demo at / and bundles at /dist/ with MIME types and no-cache', async () => {
    const page = await fetch(server.url);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(page.headers.get('cache-control'), 'no-cache');
    assert.equal(page.headers.get('content-security-policy'), null);
    assert.match(await page.text(), /<title>demo/);
    const bundle = await fetch(new URL('/dist/wave-chat.js', server.url));
    assert.equal(bundle.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(await bundle.text(), 'console.log(1)');
    const css = await fetch(new URL('/app.css', server.url));
    assert.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');
  });

  it('adds the strict CSP under /csp/', async () => {
    const res = await fetch(new URL('/csp/', server.url));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-security-policy'), STRICT_CSP);
    assert.match(STRICT_CSP, /require-trusted-types-for 'script'; trusted-types wave-chat lit-html/);
  });

  it('refuses directory traversal, encoded or not, dotfiles and symlinks out of the root', async () => {
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/dist/..%2f..%2fsecret.txt',
      '/dist/%2e%2e/%2e%2e/secret.txt',
      '/..\\secret.txt',
      '/%00index.html',
      '/.env',
      '/link.txt',
    ]) {
      const res = await rawGet(server.url, path);
      assert.ok(res.status === 404 || res.status === 400, `${path} → ${res.status}`);
      assert.ok(!res.body.includes('TOP-SECRET-FILE') && !res.body.includes('SECRET=1'), path);
    }
  });

  it('streams the wave SSE reply through node:http, flushing each event as it comes', { timeout: 10_000 }, async () => {
    const res = await fetch(new URL('/wave', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url.replace(/\/$/, '') },
      body: JSON.stringify({ v: 1, siteId: 'demo', conversationId: 'c', messages: [{ role: 'user', content: 'hi' }], tools: [], context: null }),
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const reader = res.body!.getReader();
    const chunks: string[] = [];
    // The first delta must arrive while the provider is still held at its gate.
    while (!chunks.join('').includes('"delta":"one "')) chunks.push(new TextDecoder().decode((await reader.read()).value));
    gated.release();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(new TextDecoder().decode(value));
    }
    const text = chunks.join('');
    assert.match(text, /^event: meta\ndata: \{"type":"meta","model":"gated-model","offline":false\}\n\n/);
    assert.match(text, /event: text\ndata: \{"type":"text","delta":"one "\}\n\n/);
    assert.match(text, /event: end\ndata: \{"type":"end","reason":"stop"\}\n\n$/);
    // The demo site allows this very server's origin, learnt after binding port 0.
    assert.equal(res.headers.get('access-control-allow-origin'), server.url.replace(/\/$/, ''));
    assert.ok(logger.lines.some((l) => /"route":"step","site":"demo","status":200,.*"outcome":"end:stop"/.test(l)), logger.lines.join("\n"));
  });
});

describe('main (CLI)', () => {
  it('exits with code 2 and names the variable on bad configuration, never printing the key', async () => {
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: unknown) => errors.push(String(line));
    try {
      const result = await main([], { WAVE_PROVIDER: 'anthropic', WAVE_BASE_URL: 'not a url', WAVE_API_KEY: 'sk-SHOULD-NOT-PRINT' });
      assert.equal(result, undefined);
      assert.equal(process.exitCode, 2);
      assert.match(errors.join('\n'), /WAVE_BASE_URL/);
      assert.ok(!errors.join('\n').includes('sk-SHOULD-NOT-PRINT'));
    } finally {
      console.error = original;
      process.exitCode = 0;
    }
  });

  it('prints the demo URL and the offline provider label', async () => {
    const lines: string[] = [];
    const original = console.log;
    console.log = (line: unknown) => lines.push(String(line));
    let server: RunningServer | undefined;
    try {
      server = await main(['--port', '0'], {});
      assert.ok(server);
      assert.equal(lines[0], `wave-chat demo: http://localhost:${server.port}/`);
      assert.match(lines[1]!, /offline demo model/);
    } finally {
      console.log = original;
      await server?.close();
      process.removeAllListeners('SIGINT');
      process.removeAllListeners('SIGTERM');
    }
  });
});
