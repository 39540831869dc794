/**
 * Launcher first (issue 13): the CDN file is the one script a page loads before the widget is
 * usable; the page-tool API answers at once; what needs the conversation code or the panel waits
 * for its chunk, loaded on intent or first need; a chunk that fails to load is retried; the
 * embed works from another origin than the page. Built bundles, the real server, Chromium.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page, Route } from 'playwright-core';
import { launchBrowser, startWaveServer, watchErrors, type RunningServer } from './harness.js';

let server: RunningServer;
let browser: Browser;
/** A site on another origin (another port) whose page embeds the widget from the wave server. */
let site: Server;
let siteOrigin: string;
before(async () => {
  site = createServer((req, res) => {
    const found = req.url === '/cross.html';
    res.writeHead(found ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(found ? embedPage(server.url, `${server.url}/wave`) : 'Not found');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  // The wave server answers that site's origin (its endpoint is cross-origin too).
  server = await startWaveServer({ env: { WAVE_OFFLINE_DELAY_MS: '0', WAVE_ALLOWED_ORIGINS: siteOrigin } });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

/**
 * A shop page embedding the CDN script from `scriptOrigin`, with the seed's polling example: once
 * the widget is there it registers a tool, tries a bad one, reads the schemas and calls the tool.
 */
function embedPage(scriptOrigin: string, endpoint = '/wave'): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title><link rel="icon" href="data:,"></head>
<body><h1>Shop</h1>
<script async src="${scriptOrigin}/dist/wave-chat.js" data-site-id="demo" data-endpoint="${endpoint}"></script>
<script>
  window.cart = [];
  window.seen = {};
  function whenWidgetReady(callback) {
    const start = Date.now();
    (function poll() {
      const widget = window.VAWaveWidget;
      if (widget && typeof widget.registerTool === 'function') return callback(widget);
      if (Date.now() - start > 10000) return;
      setTimeout(poll, 100);
    })();
  }
  whenWidgetReady((widget) => {
    seen.good = widget.registerTool('add_item', {
      description: 'Add an item to the cart.',
      parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      handler: ({ name }) => { cart.push(name); return { added: name }; },
    });
    seen.bad = widget.registerTool('Bad Name!', { handler: () => 1 });
    seen.schemas = widget.getHostToolSchemas().map((s) => s.name);
    seen.state = widget.state.status;
    widget.callTool('add_item', { name: 'mug' }).then((r) => (seen.result = r), (e) => (seen.error = String(e && e.message)));
  });
</script></body></html>`;
}

/** Serves `html` at `url` from the test (the rest goes to the real server). */
async function openEmbed(page: Page, url: string, html: string): Promise<void> {
  await page.route(url, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('wave-chat-ready').length === 1);
}

/** The widget's scripts the page fetched (completed) before the ready mark. */
const scriptsBeforeReady = (page: Page) =>
  page.evaluate(() => {
    const ready = performance.getEntriesByName('wave-chat-ready')[0]!.startTime;
    return performance
      .getEntriesByType('resource')
      .filter((e) => /\/dist\/.*\.m?js(\?|$)/.test(e.name) && e.startTime < ready)
      .map((e) => new URL(e.name).pathname);
  });

describe('launcher first: one request to usable, the rest on intent or need', () => {
  it('the CDN file opens with V8\'s explicit compile hint, then "use strict", each once', () => {
    // The hint only counts as the script's first line: Chromium then compiles every function while
    // the file streams in, off the main thread (the classic script is otherwise read lazily).
    const code = readFileSync(new URL('../../dist/wave-chat.js', import.meta.url), 'utf8');
    assert.ok(code.startsWith('//# allFunctionsCalledOnLoad\n"use strict";\n'), code.slice(0, 80));
    assert.equal(code.split('allFunctionsCalledOnLoad').length, 2);
  });

  it('is usable after one script request; a callTool before the chunks arrive waits for them, then runs', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    const held: Route[] = [];
    let holding = true;
    await page.route('**/dist/cdn/**', (route) => (holding ? void held.push(route) : route.continue()));
    const firstChunk = page.waitForRequest((r) => /\/dist\/cdn\//.test(r.url()));
    try {
      await openEmbed(page, `${server.url}/embed.html`, embedPage(server.url));
      assert.deepEqual(await scriptsBeforeReady(page), ['/dist/wave-chat.js']);
      await page.waitForFunction(() => (window as unknown as { seen: { schemas?: string[] } }).seen.schemas !== undefined);
      await firstChunk;
      while (held.length === 0) await new Promise((resolve) => setImmediate(resolve));
      const seen = await page.evaluate(() => (window as unknown as { seen: Record<string, unknown> }).seen);
      // The page-tool API answered at once, with the same results as ever.
      assert.equal(seen.good, true);
      assert.equal(seen.bad, false);
      assert.deepEqual(seen.schemas, ['add_item']);
      assert.equal(seen.state, 'idle');
      // The call needs the conversation code: it asked for it, and waits.
      assert.ok(held.length > 0, 'the callTool asked for the conversation code');
      assert.ok(held.every((r) => /\/dist\/cdn\//.test(r.request().url())));
      assert.equal(seen.result, undefined);
      assert.deepEqual(await page.evaluate(() => (window as unknown as { cart: string[] }).cart), []);
      holding = false;
      for (const route of held.splice(0)) await route.continue();
      await page.waitForFunction(() => (window as unknown as { seen: { result?: unknown } }).seen.result !== undefined);
      assert.deepEqual(await page.evaluate(() => (window as unknown as { seen: { result: unknown } }).seen.result), { success: true, added: 'mug' });
      assert.deepEqual(await page.evaluate(() => (window as unknown as { cart: string[] }).cart), ['mug']);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('loads nothing more until the visitor shows intent; pointer over the launcher loads the panel, a press opens it', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    const chunks: string[] = [];
    page.on('request', (r) => {
      if (/\/dist\/cdn\//.test(r.url())) chunks.push(new URL(r.url()).pathname);
    });
    try {
      // The task board registers its tools and sets its context at start-up: no chunk for that.
      await page.goto(`${server.url}/task-board.html`);
      await page.waitForFunction(() => performance.getEntriesByName('wave-chat-ready').length === 1);
      await page.waitForFunction(() => {
        const w = (window as unknown as { VAWaveWidget?: { session: { registry: { size: number } } } }).VAWaveWidget;
        return !!w && w.session.registry.size > 0;
      });
      assert.deepEqual(await scriptsBeforeReady(page), ['/dist/wave-chat.js']);
      // The closed widget renders its launcher and nothing of the panel.
      const closed = await page.evaluate(() => {
        const root = document.querySelector('wave-chat')!.shadowRoot!;
        return { panelChildren: root.querySelector('[part~="panel"]')!.childElementCount, transcript: !!root.querySelector('wave-transcript') };
      });
      assert.deepEqual(closed, { panelChildren: 0, transcript: false });
      assert.deepEqual(chunks, [], 'no chunk before intent');
      const panelChunk = page.waitForRequest((r) => /\/dist\/cdn\/wave-panel-/.test(r.url()));
      await page.hover('wave-chat [part~="launcher"]');
      await panelChunk;
      await page.click('wave-chat [part~="launcher"]');
      await page.locator('wave-chat [part~="input"]').waitFor();
      await page.waitForFunction(() => {
        let a: Element | null = document.activeElement;
        while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
        return a?.tagName === 'TEXTAREA';
      });
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('a chunk that fails to load gives a clear error, and the next call loads it and works', async () => {
    const page = await browser.newPage();
    let failures = 0;
    await page.route('**/dist/cdn/session-code-*', (route) => (failures++ === 0 ? route.abort('internetdisconnected') : route.continue()));
    try {
      await openEmbed(page, `${server.url}/embed.html`, embedPage(server.url));
      await page.waitForFunction(() => {
        const seen = (window as unknown as { seen: { error?: string; result?: unknown } }).seen;
        return seen.error !== undefined || seen.result !== undefined;
      });
      const seen = await page.evaluate(() => (window as unknown as { seen: { error?: string; result?: unknown } }).seen);
      assert.match(seen.error ?? '', /could not load the conversation code.*tries again on the next call/);
      // The tool is still registered; the next call loads the code again and runs.
      const second = await page.evaluate(() => (window as unknown as { VAWaveWidget: { callTool(n: string, a: unknown): Promise<unknown> } }).VAWaveWidget.callTool('add_item', { name: 'pen' }));
      assert.deepEqual(second, { success: true, added: 'pen' });
      assert.deepEqual(await page.evaluate(() => (window as unknown as { cart: string[] }).cart), ['pen']);
    } finally {
      await page.close();
    }
  });

  it('a panel that fails to load says so with a retry, and the retry opens it', async () => {
    const page = await browser.newPage();
    let failures = 0;
    await page.route('**/dist/cdn/wave-panel-*', (route) => (failures++ === 0 ? route.abort('internetdisconnected') : route.continue()));
    try {
      await page.goto(`${server.url}/shop.html`);
      await page.waitForFunction(() => performance.getEntriesByName('wave-chat-ready').length === 1);
      await page.click('wave-chat [part~="launcher"]');
      const failed = page.locator('wave-chat [part~="load-failed"]');
      await failed.waitFor();
      assert.match((await failed.textContent()) ?? '', /could not load/);
      await page.click('wave-chat [part~="load-failed"] button');
      await page.locator('wave-chat [part~="input"]').waitFor();
      assert.equal(await failed.count(), 0);
      assert.equal(failures, 2);
    } finally {
      await page.close();
    }
  });

  it('works embedded from another origin than the page (the chunks come from the script\'s own origin)', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    const scriptOrigin = server.url;
    const pageUrl = `${siteOrigin}/cross.html`;
    try {
      await page.goto(pageUrl);
      await page.waitForFunction(() => performance.getEntriesByName('wave-chat-ready').length === 1);
      assert.deepEqual(await scriptsBeforeReady(page), ['/dist/wave-chat.js']);
      await page.waitForFunction(() => (window as unknown as { seen: { result?: unknown } }).seen.result !== undefined);
      assert.deepEqual(await page.evaluate(() => (window as unknown as { seen: { result: unknown } }).seen.result), { success: true, added: 'mug' });
      const origins = await page.evaluate(() =>
        performance.getEntriesByType('resource').filter((e) => /\/dist\/cdn\//.test(e.name)).map((e) => new URL(e.name).origin),
      );
      assert.ok(origins.length > 0 && origins.every((o) => o === new URL(scriptOrigin).origin), `chunks from the script's origin: ${origins.join(', ')}`);
      // The visitor opens it and talks to the wave server (cross-origin, allowed for this site).
      await page.click('wave-chat [part~="launcher"]');
      const input = page.locator('wave-chat [part~="input"]');
      await input.fill('hello');
      await input.press('Enter');
      await page.waitForFunction(() => {
        const transcript = document.querySelector('wave-chat')?.shadowRoot?.querySelector('wave-transcript');
        return (transcript?.shadowRoot?.querySelectorAll('[part~="assistant-message"]').length ?? 0) > 0;
      });
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});
