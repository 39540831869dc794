/**
 * The React demo page (demo/react.html, built by `npm run build`): a React 19 app in StrictMode
 * whose tools come from `useWaveTool`, against the real wave server and its offline model.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startWaveServer, watchErrors, type RunningServer } from './harness.js';

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

const items = (page: Page) => page.locator('#items li').allTextContents().then((t) => t.map((s) => s.trim()));

async function send(page: Page, text: string): Promise<void> {
  await page.locator('wave-chat [part~="input"]').fill(text);
  await page.locator('wave-chat [part~="input"]').press('Enter');
}

describe('the React demo', () => {
  it('registers its hooks’ tools once, adds through the model, and removes only after a real click', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/react.html`);
    const names = await page.waitForFunction(() => {
      const schemas = document.querySelector('wave-chat')?.getHostToolSchemas?.() ?? [];
      return schemas.length === 3 && schemas.map((s) => s.name).sort();
    });
    assert.deepEqual(await names.jsonValue(), ['add_item', 'pack_item', 'remove_item']);
    assert.deepEqual(await items(page), ['Passport', 'Charger']);

    await send(page, 'add sunscreen to the list');
    await page.locator('#items li', { hasText: /sunscreen/i }).waitFor({ timeout: 15_000 });
    // The model sees the new item in the page state (useWaveContext) on the next message.
    await page.locator('wave-chat [part~="stop-button"]').waitFor({ state: 'detached', timeout: 15_000 });
    await send(page, 'remove the charger');
    const confirm = page.locator('wave-chat [part~="confirm-button"]');
    await confirm.waitFor({ timeout: 15_000 });
    assert.equal((await items(page)).length, 3, 'nothing removed while the chip waits');
    await confirm.click();
    await page.waitForFunction(() => ![...document.querySelectorAll('#items li')].some((li) => /Charger/.test(li.textContent ?? '')));
    assert.deepEqual((await items(page)).map((t) => t.toLowerCase()), ['passport', 'sunscreen']);
    // The event prop logged the calls.
    assert.match((await page.locator('#log').textContent()) ?? '', /remove_item/);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
