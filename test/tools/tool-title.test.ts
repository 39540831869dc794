import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { keyArgument, readableToolName, toolTitle } from '../../src/tools/tool-title.js';

const schema = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required });

describe('tool titles and key arguments', () => {
  it('reads a tool name as words', () => {
    expect(readableToolName('buy_wave_sticker_pack')).to.equal('Buy wave sticker pack');
    expect(readableToolName('delete_task')).to.equal('Delete task');
    expect(readableToolName('a__b_')).to.equal('A b');
    expect(readableToolName('')).to.equal('');
  });

  it("prefers the page's own title; a blank, non-string or throwing title falls back to the name", () => {
    expect(toolTitle('buy_mug', { title: '  Acheter   la tasse ' })).to.equal('Acheter la tasse');
    expect(toolTitle('buy_mug', { title: '   ' })).to.equal('Buy mug');
    expect(toolTitle('buy_mug', { title: 7 as unknown as string })).to.equal('Buy mug');
    const throwing = Object.defineProperty({}, 'title', { get: () => { throw new Error('x'); } });
    expect(toolTitle('buy_mug', throwing)).to.equal('Buy mug');
  });

  it('names the first required string argument that is not an id', () => {
    const s = schema({ task_id: { type: 'string' }, id: { type: 'string' }, listId: { type: 'string' }, title: { type: 'string' }, note: { type: 'string' } }, ['task_id', 'id', 'listId', 'title']);
    expect(keyArgument(s, { task_id: 't_8f3a', id: 'x', listId: 'l1', title: 'Draft launch email', note: 'n' })).to.equal('Draft launch email');
    expect(keyArgument(s, { task_id: 't_8f3a' })).to.equal(undefined);
    expect(keyArgument(schema({ count: { type: 'integer' } }, ['count']), { count: 3 })).to.equal(undefined);
    expect(keyArgument(schema({ name: { type: ['string', 'null'] } }, ['name']), { name: 'Ocean' })).to.equal('Ocean');
    expect(keyArgument(schema({ name: { type: 'string' } }, []), { name: 'Ocean' }), 'optional arguments are not key').to.equal(undefined);
  });

  it('shows the key argument as one plain, bounded line: no invisible or bidi characters', () => {
    const s = schema({ name: { type: 'string' } }, ['name']);
    expect(keyArgument(s, { name: 'Ocean\u202e\u200b  blues\n\tpack' })).to.equal('Ocean blues pack');
    const long = keyArgument(s, { name: 'x'.repeat(500) })!;
    expect(Array.from(long)).to.have.length(80);
    expect(long.endsWith('…')).to.equal(true);
    expect(keyArgument(s, { name: ' \u200b ' })).to.equal(undefined);
    expect(keyArgument({ type: 'object', required: 'name' }, { name: 'x' })).to.equal(undefined);
  });

  it('whatever the model sends, the key argument is one visible line of at most 80 characters (generated)', () => {
    const s = schema({ name: { type: 'string' } }, ['name']);
    const hidden = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;
    const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 300 }));
    fc.assert(
      fc.property(text, (value) => {
        const shown = keyArgument(s, { name: value });
        // Nothing shown only when there was nothing visible to show.
        if (shown === undefined) return /^[\s\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]*$/.test(value);
        return !hidden.test(shown) && !/\s\s/.test(shown) && shown === shown.trim() && Array.from(shown).length <= 80;
      }),
      { numRuns: 500 },
    );
  });
});
