/**
 * Guards shared by the wave server and the widget: neutralising instruction-like text
 * and marking untrusted text as delimited data (SPEC §10).
 */
export { neutralizeInstructions, findInstructionSpans, REDACTION_MARKER } from './neutralize.js';
export type { InstructionMatch } from './neutralize.js';
export { createNonce, envelope, guardPreamble, defangEnvelopeText, unwrapEnvelope, EnvelopeKind, DEFANGED_MARKER, DEFANGED_NONCE } from './envelope.js';
export { INSTRUCTION_RULES, InstructionFamily } from './rules.js';
export type { InstructionRule } from './rules.js';
export { foldText } from './fold.js';
export type { FoldedText } from './fold.js';
export { neutralizeValue, neutralizeJsonText } from './structured.js';
export { capText, guardText, guardResult, TRUNCATION_SUFFIX } from './truncate.js';
export { correctKeyWords, keyWordFor } from './typos.js';
