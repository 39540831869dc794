import { expect } from '@open-wc/testing';
import { TRUNCATION_SUFFIX } from '../../src/tools/sanitize.js';
import { defaultLabels } from '../../components/labels.js';
import { idbTranscriptStore, keptAfterSave, mergeKept, persistableItems } from '../../components/transcript-store.js';
import { chipText } from '../../components/wave-tool-chip.js';
import type { ToolPart, TranscriptItem } from '../../src/agent/types.js';

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

describe('mergeKept: one kept conversation across the tabs of a site', () => {
  const m = (id: string, role: 'user' | 'assistant' = 'user'): TranscriptItem => ({ kind: 'message', id, role, text: id, streaming: false });
  const call = (id: string, step?: string): TranscriptItem => ({ kind: 'tool', id, name: 'add_task', status: 'succeeded', ...(step ? { step, input: {}, output: '{"success":true}' } : {}) });
  const ids = (rows: readonly TranscriptItem[]) => rows.map((r) => (r.kind === 'tool' ? `${r.id}@${r.step ?? '-'}` : r.id));

  it('a save never drops a turn another tab kept: both tabs\' turns stay, each turn together, in the order they began', () => {
    // A and B both restored u1 r1; B kept its turn first; A's save comes later.
    const stored = [m('u1'), m('r1', 'assistant'), m('uB'), m('rB', 'assistant')];
    const mineA = [m('u1'), m('r1', 'assistant'), m('uA'), m('rA', 'assistant')];
    expect(ids(mergeKept(stored, mineA))).to.deep.equal(['u1', 'r1', 'uB', 'rB', 'uA', 'rA']);
    // The other order of saves keeps the same rows.
    expect(ids(mergeKept(mergeKept([m('u1'), m('r1', 'assistant')], mineA), [m('u1'), m('r1', 'assistant'), m('uB'), m('rB', 'assistant')]))).to.deep.equal(['u1', 'r1', 'uA', 'rA', 'uB', 'rB']);
  });

  it('a turn that was kept as it began gets its end after its own rows, not after a turn another tab began meanwhile', () => {
    // A kept its question; B asked and was answered; then A's answer (and its call) arrive.
    const stored = [m('uA'), m('uB'), m('rB', 'assistant')];
    const mineA = [m('uA'), call('call_1', 'sA'), m('rA', 'assistant')];
    expect(ids(mergeKept(stored, mineA))).to.deep.equal(['uA', 'call_1@sA', 'rA', 'uB', 'rB']);
  });

  it('a call kept before it was filed under its step is replaced by the filed row, in place; a kept row is never rewritten', () => {
    const stored = [m('u1'), call('call_1'), m('uB')];
    const merged = mergeKept(stored, [m('u1'), call('call_1', 's1'), m('r1', 'assistant')]);
    expect(ids(merged)).to.deep.equal(['u1', 'call_1@s1', 'r1', 'uB']);
    const edited = mergeKept(merged, [{ ...m('u1'), text: 'changed' } as TranscriptItem]);
    expect(edited[0]).to.deep.equal(m('u1'));
  });

  it('the same call id in two turns (models number calls per request) stays two rows', () => {
    const merged = mergeKept([m('u1'), call('call_1', 's1')], [m('u1'), call('call_1', 's1'), m('u2'), call('call_1', 's2')]);
    expect(ids(merged)).to.deep.equal(['u1', 'call_1@s1', 'u2', 'call_1@s2']);
  });

  it('rows older than anything kept (trimmed by the budget) go first, so the budget trims them again; the budget holds', () => {
    const old = Array.from({ length: 500 }, (_, i) => m(`k${i}`));
    const stored = old.slice(1);
    const merged = mergeKept(stored, [...old, m('new')]);
    expect(merged).to.have.length(500);
    expect(ids(merged).slice(0, 2)).to.deep.equal(['k1', 'k2']);
    expect(ids(merged).at(-1)).to.equal('new');
  });

  it('a tab with nothing in common with the kept record adds its rows after it', () => {
    expect(ids(mergeKept([m('a'), m('b', 'assistant')], [m('c', 'assistant'), m('d')]))).to.deep.equal(['a', 'b', 'c', 'd']);
  });

  it('a call run here for another tab\'s turn ("Asked from the tab …") is not kept here: the asking tab keeps it', () => {
    const routed = { ...call('call_1'), fromTab: 'Shop' } as TranscriptItem;
    expect(persistableItems([m('u1'), routed])).to.deep.equal([m('u1')]);
  });

  it('keptAfterSave says whether the record changed, so an unchanged save tells no other tab', () => {
    const stored = [m('u1'), m('r1', 'assistant')];
    expect(keptAfterSave(stored, [m('u1')])).to.deep.equal({ rows: stored, changed: false });
    expect(keptAfterSave(undefined, [m('u1')]).changed).to.equal(true);
    expect(keptAfterSave('garbage', [m('u1')]).rows).to.deep.equal([m('u1')]);
  });
});

describe('the IndexedDB store: saves of several tabs', () => {
  it('two saves at once (two tabs) both keep their rows: each merges in its own transaction', async () => {
    const key = `wave-chat:transcript:merge-${Math.random().toString(36).slice(2)}`;
    const m = (id: string): TranscriptItem => ({ kind: 'message', id, role: 'user', text: id, streaming: false });
    await idbTranscriptStore.save(key, [m('u1')]);
    const [a, b] = await Promise.all([idbTranscriptStore.save(key, [m('u1'), m('uA')]), idbTranscriptStore.save(key, [m('u1'), m('uB')])]);
    expect([a, b]).to.deep.equal([true, true]);
    expect((await idbTranscriptStore.load(key)).map((r) => r.id)).to.deep.equal(['u1', 'uA', 'uB']);
    expect(await idbTranscriptStore.save(key, [m('uA')]), 'nothing new').to.equal(false);
    await idbTranscriptStore.clear(key);
  });
});
