import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { describeError } from '../../src/util/describe-error.js';

describe('describeError', () => {
  it('gives a string as is and an Error its message, whatever the Error class or realm', () => {
    expect(describeError('Sold out')).to.equal('Sold out');
    expect(describeError(new Error('No such order'))).to.equal('No such order');
    expect(describeError(new TypeError('x is not a function'))).to.equal('x is not a function');
    const frame = document.createElement('iframe');
    document.body.append(frame);
    const Foreign = (frame.contentWindow as unknown as { Error: ErrorConstructor }).Error;
    expect(describeError(new Foreign('from the iframe'))).to.equal('from the iframe');
    frame.remove();
  });

  it('names an Error that has no message by its name (AbortError, TimeoutError)', () => {
    expect(describeError(new DOMException('', 'AbortError'))).to.equal('AbortError');
    expect(describeError(new Error(''))).to.equal('The action failed without giving a reason.');
  });

  it("reads an object's message or error field, also one level down ({ error: { message } })", () => {
    expect(describeError({ message: 'Card declined', code: 7 })).to.equal('Card declined');
    expect(describeError({ error: 'Out of stock' })).to.equal('Out of stock');
    expect(describeError({ error: { message: 'Quota exceeded', type: 'quota' } })).to.equal('Quota exceeded');
  });

  it('previews any other object as short JSON instead of "[object Object]"', () => {
    expect(describeError({ code: 42 })).to.equal('The action failed: {"code":42}');
    expect(describeError([1, 'two'])).to.equal('The action failed: [1,"two"]');
    expect(describeError({ error: 42 })).to.equal('The action failed: {"error":42}');
    const big = { items: Array.from({ length: 10_000 }, (_, i) => ({ i, name: `item ${i}` })) };
    const text = describeError(big);
    expect(text.length).to.be.below(260);
    expect(text.endsWith('…')).to.equal(true);
    const cycle: Record<string, unknown> = { code: 1 };
    cycle['self'] = cycle;
    expect(describeError(cycle)).to.equal('The action failed: {"code":1,"self":{…}}');
    expect(describeError({ big: 10n })).to.equal('The action failed: {"big":10}');
  });

  it('says the action failed without a reason for null, undefined, "" and empty objects', () => {
    for (const value of [null, undefined, '', '   ', {}, [], () => 1, Object.create(null)]) {
      expect(describeError(value), String(typeof value)).to.equal('The action failed without giving a reason.');
    }
    expect(describeError(null, { subject: 'The page' })).to.equal('The page failed without giving a reason.');
    expect(describeError(undefined, { fallback: 'Something went wrong.' })).to.equal('Something went wrong.');
  });

  it('writes numbers, booleans and symbols as values, never as a bare word', () => {
    expect(describeError(404)).to.equal('The action failed: 404');
    expect(describeError(false)).to.equal('The action failed: false');
    expect(describeError(Symbol('gone'))).to.equal('The action failed: Symbol(gone)');
  });

  it('never throws, even for throwing getters, revoked proxies and toString traps', () => {
    const getter = Object.defineProperty({}, 'message', { get: () => { throw new Error('trap'); }, enumerable: true });
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const trap = new Proxy({}, { get: () => { throw new Error('trap'); }, ownKeys: () => { throw new Error('trap'); } });
    const badToString = { toString() { throw new Error('nope'); } };
    for (const value of [getter, proxy, trap]) expect(describeError(value)).to.equal('The action failed without giving a reason.');
    expect(describeError(badToString)).to.equal('The action failed without giving a reason.');
  });

  it('caps long text without splitting a surrogate pair', () => {
    expect(describeError('x'.repeat(2000)).length).to.equal(500);
    const text = describeError(`${'a'.repeat(8)}😀😀`, { maxChars: 10 });
    expect(text).to.equal(`${'a'.repeat(8)}…`);
    expect(describeError('y'.repeat(50), { maxChars: 20 })).to.equal(`${'y'.repeat(19)}…`);
  });

  it('for any value: never throws, always a non-empty sentence within the cap, never a bare "null"/"undefined"/"[object Object]"', () => {
    const own = (v: unknown, key: string) => typeof v === 'object' && v !== null && typeof (v as Record<string, unknown>)[key] === 'string';
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withMap: true, withSet: true, withDate: true, withNullPrototype: true, withTypedArray: true, withSparseArray: true }), (value) => {
        const text = describeError(value);
        expect(text).to.be.a('string');
        expect(text.trim().length).to.be.above(0);
        expect(text.length).to.be.at.most(500);
        // Strings and a `message` / `error` string are the page's own words, passed as is.
        if (typeof value === 'string' || own(value, 'message') || own(value, 'error')) return;
        expect(text).not.to.match(/^(null|undefined|\[object Object\])$/);
        expect(text).not.to.include('[object Object]');
      }),
      { numRuns: 500 },
    );
  });

  it('no description ever reads "null", "undefined" or "[object Object]"', () => {
    const values: unknown[] = [null, undefined, {}, { code: 1 }, { message: 1 }, { error: null }, new Error(), [undefined], [null], { a: undefined }];
    for (const value of values) {
      const text = describeError(value);
      expect(text, JSON.stringify(value)).not.to.match(/^(null|undefined)$|\[object Object\]/);
    }
  });
});
