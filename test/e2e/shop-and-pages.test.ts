/**
 * End to end: spend consent and the session grant on the shop, the built-in page tools on a
 * page with no page tools, and the whole widget under a strict CSP with Trusted Types.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startWaveServer, watchErrors, type RunningServer } from './harness.js';

let server: RunningServer;
let browser: Browser;
before(async () => {
  server = await startWaveServer({ env: { WAVE_OFFLINE_DELAY_MS: '0' } });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(page: Page, path: string, tools: number): Promise<void> {
  await page.goto(`${server.url}${path}`);
  await page.waitForFunction(
    (n) => {
      const w = (window as unknown as { VAWaveWidget?: { getHostToolSchemas(): unknown[] } }).VAWaveWidget;
      return !!w && w.getHostToolSchemas().length === n;
    },
    tools,
  );
  await page.locator('wave-chat [part~="launcher"]').click();
}

async function send(page: Page, text: string): Promise<void> {
  await page.locator('wave-chat [part~="input"]').fill(text);
  await page.locator('wave-chat [part~="input"]').press('Enter');
}

const balance = (page: Page) => page.evaluate('shop.balance') as Promise<number>;
const idle = (page: Page) => page.locator('wave-chat [part~="stop-button"]').waitFor({ state: 'detached', timeout: 15_000 });

describe('the shop: spend consent and the session grant', () => {
  it('asks before spending, then "Approve for this session" lets the next purchase run with a receipt and the pill', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await open(page, '/shop.html', 5);
    assert.equal(await balance(page), 500);

    await send(page, 'buy a cat sticker pack');
    const approve = page.locator('wave-chat [part~="approve-button"]');
    await approve.waitFor({ timeout: 15_000 });
    assert.equal(await balance(page), 500, 'nothing spent while the chip waits');
    await approve.click();
    await page.waitForFunction('shop.balance === 470');
    const pill = page.locator('wave-chat [part~="pill"]');
    await pill.filter({ hasText: /Spending approved · 30 cr · tap to stop/ }).waitFor({ timeout: 10_000 });
    await idle(page);

    // Under the grant: no confirmation, still a chip with a receipt.
    await send(page, 'buy a wave sticker pack');
    await page.waitForFunction('shop.balance === 440', undefined, { timeout: 15_000 });
    const last = page.locator('wave-chat [part~="chip"]').last();
    await last.filter({ hasText: /−30 cr/ }).waitFor({ timeout: 10_000 });
    await pill.filter({ hasText: /60 cr/ }).waitFor();
    await idle(page);

    // Tapping the pill revokes: the next purchase asks again.
    await pill.click();
    await pill.waitFor({ state: 'hidden' });
    await send(page, 'buy a cat sticker pack');
    await page.locator('wave-chat [part~="confirm-button"]').waitFor({ timeout: 15_000 });
    assert.equal(await balance(page), 440);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('a tier3 delete always asks, even under a grant, and offers no session approval', async () => {
    const page = await browser.newPage();
    await open(page, '/shop.html', 5);
    await send(page, 'buy a cat sticker pack');
    await page.locator('wave-chat [part~="approve-button"]').click({ timeout: 15_000 });
    await page.locator('wave-chat [part~="pill"]').waitFor({ timeout: 10_000 });
    await idle(page);
    await send(page, 'delete order o1');
    await page.locator('wave-chat [part~="confirm-button"]').waitFor({ timeout: 15_000 });
    assert.equal(await page.locator('wave-chat [part~="approve-button"]').count(), 0);
    await page.locator('wave-chat [part~="confirm-button"]').click();
    await page.waitForFunction("!shop.orders.some((o) => o.id === 'o1')");
    await page.close();
  });
});

describe('a page with no page tools', () => {
  it('offers the built-in tools and fills the contact form by its labels', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await open(page, '/contact.html', 6);
    const names = await page.evaluate(() =>
      (window as unknown as { VAWaveWidget: { getHostToolSchemas(): { name: string }[] } }).VAWaveWidget.getHostToolSchemas().map((s) => s.name),
    );
    assert.deepEqual([...names].sort(), ['click_element', 'fill_field', 'navigate', 'read_page', 'scroll_to', 'select_option']);
    await send(page, 'fill in the contact form with the name Ada Lovelace');
    await page.waitForFunction(() => (document.querySelector('input[name="name"]') as HTMLInputElement).value === 'Ada Lovelace', undefined, { timeout: 15_000 });
    await idle(page);
    // The widget's own UI never appears in what read_page returns.
    const outline = await page.evaluate(async () => {
      const w = (window as unknown as { VAWaveWidget: { callTool(n: string, a: object): Promise<{ outline: string }> } }).VAWaveWidget;
      return (await w.callTool('read_page', {})).outline;
    });
    assert.match(outline, /textbox "Your name" \[ref=e\d+\] value="Ada Lovelace"/);
    assert.doesNotMatch(outline, /Approve for this session|Send message to the assistant|Spending approved/);
    assert.deepEqual(errors, []);
    await page.close();
  });
});

describe('strict CSP with Trusted Types', () => {
  it('runs the reference example with validation and no policy violation', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await open(page, '/csp/strict.html', 3);
    await send(page, 'add a task for the run-of-show');
    // No string predicates here: the page's CSP forbids eval. The board view lists the tasks.
    await page.waitForFunction(() => document.querySelectorAll('#board-view li').length === 3, undefined, { timeout: 15_000 });
    assert.equal(await page.locator('#board-view ul[data-status="todo"] li').last().textContent(), 'Run-of-show');
    // Invalid arguments are caught by the validator even though eval is forbidden here.
    const invalid = await page.evaluate(async () => {
      const w = (window as unknown as { VAWaveWidget: { callTool(n: string, a: object): Promise<{ success: boolean; error?: string }> } }).VAWaveWidget;
      return w.callTool('add_task', { title: 42 });
    });
    assert.equal(invalid.success, false);
    assert.match(String(invalid.error), /Invalid arguments/);
    await idle(page);
    assert.deepEqual(await page.evaluate(() => (window as unknown as { cspViolations: unknown[] }).cspViolations), []);
    assert.deepEqual(errors, []);
    await page.close();
  });
});

describe('validator="ajv" from the CDN build', () => {
  it('loads the ajv chunk on first use and validates with it', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await open(page, '/task-board.html', 3);
    // A string, so the test's compiler adds no helpers to the page function.
    const outcome = (await page.evaluate(`(async () => {
      const el = document.createElement('wave-chat');
      el.setAttribute('validator', 'ajv');
      el.setAttribute('site-id', 'demo');
      document.body.append(el);
      el.registerTool('double', {
        parameters: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] },
        handler: ({ n }) => ({ n: n * 2 }),
      });
      const bad = await el.callTool('double', { n: 0 });
      const good = await el.callTool('double', { n: 4 });
      const chunks = performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /\\/cdn\\/ajv-/.test(n));
      return { bad, good, chunks };
    })()`)) as { bad: { success: boolean; error?: string }; good: { n: number }; chunks: string[] };
    assert.equal(outcome.good.n, 8);
    assert.equal(outcome.bad.success, false);
    assert.match(String(outcome.bad.error), /Invalid arguments: .*must be >= 1/);
    assert.equal(outcome.chunks.length, 1, 'the ajv chunk was loaded once');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
