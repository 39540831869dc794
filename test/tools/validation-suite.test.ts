import { expect } from '@open-wc/testing';
import { ArgumentValidator } from '../../src/tools/validator.js';
import type { JsonSchema } from '../../src/tools/types.js';
import { EXCLUDED_GROUPS, SUITE_FILES, runSuite, type SuiteGroup } from '../helpers/json-schema-suite.js';

async function loadSuite(): Promise<Map<string, SuiteGroup[]>> {
  const files = new Map<string, SuiteGroup[]>();
  for (const name of SUITE_FILES) {
    const response = await fetch(`/corpora/json-schema-test-suite/${name}.json`);
    expect(response.ok, name).to.equal(true);
    files.set(name, (await response.json()) as SuiteGroup[]);
  }
  return files;
}

describe('JSON-Schema-Test-Suite draft 7 through the widget validator', () => {
  let suite: Map<string, SuiteGroup[]>;
  before(async () => {
    suite = await loadSuite();
  });

  for (const engine of ['ajv', 'interpreter'] as const) {
    it(`${engine}: every case judged right, and no reason reads "undefined" or "[object Object]"`, async () => {
      const validator = new ArgumentValidator({ engine });
      const outcome = await runSuite(suite, (schema) => validator.compile(schema as JsonSchema));
      expect(outcome.unusable).to.deep.equal([]);
      expect(outcome.wrong).to.deep.equal([]);
      expect(outcome.unreadable).to.deep.equal([]);
      // Every case of every non-excluded group was judged, every invalid one with a reason.
      const cases = [...suite.entries()].flatMap(([file, groups]) =>
        groups.filter((g) => !EXCLUDED_GROUPS.some((x) => x.file === file && x.group === g.description)).flatMap((g) => g.tests),
      );
      expect(outcome.judged).to.equal(cases.length);
      expect(outcome.rejections).to.equal(cases.filter((t) => !t.valid).length);
    });

    it(`${engine}: the excluded meta-schema cases are refused (fail closed), never accepted`, async () => {
      const validator = new ArgumentValidator({ engine });
      for (const { file, group } of EXCLUDED_GROUPS) {
        const found = suite.get(file)?.find((g) => g.description === group);
        expect(found, group).to.not.equal(undefined);
        const schema = { type: 'object', properties: { value: found!.schema } } as JsonSchema;
        for (const test of found!.tests) {
          const result = await validator.validate(schema, { value: test.data });
          expect(result.valid, `${group} › ${test.description}`).to.equal(false);
          expect(result.valid === false && result.reason).to.match(/schema cannot be applied/);
        }
      }
    });
  }
});
