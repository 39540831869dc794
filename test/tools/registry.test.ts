import { expect } from '@open-wc/testing';
import { ToolRegistry } from '../../src/tools/registry.js';
import { checkParametersSchema } from '../../src/tools/schema-check.js';
import { RESERVED_TOOL_NAMES } from '../../src/tools/types.js';

const handler = () => ({ ok: true });

function setup(maxTools?: number) {
  const warnings: string[] = [];
  const registry = new ToolRegistry({ warn: (message) => warnings.push(message), ...(maxTools ? { maxTools } : {}) });
  return { registry, warnings };
}

/** Registration must fail with exactly one warning mentioning `reason`. */
function expectRejected(name: unknown, definition: unknown, reason: RegExp): void {
  const { registry, warnings } = setup();
  expect(registry.register(name, definition)).to.equal(false);
  expect(warnings, 'exactly one warning').to.have.length(1);
  expect(warnings[0]).to.match(reason);
  expect(registry.size).to.equal(0);
}

describe('ToolRegistry', () => {
  describe('accepting', () => {
    it('registers a valid tool and lists it with the default parameters', () => {
      const { registry, warnings } = setup();
      expect(registry.register('set_status', { description: 'Set a status.', handler })).to.equal(true);
      expect(warnings).to.deep.equal([]);
      const tool = registry.get('set_status')!;
      expect(tool.parameters).to.deep.equal({ type: 'object', properties: {} });
      expect(registry.toSchema(tool)).to.deep.equal({
        name: 'set_status',
        description: 'Set a status.',
        parameters: { type: 'object', properties: {} },
        confirm: false,
        cost: 0,
        tier3: false,
      });
    });

    it('accepts names of 1 and 48 characters of [a-z0-9_]', () => {
      const { registry } = setup();
      expect(registry.register('a', { handler })).to.equal(true);
      expect(registry.register('a'.repeat(48), { handler })).to.equal(true);
      expect(registry.register('tool_2_go', { handler })).to.equal(true);
    });

    it('keeps a detached copy of parameters: later page mutations change nothing', () => {
      const { registry } = setup();
      const parameters = { type: 'object', properties: { id: { type: 'string' } } };
      registry.register('t', { handler, parameters });
      (parameters.properties as Record<string, unknown>)['extra'] = { type: 'number' };
      expect(registry.get('t')!.parameters).to.deep.equal({ type: 'object', properties: { id: { type: 'string' } } });
    });

    it('lists in registration order', () => {
      const { registry } = setup();
      for (const name of ['c', 'a', 'b']) registry.register(name, { handler });
      expect(registry.list().map((t) => t.name)).to.deep.equal(['c', 'a', 'b']);
    });

    it('accepts a class-instance definition whose handler lives on the prototype', () => {
      class Tool {
        description = 'A tool.';
        handler() {
          return 1;
        }
      }
      const { registry } = setup();
      expect(registry.register('klass', new Tool())).to.equal(true);
    });
  });

  describe('rejecting, one warning each', () => {
    for (const bad of ['', 'Bad', 'has-dash', 'has space', 'a'.repeat(49), 'é', 'x\n']) {
      it(`rejects the invalid name ${JSON.stringify(bad.slice(0, 10))}`, () => {
        expectRejected(bad, { handler }, /invalid name/);
      });
    }

    for (const bad of [42, null, undefined, {}, Symbol('s')]) {
      it(`rejects a non-string name (${typeof bad})`, () => {
        expectRejected(bad, { handler }, /invalid name/);
      });
    }

    for (const name of RESERVED_TOOL_NAMES) {
      it(`rejects the reserved name ${name}`, () => {
        expectRejected(name, { handler }, /reserved name/);
      });
    }

    for (const bad of [null, undefined, 'string', 42, [], () => 1]) {
      it(`rejects a definition that is not an object (${Array.isArray(bad) ? 'array' : typeof bad})`, () => {
        expectRejected('t', bad, /definition must be an object/);
      });
    }

    it('rejects a missing handler', () => {
      expectRejected('t', { description: 'x' }, /missing handler/);
    });

    it('rejects a handler that is not a function', () => {
      expectRejected('t', { handler: 'run()' }, /handler must be a function/);
    });

    it('rejects a description over 2,000 characters, accepts exactly 2,000', () => {
      expectRejected('t', { handler, description: 'd'.repeat(2001) }, /description is 2001 characters; the limit is 2000/);
      const { registry } = setup();
      expect(registry.register('t', { handler, description: 'd'.repeat(2000) })).to.equal(true);
    });

    it('rejects a description that is not a string', () => {
      expectRejected('t', { handler, description: 42 }, /description must be a string/);
    });

    it('rejects a parameters schema that is not valid, with the checker reason', () => {
      expectRejected('t', { handler, parameters: { type: 'string' } }, /parameters is not a valid JSON Schema: root must have type "object"/);
    });

    it('rejects parameters over 8 KB serialized', () => {
      const parameters = { type: 'object', description: 'p'.repeat(8200) };
      expectRejected('t', { handler, parameters }, /parameters is not a valid JSON Schema: .*8192/);
    });

    for (const cost of [-1, NaN, Infinity, '40']) {
      it(`rejects the cost ${String(cost)}`, () => {
        expectRejected('t', { handler, cost }, /cost must be a number >= 0/);
      });
    }

    it('rejects a summary that is not a function', () => {
      expectRejected('t', { handler, summary: 'Done' }, /summary must be a function/);
    });

    for (const timeoutMs of [0, -5, NaN, Infinity, '100', 2 ** 31]) {
      it(`rejects the timeoutMs ${String(timeoutMs)}`, () => {
        expectRejected('t', { handler, timeoutMs }, /timeoutMs must be/);
      });
    }

    it('rejects a definition whose fields throw when read, without crashing', () => {
      const definition = {
        get handler(): never {
          throw new Error('boom');
        },
      };
      expectRejected('t', definition, /definition could not be read/);
    });

    it('rejects a hostile Proxy definition without crashing', () => {
      const thrower = () => {
        throw new Error('trap');
      };
      const proxy = new Proxy({}, { get: thrower, getOwnPropertyDescriptor: thrower, getPrototypeOf: thrower });
      expectRejected('t', proxy, /definition could not be read/);
    });
  });

  describe('the catalogue limit', () => {
    it('accepts 128 tools and rejects the 129th with one warning', () => {
      const { registry, warnings } = setup();
      for (let i = 0; i < 128; i++) expect(registry.register(`tool_${i}`, { handler })).to.equal(true);
      expect(registry.register('tool_128', { handler })).to.equal(false);
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.match(/catalogue full/);
      expect(registry.size).to.equal(128);
    });

    it('still allows replacing an existing name when full', () => {
      const { registry, warnings } = setup(3);
      for (const name of ['a', 'b', 'c']) registry.register(name, { handler });
      expect(registry.register('b', { handler, description: 'new' })).to.equal(true);
      expect(warnings).to.deep.equal([]);
      expect(registry.get('b')!.description).to.equal('new');
    });
  });

  describe('replacing and removing', () => {
    it('re-registering replaces and keeps nothing of the old definition', () => {
      const { registry } = setup();
      const first = { handler, description: 'old', cost: 5, parameters: { type: 'object', properties: { a: { type: 'string' } } } };
      registry.register('t', first);
      const second = { handler: () => 2 };
      registry.register('t', second);
      const tool = registry.get('t')!;
      expect(registry.size).to.equal(1);
      expect(tool.definition).to.equal(second);
      expect(registry.toSchema(tool)).to.include({ description: '', cost: 0, confirm: false });
      expect(tool.parameters).to.deep.equal({ type: 'object', properties: {} });
    });

    it('a failed re-registration keeps the previous tool', () => {
      const { registry } = setup();
      registry.register('t', { handler, description: 'kept' });
      expect(registry.register('t', { description: 'no handler' })).to.equal(false);
      expect(registry.get('t')!.description).to.equal('kept');
    });

    it('unregister returns whether the tool was registered', () => {
      const { registry } = setup();
      registry.register('t', { handler });
      expect(registry.unregister('t')).to.equal(true);
      expect(registry.unregister('t')).to.equal(false);
      expect(registry.unregister(42)).to.equal(false);
      expect(registry.size).to.equal(0);
    });

    it('registerMany counts what was accepted and warns once per rejection', () => {
      const { registry, warnings } = setup();
      const count = registry.registerMany({ a: { handler }, Bad: { handler }, b: { handler }, c: {} });
      expect(count).to.equal(2);
      expect(warnings).to.have.length(2);
      expect(registry.registerMany(null)).to.equal(0);
      expect(warnings).to.have.length(3);
    });

    it('notifies listeners on every change until unsubscribed', () => {
      const { registry } = setup();
      let calls = 0;
      const off = registry.onChange(() => calls++);
      registry.register('a', { handler });
      registry.register('a', { handler });
      registry.unregister('a');
      registry.register('Bad', { handler });
      expect(calls).to.equal(3);
      off();
      registry.register('b', { handler });
      expect(calls).to.equal(3);
    });
  });

  describe('live getters', () => {
    it('does not call cost or confirmLabel getters at registration', () => {
      const { registry } = setup();
      let reads = 0;
      const definition = {
        handler,
        get cost() {
          reads++;
          return 10;
        },
        get confirmLabel() {
          reads++;
          return 'Sure?';
        },
      };
      expect(registry.register('t', definition)).to.equal(true);
      expect(reads).to.equal(0);
      expect(registry.get('t')!.definition).to.equal(definition);
    });

    it('reads cost fresh in toSchema; cost > 0 forces confirm', () => {
      const { registry } = setup();
      let price = 0;
      registry.register('buy', {
        handler,
        get cost() {
          return price;
        },
      });
      const tool = registry.get('buy')!;
      expect(registry.toSchema(tool)).to.include({ cost: 0, confirm: false });
      price = 40;
      expect(registry.toSchema(tool)).to.include({ cost: 40, confirm: true });
    });

    it('a throwing cost getter neither crashes nor skips confirmation', () => {
      const { registry } = setup();
      registry.register('buy', {
        handler,
        get cost(): number {
          throw new Error('not ready');
        },
      });
      expect(registry.toSchema(registry.get('buy')!)).to.include({ cost: 0, confirm: true });
    });

    it('confirm and tier3 are read fresh; tier3 always confirms', () => {
      const { registry } = setup();
      const definition: { handler: typeof handler; confirm?: boolean; tier3?: boolean } = { handler };
      registry.register('t', definition);
      const tool = registry.get('t')!;
      expect(registry.toSchema(tool).confirm).to.equal(false);
      definition.confirm = true;
      expect(registry.toSchema(tool).confirm).to.equal(true);
      definition.confirm = false;
      definition.tier3 = true;
      expect(registry.toSchema(tool)).to.include({ confirm: true, tier3: true });
    });
  });
});

describe('checkParametersSchema', () => {
  const ok = (schema: unknown) => expect(checkParametersSchema(schema), JSON.stringify(schema)).to.equal(null);
  const bad = (schema: unknown, reason: RegExp) => expect(checkParametersSchema(schema)).to.match(reason);

  it('accepts typical tool schemas', () => {
    ok({ type: 'object' });
    ok({
      type: 'object',
      properties: {
        id: { type: 'string', description: 'Task id', minLength: 1, pattern: '^t\\d+$' },
        status: { enum: ['todo', 'doing', 'done'] },
        qty: { type: ['integer', 'null'], minimum: 1, maximum: 99, multipleOf: 1 },
        tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, maxItems: 5 },
        point: { type: 'array', items: [{ type: 'number' }, { type: 'number' }] },
        when: { anyOf: [{ type: 'string', format: 'date' }, { const: 'now' }] },
        ref: { $ref: '#/$defs/thing' },
      },
      required: ['id'],
      additionalProperties: false,
      $defs: { thing: { type: 'object', properties: {} } },
    });
  });

  it('requires a plain-object root with type "object"', () => {
    bad(null, /JSON Schema object/);
    bad([], /JSON Schema object/);
    bad('{"type":"object"}', /JSON Schema object/);
    bad({ properties: {} }, /root must have type "object"/);
    bad({ type: ['object'] }, /root must have type "object"/);
  });

  it('rejects wrongly shaped keywords, naming where', () => {
    bad({ type: 'object', properties: [] }, /parameters\/properties must be an object of schemas/);
    bad({ type: 'object', properties: { a: { type: 'text' } } }, /parameters\/properties\/a\/type has an unknown type "text"/);
    bad({ type: 'object', properties: { a: 'string' } }, /parameters\/properties\/a must be a schema/);
    bad({ type: 'object', required: 'a' }, /required must be an array of strings/);
    bad({ type: 'object', required: ['a', 'a'] }, /required lists "a" twice/);
    bad({ type: 'object', required: [1] }, /required must contain only strings/);
    bad({ type: 'object', anyOf: [] }, /anyOf must be a non-empty array of schemas/);
    bad({ type: 'object', oneOf: {} }, /oneOf must be a non-empty array/);
    bad({ type: 'object', allOf: [3] }, /allOf\/0 must be a schema/);
    bad({ type: 'object', not: 'x' }, /not must be a schema/);
    bad({ type: 'object', additionalProperties: 'no' }, /additionalProperties must be a schema/);
    bad({ type: 'object', properties: { a: { items: 5 } } }, /items must be a schema/);
    bad({ type: 'object', properties: { a: { enum: 'x' } } }, /enum must be an array/);
    bad({ type: 'object', properties: { a: { minimum: '1' } } }, /minimum must be a number/);
    bad({ type: 'object', properties: { a: { exclusiveMinimum: true } } }, /exclusiveMinimum must be a number/);
    bad({ type: 'object', properties: { a: { minLength: -1 } } }, /minLength must be a non-negative integer/);
    bad({ type: 'object', properties: { a: { maxItems: 1.5 } } }, /maxItems must be a non-negative integer/);
    bad({ type: 'object', properties: { a: { multipleOf: 0 } } }, /multipleOf must be a number greater than 0/);
    bad({ type: 'object', properties: { a: { pattern: '(' } } }, /pattern is not a valid regular expression/);
    bad({ type: 'object', properties: { a: { description: 5 } } }, /description must be a string/);
    bad({ type: 'object', properties: { a: { $ref: 'https://x.test/s.json' } } }, /\$ref must be a local reference/);
    bad({ type: 'object', properties: { a: { type: [] } } }, /type must not be an empty array/);
  });

  it('rejects non-JSON values: functions, undefined in arrays, NaN, class instances, BigInt', () => {
    bad({ type: 'object', default: () => 1 }, /function/);
    bad({ type: 'object', enum: [undefined] }, /undefined/);
    bad({ type: 'object', properties: { a: { minimum: NaN } } }, /finite number/);
    bad({ type: 'object', default: new Date() }, /not a plain object/);
    bad({ type: 'object', const: 1n }, /bigint/);
  });

  it('rejects cycles and absurd nesting without crashing', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic['not'] = cyclic;
    bad(cyclic, /cycle/);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 10_000; i++) deep = { not: deep };
    bad({ type: 'object', properties: { a: deep } }, /nested more than 64/);
  });

  it('rejects a schema whose getter throws without crashing', () => {
    bad(
      {
        type: 'object',
        get properties(): never {
          throw new Error('boom');
        },
      },
      /could not be read/,
    );
  });

  it('measures the 8 KB limit on the serialized UTF-8 size', () => {
    const base = JSON.stringify({ type: 'object', description: '' }).length;
    ok({ type: 'object', description: 'a'.repeat(8192 - base) });
    bad({ type: 'object', description: 'a'.repeat(8193 - base) }, /8193 bytes serialized; the limit is 8192/);
    // 'é' is two bytes in UTF-8.
    bad({ type: 'object', description: 'é'.repeat(4100) }, /limit is 8192/);
  });

  it('refuses a huge schema early, before walking all of it', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) properties[`p${i}`] = { type: 'string' };
    bad({ type: 'object', properties }, /over 8192 bytes/);
  });
});
