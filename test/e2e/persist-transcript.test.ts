/**
 * End to end: a kept conversation continues. With `persist-transcript`, after a same-site
 * navigation the next request to the real wave server (offline model) carries the earlier
 * turns, within the history budget (oldest turns out first, kept tool results re-capped).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, startWaveServer, type RunningServer } from './harness.js';

/** The server's default site (its origins are the server's own). */
const SITE = 'demo';
const KEY = `wave-chat:transcript:${SITE}`;

interface Body {
  messages: Array<{ role: string; content: string; toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }> }>;
}

/** A page of the site (served on the real server's origin): the element with persist-transcript and one page tool. */
function sitePage(title: string, next: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="data:,"></head>
<body><h1>${title}</h1><a id="next" href="${next}">Next page</a>
<wave-chat site-id="${SITE}" endpoint="/wave" persist-transcript open></wave-chat>
<script type="module">
  import '/dist/cdn/wave-chat.mjs';
  await customElements.whenDefined('wave-chat');
  const chat = document.querySelector('wave-chat');
  window.tasks = [];
  chat.registerTool('add_task', {
    description: 'Add a new task to the board. Returns the created task.',
    parameters: { type: 'object', properties: { title: { type: 'string', description: 'Short task title' } }, required: ['title'] },
    handler: ({ title }) => { const task = { id: window.tasks.length + 1, title }; window.tasks.push(task); return task; },
  });
  window.pageReady = true;
</script></body></html>`;
}

let browser: Browser;
let server: RunningServer;
before(async () => {
  browser = await launchBrowser();
  server = await startWaveServer();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

async function newSite(): Promise<{ context: BrowserContext; page: Page; bodies: Body[] }> {
  const context = await browser.newContext();
  for (const name of ['a', 'b']) {
    await context.route(`${server.url}/persist-${name}.html`, (route) =>
      route.fulfill({ contentType: 'text/html', body: sitePage(`Page ${name.toUpperCase()}`, `/persist-${name === 'a' ? 'b' : 'a'}.html`) }),
    );
  }
  const page = await context.newPage();
  const bodies: Body[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/wave') bodies.push(request.postDataJSON() as Body);
  });
  return { context, page, bodies };
}

async function open(page: Page, path: string): Promise<void> {
  await page.goto(`${server.url}${path}`);
  await page.waitForFunction(() => (window as unknown as { pageReady?: boolean }).pageReady === true);
}

/** Sends a message and waits for the reply to finish (the send button is back). */
async function send(page: Page, text: string): Promise<void> {
  const replies = page.locator('wave-chat [part~="assistant-message"]');
  const before = await replies.count();
  await page.locator('wave-chat [part~="input"]').fill(text);
  await page.locator('wave-chat [part~="input"]').press('Enter');
  // The reply arrived (the offline model answers in text after any tool step) and the composer is ready.
  await page.waitForFunction(
    (n) => {
      const t = document.querySelector('wave-chat')?.shadowRoot?.querySelector('wave-transcript')?.shadowRoot;
      const rows = t?.querySelectorAll('[part~="assistant-message"]:not([data-streaming])') ?? [];
      return rows.length > n;
    },
    before,
    { timeout: 15_000 },
  );
  await page.locator('wave-chat [part~="send-button"]').waitFor({ timeout: 15_000 });
}

/** The rows persist-transcript keeps, read from IndexedDB (idb-keyval's database) in the page. */
function storedRows(page: Page): Promise<Array<Record<string, unknown>>> {
  return page.evaluate(
    (key) =>
      new Promise((resolve, reject) => {
        const req = indexedDB.open('keyval-store');
        req.onupgradeneeded = () => req.result.createObjectStore('keyval');
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const db = req.result;
          const get = db.transaction('keyval', 'readonly').objectStore('keyval').get(key);
          get.onsuccess = () => {
            db.close();
            resolve(Array.isArray(get.result) ? get.result : []);
          };
          get.onerror = () => reject(get.error);
        };
      }),
    KEY,
  );
}

function writeRows(page: Page, rows: unknown[]): Promise<void> {
  return page.evaluate(
    ([key, value]) =>
      new Promise<void>((resolve, reject) => {
        const req = indexedDB.open('keyval-store');
        req.onupgradeneeded = () => req.result.createObjectStore('keyval');
        req.onsuccess = () => {
          const db = req.result;
          const tx = db.transaction('keyval', 'readwrite');
          tx.objectStore('keyval').put(value, key);
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
        req.onerror = () => reject(req.error);
      }),
    [KEY, rows] as const,
  );
}

describe('persist-transcript continues the conversation', () => {
  it('after a same-site navigation the next request carries the earlier turns, tool call and result included', async () => {
    const { context, page, bodies } = await newSite();
    try {
      await open(page, '/persist-a.html');
      await send(page, 'add a task for the milk run');
      assert.deepEqual(await page.evaluate(() => (window as unknown as { tasks: unknown[] }).tasks.length), 1, 'the tool ran once');
      // Wait until the finished turn is kept (the store writes after each change); checked every
      // 50 ms, bounded only to fail here, with a message, rather than on the next page.
      const kept = async () => {
        const rows = await storedRows(page);
        return rows.some((r) => r.kind === 'tool' && typeof r.output === 'string') && rows.at(-1)?.role === 'assistant';
      };
      for (const deadline = Date.now() + 15_000; !(await kept()); await page.waitForTimeout(50)) {
        assert.ok(Date.now() < deadline, 'the finished turn (tool result and reply) was kept in IndexedDB');
      }
      const onFirstPage = bodies.length;
      assert.ok(onFirstPage >= 2, 'a tool step and its continuation went to the server');

      await page.locator('#next').click();
      await page.waitForURL(/persist-b\.html$/);
      await page.waitForFunction(() => (window as unknown as { pageReady?: boolean }).pageReady === true);
      // The earlier conversation is on screen.
      await page.waitForFunction(() => {
        const t = document.querySelector('wave-chat')?.shadowRoot?.querySelector('wave-transcript');
        return (t?.shadowRoot?.textContent ?? '').includes('milk run');
      });

      await send(page, 'add a task for eggs');
      const next = bodies[onFirstPage];
      assert.ok(next, 'the new message reached the server');
      const roles = next.messages.map((m) => m.role);
      assert.deepEqual(roles, ['user', 'assistant', 'tool', 'assistant', 'user'], `request carried ${JSON.stringify(next.messages)}`);
      assert.equal(next.messages[0]?.content, 'add a task for the milk run');
      assert.equal(next.messages[1]?.toolCalls?.[0]?.name, 'add_task');
      assert.match(next.messages[2]?.content ?? '', /"success":true/);
      assert.equal(next.messages[4]?.content, 'add a task for eggs');
      // The server accepted it and the model answered on the new page; the earlier task was not re-run.
      assert.deepEqual(await page.evaluate(() => (window as unknown as { tasks: Array<{ title: string }> }).tasks.length), 1);
    } finally {
      await context.close();
    }
  });

  it('a long kept conversation is cut to the budget, oldest turns first, kept results re-capped; the server accepts it', async () => {
    const { context, page, bodies } = await newSite();
    try {
      // Written from a page of the site without the widget: a live element on the page would own
      // the store and may save its own (empty) conversation over rows written behind its back.
      await page.goto(`${server.url}/wave/health`);
      // An earlier conversation of 150 turns of ~1,000 characters, with an oversized tool result in the newest.
      const rows: unknown[] = [];
      for (let i = 0; i < 150; i++) {
        rows.push({ kind: 'message', id: `u${i}`, role: 'user', text: `turn ${i} ${'w'.repeat(1000)}`, streaming: false });
        rows.push({ kind: 'message', id: `a${i}`, role: 'assistant', text: `reply ${i}`, streaming: false });
      }
      rows.push({ kind: 'message', id: 'u150', role: 'user', text: 'turn 150 with a tool', streaming: false });
      rows.push({
        kind: 'tool', id: 'call_1', name: 'add_task', status: 'succeeded', step: 's150', input: { title: 'Big' },
        output: JSON.stringify({ success: true, notes: 'n'.repeat(50_000) }),
      });
      await writeRows(page, rows);

      await open(page, '/persist-b.html');
      await page.waitForFunction(() => {
        const t = document.querySelector('wave-chat')?.shadowRoot?.querySelector('wave-transcript');
        return (t?.shadowRoot?.textContent ?? '').includes('turn 150 with a tool');
      });
      const before = bodies.length;
      await send(page, 'what now?');
      const next = bodies[before];
      assert.ok(next, 'the new message reached the server');
      const users = next.messages.filter((m) => m.role === 'user').map((m) => m.content.split(' ').slice(0, 2).join(' '));
      // The newest turns are kept and the oldest dropped, in order, ending with the new message.
      assert.equal(users.at(-1), 'what now?');
      assert.equal(users.at(-2), 'turn 150');
      assert.ok(!users.includes('turn 0'), 'the oldest turn is dropped');
      const kept = users.slice(0, -2).map((u) => Number(u.split(' ')[1]));
      assert.ok(kept.length > 10, `a good part of the conversation is kept (${kept.length} turns)`);
      assert.deepEqual(kept, Array.from({ length: kept.length }, (_, i) => 150 - kept.length + i), 'a contiguous run of the newest turns');
      assert.ok(JSON.stringify(next.messages).length <= 100_000, 'within the history budget');
      const tool = next.messages.find((m) => m.role === 'tool');
      assert.ok(tool && tool.content.length < 5_000, `the kept result was re-capped (${tool?.content.length})`);
      // The server answered it (no 4xx notice).
      const notices = await page.evaluate(() => {
        const t = document.querySelector('wave-chat')?.shadowRoot?.querySelector('wave-transcript');
        return t?.shadowRoot?.querySelectorAll('[part~="notice"]').length ?? -1;
      });
      assert.equal(notices, 0);
    } finally {
      await context.close();
    }
  });

  it('idb-keyval is not in the first chunk, and a page without persist-transcript never loads it', async () => {
    const dir = fileURLToPath(new URL('../../dist/cdn/', import.meta.url));
    assert.ok(!readFileSync(`${dir}../wave-chat.js`, 'utf8').includes('keyval-store'), 'the CDN file is free of idb-keyval');
    const chunk = readdirSync(dir).find((f) => f.startsWith('idb-transcript-store') && f.endsWith('.mjs'));
    assert.ok(chunk && readFileSync(`${dir}${chunk}`, 'utf8').includes('keyval-store'), 'idb-keyval sits in its own chunk');

    const context = await browser.newContext();
    const page = await context.newPage();
    const loaded: string[] = [];
    page.on('request', (request) => loaded.push(new URL(request.url()).pathname));
    try {
      await page.goto(`${server.url}/task-board.html`);
      await page.waitForFunction(() => (window as unknown as { VAWaveWidget?: { getHostToolSchemas(): unknown[] } }).VAWaveWidget?.getHostToolSchemas().length === 3);
      await page.locator('wave-chat [part~="launcher"]').click();
      await page.locator('wave-chat [part~="input"]').fill('what tasks are there?');
      await page.locator('wave-chat [part~="input"]').press('Enter');
      await page.locator('wave-chat [part~="send-button"]').waitFor({ timeout: 15_000 });
      assert.ok(loaded.some((p) => p === '/wave'), 'the chat was used');
      assert.ok(!loaded.some((p) => p.includes('idb-transcript-store')), `no store chunk: ${loaded.join(', ')}`);
    } finally {
      await context.close();
    }
  });
});
