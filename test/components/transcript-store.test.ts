import { expect } from '@open-wc/testing';
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
