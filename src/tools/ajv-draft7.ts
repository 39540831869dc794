/**
 * ajv's core with the draft-07 vocabulary and without its meta-schemas: our registry checks
 * schema shape itself (schema-check.ts), so the ~1.7 KB gzip of meta-schema JSON ajv would add
 * to the lazily loaded chunk buys nothing here.
 */
import AjvCoreImport from 'ajv/dist/core.js';
import draft7Import from 'ajv/dist/vocabularies/draft7.js';

// ajv is CommonJS: some bundlers hand over `exports`, others `exports.default`.
function interopDefault<T>(value: T): T {
  return (value as { default?: T }).default ?? value;
}

const AjvCore = interopDefault(AjvCoreImport);
const draft7Vocabularies = interopDefault(draft7Import);

type CoreOptions = ConstructorParameters<typeof AjvCoreImport>[0];

/**
 * ajv for draft-07 schemas; `meta` and `validateSchema` are off, and `ownProperties` is always
 * on: a property named like one of Object.prototype's (`constructor`, `toString`…) counts only
 * when the data has it as its own, as JSON means it and as the interpreter reads it.
 */
export default class AjvDraft7 extends AjvCore {
  constructor(options: CoreOptions = {}) {
    super({ ...options, ownProperties: true, meta: false, validateSchema: false });
  }

  override _addVocabularies(): void {
    super._addVocabularies();
    for (const vocabulary of draft7Vocabularies) this.addVocabulary(vocabulary);
  }
}
