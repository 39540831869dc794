import { expect } from '@open-wc/testing';
import { WaveSession } from '../../src/agent/wave-session.js';
import { consentSchema, mustConfirm, readConsentFacts } from '../../src/consent/policy.js';
import { ToolRegistry } from '../../src/tools/registry.js';

const throwing = (key: string) =>
  Object.defineProperty({}, key, {
    get() {
      throw new Error('nope');
    },
    enumerable: true,
  }) as Record<string, unknown>;

describe('consent policy: one derivation of "must this call confirm?"', () => {
  const table: Array<[string, Record<string, unknown>, boolean]> = [
    ['nothing set', {}, false],
    ['cost 0', { cost: 0 }, false],
    ['cost > 0', { cost: 40 }, true],
    ['tier3', { tier3: true }, true],
    ['confirm', { confirm: true }, true],
    ['confirm false, cost 0', { confirm: false, cost: 0 }, false],
    ['a truthy non-boolean tier3', { tier3: 'yes' }, true],
    ['cost NaN (unreadable)', { cost: Number.NaN }, true],
    ['cost negative (unreadable)', { cost: -1 }, true],
    ['cost Infinity (unreadable)', { cost: Infinity }, true],
    ['cost a string (unreadable)', { cost: '40' }, true],
    ['cost null (unreadable)', { cost: null }, true],
    ['cost getter throws', throwing('cost'), true],
    ['tier3 getter throws', throwing('tier3'), true],
    ['confirm getter throws', throwing('confirm'), true],
  ];
  for (const [name, def, expected] of table) {
    it(`${name} → ${expected ? 'confirm' : 'no confirmation'}`, () => {
      expect(mustConfirm(readConsentFacts(def))).to.equal(expected);
      expect(consentSchema(def).confirm).to.equal(expected);
    });
  }

  it('an unreadable cost is reported as such (the runner refuses to run it)', () => {
    expect(readConsentFacts({ cost: -5 })).to.deep.equal({ cost: 0, costReadable: false, tier3: false, confirm: false });
    expect(readConsentFacts(throwing('cost')).costReadable).to.equal(false);
  });

  it('registered tools, built-in tools and the policy agree, tier3 and unreadable costs included', () => {
    // Fresh definitions each time (a spread would freeze a getter into a value).
    const make = (name: string): { description: string; handler: () => object; cost?: number; tier3?: boolean } => {
      const def: { description: string; handler: () => object; cost?: number; tier3?: boolean } = { description: name, handler: () => ({}) };
      if (name === 'paid') return Object.assign(def, { cost: 5 });
      if (name === 'sacred') return Object.assign(def, { tier3: true });
      if (name === 'broken') return Object.defineProperty(def, 'cost', { get: () => Number.NaN, enumerable: true });
      return def;
    };
    const names = ['plain', 'paid', 'sacred', 'broken'];
    const registry = new ToolRegistry({ warn: () => undefined });
    for (const name of names) expect(registry.register(name, make(name)), name).to.equal(true);
    const session = new WaveSession({ builtinTools: Object.fromEntries(names.map((name) => [name, make(name)])) });
    const fromBuiltins = session.getHostToolSchemas();
    for (const name of names) {
      const expected = mustConfirm(readConsentFacts(make(name)));
      expect(expected, name).to.equal(name !== 'plain');
      expect(registry.toSchema(registry.get(name)!).confirm, `registry ${name}`).to.equal(expected);
      expect(fromBuiltins.find((s) => s.name === name)!.confirm, `built-in ${name}`).to.equal(expected);
    }
    expect(fromBuiltins.find((s) => s.name === 'sacred')).to.deep.include({ confirm: true, tier3: true });
    session.dispose();
  });
});
