/**
 * Firefox ESR end to end: the task board demo through the CDN script, the real wave server
 * process and its offline model, driven by puppeteer-core over WebDriver BiDi (playwright-core
 * drives only its own patched Firefox builds).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { firefoxPath } from '../firefox.mjs';
import { startWaveServer, type RunningServer } from './harness.js';

let server: RunningServer;
let browser: Browser;

before(async () => {
  server = await startWaveServer();
  browser = await puppeteer.launch({ browser: 'firefox', executablePath: firefoxPath(), headless: true });
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Collects page errors and console errors so the test can assert the widget never crashed. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e instanceof Error ? e.message : String(e)}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return errors;
}

// `>>>` pierces the widget's shadow roots.
const part = (name: string) => `wave-chat >>> [part~="${name}"]`;
/** Polls in Node: the example's `board` is a script-scope const, which `waitForFunction`'s realm does not see. */
async function until(probe: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const boardTitles = (page: Page) => page.evaluate('board.map((t) => t.title)') as Promise<string[]>;

describe('Firefox: the task board demo', () => {
  it('adds the task, waits on the confirmation, and deletes after a real click', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/task-board.html`);
    await page.waitForFunction(() => {
      const w = (window as unknown as { VAWaveWidget?: { getHostToolSchemas(): unknown[] } }).VAWaveWidget;
      return !!w && w.getHostToolSchemas().length === 3;
    });
    await page.click(part('launcher'));
    await page.waitForSelector(part('input'), { visible: true });
    await page.type(part('input'), 'add a task for the run-of-show, then delete the draft email one');
    await page.keyboard.press('Enter');

    // Polled: puppeteer's waitForSelector watches the document's mutations, and a chip appearing
    // inside the widget's shadow roots is not one of them.
    await until(async () => (await page.$(part('confirm-button'))) !== null, 'the confirmation chip');
    const confirm = await page.$(part('confirm-button'));
    // add_task already ran; nothing deleted while the chip waits.
    assert.deepEqual(await boardTitles(page), ['Draft launch email', 'Book the venue', 'Run-of-show']);
    // A page script clicking Confirm does not confirm.
    await confirm!.evaluate((button) => (button as HTMLElement).click());
    assert.equal((await boardTitles(page)).length, 3);
    assert.ok(await page.$(part('confirm-button')), 'the scripted click left the confirmation waiting');

    await confirm!.click();
    await until(async () => (await boardTitles(page)).length === 2, 'the task deleted');
    assert.deepEqual(await boardTitles(page), ['Book the venue', 'Run-of-show']);
    // A string, so the test's compiler adds no helpers to the page function.
    await page.waitForFunction(
      `(() => {
        const texts = (root) => [...root.querySelectorAll('*')].flatMap((el) => [
          ...((el.getAttribute('part') || '').split(' ').includes('assistant-message') ? [el.textContent] : []),
          ...(el.shadowRoot ? texts(el.shadowRoot) : []),
        ]);
        return texts(document).some((t) => /Deleted “Draft launch email”/.test(t));
      })()`,
      { timeout: 15_000 },
    );
    assert.deepEqual(errors, []);
    await page.close();
  });
});
