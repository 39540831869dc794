import { expect } from '@open-wc/testing';
import { ArgumentValidator } from '../../src/tools/validator.js';
import type { JsonSchema } from '../../src/tools/types.js';

const schema: JsonSchema = {
  type: 'object',
  properties: {
    sku: { type: 'string', minLength: 1 },
    quantity: { type: 'integer', minimum: 1 },
    color: { enum: ['red', 'blue'] },
  },
  required: ['sku'],
  additionalProperties: false,
};

for (const engine of ['ajv', 'interpreter'] as const) {
  describe(`ArgumentValidator (${engine})`, () => {
    let validator: ArgumentValidator;
    beforeEach(() => {
      validator = new ArgumentValidator({ engine });
    });

    it('accepts valid object arguments and hands back the value', async () => {
      const result = await validator.validate(schema, { sku: 'A1', quantity: 2 });
      expect(result).to.deep.equal({ valid: true, value: { sku: 'A1', quantity: 2 } });
      expect(validator.engine).to.equal(engine);
    });

    it('parses JSON-string arguments as models send them', async () => {
      expect(await validator.validate(schema, '{"sku":"A1","color":"red"}')).to.deep.equal({
        valid: true,
        value: { sku: 'A1', color: 'red' },
      });
    });

    it('treats empty, null and missing arguments as {}', async () => {
      const open: JsonSchema = { type: 'object', properties: {} };
      for (const args of ['', '  ', null, undefined]) {
        expect(await validator.validate(open, args)).to.deep.equal({ valid: true, value: {} });
      }
    });

    it('explains a JSON parse failure', async () => {
      const result = await validator.validate(schema, '{"sku": ');
      expect(result.valid).to.equal(false);
      expect(result.valid === false && result.reason).to.match(/^arguments are not valid JSON/);
    });

    it('refuses arguments that are not an object', async () => {
      for (const [args, word] of [
        ['[1]', 'an array'],
        [[1], 'an array'],
        ['5', 'a number'],
        [true, 'a boolean'],
      ] as const) {
        const result = await validator.validate(schema, args);
        expect(result.valid === false && result.reason).to.equal(`arguments must be a JSON object, not ${word}`);
      }
    });

    it('gives a readable reason listing every problem', async () => {
      const result = await validator.validate(schema, { quantity: 0 });
      expect(result.valid).to.equal(false);
      if (result.valid) return;
      expect(result.reason).to.include('/quantity must be >= 1');
      expect(result.reason).to.include("must have required property 'sku'");
      expect(result.reason.split('; ')).to.have.length(2);
    });

    it('names extra properties, wrong types and allowed enum values', async () => {
      const result = await validator.validate(schema, { sku: 7, color: 'green', extra: 1 });
      if (result.valid) throw new Error('expected invalid');
      expect(result.reason).to.include('/sku must be string');
      expect(result.reason).to.include('/color must be equal to one of the allowed values: "red", "blue"');
      expect(result.reason).to.include("must NOT have additional properties ('extra')");
    });

    it('compiles a schema once and reuses it (by object and by JSON text)', async () => {
      const first = await validator.compile(schema);
      expect(await validator.compile(schema)).to.equal(first);
      expect(await validator.compile(JSON.parse(JSON.stringify(schema)) as JsonSchema)).to.equal(first);
      await validator.validate(schema, { sku: 'x' });
      expect(validator.compileCount).to.equal(1);
      const other = await validator.compile({ type: 'object', properties: { a: { type: 'number' } } });
      expect(other).not.to.equal(first);
      expect(validator.compileCount).to.equal(2);
    });

    it('compiles once when two calls race on a new schema', async () => {
      const fresh: JsonSchema = { type: 'object', properties: { z: { type: 'string' } } };
      const [a, b] = await Promise.all([validator.compile(fresh), validator.compile(fresh)]);
      expect(a).to.equal(b);
    });

    it('rejects with the reason when the signal is already aborted', async () => {
      const controller = new AbortController();
      controller.abort(new Error('stopped'));
      let caught: unknown;
      try {
        await validator.validate({ type: 'object', properties: { q: {} } }, {}, { signal: controller.signal });
      } catch (error) {
        caught = error;
      }
      expect((caught as Error).message).to.equal('stopped');
    });

    describe('prototype names are data, never inherited', () => {
      const PROTO_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

      for (const name of PROTO_NAMES) {
        it(`required: ["${name}"] refuses {} and accepts it given as an own property`, async () => {
          const required = { type: 'object', required: [name] } as JsonSchema;
          const refused = await validator.validate(required, {});
          expect(refused.valid, 'empty object').to.equal(false);
          expect(refused.valid === false && refused.reason).to.equal(`must have required property '${name}'`);
          expect((await validator.validate(required, `{"${name}": "x"}`)).valid, 'own property').to.equal(true);
        });

        it(`an optional "${name}" property accepts {} and judges an own value by its schema`, async () => {
          const optional = JSON.parse(`{"type":"object","properties":{"${name}":{"type":"string"}}}`) as JsonSchema;
          expect(await validator.validate(optional, {})).to.deep.equal({ valid: true, value: {} });
          expect((await validator.validate(optional, `{"${name}": "x"}`)).valid).to.equal(true);
          const wrong = await validator.validate(optional, `{"${name}": 5}`);
          expect(wrong.valid).to.equal(false);
          expect(wrong.valid === false && wrong.reason).to.equal(`/${name} must be string`);
        });
      }

      it('additionalProperties: false refuses a prototype-named key the schema does not list', async () => {
        const closed = { type: 'object', properties: { a: {} }, additionalProperties: false } as JsonSchema;
        for (const name of PROTO_NAMES) {
          const result = await validator.validate(closed, `{"${name}": 1}`);
          expect(result.valid, name).to.equal(false);
          expect(result.valid === false && result.reason, name).to.equal(`must NOT have additional properties ('${name}')`);
        }
      });
    });

    describe('reasons name the real limit, also through $ref', () => {
      const viaRef = {
        type: 'object',
        definitions: {
          quantity: { type: 'integer', minimum: 1, maximum: 99 },
          color: { enum: ['red', 'green', 'blue'] },
          code: { type: 'string', pattern: '^[A-Z]{3}$', maxLength: 3 },
          tags: { type: 'array', items: { $ref: '#/definitions/color' }, maxItems: 2 },
          nested: { $ref: '#/definitions/quantity' },
        },
        properties: {
          quantity: { $ref: '#/definitions/quantity' },
          color: { $ref: '#/definitions/color' },
          code: { $ref: '#/definitions/code' },
          tags: { $ref: '#/definitions/tags' },
          twice: { $ref: '#/definitions/nested' },
          note: { type: ['string', 'null'] },
        },
      } as JsonSchema;
      const reasonFor = async (args: Record<string, unknown>) => {
        const result = await validator.validate(viaRef, args);
        if (result.valid) throw new Error(`expected ${JSON.stringify(args)} to be refused`);
        return result.reason;
      };

      it('minimum and maximum', async () => {
        expect(await reasonFor({ quantity: 0 })).to.equal('/quantity must be >= 1');
        expect(await reasonFor({ quantity: 100 })).to.equal('/quantity must be <= 99');
        expect(await reasonFor({ twice: 0 })).to.equal('/twice must be >= 1');
      });

      it('type, also a list of types', async () => {
        expect(await reasonFor({ quantity: 1.5 })).to.equal('/quantity must be integer');
        expect(await reasonFor({ quantity: 'two' })).to.equal('/quantity must be integer');
        expect(await reasonFor({ note: 5 })).to.equal('/note must be string or null');
      });

      it('enum lists the allowed values', async () => {
        expect(await reasonFor({ color: 'pink' })).to.equal('/color must be equal to one of the allowed values: "red", "green", "blue"');
        expect(await reasonFor({ tags: ['red', 'pink'] })).to.equal('/tags/1 must be equal to one of the allowed values: "red", "green", "blue"');
      });

      it('pattern, length and item counts', async () => {
        expect(await reasonFor({ code: 'abc' })).to.equal('/code must match pattern "^[A-Z]{3}$"');
        expect(await reasonFor({ code: 'ABCD' })).to.include('/code must NOT have more than 3 characters');
        expect(await reasonFor({ tags: ['red', 'red', 'red'] })).to.equal('/tags must NOT have more than 2 items');
      });

      it('no reason reads "undefined" or "[object Object]"', async () => {
        const bad = [{ quantity: 0 }, { quantity: 'x' }, { color: {} }, { code: 1 }, { tags: [{}] }, { twice: [] }, { note: {} }];
        for (const args of bad) expect(await reasonFor(args), JSON.stringify(args)).not.to.match(/undefined|\[object Object\]/);
      });
    });

    it('refuses (fails closed) when the schema cannot be applied, with a reason for the model', async () => {
      for (const parameters of [
        { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } },
        { type: 'object', properties: { a: { $ref: 'https://example.com/schema.json' } } },
        { type: 'object', properties: { a: { type: 'string', pattern: '([a-z' } } },
        { type: 'object', patternProperties: { '(': { type: 'string' } } },
      ] as JsonSchema[]) {
        for (const args of [{ a: 1 }, {}]) {
          // `{}` never reaches the broken $ref, yet the tool is unusable: refused too.
          const result = await validator.validate(parameters, args);
          expect(result.valid, JSON.stringify(args)).to.equal(false);
          expect(result.valid === false && result.reason).to.match(/^the tool's parameters schema cannot be applied/);
        }
        const result = await validator.validate(parameters, { a: 1 });
        expect(result.valid, JSON.stringify(parameters)).to.equal(false);
        expect(result.valid === false && result.reason).to.match(/^the tool's parameters schema cannot be applied \(.+\), so the call was refused/);
        expect(result.valid === false && result.reason).not.to.match(/Known schemas|undefined/);
      }
    });
  });
}

describe('ArgumentValidator engines', () => {
  it('ajv: a schema naming a "__proto__" property is interpreted, and the engine stays ajv for the others', async () => {
    const validator = new ArgumentValidator({ engine: 'ajv' });
    const proto = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') as JsonSchema;
    const refused = await validator.validate(proto, '{"__proto__": 5}');
    expect(refused.valid === false && refused.reason).to.equal('/__proto__ must be string');
    expect((await validator.validate(schema, { sku: 'A1' })).valid).to.equal(true);
    expect(validator.engine).to.equal('ajv');
  });

  it('loads nothing before the first validation', () => {
    expect(new ArgumentValidator().engine).to.equal(null);
  });

  it("'auto' uses ajv on a page that allows eval (control for the CSP test)", async () => {
    const validator = new ArgumentValidator();
    expect((await validator.validate(schema, { sku: 'A' })).valid).to.equal(true);
    expect(validator.engine).to.equal('ajv');
  });

  it("'auto' falls back to the interpreter for a schema ajv refuses (not an eval problem)", async () => {
    const validator = new ArgumentValidator();
    // ajv (draft-07) cannot resolve this meta-schema URI; the interpreter ignores it.
    const odd: JsonSchema = { $schema: 'https://example.test/unknown-draft', type: 'object', properties: { n: { type: 'number' } } };
    const result = await validator.validate(odd, { n: 'x' });
    expect(result.valid).to.equal(false);
    expect(result.valid === false && result.reason).to.include('/n must be number');
  });

  it('under a CSP without unsafe-eval, validates with the interpreter (iframe fixture)', async () => {
    const frame = document.createElement('iframe');
    const message = new Promise<Record<string, unknown>>((resolve) => {
      const onMessage = (event: MessageEvent) => {
        const data = event.data as { type?: string };
        if (event.source === frame.contentWindow && data?.type === 'wave-csp-validate') {
          window.removeEventListener('message', onMessage);
          resolve(event.data as Record<string, unknown>);
        }
      };
      window.addEventListener('message', onMessage);
    });
    frame.src = '/test/fixtures/csp/validate.html';
    document.body.append(frame);
    try {
      const data = await message;
      expect(data['error'], String(data['error'])).to.equal(undefined);
      const report = data['report'] as Record<string, { valid?: boolean; reason?: string } | string | null>;
      // The policy really blocks eval in that page…
      expect(report['functionError']).to.equal('EvalError');
      // …yet validation works, with the interpreter.
      expect(report['autoEngine']).to.equal('interpreter');
      expect(report['good']).to.deep.equal({ valid: true, value: { sku: 'A1', quantity: 2 } });
      expect(report['badArgs']).to.deep.equal({
        valid: false,
        reason: "/quantity must be >= 1; must have required property 'sku'",
      });
      // Without the probe, ajv's compile hits EvalError and the validator switches for good.
      expect(report['unprobedEngine']).to.equal('interpreter');
      expect(report['unprobedGood']).to.deep.equal({ valid: true, value: { sku: 'B2' } });
      expect(report['unprobedBad']).to.deep.equal({ valid: false, reason: '/sku must NOT have fewer than 1 characters' });
      // ajv alone cannot work there at all.
      const forced = report['forced'] as { valid: boolean; reason: string };
      expect(forced.valid).to.equal(false);
      // Chromium names 'unsafe-eval' / Content Security Policy, Firefox says "blocked by CSP".
      expect(forced.reason).to.match(/cannot be applied \(.*(unsafe-eval|Content Security Policy|blocked by CSP)/i);
    } finally {
      frame.remove();
    }
  });
});
