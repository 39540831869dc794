/**
 * Scenario tables for the demo pages: one visitor phrasing per row, sent through the real
 * widget to the real wave server (offline model), with the tool calls it caused, the
 * confirmations it raised and the page's final state asserted. Waits only on states (events,
 * URLs, page values), never on a fixed time.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startWaveServer, textOf, watchErrors, type RunningServer } from './harness.js';

/** One expected tool call: `args` is compared exactly, `argsLike` only on the keys it names. */
export interface ExpectedCall {
  name: string;
  args?: Record<string, unknown>;
  argsLike?: Record<string, unknown>;
}

/** How the visitor answers each confirmation chip, in order. */
export type Answer = 'confirm' | 'cancel' | 'approve';

export interface Turn {
  say: string;
  /** Answers for the confirmations this turn raises (none expected when omitted). */
  answers?: Answer[];
  /** The turn ends by leaving the page (a submitted form, a navigation): wait for this URL instead of a reply. */
  navigatesTo?: RegExp;
}

export interface Scenario {
  /** The phrasing (single-turn) or several turns. */
  say: string | Turn[];
  answers?: Answer[];
  navigatesTo?: RegExp;
  /** Every tool call the whole scenario made, in order. `[]` means: no tool call at all. */
  calls: ExpectedCall[];
  /** Labels of the confirmation chips shown, in order (each a pattern). */
  confirmations?: RegExp[];
  /** The tools whose calls asked for confirmation, in order. */
  confirmedTools?: string[];
  /** The last reply (ignored when the page navigated away). */
  reply?: RegExp;
  /** Reply must not match. */
  replyNot?: RegExp;
  /** The page's final state: an expression evaluated in the page and its expected value. */
  state?: Array<[expression: string, expected: unknown]>;
}

/** Records the element's events in the page before any script runs (a string: no compiler helpers). */
const RECORDER = `(() => {
  // Kept across a navigation in the same tab (a submitted form, an opened link).
  const saved = JSON.parse(sessionStorage.getItem('__wave') || 'null');
  const w = (window.__wave = saved || { calls: [], confirmations: [], replies: [] });
  addEventListener('pagehide', () => sessionStorage.setItem('__wave', JSON.stringify(w)));
  document.addEventListener('wave-tool-call-requested', (e) => w.calls.push({ name: e.detail.name, args: e.detail.args }), true);
  document.addEventListener('wave-confirmation-shown', (e) => w.confirmations.push({ tool: e.detail.request.toolName, label: e.detail.request.label }), true);
  // Notices live in nested shadow roots: count them deeply.
  window.__waveNotices = () => {
    let n = 0;
    const walk = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if ((el.getAttribute('part') || '').split(' ').includes('notice')) n++;
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    return n;
  };
  document.addEventListener('wave-message-received', (e) => w.replies.push(e.detail.text), true);
})()`;

interface Recorded {
  calls: Array<{ name: string; args: Record<string, unknown> }>;
  confirmations: Array<{ tool: string; label: string }>;
  replies: string[];
}

/** Opens a demo page with the recorder installed, waits for its tools and opens the chat. */
export async function openDemo(browser: Browser, baseUrl: string, path: string, tools: number): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.addInitScript(RECORDER);
  await page.goto(`${baseUrl}${path}`);
  await page.waitForFunction(`(() => {
    const el = window.VAWaveWidget || document.querySelector('wave-chat');
    return !!el && typeof el.getHostToolSchemas === 'function' && el.getHostToolSchemas().length === ${tools};
  })()`);
  // The floating widget opens from its launcher; the inline element on /element.html is already
  // open, its panel rendered once its code has arrived (updateComplete includes that load).
  await page.evaluate(`(window.VAWaveWidget || document.querySelector('wave-chat')).updateComplete.then(() => 0)`);
  const input = page.locator('wave-chat [part~="input"]');
  if (!(await input.isVisible())) await page.locator('wave-chat [part~="launcher"]').click();
  await input.waitFor();
  return { page, errors };
}

const recorded = (page: Page) => page.evaluate('window.__wave') as Promise<Recorded>;

async function playTurn(page: Page, turn: Turn): Promise<void> {
  const before = await recorded(page);
  const notices = (await page.evaluate('window.__waveNotices()')) as number;
  const input = page.locator('wave-chat [part~="input"]');
  await input.fill(turn.say);
  await input.press('Enter');
  if (turn.navigatesTo) {
    const answers = [...(turn.answers ?? [])];
    let shown = before.confirmations.length;
    const target = turn.navigatesTo;
    // Answer the confirmations as they come until the page leaves.
    for (;;) {
      const next = await Promise.race([
        page.waitForURL(target, { timeout: 20_000 }).then(() => 'left' as const),
        page.waitForFunction(`window.__wave && window.__wave.confirmations.length > ${shown}`, undefined, { timeout: 20_000 }).then(() => 'chip' as const),
      ]);
      if (next === 'left') return;
      shown += 1;
      const answer = answers.shift();
      assert.ok(answer, `"${turn.say}": an unexpected confirmation`);
      await clickAnswer(page, answer);
    }
  }
  const answers = [...(turn.answers ?? [])];
  let shown = before.confirmations.length;
  for (;;) {
    await page.waitForFunction(
      `window.__wave.replies.length > ${before.replies.length} || window.__wave.confirmations.length > ${shown} ||
       window.__waveNotices() > ${notices}`,
      undefined,
      { timeout: 20_000 },
    );
    const now = await recorded(page);
    if (now.confirmations.length > shown) {
      shown += 1;
      const answer = answers.shift();
      assert.ok(answer, `"${turn.say}": an unexpected confirmation "${now.confirmations[shown - 1]?.label}"`);
      await clickAnswer(page, answer);
      continue;
    }
    if (now.replies.length > before.replies.length) break;
    throw new Error(`"${turn.say}": a notice instead of a reply: ${await textOf(page.locator('wave-chat [part~="notice"]').last())}`);
  }
  assert.deepEqual(answers, [], `"${turn.say}": confirmations expected but not shown`);
  // The turn is over when Stop goes away (Send stays while an answer comes: it queues).
  await page.locator('wave-chat [part~="stop-button"]').waitFor({ state: 'detached' });
}

async function clickAnswer(page: Page, answer: Answer): Promise<void> {
  const part = answer === 'confirm' ? 'confirm-button' : answer === 'cancel' ? 'cancel-button' : 'approve-button';
  await page.locator(`wave-chat [part~="${part}"]`).last().click();
}

function matchCalls(actual: Recorded['calls'], expected: ExpectedCall[], label: string): void {
  const names = actual.map((c) => c.name);
  assert.deepEqual(names, expected.map((c) => c.name), `${label}: tools called ${JSON.stringify(actual)}`);
  expected.forEach((want, i) => {
    const got = actual[i]!.args ?? {};
    if (want.args) assert.deepEqual(got, want.args, `${label}: arguments of call ${i + 1} (${want.name})`);
    if (want.argsLike) {
      for (const [key, value] of Object.entries(want.argsLike)) assert.deepEqual(got[key], value, `${label}: ${want.name}.${key} in ${JSON.stringify(got)}`);
    }
  });
}

/** Plays one scenario on a fresh page and asserts calls, confirmations, reply and final state. */
export async function runScenario(browser: Browser, baseUrl: string, path: string, tools: number, scenario: Scenario): Promise<void> {
  const { page, errors } = await openDemo(browser, baseUrl, path, tools);
  const turns: Turn[] =
    typeof scenario.say === 'string' ? [{ say: scenario.say, answers: scenario.answers, navigatesTo: scenario.navigatesTo }] : scenario.say;
  const label = turns.map((t) => t.say).join(' / ');
  try {
    for (const turn of turns) await playTurn(page, turn);
    const left = turns.some((t) => t.navigatesTo);
    const rec = await recorded(page);
    matchCalls(rec.calls, scenario.calls, label);
    if (scenario.confirmations) {
      const labels = rec.confirmations.map((c) => c.label);
      assert.equal(labels.length, scenario.confirmations.length, `${label}: confirmations ${JSON.stringify(labels)}`);
      scenario.confirmations.forEach((re, i) => assert.match(labels[i]!, re, `${label}: confirmation ${i + 1}`));
    }
    if (scenario.confirmedTools) assert.deepEqual(rec.confirmations.map((c) => c.tool), scenario.confirmedTools, `${label}: tools that asked first`);
    if (!left && scenario.reply) assert.match(rec.replies.at(-1) ?? '', scenario.reply, `${label}: reply`);
    if (!left && scenario.replyNot) assert.doesNotMatch(rec.replies.at(-1) ?? '', scenario.replyNot, `${label}: reply`);
    for (const [expression, expected] of scenario.state ?? []) {
      assert.deepEqual(await page.evaluate(expression), expected, `${label}: ${expression}`);
    }
    assert.deepEqual(errors, [], `${label}: page errors`);
  } finally {
    await page.close();
  }
}

/**
 * One demo page's scenario table as a test suite: one wave server (offline model, no delay)
 * and one browser for the file, a fresh page per row.
 */
export function describeScenarios(title: string, path: string, tools: number, table: ReadonlyArray<[string, Scenario]>): void {
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
  describe(title, () => {
    for (const [name, scenario] of table) {
      const said = typeof scenario.say === 'string' ? `"${scenario.say}"` : scenario.say.map((t) => `"${t.say}"`).join(' → ');
      it(`${said}: ${name}`, () => runScenario(browser, server.url, path, tools, scenario));
    }
  });
}
