/**
 * Tables of guard cases, one test each: attacks whose order must not reach the model, and page text
 * the guard must leave as it is. Shared by the clause-reading and gloss tests.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { findInstructionSpans, neutralizeInstructions } from '../../src/guard/neutralize.js';

/** [what the case is, the text, the part of it that must not reach the model] */
export type AttackCase = readonly [what: string, text: string, core: string];

/** One test per attack: the text is changed and its core is gone. */
export function itNeutralises(cases: readonly AttackCase[]): void {
  for (const [what, text, core] of cases) {
    it(`neutralises: ${what}`, () => {
      const out = neutralizeInstructions(text);
      assert.ok(out.changed, `${text} → ${out.text}`);
      assert.ok(!out.text.includes(core), `${core} still in ${out.text}`);
    });
  }
}

/** One test per honest text: no reading flags any of it (the flagged spans are named on failure). */
export function itLeavesAlone(texts: readonly string[]): void {
  for (const text of texts) {
    it(`leaves alone: ${text}`, () => {
      assert.deepEqual(findInstructionSpans(text).map((s) => `${s.ruleId}: ${text.slice(s.start, s.end)}`), []);
    });
  }
}
