import { expect } from '@open-wc/testing';
import { TRUNCATION_SUFFIX } from '../../src/tools/sanitize.js';
import { defaultLabels } from '../../components/labels.js';
import { persistableItems } from '../../components/transcript-store.js';
import { chipText } from '../../components/wave-tool-chip.js';
import type { ToolPart } from '../../src/agent/types.js';

describe('persistableItems', () => {
  it('keeps a finished chip\'s facts, so a restored chip reads as it did (in the labels of the new page)', () => {
    const done: ToolPart = { kind: 'tool', id: 'c1', name: 'buy_mug', title: 'Buy mug', subject: 'Blue', status: 'succeeded', spent: 30, cost: 30, attempts: 1 };
    const failed: ToolPart = { kind: 'tool', id: 'c2', name: 'sync', title: 'Sync', status: 'failed', failure: 'timeout', attempts: 1 };
    const [a, b] = persistableItems([done, failed]) as ToolPart[];
    expect(a).to.deep.equal(done);
    expect(b).to.deep.equal(failed);
    expect(chipText(a!, defaultLabels, 'cr')).to.equal('Done: Buy mug “Blue” · −30 cr');
  });

  it('drops facts of the wrong type or an unknown failure kind', () => {
    const [a] = persistableItems([
      { kind: 'tool', id: 'c1', name: 'x', status: 'failed', title: 7, subject: { a: 1 }, spent: -4, failure: 'exploded', builtin: 'yes', error: 'Sold out' },
    ]) as ToolPart[];
    expect(a).to.deep.equal({ kind: 'tool', id: 'c1', name: 'x', status: 'failed', error: 'Sold out' });
  });
});

describe('persistableItems keeps what the model needs to continue', () => {
  it("a filed call keeps its step, the model's arguments and its result, re-capped with the live sanitizer", () => {
    const output = JSON.stringify({ success: true, notes: 'n'.repeat(30_000) });
    const [chip, silent, reply] = persistableItems([
      { kind: 'tool', id: 'c1', name: 'add_task', status: 'succeeded', step: 's1', input: { title: 'Milk' }, output },
      { kind: 'tool', id: 'c2', name: 'nope', status: 'failed', step: 's1', silent: true, input: { big: 'b'.repeat(9000) }, output: '{"success":false}' },
      { kind: 'message', id: 's0', role: 'assistant', text: 'Half', streaming: false, discarded: true },
    ]) as [ToolPart, ToolPart, { discarded?: boolean }];
    expect(chip.step).to.equal('s1');
    expect(chip.input).to.deep.equal({ title: 'Milk' });
    expect(chip.output!.length).to.be.below(5000);
    expect((JSON.parse(chip.output!) as { notes: string }).notes.endsWith(TRUNCATION_SUFFIX)).to.equal(true);
    // Oversized arguments are dropped, the call and its result are kept.
    expect(silent).to.deep.equal({ kind: 'tool', id: 'c2', name: 'nope', status: 'failed', step: 's1', silent: true, output: '{"success":false}' });
    expect(reply.discarded).to.equal(true);
  });

  it('a step without a result is not kept as a call (it would be an unanswered call)', () => {
    const [a] = persistableItems([{ kind: 'tool', id: 'c1', name: 'x', status: 'succeeded', step: 's1', input: {} }]) as ToolPart[];
    expect(a).to.deep.equal({ kind: 'tool', id: 'c1', name: 'x', status: 'succeeded' });
  });
});
