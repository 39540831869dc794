/**
 * End to end: Stop in the middle of a streamed reply, and the wave server going down and
 * coming back (a clear message, then a retry that does not run a completed tool again).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { freePort, launchBrowser, startWaveServer, textOf } from './harness.js';

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

async function openBoard(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/task-board.html`);
  await page.waitForFunction(() => (window as unknown as { VAWaveWidget?: { getHostToolSchemas(): unknown[] } }).VAWaveWidget?.getHostToolSchemas().length === 3);
  await page.locator('wave-chat [part~="launcher"]').click();
}

async function send(page: Page, text: string): Promise<void> {
  await page.locator('wave-chat [part~="input"]').fill(text);
  await page.locator('wave-chat [part~="input"]').press('Enter');
}

describe('resilience', () => {
  it('Stop ends a streaming reply: the text stops growing and the composer is ready again', async () => {
    // A slow offline model: one word every 300 ms, so the reply is still streaming when Stop is pressed.
    const server = await startWaveServer({ env: { WAVE_OFFLINE_DELAY_MS: '300' } });
    const page = await browser.newPage();
    try {
      await openBoard(page, server.url);
      await send(page, 'what tasks are there?');
      const stop = page.locator('wave-chat [part~="stop-button"]');
      await stop.waitFor({ timeout: 10_000 });
      // The first reply of a fresh conversation (a locator is lazy: `.last()` would move on).
      const reply = page.locator('wave-chat [part~="assistant-message"]').first();
      // Stop once some words have arrived (a state, not a timer).
      await reply.filter({ hasText: /\S+\s+\S+/ }).waitFor({ timeout: 10_000 });
      await stop.click();
      await page.locator('wave-chat [part~="stop-button"]').waitFor({ state: 'detached', timeout: 5_000 });
      // The stopped reply shows what arrived before Stop, marked as stopped: read it then.
      await reply.locator('[part~="stopped-marker"]').waitFor({ timeout: 5_000 });
      const atStop = await textOf(reply);
      assert.ok(!/Book the venue/.test(atStop), 'stopped before the reply was complete');
      // The same question again streams the same reply at the same pace: when it has finished,
      // the stopped one would have finished too had it not been stopped.
      await send(page, 'what tasks are there?');
      const second = page.locator('wave-chat [part~="assistant-message"]').nth(1);
      await second.filter({ hasText: /Book the venue/ }).waitFor({ timeout: 30_000 });
      assert.equal(await textOf(reply), atStop, 'no more text arrived after Stop');
    } finally {
      await page.close();
      await server.stop();
    }
  });

  it('the server down shows a clear error with Retry; back up, Retry answers without re-running a completed tool', async () => {
    const port = await freePort();
    let server = await startWaveServer({ port });
    const page = await browser.newPage();
    try {
      await openBoard(page, server.url);
      // Count add_task runs on the page itself.
      await page.evaluate(() => {
        const w = (window as unknown as { VAWaveWidget: { addEventListener(t: string, f: (e: CustomEvent) => void): void } }).VAWaveWidget;
        (window as unknown as { runs: number }).runs = 0;
        w.addEventListener('wave-tool-call-started', () => ((window as unknown as { runs: number }).runs += 1));
      });
      await send(page, 'add a task for the catering order');
      await page.waitForFunction('board.length === 3', undefined, { timeout: 15_000 });
      await page.locator('wave-chat [part~="assistant-message"]').filter({ hasText: /catering/i }).waitFor({ timeout: 15_000 });
      await page.locator('wave-chat [part~="stop-button"]').waitFor({ state: 'detached', timeout: 15_000 });

      await server.stop();
      await send(page, 'add a task for the thank-you notes');
      const retry = page.locator('wave-chat [part~="retry-button"]');
      await retry.waitFor({ timeout: 15_000 });
      const notice = await textOf(page.locator('wave-chat [part~="notice"]').last());
      assert.match(notice, /reach|connection|unavailable/i, `notice: ${notice}`);

      server = await startWaveServer({ port });
      await retry.click();
      await page.waitForFunction('board.length === 4', undefined, { timeout: 15_000 });
      await page.locator('wave-chat [part~="assistant-message"]').filter({ hasText: /thank-you notes/i }).waitFor({ timeout: 15_000 });
      const titles = (await page.evaluate('board.map((t) => t.title)')) as string[];
      assert.equal(titles.filter((t) => /catering/i.test(t)).length, 1, 'the completed add_task did not run again');
      assert.equal(await page.evaluate(() => (window as unknown as { runs: number }).runs), 2);
    } finally {
      await page.close();
      await server.stop();
    }
  });
});
