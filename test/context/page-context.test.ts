import { expect } from '@open-wc/testing';
import { CONTEXT_CLIENT_CAP, PageContext } from '../../src/context/page-context.js';

function setup() {
  const warnings: string[] = [];
  const context = new PageContext({ warn: (message) => warnings.push(message) });
  return { context, warnings };
}

describe('PageContext', () => {
  it('starts empty', () => {
    expect(new PageContext().get()).to.equal(null);
  });

  it('serializes an object with JSON.stringify', () => {
    const { context } = setup();
    context.set({ board: 'Launch', tasks: [{ id: 't1', status: 'todo' }] });
    expect(context.get()).to.equal('{"board":"Launch","tasks":[{"id":"t1","status":"todo"}]}');
  });

  it('keeps a string as is', () => {
    const { context } = setup();
    context.set('Cart: 2 items');
    expect(context.get()).to.equal('Cart: 2 items');
  });

  it('each call replaces the last', () => {
    const { context } = setup();
    context.set({ a: 1 });
    context.set({ b: 2 });
    expect(context.get()).to.equal('{"b":2}');
  });

  for (const empty of [null, '', undefined]) {
    it(`clears on ${JSON.stringify(empty) ?? 'undefined'}`, () => {
      const { context, warnings } = setup();
      context.set({ a: 1 });
      context.set(empty);
      expect(context.get()).to.equal(null);
      expect(warnings).to.deep.equal([]);
    });
  }

  const cyclic: Record<string, unknown> = {};
  cyclic['self'] = cyclic;
  for (const [label, value] of [
    ['a cycle', cyclic],
    ['a BigInt', { n: 1n }],
    ['a throwing toJSON', { toJSON: () => { throw new Error('no'); } }],
    ['a function root', () => 1],
    ['a symbol root', Symbol('s')],
    ['a toJSON returning undefined', { toJSON: () => undefined }],
  ] as const) {
    it(`ignores ${label} with one warning and keeps the previous value`, () => {
      const { context, warnings } = setup();
      context.set({ kept: true });
      context.set(value);
      expect(context.get()).to.equal('{"kept":true}');
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.match(/setContext\(value\) ignored/);
    });
  }

  it('warns through console.warn by default', () => {
    const original = console.warn;
    const seen: unknown[][] = [];
    console.warn = (...args: unknown[]) => {
      seen.push(args);
    };
    try {
      new PageContext().set({ n: 1n });
    } finally {
      console.warn = original;
    }
    expect(seen).to.have.length(1);
  });

  it('keeps a value of exactly 12,000 chars whole', () => {
    const { context } = setup();
    const text = 'a'.repeat(CONTEXT_CLIENT_CAP);
    context.set(text);
    expect(context.get()).to.equal(text);
  });

  it('caps longer values at 12,000 chars, suffix included', () => {
    const { context } = setup();
    context.set({ rows: 'r'.repeat(20_000) });
    const value = context.get()!;
    expect(value).to.have.length(CONTEXT_CLIENT_CAP);
    expect(value.endsWith('\u2026[truncated]')).to.equal(true);
    expect(value.startsWith('{"rows":"rrr')).to.equal(true);
  });

  it('does not leave half a surrogate pair at the cut', () => {
    const { context } = setup();
    const cut = CONTEXT_CLIENT_CAP - '\u2026[truncated]'.length;
    context.set('a'.repeat(cut - 1) + '\uD83D\uDE00' + 'b'.repeat(100));
    const value = context.get()!;
    expect(value).to.equal('a'.repeat(cut - 1) + '\u2026[truncated]');
  });
});
