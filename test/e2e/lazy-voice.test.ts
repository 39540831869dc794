/**
 * End to end: voice is a plug-in loaded on first use. The CDN file carries none of its code; a
 * page that chats in text never requests it; starting voice loads it, and a failure to start
 * still reaches the visitor as a notice.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchBrowser, startWaveServer, type RunningServer } from './harness.js';

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

describe('voice loads on first use', () => {
  it('the CDN file has no voice plug-in code; it sits in its own chunk', () => {
    const dir = fileURLToPath(new URL('../../dist/cdn/', import.meta.url));
    const chunk = readdirSync(dir).find((f) => f.startsWith('voice-plugin') && f.endsWith('.mjs'));
    assert.ok(chunk, 'a voice-plugin chunk is built');
    // The spoken-consent desk's own words live in the plug-in's chunk, never in the first file.
    const marker = 'onUserUtterance';
    assert.ok(readFileSync(`${dir}${chunk}`, 'utf8').includes(marker), 'the plug-in chunk holds the voice wiring');
    assert.ok(!readFileSync(`${dir}../wave-chat.js`, 'utf8').includes(marker), 'the CDN file is free of the voice wiring');
  });

  it('a text conversation never requests it; starting voice does, and its failure is a notice', async () => {
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
      await page.locator('wave-chat [part~="assistant-message"]').first().waitFor({ timeout: 15_000 });
      assert.ok(loaded.includes('/wave'), 'the chat was used');
      assert.ok(!loaded.some((p) => p.includes('voice-plugin')), `no voice code for a text chat: ${loaded.join(', ')}`);

      // An engine that cannot start here (no speech service in a test browser, or a refused start).
      await page.evaluate(async () => {
        const chat = document.querySelector('wave-chat') as unknown as { startVoice(): Promise<void> };
        const ctor = customElements.get('wave-chat') as unknown as { createVoiceEngine: () => unknown };
        ctor.createVoiceEngine = () => null;
        await chat.startVoice();
      });
      assert.ok(loaded.some((p) => p.includes('voice-plugin')), `voice code requested on start: ${loaded.join(', ')}`);
      await page.locator('wave-chat [part~="notice"]').last().waitFor({ timeout: 10_000 });
      assert.match(await page.locator('wave-chat [part~="notice"]').last().innerText(), /Voice isn.t available in this browser/);
    } finally {
      await context.close();
    }
  });
});
