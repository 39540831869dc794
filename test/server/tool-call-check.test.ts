import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { CallCheckStatus, ToolCallChecker, compileArgumentCheck } from '../../src/server/tool-call-check.js';
import type { PageToolSchema } from '../../src/tools/types.js';
import { EXCLUDED_GROUPS, SUITE_FILES, runSuite, type SuiteGroup } from '../helpers/json-schema-suite.js';

const tool = (name: string, parameters: unknown): PageToolSchema => ({ name, description: name, parameters } as PageToolSchema);
const check = (parameters: unknown, args: unknown) =>
  new ToolCallChecker([tool('act', parameters)]).check({ id: 'c1', name: 'act', arguments: JSON.stringify(args) });

describe('ToolCallChecker', () => {
  describe('fails closed', () => {
    const unusable: Array<[string, unknown]> = [
      ['a $ref to a missing definition', { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } }],
      ['a remote $ref', { type: 'object', properties: { a: { $ref: 'https://example.com/schema.json' } } }],
      ['a pattern that is not a regular expression', { type: 'object', properties: { a: { type: 'string', pattern: '([a-z' } } }],
      ['a $ref to the draft-07 meta-schema', { type: 'object', properties: { a: { $ref: 'http://json-schema.org/draft-07/schema#' } } }],
    ];
    for (const [what, parameters] of unusable) {
      it(`refuses a call whose schema has ${what}, telling the model why`, () => {
        // Also arguments that never reach the broken part (`{}`): the whole tool is unusable.
        for (const args of [{ a: 'x' }, {}]) {
          const result = check(parameters, args);
          assert.equal(result.status, CallCheckStatus.invalid, JSON.stringify(args));
          assert.equal(result.schemaUnusable, true);
          assert.match(result.reason, /^Invalid arguments for "act": the tool's parameters schema cannot be applied \(.+\), so the call was refused/);
          assert.doesNotMatch(result.reason, /Known schemas|undefined|\[object Object\]/);
        }
      });
    }

    it('still refuses the next call to the same tool (the failure is not cached as a pass)', () => {
      const checker = new ToolCallChecker([tool('act', unusable[0]![1])]);
      for (const id of ['c1', 'c2']) assert.equal(checker.check({ id, name: 'act', arguments: '{"a":1}' }).status, CallCheckStatus.invalid);
    });
  });

  describe('prototype names are data', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      it(`required "${name}" refuses {}; an optional "${name}" accepts {}; an own value is judged`, () => {
        const required = check({ type: 'object', required: [name] }, {});
        assert.equal(required.status, CallCheckStatus.invalid);
        assert.equal(required.reason, `Invalid arguments for "act": must have required property '${name}'.`);
        const optional = JSON.parse(`{"type":"object","properties":{"${name}":{"type":"string"}}}`) as unknown;
        assert.equal(check(optional, {}).status, CallCheckStatus.ok);
        const checker = new ToolCallChecker([tool('act', optional)]);
        assert.equal(checker.check({ id: 'c', name: 'act', arguments: `{"${name}":"x"}` }).status, CallCheckStatus.ok);
        const wrong = checker.check({ id: 'c', name: 'act', arguments: `{"${name}":5}` });
        assert.equal(wrong.reason, `Invalid arguments for "act": /${name} must be string.`);
      });
    }
  });

  it('words reasons like the widget, naming the real limit through $ref', () => {
    const parameters = {
      type: 'object',
      definitions: { qty: { type: 'integer', minimum: 1 }, color: { enum: ['red', 'blue'] } },
      properties: { qty: { $ref: '#/definitions/qty' }, color: { $ref: '#/definitions/color' } },
    };
    assert.equal(check(parameters, { qty: 0 }).reason, 'Invalid arguments for "act": /qty must be >= 1.');
    assert.equal(check(parameters, { qty: 'x' }).reason, 'Invalid arguments for "act": /qty must be integer.');
    assert.equal(
      check(parameters, { color: 'green' }).reason,
      'Invalid arguments for "act": /color must be equal to one of the allowed values: "red", "blue".',
    );
  });
});

describe('JSON-Schema-Test-Suite draft 7 through the server check', () => {
  const files = new Map<string, SuiteGroup[]>();
  for (const name of SUITE_FILES) {
    const url = new URL(`../corpora/json-schema-test-suite/${name}.json`, import.meta.url);
    files.set(name, JSON.parse(readFileSync(url, 'utf8')) as SuiteGroup[]);
  }

  it('judges every case right, and no reason reads "undefined" or "[object Object]"', async () => {
    const outcome = await runSuite(files, (schema) => compileArgumentCheck(schema));
    assert.deepEqual(outcome.unusable, []);
    assert.deepEqual(outcome.wrong, []);
    assert.deepEqual(outcome.unreadable, []);
    const cases = [...files.entries()].flatMap(([file, groups]) =>
      groups.filter((g) => !EXCLUDED_GROUPS.some((x) => x.file === file && x.group === g.description)).flatMap((g) => g.tests),
    );
    assert.equal(outcome.judged, cases.length);
    assert.equal(outcome.rejections, cases.filter((t) => !t.valid).length);
  });

  it('refuses the excluded meta-schema cases (fail closed)', () => {
    for (const { file, group } of EXCLUDED_GROUPS) {
      const found = files.get(file)?.find((g) => g.description === group);
      assert.ok(found, group);
      for (const test of found.tests) {
        assert.equal(check({ type: 'object', properties: { value: found.schema } }, { value: test.data }).status, CallCheckStatus.invalid);
      }
    }
  });
});
