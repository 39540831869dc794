/**
 * A cheap, synchronous structural check of a tool's `parameters` JSON Schema.
 * It never compiles anything: compiling is the validator's job, lazily, on first call
 * (SPEC §4.1 keeps the widget's startup free of schema compiles).
 */
import { ToolLimits } from './limits.js';
import type { JsonSchema } from './types.js';
import { describeError } from '../util/describe-error.js';

/** What {@link inspectParametersSchema} found: a reason to reject, or a JSON-safe copy. */
export type SchemaInspection =
  | { ok: true; schema: JsonSchema; json: string; bytes: number }
  | { ok: false; reason: string };

const TYPE_NAMES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
/** Keywords whose value is one schema. */
const SCHEMA_KEYWORDS = [
  'additionalProperties',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
] as const;
/** Keywords whose value is an object of schemas. */
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;
/** Keywords whose value is a non-empty array of schemas. */
const SCHEMA_LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;
const COUNT_KEYWORDS = [
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
] as const;
const STRING_KEYWORDS = ['title', 'description', 'format', '$comment', '$id', '$schema', '$anchor', 'pattern', '$ref'] as const;
// Deeper than this is never a real tool schema, and keeps the walk off the stack limit.
const MAX_DEPTH = 64;

class Rejection extends Error {}

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * Checks a tool's `parameters` schema without compiling it.
 * Returns `null` when it is acceptable, or a one-line reason naming where it is wrong.
 *
 * @example
 * checkParametersSchema({ type: 'object', properties: { id: { type: 'string' } } }); // null
 * checkParametersSchema({ type: 'string' }); // 'root must have type "object"'
 */
export function checkParametersSchema(schema: unknown): string | null {
  const inspection = inspectParametersSchema(schema);
  return inspection.ok ? null : inspection.reason;
}

/**
 * Like {@link checkParametersSchema}, but also hands back a detached JSON copy of the schema
 * (so later mutation by the page cannot change what was checked) and its serialized size.
 *
 * @example
 * const r = inspectParametersSchema({ type: 'object' });
 * if (r.ok) registry.keep(r.schema);
 */
export function inspectParametersSchema(schema: unknown): SchemaInspection {
  try {
    const budget = { chars: 0 };
    const copy = toJson(schema, 'parameters', 0, new Set(), budget);
    if (copy === null || typeof copy !== 'object' || Array.isArray(copy)) {
      return { ok: false, reason: 'parameters must be a JSON Schema object' };
    }
    if (copy['type'] !== 'object') return { ok: false, reason: 'root must have type "object"' };
    checkSchema(copy, 'parameters');
    const json = JSON.stringify(copy);
    const bytes = utf8Length(json);
    if (bytes > ToolLimits.maxParametersBytes) {
      return { ok: false, reason: `parameters is ${bytes} bytes serialized; the limit is ${ToolLimits.maxParametersBytes}` };
    }
    return { ok: true, schema: copy, json, bytes };
  } catch (error) {
    if (error instanceof Rejection) return { ok: false, reason: error.message };
    return { ok: false, reason: `parameters could not be read (${describeError(error, { subject: 'Reading it', maxChars: 200 })})` };
  }
}

/** UTF-8 byte length without allocating an encoded copy. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

function reject(message: string): never {
  throw new Rejection(message);
}

/** Copies `value` as pure JSON data, reading every property once; rejects anything JSON cannot hold. */
function toJson(value: unknown, path: string, depth: number, ancestors: Set<object>, budget: { chars: number }): JsonValue {
  // Cheap lower bound on the serialized size, so a huge object is refused before it is walked.
  if (++budget.chars > ToolLimits.maxParametersBytes) tooLarge();
  switch (typeof value) {
    case 'string':
      budget.chars += value.length + 1;
      if (budget.chars > ToolLimits.maxParametersBytes) tooLarge();
      return value;
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) reject(`${path} must be a finite number (JSON has no NaN or Infinity)`);
      return value;
    case 'object':
      break;
    default:
      return reject(`${path} is a ${typeof value}; a schema may hold only JSON values`);
  }
  if (value === null) return null;
  if (depth >= MAX_DEPTH) reject(`${path} is nested more than ${MAX_DEPTH} levels deep`);
  if (ancestors.has(value)) reject(`${path} refers back to itself (a cycle); a schema must be plain JSON`);
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const out: JsonValue[] = [];
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        // JSON turns holes and undefined in arrays into null, which would silently change the schema.
        if (item === undefined) reject(`${path}/${i} is undefined; a schema may hold only JSON values`);
        out.push(toJson(item, `${path}/${i}`, depth + 1, ancestors, budget));
      }
      return out;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      reject(`${path} is not a plain object; a schema may hold only JSON values`);
    }
    const out: { [key: string]: JsonValue } = {};
    for (const key of Object.keys(value)) {
      const item: unknown = (value as Record<string, unknown>)[key];
      // An undefined property is simply absent in JSON: `{ description: maybe }` stays acceptable.
      if (item === undefined) continue;
      budget.chars += key.length + 3;
      const copy = toJson(item, `${path}/${key}`, depth + 1, ancestors, budget);
      if (key === '__proto__') Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
      else out[key] = copy;
    }
    return out;
  } finally {
    ancestors.delete(value);
  }
}

function tooLarge(): never {
  return reject(`parameters is over ${ToolLimits.maxParametersBytes} bytes serialized`);
}

function isPlainRecord(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks one (already JSON-only) schema: booleans are schemas too. */
function checkSchema(schema: JsonValue, path: string): void {
  if (typeof schema === 'boolean') return;
  if (!isPlainRecord(schema)) reject(`${path} must be a schema (an object or a boolean)`);
  const has = (key: string) => Object.prototype.hasOwnProperty.call(schema, key);

  if (has('type')) {
    const type = schema['type'];
    const list = Array.isArray(type) ? type : [type];
    if (list.length === 0) reject(`${path}/type must not be an empty array`);
    const seen = new Set<string>();
    for (const name of list) {
      if (typeof name !== 'string' || !TYPE_NAMES.has(name)) {
        reject(`${path}/type has an unknown type ${JSON.stringify(name)}; expected one of ${[...TYPE_NAMES].join(', ')}`);
      }
      if (seen.has(name)) reject(`${path}/type lists "${name}" twice`);
      seen.add(name);
    }
  }
  for (const key of SCHEMA_KEYWORDS) if (has(key)) checkSchema(schema[key] as JsonValue, `${path}/${key}`);
  for (const key of SCHEMA_MAP_KEYWORDS) {
    if (!has(key)) continue;
    const map = schema[key];
    if (!isPlainRecord(map)) reject(`${path}/${key} must be an object of schemas`);
    for (const [name, sub] of Object.entries(map)) {
      if (key === 'patternProperties') checkPattern(name, `${path}/${key}`);
      checkSchema(sub, `${path}/${key}/${name}`);
    }
  }
  for (const key of SCHEMA_LIST_KEYWORDS) {
    if (!has(key)) continue;
    const list = schema[key];
    if (!Array.isArray(list) || list.length === 0) reject(`${path}/${key} must be a non-empty array of schemas`);
    list.forEach((sub, i) => checkSchema(sub, `${path}/${key}/${i}`));
  }
  if (has('items')) {
    const items = schema['items'] as JsonValue;
    if (Array.isArray(items)) items.forEach((sub, i) => checkSchema(sub, `${path}/items/${i}`));
    else checkSchema(items, `${path}/items`);
  }
  if (has('required')) checkStringList(schema['required'] as JsonValue, `${path}/required`);
  if (has('dependentRequired')) {
    const map = schema['dependentRequired'];
    if (!isPlainRecord(map)) reject(`${path}/dependentRequired must be an object of string arrays`);
    for (const [name, list] of Object.entries(map)) checkStringList(list, `${path}/dependentRequired/${name}`);
  }
  if (has('dependencies')) {
    const map = schema['dependencies'];
    if (!isPlainRecord(map)) reject(`${path}/dependencies must be an object`);
    for (const [name, dep] of Object.entries(map)) {
      if (Array.isArray(dep)) checkStringList(dep, `${path}/dependencies/${name}`);
      else checkSchema(dep, `${path}/dependencies/${name}`);
    }
  }
  if (has('enum') && !Array.isArray(schema['enum'])) reject(`${path}/enum must be an array`);
  if (has('examples') && !Array.isArray(schema['examples'])) reject(`${path}/examples must be an array`);
  for (const key of NUMBER_KEYWORDS) {
    if (has(key) && typeof schema[key] !== 'number') reject(`${path}/${key} must be a number`);
  }
  if (has('multipleOf')) {
    const m = schema['multipleOf'];
    if (typeof m !== 'number' || m <= 0) reject(`${path}/multipleOf must be a number greater than 0`);
  }
  for (const key of COUNT_KEYWORDS) {
    if (!has(key)) continue;
    const n = schema[key];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) reject(`${path}/${key} must be a non-negative integer`);
  }
  if (has('uniqueItems') && typeof schema['uniqueItems'] !== 'boolean') reject(`${path}/uniqueItems must be a boolean`);
  for (const key of STRING_KEYWORDS) {
    if (has(key) && typeof schema[key] !== 'string') reject(`${path}/${key} must be a string`);
  }
  if (has('pattern')) checkPattern(schema['pattern'] as string, `${path}/pattern`);
  // Remote references would make the validator fetch or fail at call time; only local ones resolve.
  if (has('$ref') && !(schema['$ref'] as string).startsWith('#')) {
    reject(`${path}/$ref must be a local reference starting with "#"`);
  }
}

function checkStringList(list: JsonValue, path: string): void {
  if (!Array.isArray(list)) reject(`${path} must be an array of strings`);
  const seen = new Set<string>();
  for (const item of list) {
    if (typeof item !== 'string') reject(`${path} must contain only strings`);
    if (seen.has(item)) reject(`${path} lists "${item}" twice`);
    seen.add(item);
  }
}

function checkPattern(pattern: string, path: string): void {
  try {
    // The 'u' flag is what the validators use; RegExp needs no eval, so this is CSP-safe.
    new RegExp(pattern, 'u');
  } catch {
    reject(`${path} is not a valid regular expression: ${JSON.stringify(pattern.slice(0, 100))}`);
  }
}
