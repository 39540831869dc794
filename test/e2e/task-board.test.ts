/**
 * End to end on the demo task board (the page-tools reference example, unchanged), through
 * the CDN script, the real wave server process and its offline model, in headless Chromium.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startWaveServer, textOf, watchErrors, type RunningServer } from './harness.js';

let server: RunningServer;
let browser: Browser;

before(async () => {
  server = await startWaveServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

async function openBoard(page: Page): Promise<void> {
  await page.goto(`${server.url}/task-board.html`);
  await page.waitForFunction(() => {
    const w = (window as unknown as { VAWaveWidget?: { getHostToolSchemas(): unknown[] } }).VAWaveWidget;
    return !!w && w.getHostToolSchemas().length === 3;
  });
  await page.locator('wave-chat [part~="launcher"]').click();
}

async function send(page: Page, text: string): Promise<void> {
  await page.locator('wave-chat [part~="input"]').fill(text);
  await page.locator('wave-chat [part~="input"]').press('Enter');
}

// The example's `board` is a script-scope const, not a window property: evaluate by name.
const boardTitles = (page: Page) => page.evaluate('board.map((t) => t.title)') as Promise<string[]>;

describe('the task board demo', () => {
  it('publishes window.VAWaveWidget with the example\'s three tools and no built-in tools', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/task-board.html`);
    const names = await page.waitForFunction(() => {
      const w = (window as unknown as { VAWaveWidget?: { getHostToolSchemas(): { name: string }[] } }).VAWaveWidget;
      const schemas = w?.getHostToolSchemas() ?? [];
      return schemas.length === 3 && schemas.map((s) => s.name);
    });
    assert.deepEqual(await names.jsonValue(), ['get_tasks', 'add_task', 'delete_task']);
    assert.equal(await page.locator('wave-chat').count(), 1);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('adds the run-of-show task at once, stops on Confirm before deleting, and deletes after a real click', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await openBoard(page);
    await send(page, 'add a task for the run-of-show, then delete the draft email one');

    const confirm = page.locator('wave-chat [part~="confirm-button"]');
    await confirm.waitFor({ timeout: 15_000 });
    // add_task already ran; nothing deleted while the chip waits.
    assert.deepEqual(await boardTitles(page), ['Draft launch email', 'Book the venue', 'Run-of-show']);
    const chips = page.locator('wave-chat [part~="chip"]');
    assert.match(await textOf(chips.first()), /Added “Run-of-show”/);
    // The demo's confirmLabel getter names the task this call would delete.
    assert.match(await textOf(page.locator('wave-chat [part~="chip"]').last()), /Delete task “Draft launch email”\?/);
    // A tier3 chip never offers session approval.
    assert.equal(await page.locator('wave-chat [part~="approve-button"]').count(), 0);

    // A page script clicking Confirm does not confirm.
    // (A string, so the test's compiler adds no helpers to the page function.)
    await page.evaluate(`(() => {
      const find = (root) => {
        for (const el of root.querySelectorAll('*')) {
          if ((el.getAttribute('part') || '').split(' ').includes('confirm-button')) return el;
          const hit = el.shadowRoot && find(el.shadowRoot);
          if (hit) return hit;
        }
        return null;
      };
      find(document).click();
    })()`);
    // The scripted click was dispatched synchronously above: had it counted, the chip would be
    // settled by now. Round-trip through the page once more before looking.
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => resolve()))');
    assert.equal(await confirm.count(), 1, 'the scripted click left the confirmation waiting');
    assert.equal((await boardTitles(page)).length, 3);

    await confirm.click();
    await page.waitForFunction('board.length === 2');
    assert.deepEqual(await boardTitles(page), ['Book the venue', 'Run-of-show']);
    const reply = page.locator('wave-chat [part~="assistant-message"]').last();
    await reply.filter({ hasText: /Deleted/ }).waitFor({ timeout: 15_000 });
    await page.locator('wave-chat [part~="stop-button"]').waitFor({ state: 'detached', timeout: 15_000 });
    // A streaming reply renders at most once per frame: its last text may land a frame after Stop goes.
    await reply.filter({ hasText: /Deleted “Draft launch email”/ }).waitFor({ timeout: 15_000 });
    assert.match(await textOf(reply), /Deleted “Draft launch email”/);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('cancelling the delete keeps the task and the assistant says it was not done', async () => {
    const page = await browser.newPage();
    await openBoard(page);
    await send(page, 'delete the book the venue task');
    const cancel = page.locator('wave-chat [part~="cancel-button"]');
    await cancel.waitFor({ timeout: 15_000 });
    await cancel.click();
    await page.locator('wave-chat [part~="assistant-message"]').filter({ hasText: /cancel/i }).waitFor({ timeout: 15_000 });
    assert.deepEqual(await boardTitles(page), ['Draft launch email', 'Book the venue']);
    assert.match(await textOf(page.locator('wave-chat [part~="chip"]').last()), /Cancelled/i);
    await page.close();
  });
});
