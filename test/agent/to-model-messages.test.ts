import { expect } from '@open-wc/testing';
import { TRUNCATION_SUFFIX } from '../../src/tools/sanitize.js';
import { applyLoopUpdate, recapOutput, upsertPart } from '../../src/agent/record.js';
import { HistoryBudget, toModelMessages } from '../../src/agent/to-model-messages.js';
import type { ToolPart, TranscriptItem } from '../../src/agent/types.js';
import { ToolLimits } from '../../src/tools/types.js';

const user = (id: string, text: string): TranscriptItem => ({ kind: 'message', id, role: 'user', text, streaming: false });
const assistant = (id: string, text: string, extra: Partial<Extract<TranscriptItem, { kind: 'message' }>> = {}): TranscriptItem => ({
  kind: 'message',
  id,
  role: 'assistant',
  text,
  streaming: false,
  ...extra,
});
const part = (id: string, name: string, extra: Partial<ToolPart> = {}): ToolPart => ({ kind: 'tool', id, name, status: 'succeeded', ...extra });

describe('toModelMessages (the request derived from the record)', () => {
  it('visitor and assistant text in order; notices and streaming text are not sent', () => {
    const items: TranscriptItem[] = [
      user('u1', 'Hi'),
      assistant('a1', 'Hello!'),
      { kind: 'notice', id: 'n1', level: 'info', notice: { kind: 'busy' } },
      user('u2', 'More'),
      { kind: 'message', id: 'a2', role: 'assistant', text: 'Wri', streaming: true },
    ];
    expect(toModelMessages(items)).to.deep.equal([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'More' },
    ]);
  });

  it("a step's text and its filed tool parts become one assistant message, each call then its result", () => {
    const items: TranscriptItem[] = [
      user('u1', 'Add milk and eggs'),
      assistant('s1', 'On it.'),
      part('c1', 'add_task', { step: 's1', input: { title: 'Milk' }, args: { title: 'Milk', done: false }, output: '{"success":true,"id":1}' }),
      // An invalid call's notice sits between the parts: it does not split the step.
      { kind: 'notice', id: 'n1', level: 'info', notice: { kind: 'invalid-arguments', name: 'add_task', title: 'Add task', source: 'model', reason: 'x' } },
      part('c2', 'add_task', { step: 's1', silent: true, status: 'failed', input: { title: 7 }, output: '{"success":false,"error":"Invalid arguments: x"}' }),
      assistant('s2', 'Added milk.'),
    ];
    expect(toModelMessages(items)).to.deep.equal([
      { role: 'user', content: 'Add milk and eggs' },
      {
        role: 'assistant',
        content: 'On it.',
        toolCalls: [
          // The model's own arguments, not the validated ones with defaults.
          { id: 'c1', name: 'add_task', arguments: { title: 'Milk' } },
          { id: 'c2', name: 'add_task', arguments: { title: 7 } },
        ],
      },
      { role: 'tool', toolCallId: 'c1', name: 'add_task', content: '{"success":true,"id":1}' },
      { role: 'tool', toolCallId: 'c2', name: 'add_task', content: '{"success":false,"error":"Invalid arguments: x"}' },
      { role: 'assistant', content: 'Added milk.' },
    ]);
  });

  it('a step with calls and no text has empty content; steps with the same call id stay apart', () => {
    const items: TranscriptItem[] = [
      user('u1', 'Go'),
      part('call_1', 'get_cart', { step: 's1', input: {}, output: '{"success":true}' }),
      part('call_1', 'get_cart', { step: 's2', input: {}, output: '{"success":true,"again":true}' }),
    ];
    const messages = toModelMessages(items);
    expect(messages.map((m) => m.role)).to.deep.equal(['user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(messages[1]).to.deep.equal({ role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'get_cart', arguments: {} }] });
    expect(messages[4]).to.deep.include({ content: '{"success":true,"again":true}' });
  });

  it("leaves out a page's own callTool, voice tool calls, calls in flight, discarded replies and empty turns", () => {
    const items: TranscriptItem[] = [
      user('u1', 'Hi'),
      part('page_1', 'add_task', { output: '{"success":true}' }), // no step: callTool or voice
      part('c1', 'add_task', { step: 's1', status: 'running', input: {} }), // not settled
      assistant('s0', 'Half a sen', { discarded: true }),
      assistant('s3', ''),
      user('u2', '   '),
    ];
    expect(toModelMessages(items)).to.deep.equal([{ role: 'user', content: 'Hi' }]);
  });

  it('the budget drops whole turns, oldest first, and always keeps the turn being answered', () => {
    const long = 'x'.repeat(400);
    const items: TranscriptItem[] = [
      user('u1', `first ${long}`),
      assistant('a1', 'one'),
      user('u2', `second ${long}`),
      part('c1', 'get_cart', { step: 's2', input: {}, output: '{"success":true}' }),
      assistant('a2', 'two'),
      user('u3', `third ${long}`),
    ];
    const all = toModelMessages(items);
    const size = (from: number) => all.slice(from).reduce((n, m) => n + JSON.stringify(m).length, 0);
    // Room for the last two turns only: the first goes, with its reply; no orphan tool result is left.
    const two = toModelMessages(items, { budget: { maxChars: size(2), maxMessages: 100 } });
    expect(two).to.deep.equal(all.slice(2));
    expect(two[0]).to.deep.equal({ role: 'user', content: `second ${long}` });
    // A message cap counts the same way.
    expect(toModelMessages(items, { budget: { maxChars: 1e9, maxMessages: 1 } })).to.deep.equal([{ role: 'user', content: `third ${long}` }]);
    // The turn being answered stays even when it alone is over budget.
    expect(toModelMessages(items, { budget: { maxChars: 10, maxMessages: 100 } })).to.deep.equal([{ role: 'user', content: `third ${long}` }]);
  });

  it('the default budget fits the server (400 messages, 256 KB)', () => {
    expect(HistoryBudget.maxMessages).to.be.below(400);
    expect(HistoryBudget.maxChars).to.be.below(256 * 1024 / 2);
    const items: TranscriptItem[] = [];
    for (let i = 0; i < 500; i++) items.push(user(`u${i}`, `message ${i} ${'y'.repeat(500)}`), assistant(`a${i}`, `reply ${i}`));
    const messages = toModelMessages(items, { budget: HistoryBudget });
    expect(messages.length).to.be.at.most(HistoryBudget.maxMessages);
    expect(JSON.stringify(messages).length).to.be.at.most(HistoryBudget.maxChars + messages.length * 2);
    expect(messages.at(-2)).to.deep.equal({ role: 'user', content: `message 499 ${'y'.repeat(500)}` });
  });
});

describe('the record (applyLoopUpdate, upsertPart, recapOutput)', () => {
  it('files a settled call under its step; a refused call with no chip gets a silent part', () => {
    let items: readonly TranscriptItem[] = [user('u1', 'Go')];
    items = upsertPart(items, part('c1', 'add_task', { status: 'running' }));
    items = upsertPart(items, part('c1', 'add_task', { status: 'succeeded', spent: 5 }));
    items = applyLoopUpdate(items, { type: 'tool-result', step: 's1', call: { id: 'c1', name: 'add_task', arguments: { title: 'Milk' } }, result: { success: true } });
    items = applyLoopUpdate(items, { type: 'tool-result', step: 's1', call: { id: 'c2', name: 'nope', arguments: {} }, result: { success: false, error: 'Unknown tool' } });
    expect(items).to.deep.equal([
      user('u1', 'Go'),
      part('c1', 'add_task', { status: 'succeeded', spent: 5, step: 's1', input: { title: 'Milk' }, output: '{"success":true}' }),
      part('c2', 'nope', { status: 'failed', silent: true, step: 's1', input: {}, output: '{"success":false,"error":"Unknown tool"}' }),
    ]);
    // A later chip reusing a filed id is a new part, not an overwrite of history.
    const again = upsertPart(items, part('c1', 'add_task', { status: 'running' }));
    expect(again).to.have.length(4);
    expect(again[1]).to.deep.include({ step: 's1' });
  });

  it("a failed step's partial text is kept on screen but marked discarded", () => {
    const items = applyLoopUpdate([], { type: 'assistant-done', id: 's1', text: 'Half', discarded: true });
    expect(items).to.deep.equal([assistant('s1', 'Half', { discarded: true })]);
    expect(toModelMessages(items)).to.deep.equal([]);
  });

  it('recapOutput re-caps a kept result with the live sanitizer and never throws', () => {
    const huge = JSON.stringify({ success: true, notes: 'z'.repeat(50_000) });
    expect(recapOutput(huge).length).to.be.at.most(ToolLimits.maxResultChars + 200);
    expect((JSON.parse(recapOutput(huge)) as { notes: string }).notes.endsWith(TRUNCATION_SUFFIX)).to.equal(true);
    expect(JSON.parse(recapOutput('{not json'))).to.deep.include({ success: false });
    expect(recapOutput('{"success":true,"id":1}')).to.equal('{"success":true,"id":1}');
  });
});
