/**
 * End to end, several tabs (SPEC §13): the kept conversation open in several tabs of one site
 * (one browser context, the real wave server and its offline model, the built CDN bundle). A
 * tool call goes to the most recently active tab that has the tool, its consent chip is shown
 * there (the panel opens for it), and the result comes back into the conversation; with no tab
 * offering the tool the model is told it is not available on this page; a tab closed mid-call
 * is reported to the model and the turn ends.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, startWaveServer, textOf, watchErrors, type RunningServer } from './harness.js';

/** The server's default site (its origins are the server's own). */
const SITE = 'demo';
const CHANNEL = `wave-chat:tabs:wave-chat:transcript:${SITE}`;

interface Body {
  tools?: Array<{ name: string }>;
  messages: Array<{ role: string; content: unknown }>;
}

/**
 * A page of the site with the kept conversation on. `tool`: it registers `add_task`, which
 * asks for confirmation. `open`: the panel starts open (the tab the visitor types in).
 * Each page also listens on the tabs' channel, to know when the others' announcements arrived.
 */
function sitePage(title: string, options: { tool: boolean; open: boolean }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="data:,"></head>
<body style="min-height: 100vh"><h1>${title}</h1>
<wave-chat site-id="${SITE}" endpoint="/wave" persist-transcript ${options.open ? 'open' : ''}></wave-chat>
<script type="module">
  window.seen = {};
  new BroadcastChannel(${JSON.stringify(CHANNEL)}).onmessage = (e) => {
    if (e.data && e.data.kind === 'state') window.seen[e.data.title] = { activeAt: e.data.activeAt, tools: e.data.tools.map((t) => t.name) };
  };
  import '/dist/cdn/wave-chat.mjs';
  await customElements.whenDefined('wave-chat');
  const chat = document.querySelector('wave-chat');
  window.tasks = [];
  ${
    options.tool
      ? `chat.registerTool('add_task', {
    description: 'Add a new task to the board. Returns the created task.',
    confirm: true,
    parameters: { type: 'object', properties: { title: { type: 'string', description: 'Short task title' } }, required: ['title'] },
    handler: ({ title }) => { const task = { id: window.tasks.length + 1, title }; window.tasks.push(task); return task; },
  });`
      : ''
  }
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

interface Site {
  context: BrowserContext;
  open(title: string, options: { tool: boolean; open: boolean }): Promise<Page>;
}

async function newSite(): Promise<Site> {
  const context = await browser.newContext();
  const pages = new Map<string, { tool: boolean; open: boolean }>();
  await context.route(`${server.url}/tabs/**`, (route) => {
    const title = decodeURIComponent(new URL(route.request().url()).pathname.slice('/tabs/'.length));
    const options = pages.get(title);
    if (!options) return route.fulfill({ status: 404, body: 'no such page' });
    return route.fulfill({ contentType: 'text/html', body: sitePage(title, options) });
  });
  return {
    context,
    async open(title, options) {
      pages.set(title, options);
      const page = await context.newPage();
      await page.goto(`${server.url}/tabs/${encodeURIComponent(title)}`);
      await page.waitForFunction(() => (window as unknown as { pageReady?: boolean }).pageReady === true);
      return page;
    },
  };
}

/** The visitor's own click in a tab's page (a trusted pointer event: the tab becomes active). */
async function useTab(page: Page): Promise<void> {
  await page.bringToFront();
  await page.mouse.click(5, 5);
}

/** Waits until `page` has heard the tab `title` announce activity after `after` and (not) the tool. */
async function seen(page: Page, title: string, check: { after?: number; tool?: boolean }): Promise<void> {
  await page.waitForFunction(
    ({ t, after, tool }) => {
      const s = (window as unknown as { seen: Record<string, { activeAt: number; tools: string[] }> }).seen[t];
      if (!s) return false;
      if (after !== undefined && !(s.activeAt > after)) return false;
      return tool === undefined || s.tools.includes('add_task') === tool;
    },
    { t: title, after: check.after, tool: check.tool },
    { timeout: 10_000 },
  );
}

function activeAt(page: Page, title: string): Promise<number> {
  return page.evaluate((t) => (window as unknown as { seen: Record<string, { activeAt: number }> }).seen[t]?.activeAt ?? 0, title);
}

/** Types a message in the tab's composer (the visitor's keys) without waiting for the reply. */
async function type(page: Page, text: string): Promise<void> {
  await page.locator('wave-chat [part~="input"]').fill(text);
  await page.locator('wave-chat [part~="input"]').press('Enter');
}

/** Waits for the turn to end (a finished assistant reply, the Send button back) and returns the reply. */
async function reply(page: Page): Promise<string> {
  await page.waitForFunction(
    () => {
      const t = document.querySelector('wave-chat')?.shadowRoot?.querySelector('wave-transcript')?.shadowRoot;
      return (t?.querySelectorAll('[part~="assistant-message"]:not([data-streaming])').length ?? 0) > 0;
    },
    undefined,
    { timeout: 20_000 },
  );
  await page.locator('wave-chat [part~="send-button"]').waitFor({ timeout: 20_000 });
  return textOf(page.locator('wave-chat [part~="assistant-message"]').last());
}

function tasks(page: Page): Promise<Array<{ title: string }>> {
  return page.evaluate(() => (window as unknown as { tasks: Array<{ title: string }> }).tasks);
}

/** Waits for the tab's `count`-th finished reply (and the Send button back). */
async function replies(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (n) => {
      const t = document.querySelector('wave-chat')?.shadowRoot?.querySelector('wave-transcript')?.shadowRoot;
      return (t?.querySelectorAll('[part~="assistant-message"]:not([data-streaming])').length ?? 0) >= n;
    },
    count,
    { timeout: 20_000 },
  );
  await page.locator('wave-chat [part~="send-button"]').waitFor({ timeout: 20_000 });
}

/** The conversation as the tab shows it, in order: each message and chip as "part: text". */
function shown(page: Page): Promise<string[]> {
  // A string, so the test's compiler adds no helpers to the page's code.
  return page.evaluate(`(() => {
    const out = [];
    const walk = (root) => {
      for (const el of Array.from(root.querySelectorAll('*'))) {
        const parts = (el.getAttribute('part') || '').split(/\\s+/);
        const kind = ['user-message', 'assistant-message', 'chip'].find((p) => parts.includes(p));
        if (kind) out.push(kind + ': ' + (el.textContent || '').replace(/\\s+/g, ' ').trim());
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    return out;
  })()`);
}

describe('several tabs of one site (SPEC §13)', () => {
  it('a call goes to the most recently active tab that has the tool; its consent chip is shown there and the result comes back', async () => {
    const site = await newSite();
    try {
      const shop = await site.open('Shop', { tool: false, open: true });
      const boardB = await site.open('Board B', { tool: true, open: false });
      const boardC = await site.open('Board C', { tool: true, open: false });
      const errors = [shop, boardB, boardC].flatMap((p) => watchErrors(p));
      // The visitor uses C, then B: B is the most recently active tab with the tool.
      await useTab(boardC);
      await seen(shop, 'Board C', { after: 0 });
      const cAt = await activeAt(shop, 'Board C');
      await useTab(boardB);
      await seen(shop, 'Board B', { after: cAt });
      // Then writes in the shop, which has no such tool.
      const bodies: Body[] = [];
      shop.on('request', (r) => {
        if (r.method() === 'POST' && new URL(r.url()).pathname === '/wave') bodies.push(r.postDataJSON() as Body);
      });
      await shop.bringToFront();
      await type(shop, 'add a task for the milk run');

      // The consent chip is in B, whose panel opened for it (no invisible confirmation).
      const confirm = boardB.locator('wave-chat [part~="confirm-button"]');
      await confirm.waitFor({ timeout: 20_000 });
      assert.equal(await boardB.evaluate(() => (document.querySelector('wave-chat') as unknown as { open: boolean }).open), true, "B's panel opened on the chip");
      assert.equal(await boardC.locator('wave-chat [part~="chip"]').count(), 0, 'nothing asked in C');
      assert.equal(await textOf(boardB.locator('wave-chat [part~="chip-origin"]')), 'Asked from the tab “Shop”');
      // The shop's chip says where the visitor is asked, with no buttons of its own.
      const shopChip = shop.locator('wave-chat [part~="chip"]').last();
      await shopChip.waitFor();
      assert.match(await textOf(shopChip.locator('[part~="status"]')), /Confirm Add task .*Milk.* in the tab “Board B”/i);
      assert.equal(await shop.locator('wave-chat [part~="confirm-button"]').count(), 0);
      assert.deepEqual(
        bodies[0]?.tools?.map((t) => t.name).filter((n) => n === 'add_task'),
        ['add_task'],
        "the shop's model was offered the board's tool",
      );

      await boardB.bringToFront();
      await confirm.click();
      const text = await reply(shop);
      assert.deepEqual((await tasks(boardB)).map((t) => t.title.toLowerCase()), ['milk run']);
      assert.deepEqual(await tasks(boardC), []);
      assert.deepEqual(await tasks(shop), []);
      assert.match(text, /milk run/i, 'the reply tells what was done');
      // The result is in the conversation: the continuation carried it back to the model.
      const last = JSON.stringify(bodies.at(-1)?.messages ?? []);
      assert.match(last, /milk run/i);
      assert.match(last, /"success\\?":true/);
      assert.deepEqual(errors, []);
    } finally {
      await site.context.close();
    }
  });

  it('one kept conversation: turns from both tabs and a routed call all survive a navigation in either tab, in order', async () => {
    const site = await newSite();
    try {
      const shop = await site.open('Shop', { tool: false, open: true });
      const board = await site.open('Board', { tool: true, open: true });
      const errors = [shop, board].flatMap((p) => watchErrors(p));
      await useTab(board);
      await seen(shop, 'Board', { tool: true, after: 0 });
      // The shop's turn: its call goes to the board, confirmed there.
      await shop.bringToFront();
      await type(shop, 'add a task for the milk run');
      await board.bringToFront();
      await board.locator('wave-chat [part~="confirm-button"]').click({ timeout: 20_000 });
      await replies(shop, 1);
      // The board's own turn, after it (its call runs here).
      await type(board, 'add a task for the bakery');
      await board.locator('wave-chat [part~="confirm-button"]').click({ timeout: 20_000 });
      await replies(board, 1);
      assert.deepEqual((await tasks(board)).map((t) => t.title.toLowerCase()), ['milk run', 'bakery']);

      const expectWhole = (rows: string[], where: string): void => {
        assert.deepEqual(
          rows.map((r) => r.slice(0, r.indexOf(':'))),
          ['user-message', 'chip', 'assistant-message', 'user-message', 'chip', 'assistant-message'],
          `${where}: ${JSON.stringify(rows)}`,
        );
        assert.match(rows[0]!, /milk run/);
        assert.match(rows[1]!, /Add task.*milk run/i);
        assert.match(rows[2]!, /milk run/i);
        assert.match(rows[3]!, /bakery/);
        assert.match(rows[4]!, /Add task.*bakery/i);
        assert.match(rows[5]!, /bakery/i);
      };
      // A navigation in the shop (it wrote first): the board's later turn is there, after its own.
      await shop.reload();
      await shop.waitForFunction(() => (window as unknown as { pageReady?: boolean }).pageReady === true);
      await shop.waitForFunction(() => document.querySelector('wave-chat')?.shadowRoot?.querySelector('wave-transcript') !== null);
      await shop.locator('wave-chat [part~="chip"]').nth(1).waitFor({ timeout: 20_000 });
      expectWhole(await shown(shop), 'the shop after its navigation');
      // A navigation in the board (it ran the shop's call and wrote last): the shop's turn and its call are there, once.
      await board.reload();
      await board.waitForFunction(() => (window as unknown as { pageReady?: boolean }).pageReady === true);
      await board.locator('wave-chat [part~="chip"]').nth(1).waitFor({ timeout: 20_000 });
      expectWhole(await shown(board), 'the board after its navigation');
      assert.deepEqual(errors, []);
    } finally {
      await site.context.close();
    }
  });

  it('no open tab has the tool when the call comes: the model is told it is not available on this page, and says so', async () => {
    const site = await newSite();
    try {
      const shop = await site.open('Shop', { tool: false, open: true });
      const board = await site.open('Board', { tool: true, open: false });
      await seen(shop, 'Board', { tool: true });
      // The board drops its tool after the shop's request has gone out (it was offered), before the call comes back.
      let dropped = false;
      await shop.route(`${server.url}/wave`, async (route) => {
        if (route.request().method() === 'POST' && !dropped) {
          dropped = true;
          await board.evaluate(() => (document.querySelector('wave-chat') as unknown as { unregisterTool(n: string): boolean }).unregisterTool('add_task'));
          await seen(shop, 'Board', { tool: false });
        }
        await route.continue();
      });
      await type(shop, 'add a task for the milk run');
      const text = await reply(shop);
      assert.ok(dropped, 'the request went out while the board still had the tool');
      assert.match(text, /not available on this page/i);
      assert.match(await textOf(shop.locator('wave-chat [part~="chip"]').last()), /Add task.* is not available on this page/i);
      assert.deepEqual(await tasks(board), []);
      assert.equal(await board.locator('wave-chat [part~="chip"]').count(), 0);
    } finally {
      await site.context.close();
    }
  });

  it('the tab asked is closed mid-call: the model is told, the chip says so, and the turn ends', async () => {
    const site = await newSite();
    try {
      const shop = await site.open('Shop', { tool: false, open: true });
      const board = await site.open('Board', { tool: true, open: false });
      await seen(shop, 'Board', { tool: true });
      await type(shop, 'add a task for the milk run');
      await board.locator('wave-chat [part~="confirm-button"]').waitFor({ timeout: 20_000 });
      await board.close();
      const text = await reply(shop);
      assert.match(text, /closed or stopped answering/i);
      assert.match(text, /did not happen/i, 'it was still waiting for the visitor there, so it did not happen');
      assert.match(await textOf(shop.locator('wave-chat [part~="chip"]').last()), /did not finish: the tab “Board” closed or stopped answering/);
      // The conversation goes on.
      assert.equal(await shop.locator('wave-chat [part~="send-button"]').isVisible(), true);
    } finally {
      await site.context.close();
    }
  });
});
