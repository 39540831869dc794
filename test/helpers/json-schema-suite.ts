/**
 * The JSON-Schema-Test-Suite draft-07 cases (test/corpora/json-schema-test-suite) run through
 * a validator: one runner for the widget's engines (Chromium) and the server's check (Node).
 * It loads nothing itself; the caller hands over the parsed files.
 */

export interface SuiteTest {
  description: string;
  data: unknown;
  valid: boolean;
}
export interface SuiteGroup {
  description: string;
  schema: unknown;
  tests: SuiteTest[];
}

/** The files copied from tests/draft7/ (refRemote.json is not: see SOURCE.txt). */
export const SUITE_FILES = [
  'additionalItems', 'additionalProperties', 'allOf', 'anyOf', 'boolean_schema', 'const', 'contains', 'default',
  'definitions', 'dependencies', 'enum', 'exclusiveMaximum', 'exclusiveMinimum', 'format', 'if-then-else',
  'infinite-loop-detection', 'items', 'maxItems', 'maxLength', 'maxProperties', 'maximum', 'minItems', 'minLength',
  'minProperties', 'minimum', 'multipleOf', 'not', 'oneOf', 'pattern', 'patternProperties', 'properties',
  'propertyNames', 'ref', 'required', 'type', 'uniqueItems',
] as const;

/**
 * Groups left out on purpose, with why. Both reference the draft-07 meta-schema by its remote
 * URI; neither engine bundles it (ajv's meta-schemas are left out to keep the lazy chunk
 * small, see src/tools/ajv-draft7.ts), and a tool's schema never needs it. Such a schema is
 * refused (fail closed): the tests assert that separately.
 */
export const EXCLUDED_GROUPS: ReadonlyArray<{ file: string; group: string; why: string }> = [
  { file: 'definitions', group: 'validate definition against metaschema', why: 'remote $ref to the draft-07 meta-schema' },
  { file: 'ref', group: 'remote ref, containing refs itself', why: 'remote $ref to the draft-07 meta-schema' },
];

export interface SuiteOutcome {
  /** Test cases judged. */
  judged: number;
  /** Rejections (each one's reason checked). */
  rejections: number;
  /** "file › group › test: expected valid/invalid, got …". */
  wrong: string[];
  /** Reasons that read "undefined" or "[object Object]". */
  unreadable: string[];
  /** Groups whose schema could not be applied although not excluded. */
  unusable: string[];
}

/** A check: null when valid, else the reason (the shape of the widget's CompiledCheck). */
export type SuiteCheck = (value: unknown) => string | null;

/**
 * Runs every non-excluded case through `compile`. A boolean root schema is wrapped in `allOf`
 * (the validators cache compiled checks by schema object; the verdicts are the same).
 */
export async function runSuite(
  files: ReadonlyMap<string, SuiteGroup[]>,
  compile: (schema: object) => SuiteCheck | Promise<SuiteCheck>,
): Promise<SuiteOutcome> {
  const outcome: SuiteOutcome = { judged: 0, rejections: 0, wrong: [], unreadable: [], unusable: [] };
  for (const [file, groups] of files) {
    for (const group of groups) {
      if (EXCLUDED_GROUPS.some((x) => x.file === file && x.group === group.description)) continue;
      const schema = typeof group.schema === 'boolean' ? { allOf: [group.schema] } : (group.schema as object);
      let check: SuiteCheck;
      try {
        check = await compile(schema);
      } catch (error) {
        outcome.unusable.push(`${file} › ${group.description}: ${String(error)}`);
        continue;
      }
      for (const test of group.tests) {
        const where = `${file} › ${group.description} › ${test.description}`;
        let reason: string | null;
        try {
          reason = check(test.data);
        } catch (error) {
          outcome.unusable.push(`${where}: ${String(error)}`);
          continue;
        }
        outcome.judged += 1;
        if ((reason === null) !== test.valid) outcome.wrong.push(`${where}: expected ${test.valid ? 'valid' : 'invalid'}, got ${reason ?? 'valid'}`);
        if (reason !== null) {
          outcome.rejections += 1;
          if (/undefined|\[object Object\]/.test(reason)) outcome.unreadable.push(`${where}: ${reason}`);
        }
      }
    }
  }
  return outcome;
}
