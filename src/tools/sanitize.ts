/**
 * Result sanitization (SPEC §4.6): whatever a handler returns becomes a small, JSON-safe
 * plain object before it reaches the model. Never throws, whatever it is given.
 *
 * Choices where the spec is silent (JSON.stringify's rules unless said otherwise):
 * - functions, symbols, undefined and DOM nodes (and Window) are omitted in objects, null in arrays;
 * - BigInt becomes its decimal string; NaN and ±Infinity become null; Dates go through toJSON;
 * - a Map becomes a plain object (primitive keys as strings; object keys dropped), a Set an array,
 *   a typed array an array of numbers, an Error `{ name, message }`;
 * - object keys get the same string rules as values (2,000 chars, lone surrogates → U+FFFD);
 * - at the root, `success` (then `error`) is placed first, so even a truncated preview starts
 *   with the outcome.
 */
import { capText, TRUNCATION_SUFFIX } from '../guard/cap.js';
import { ToolLimits, type SanitizedResult } from './types.js';
import { describeError } from '../util/describe-error.js';

/** Appended to every cut string (U+2026 + "[truncated]"), from the one truncation helper. */
export { TRUNCATION_SUFFIX };
/** The note on a salvaged (unserializable) result. */
export const SALVAGE_NOTE = 'nested values were omitted: the result could not be serialized';
/** The note on an oversize result. */
export const OVERSIZE_NOTE = 'result truncated to fit';

// Deeper than this is treated as unserializable, so a 100k-level chain never reaches the stack limit.
const MAX_DEPTH = 64;
// Beyond this many values the result is treated as unserializable (e.g. exponential shared references).
const MAX_VISITS = 2_000_000;
// Once this many characters are certainly emitted the preview is decided: stop building, keep checking.
const BUILD_BUDGET = ToolLimits.maxResultChars + 16;

const DROP: unique symbol = Symbol('drop');
type Dropped = typeof DROP;

interface WalkState {
  /** A lower bound of the JSON characters emitted into the built tree so far. */
  emitted: number;
  visits: number;
  /** False once the budget is spent: values are still walked (to find unserializable ones), not copied. */
  building: boolean;
  ancestors: Set<object>;
}

/**
 * Rewrites a handler's return value into what the model receives (SPEC §4.6).
 *
 * @example
 * sanitizeResult({ id: 't1' });            // { success: true, id: 't1' }
 * sanitizeResult('done');                  // { success: true, data: 'done' }
 * sanitizeResult({ el: document.body });   // { success: true }
 */
export function sanitizeResult(value: unknown): SanitizedResult {
  try {
    const state: WalkState = { emitted: 0, visits: 0, building: true, ancestors: new Set() };
    const cleaned = walk(value, '', 0, state, false);
    return fit(toRoot(cleaned, isObjectResult(cleaned)));
  } catch {
    try {
      return fit(salvage(value));
    } catch {
      return { success: true, note: SALVAGE_NOTE };
    }
  }
}

/** Serialized size up to which a built-in tool's result passes whole (the server re-caps at 8,000 by default). */
export const BUILTIN_RESULT_CHARS = 8000;

/**
 * For our own built-in tools (e.g. `read_page`, whose outline is paged at about 4,000 chars):
 * their results are plain data we produced, so they skip the page-tool caps of §4.6 while
 * they fit `BUILTIN_RESULT_CHARS`; anything else goes through `sanitizeResult`.
 *
 * @example
 * sanitizeBuiltinResult({ success: true, outline: '- heading(1) "Contact"…' });
 */
export function sanitizeBuiltinResult(value: unknown): SanitizedResult {
  try {
    const json = JSON.stringify(value);
    if (typeof json === 'string' && json.length <= BUILTIN_RESULT_CHARS && isObjectResult(value)) {
      const parsed = JSON.parse(json) as SanitizedResult;
      return { success: true, ...parsed };
    }
  } catch {
    /* not plain data: fall through to the page-tool rules */
  }
  return sanitizeResult(value);
}

/**
 * Whether a handler's outcome is a failure: a thrown error (pass what was caught), or an
 * object with `success === false` (its `error` when a string). Also recognises a sanitized
 * oversize preview of a failure. Never throws.
 *
 * @example
 * isFailure(new Error('No task'));                    // { failed: true, error: 'No task' }
 * isFailure({ success: false, error: 'Sold out' });   // { failed: true, error: 'Sold out' }
 * isFailure({ success: true });                       // { failed: false }
 */
export function isFailure(raw: unknown): { failed: boolean; error?: string } {
  try {
    if (raw instanceof Error || Object.prototype.toString.call(raw) === '[object Error]') {
      return { failed: true, error: cleanString(describeError(raw)) };
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { failed: false };
    const record = raw as Record<string, unknown>;
    if (record['success'] === false) {
      const error = record['error'];
      if (typeof error === 'string') return { failed: true, error: cleanString(error) };
      // `{ success: false, error: { code: 42 } }`: its contents, not a bare "The action failed."
      return error === undefined || error === null ? { failed: true } : { failed: true, error: cleanString(describeError(error)) };
    }
    if (record['truncated'] === true && typeof record['preview'] === 'string') return previewFailure(record['preview']);
    return { failed: false };
  } catch {
    return { failed: false };
  }
}

function previewFailure(preview: string): { failed: boolean; error?: string } {
  const match = /^\{"success":false(?:,"error":("(?:[^"\\]|\\.)*"))?/.exec(preview);
  if (!match) return { failed: false };
  if (!match[1]) return { failed: true };
  try {
    return { failed: true, error: JSON.parse(match[1]) as string };
  } catch {
    return { failed: true };
  }
}

const toWellFormed = (String.prototype as { toWellFormed?: () => string }).toWellFormed;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function wellFormed(text: string): string {
  return toWellFormed ? toWellFormed.call(text) : text.replace(LONE_SURROGATE, '\uFFFD');
}

/** Cuts at 2,000 chars with the suffix and replaces lone surrogates (a cut pair included). */
export function cleanString(text: string): string {
  return wellFormed(capText(text, ToolLimits.maxStringChars));
}

function isObjectResult(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  // A "__proto__" key assigned plainly would replace the prototype instead of adding data.
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Puts `success` (default true) then `error` first, or wraps a non-object as `{ success, data }`. */
function toRoot(cleaned: unknown, isObject: boolean): SanitizedResult {
  if (!isObject) {
    const out: SanitizedResult = { success: true };
    if (cleaned !== DROP && cleaned !== undefined) out['data'] = cleaned;
    return out;
  }
  const source = cleaned as Record<string, unknown>;
  const has = (key: string) => Object.prototype.hasOwnProperty.call(source, key);
  const out: SanitizedResult = { success: has('success') ? source['success'] : true };
  if (has('error')) out['error'] = source['error'];
  for (const key of Object.keys(source)) if (key !== 'success' && key !== 'error') setKey(out, key, source[key]);
  return out;
}

/** Applies the 4,096-character rule to an already JSON-safe result. */
function fit(result: SanitizedResult): SanitizedResult {
  const json = JSON.stringify(result);
  if (json.length <= ToolLimits.maxResultChars) return result;
  // A surrogate pair cut in half at the boundary would leave a lone surrogate: replace it, same length.
  return { note: OVERSIZE_NOTE, preview: wellFormed(json.slice(0, ToolLimits.maxResultChars)), truncated: true };
}

function isDomLike(value: object): boolean {
  if (typeof Node !== 'undefined' && value instanceof Node) return true;
  if (typeof Window !== 'undefined' && value instanceof Window) return true;
  // Nodes from another realm (an iframe) fail instanceof but keep their shape.
  const node = value as { nodeType?: unknown; nodeName?: unknown };
  return typeof node.nodeType === 'number' && typeof node.nodeName === 'string';
}

function count(state: WalkState, chars: number): void {
  if (!state.building) return;
  state.emitted += chars;
  if (state.emitted > BUILD_BUDGET) state.building = false;
}

/**
 * Copies `value` as JSON data following JSON.stringify's rules plus the sanitizer's.
 * Throws (anything) when the value cannot be serialized; the caller salvages.
 */
function walk(value: unknown, key: string, depth: number, state: WalkState, afterToJSON: boolean): unknown {
  if (++state.visits > MAX_VISITS) throw new RangeError('too many values');
  switch (typeof value) {
    case 'string': {
      if (!state.building) return value;
      const text = cleanString(value);
      count(state, text.length + 2);
      return text;
    }
    case 'number':
      count(state, 1);
      return Number.isFinite(value) ? value : null;
    case 'boolean':
      count(state, 4);
      return value;
    case 'bigint': {
      const text = value.toString();
      count(state, text.length + 2);
      return text;
    }
    case 'object':
      break;
    default:
      // undefined, functions, symbols.
      return DROP;
  }
  if (value === null) {
    count(state, 4);
    return null;
  }
  if (depth > MAX_DEPTH) throw new RangeError('nested too deeply');
  if (isDomLike(value)) return DROP;
  if (!afterToJSON) {
    const toJSON: unknown = (value as { toJSON?: unknown }).toJSON;
    // As JSON.stringify does: the replacement is serialized without calling its own toJSON.
    if (typeof toJSON === 'function') return walk(toJSON.call(value, key) as unknown, key, depth, state, true);
  }
  if (state.ancestors.has(value)) throw new TypeError('cycle');
  state.ancestors.add(value);
  try {
    if (Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView))) {
      return walkList(value as ArrayLike<unknown>, depth, state);
    }
    if (value instanceof Set) return walkList([...Set.prototype.values.call(value)], depth, state);
    if (value instanceof Map) {
      const out: Record<string, unknown> = {};
      count(state, 2);
      for (const [entryKey, entryValue] of Map.prototype.entries.call(value) as IterableIterator<[unknown, unknown]>) {
        const kind = typeof entryKey;
        if (kind === 'object' || kind === 'function' || kind === 'symbol') continue;
        walkProperty(out, String(entryKey), entryValue, depth, state);
      }
      return out;
    }
    if (value instanceof Error) {
      const out: Record<string, unknown> = {};
      walkProperty(out, 'name', String(value.name), depth, state);
      walkProperty(out, 'message', String(value.message), depth, state);
      return out;
    }
    const out: Record<string, unknown> = {};
    count(state, 2);
    const source = value as Record<string, unknown>;
    let keys = Object.keys(source);
    // At the root the outcome is read first, so an oversize preview still starts with it.
    if (depth === 0) keys = [...keys.filter(isOutcomeKey), ...keys.filter((k) => !isOutcomeKey(k))];
    for (const prop of keys) walkProperty(out, prop, source[prop], depth, state);
    return out;
  } finally {
    state.ancestors.delete(value);
  }
}

function isOutcomeKey(key: string): boolean {
  return key === 'success' || key === 'error';
}

function walkProperty(
  out: Record<string, unknown>,
  name: string,
  item: unknown,
  depth: number,
  state: WalkState,
): void {
  const wasBuilding = state.building;
  const cleaned = walk(item, name, depth + 1, state, false);
  // Only values that began while building are attached: the built tree stays a prefix of the full JSON.
  if (!wasBuilding || cleaned === DROP) return;
  const key = cleanString(name);
  setKey(out, key, cleaned);
  count(state, key.length + 3);
}

function walkList(list: ArrayLike<unknown>, depth: number, state: WalkState): unknown[] {
  const out: unknown[] = [];
  count(state, 2);
  const length = list.length;
  for (let i = 0; i < length; i++) {
    const wasBuilding = state.building;
    const cleaned = walk(list[i], String(i), depth + 1, state, false);
    if (!wasBuilding) continue;
    if (cleaned === DROP) count(state, 4);
    out.push(cleaned === DROP ? null : cleaned);
    count(state, 1);
  }
  return out;
}

/** A primitive kept by the salvage copy, or DROP. */
function salvagePrimitive(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
      return cleanString(value);
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'object':
      return value === null ? null : DROP;
    default:
      return DROP;
  }
}

/** Shallow copy of up to 20 primitive own enumerable properties plus the note (SPEC §4.6). */
function salvage(value: unknown): SanitizedResult {
  const kept: Record<string, unknown> = {};
  let isList = false;
  const list: unknown[] = [];
  try {
    isList = Array.isArray(value);
  } catch {
    // A revoked Proxy throws even here: treat it as an object with nothing readable.
  }
  if (isList) {
    try {
      const source = value as unknown[];
      for (let i = 0; i < source.length && list.length < ToolLimits.salvageProperties; i++) {
        const item = readSafely(source, String(i));
        if (item !== DROP) list.push(item);
      }
    } catch {
      // Length itself was unreadable: keep what we have.
    }
    return { success: true, data: list, note: SALVAGE_NOTE };
  }
  let keys: string[] = [];
  try {
    if (typeof value === 'object' && value !== null) keys = Object.keys(value);
  } catch {
    keys = [];
  }
  // The outcome must survive salvage: read success and error before anything else.
  const ordered = [...keys.filter(isOutcomeKey), ...keys.filter((k) => !isOutcomeKey(k))];
  let keptCount = 0;
  for (const key of ordered) {
    if (keptCount >= ToolLimits.salvageProperties) break;
    const item = readSafely(value as Record<string, unknown>, key);
    if (item === DROP) continue;
    setKey(kept, cleanString(key), item);
    keptCount++;
  }
  const result = toRoot(kept, true);
  result['note'] = SALVAGE_NOTE;
  return result;
}

function readSafely(source: object, key: string): unknown | Dropped {
  try {
    return salvagePrimitive((source as Record<string, unknown>)[key]);
  } catch {
    return DROP;
  }
}
