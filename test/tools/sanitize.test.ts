import { expect } from '@open-wc/testing';
import { BUILTIN_RESULT_CHARS, isFailure, sanitizeBuiltinResult, sanitizeResult } from '../../src/tools/sanitize.js';

const SUFFIX = '\u2026[truncated]';
const NOTE = 'nested values were omitted: the result could not be serialized';

function roundTrips(result: unknown): void {
  // Whatever comes out must be plain JSON data.
  expect(JSON.parse(JSON.stringify(result))).to.deep.equal(result);
}

describe('sanitizeResult', () => {
  describe('normalising', () => {
    it('adds success: true to a plain object without it, first', () => {
      const result = sanitizeResult({ id: 't1', status: 'done' });
      expect(result).to.deep.equal({ success: true, id: 't1', status: 'done' });
      expect(Object.keys(result)[0]).to.equal('success');
    });

    it('keeps success: false and puts success then error first', () => {
      const result = sanitizeResult({ detail: 'x', error: 'Sold out', success: false });
      expect(result).to.deep.equal({ success: false, error: 'Sold out', detail: 'x' });
      expect(Object.keys(result)).to.deep.equal(['success', 'error', 'detail']);
    });

    for (const [label, value] of [
      ['a string', 'done'],
      ['a number', 42],
      ['a boolean', false],
      ['null', null],
      ['an array', [1, 'two']],
    ] as const) {
      it(`wraps ${label} as { success: true, data }`, () => {
        expect(sanitizeResult(value)).to.deep.equal({ success: true, data: value });
      });
    }

    it('turns undefined (a handler that returns nothing) into { success: true }', () => {
      expect(sanitizeResult(undefined)).to.deep.equal({ success: true });
    });
  });

  describe('dropping', () => {
    it('omits functions and symbols in objects and nulls them in arrays', () => {
      const result = sanitizeResult({ a: 1, f: () => 1, s: Symbol('x'), list: [1, () => 2, Symbol('y')] });
      expect(result).to.deep.equal({ success: true, a: 1, list: [1, null, null] });
    });

    it('drops a function returned at the root', () => {
      expect(sanitizeResult(() => 1)).to.deep.equal({ success: true });
    });

    it('drops DOM nodes, nested and in arrays, and the window', () => {
      const div = document.createElement('div');
      div.textContent = 'hello';
      const result = sanitizeResult({ el: div, text: document.createTextNode('t'), list: [document.body, 2], win: window, ok: 1 });
      expect(result).to.deep.equal({ success: true, list: [null, 2], ok: 1 });
    });

    it('drops node-like objects from another realm (nodeType + nodeName)', () => {
      const frame = document.createElement('iframe');
      document.body.append(frame);
      try {
        const foreign = frame.contentDocument!.createElement('span');
        expect(foreign instanceof Node).to.equal(false);
        expect(sanitizeResult({ foreign, keep: 'y' })).to.deep.equal({ success: true, keep: 'y' });
      } finally {
        frame.remove();
      }
    });
  });

  describe('strings', () => {
    it('cuts every string over 2,000 chars at any depth and suffixes …[truncated]', () => {
      const long = 'a'.repeat(2500);
      const result = sanitizeResult({ top: long, nested: { deeper: [long] }, exact: 'b'.repeat(2000) });
      // Too big for 4,096 as a whole? 2 × 2,012 + 2,000 > 4,096: use a smaller object to see the strings.
      expect(result['truncated']).to.equal(true);
      const small = sanitizeResult({ nested: { deeper: [long] }, exact: 'b'.repeat(1000) });
      const deeper = ((small['nested'] as Record<string, unknown>)['deeper'] as string[])[0]!;
      expect(deeper).to.equal('a'.repeat(2000) + SUFFIX);
      expect(small['exact']).to.equal('b'.repeat(1000));
    });

    it('leaves a string of exactly 2,000 chars alone', () => {
      expect(sanitizeResult({ s: 'x'.repeat(2000) })['s']).to.equal('x'.repeat(2000));
    });

    it('cuts a 10 MB string quickly to 2,000 chars', () => {
      const result = sanitizeResult({ big: 'z'.repeat(10 * 1024 * 1024) });
      expect(result['big']).to.equal('z'.repeat(2000) + SUFFIX);
    });

    it('replaces lone surrogates with U+FFFD, keeps pairs', () => {
      const result = sanitizeResult({ lone: 'a\uD800b', low: '\uDC00', pair: '\uD83D\uDE00', ['k\uD800']: 1 });
      expect(result).to.deep.equal({ success: true, lone: 'a\uFFFDb', low: '\uFFFD', pair: '\uD83D\uDE00', ['k\uFFFD']: 1 });
    });

    it('does not leave half a surrogate pair where a string is cut', () => {
      const text = 'a'.repeat(1999) + '\uD83D\uDE00' + 'tail';
      // The one truncation helper drops the half pair at the cut (as the page-state cap always did).
      expect(sanitizeResult({ t: text })['t']).to.equal('a'.repeat(1999) + SUFFIX);
    });
  });

  describe('JSON conversions', () => {
    it('turns BigInt into its decimal string', () => {
      expect(sanitizeResult({ n: 12345678901234567890n, list: [1n] })).to.deep.equal({
        success: true,
        n: '12345678901234567890',
        list: ['1'],
      });
    });

    it('serializes Dates through toJSON and non-finite numbers as null', () => {
      const result = sanitizeResult({ at: new Date(Date.UTC(2024, 0, 2)), bad: new Date(NaN), nan: NaN, inf: -Infinity });
      expect(result).to.deep.equal({ success: true, at: '2024-01-02T00:00:00.000Z', bad: null, nan: null, inf: null });
    });

    it('turns a Map into an object and a Set into an array', () => {
      const result = sanitizeResult({ map: new Map<unknown, unknown>([['a', 1], [2, 'b'], [{}, 'dropped']]), set: new Set([1, 2]) });
      expect(result).to.deep.equal({ success: true, map: { a: 1, 2: 'b' }, set: [1, 2] });
    });

    it('uses a custom toJSON', () => {
      expect(sanitizeResult({ v: { toJSON: () => ({ x: 1 }) } })).to.deep.equal({ success: true, v: { x: 1 } });
    });

    it('keeps a "__proto__" key as data without touching the prototype', () => {
      const result = sanitizeResult(JSON.parse('{"__proto__":{"polluted":true},"a":1}'));
      expect(Object.getPrototypeOf(result)).to.equal(Object.prototype);
      expect(Object.prototype.hasOwnProperty.call(result, '__proto__')).to.equal(true);
      expect(({} as Record<string, unknown>)['polluted']).to.equal(undefined);
    });

    it('lets shared (non-cyclic) references through, like JSON', () => {
      const shared = { v: 1 };
      expect(sanitizeResult({ a: shared, b: shared })).to.deep.equal({ success: true, a: { v: 1 }, b: { v: 1 } });
    });
  });

  describe('unserializable values are salvaged', () => {
    it('salvages a cycle: up to 20 primitive properties plus the note', () => {
      const value: Record<string, unknown> = { id: 't1', count: 2, ok: true, none: null, nested: { x: 1 } };
      value['self'] = value;
      expect(sanitizeResult(value)).to.deep.equal({ success: true, id: 't1', count: 2, ok: true, none: null, note: NOTE });
    });

    it('keeps at most 20 properties, and success/error first even when listed late', () => {
      const value: Record<string, unknown> = {};
      for (let i = 0; i < 30; i++) value[`p${i}`] = i;
      value['error'] = 'broke';
      value['success'] = false;
      value['loop'] = value;
      const result = sanitizeResult(value);
      expect(result['success']).to.equal(false);
      expect(result['error']).to.equal('broke');
      expect(result['note']).to.equal(NOTE);
      // 20 salvaged (success, error and 18 others) plus the note.
      expect(Object.keys(result)).to.have.length(21);
      expect(result['p17']).to.equal(17);
      expect(result).not.to.have.property('p18');
    });

    it('truncates long strings in a salvaged copy too', () => {
      const value: Record<string, unknown> = { s: 'q'.repeat(3000) };
      value['me'] = value;
      expect(sanitizeResult(value)['s']).to.equal('q'.repeat(2000) + SUFFIX);
    });

    it('salvages around a throwing getter', () => {
      const value = {
        a: 1,
        get boom(): never {
          throw new Error('nope');
        },
        b: 'two',
      };
      expect(sanitizeResult(value)).to.deep.equal({ success: true, a: 1, b: 'two', note: NOTE });
    });

    it('salvages a value whose toJSON throws', () => {
      const value = { a: 1, inner: { toJSON() { throw new Error('no'); } } };
      expect(sanitizeResult(value)).to.deep.equal({ success: true, a: 1, note: NOTE });
    });

    it('salvages a cycle inside an array into data', () => {
      const list: unknown[] = [1, 'two'];
      list.push(list);
      expect(sanitizeResult(list)).to.deep.equal({ success: true, data: [1, 'two'], note: NOTE });
    });

    it('survives Proxies whose every trap throws', () => {
      const thrower = () => {
        throw new Error('trap');
      };
      const hostile = new Proxy(
        {},
        { get: thrower, ownKeys: thrower, getOwnPropertyDescriptor: thrower, getPrototypeOf: thrower, has: thrower },
      );
      expect(sanitizeResult(hostile)).to.deep.equal({ success: true, note: NOTE });
      expect(sanitizeResult({ ok: 1, hostile })).to.deep.equal({ success: true, ok: 1, note: NOTE });
    });

    it('survives a revoked Proxy', () => {
      const { proxy, revoke } = Proxy.revocable({ a: 1 }, {});
      revoke();
      expect(sanitizeResult(proxy)).to.deep.equal({ success: true, note: NOTE });
      expect(sanitizeResult([proxy])).to.deep.equal({ success: true, data: [], note: NOTE });
    });

    it('does not blow the stack on 100,000 levels of nesting', () => {
      let deep: Record<string, unknown> = { leaf: true };
      for (let i = 0; i < 100_000; i++) deep = { id: i, child: deep };
      expect(sanitizeResult(deep)).to.deep.equal({ success: true, id: 99_999, note: NOTE });
    });
  });

  describe('the 4,096-character rule', () => {
    /** An object whose sanitized JSON is exactly `total` chars, every string ≤ 2,000. */
    function sized(total: number): Record<string, string> {
      const value: Record<string, string> = { a: '', b: '', c: '' };
      let missing = total - JSON.stringify({ success: true, ...value }).length;
      for (const key of ['a', 'b', 'c']) {
        const take = Math.min(2000, missing);
        value[key] = 'x'.repeat(take);
        missing -= take;
      }
      return value;
    }

    it('keeps a result whose JSON is exactly 4,096 chars', () => {
      const value = sized(4096);
      const result = sanitizeResult(value);
      expect(JSON.stringify(result).length).to.equal(4096);
      expect(result).to.deep.equal({ success: true, ...value });
    });

    it('replaces a result of 4,097 chars with exactly { note, preview, truncated }', () => {
      const value = sized(4097);
      const full = JSON.stringify({ success: true, ...value });
      expect(full.length).to.equal(4097);
      const result = sanitizeResult(value);
      expect(Object.keys(result)).to.deep.equal(['note', 'preview', 'truncated']);
      expect(result['note']).to.equal('result truncated to fit');
      expect(result['truncated']).to.equal(true);
      expect(result['preview'] === full.slice(0, 4096)).to.equal(true);
    });

    it('does not end a preview on half a surrogate pair', () => {
      const value = sized(4097);
      // Put an emoji so its pair straddles the 4,096 boundary.
      const full = JSON.stringify({ success: true, ...value });
      const cIndex = full.indexOf('"c":"') + 5;
      const offset = 4095 - cIndex;
      value['c'] = 'x'.repeat(offset) + '\uD83D\uDE00' + value['c']!.slice(offset + 2);
      const result = sanitizeResult(value);
      const preview = result['preview'] as string;
      expect(preview.length).to.equal(4096);
      expect(preview.endsWith('\uFFFD')).to.equal(true);
    });

    it('previews a 1e6-element array from the start of its JSON', () => {
      const list = Array.from({ length: 1_000_000 }, (_, i) => i);
      const result = sanitizeResult(list);
      expect(result['truncated']).to.equal(true);
      expect(result['preview']).to.equal(JSON.stringify({ success: true, data: list }).slice(0, 4096));
    });

    it('previews a ~1 MB nested result exactly like the full JSON would start', () => {
      const rows = Array.from({ length: 5000 }, (_, i) => ({ id: i, title: `Row ${i} `.repeat(20), fn: () => i, tags: ['a', 'b'] }));
      const result = sanitizeResult({ rows });
      const expected = JSON.stringify({ success: true, rows }).slice(0, 4096);
      expect(result).to.deep.equal({ note: 'result truncated to fit', preview: expected, truncated: true });
    });

    it('still salvages an oversize value with a cycle at its very end', () => {
      const value: Record<string, unknown> = { big: Array.from({ length: 10_000 }, (_, i) => i), id: 7 };
      value['loop'] = { back: value };
      expect(sanitizeResult(value)).to.deep.equal({ success: true, id: 7, note: NOTE });
    });
  });

  it('always returns JSON-safe plain data', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['c'] = cyclic;
    for (const value of [1, 'x', null, undefined, [1], { a: 1 }, cyclic, 'a'.repeat(9000), new Map(), Symbol('s')]) {
      roundTrips(sanitizeResult(value));
    }
  });
});

describe('isFailure', () => {
  it('is a failure for a thrown Error, with its message', () => {
    expect(isFailure(new TypeError('bad input'))).to.deep.equal({ failed: true, error: 'bad input' });
  });

  it('is a failure for success: false, with its error described when present', () => {
    expect(isFailure({ success: false, error: 'Sold out' })).to.deep.equal({ failed: true, error: 'Sold out' });
    expect(isFailure({ success: false, error: { code: 1 } })).to.deep.equal({ failed: true, error: 'The action failed: {"code":1}' });
    expect(isFailure({ success: false, error: { message: 'Card declined' } })).to.deep.equal({ failed: true, error: 'Card declined' });
    expect(isFailure({ success: false })).to.deep.equal({ failed: true });
  });

  it('is not a failure for success results, primitives or hostile values', () => {
    expect(isFailure({ success: true })).to.deep.equal({ failed: false });
    expect(isFailure('oops')).to.deep.equal({ failed: false });
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(isFailure(proxy)).to.deep.equal({ failed: false });
  });

  it('recognises a failure that was too big and became a preview', () => {
    // success and error listed last: they still lead the preview.
    const sanitized = sanitizeResult({ rows: 'r'.repeat(1999).split(''), success: false, error: 'Too many rows' });
    expect(sanitized['truncated']).to.equal(true);
    expect(isFailure(sanitized)).to.deep.equal({ failed: true, error: 'Too many rows' });
  });
});

describe('sanitizeBuiltinResult', () => {
  it('passes plain data up to the built-in cap unchanged, with success first', () => {
    const outline = 'y'.repeat(5000);
    expect(sanitizeBuiltinResult({ outline })).to.deep.equal({ success: true, outline });
    expect(sanitizeBuiltinResult({ success: false, error: 'stale ref' })).to.deep.equal({ success: false, error: 'stale ref' });
  });

  it('falls back to the page-tool rules past the cap or for data that is not plain', () => {
    const big = sanitizeBuiltinResult({ outline: 'z'.repeat(BUILTIN_RESULT_CHARS) });
    expect(big['outline']).to.equal('z'.repeat(2000) + '\u2026[truncated]');
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    expect(sanitizeBuiltinResult(cyclic)['note']).to.equal(NOTE);
    expect(sanitizeBuiltinResult('text')).to.deep.equal({ success: true, data: 'text' });
  });
});
