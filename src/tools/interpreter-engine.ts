/**
 * The interpreting validator and its wording, as one lazily loaded module (one chunk): the
 * widget's validator imports it on first use of the interpreter, never at start-up.
 */
export { Validator } from '@cfworker/json-schema';
export { interpreterCheck } from './interpreter-reasons.js';
