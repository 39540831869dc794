/**
 * The interpreter's half of the shared wording (validation-reasons.ts): reads
 * `@cfworker/json-schema`'s output and the schema it applied, so every reason names the real
 * limit, also through `$ref`. Loaded with the interpreter (interpreter-engine.ts), never on
 * the ajv path.
 */
import { joinReasons, mustBeConst, mustBeOneOf, mustBeType, type CfOutputUnit, type InterpreterLike, type ReasonCheck } from './validation-reasons.js';

/**
 * The interpreter as a reasons-giving check.
 *
 * @example
 * const check = interpreterCheck(new Validator(schema, '7', false));
 * check({ quantity: 0 }); // "/quantity must be >= 1"
 */
export function interpreterCheck(validator: InterpreterLike): ReasonCheck {
  // The interpreter finds a broken `$ref` or pattern only when data reaches it; look now, so a
  // broken schema refuses every call, not only those whose arguments happen to reach the break.
  preflight(validator);
  return (value) => {
    const result = validator.validate(value);
    return result.valid ? null : formatInterpreterErrors(result.errors, validator);
  };
}

/**
 * Throws when the interpreter could not apply some part of its schema: a `$ref` its lookup
 * cannot resolve, or a `pattern` / `patternProperties` name that is not a regular expression
 * (as the interpreter compiles them: with the `u` flag). Reads the marks the interpreter's
 * dereferencing left on schema objects, so data (`enum`, `const`, `default`) is never mistaken
 * for schema.
 */
function preflight(validator: Pick<InterpreterLike, 'schema' | 'lookup'>): void {
  const seen = new Set<object>();
  const walk = (node: unknown, depth: number): void => {
    if (typeof node !== 'object' || node === null || seen.has(node) || depth > 256) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) walk(item, depth + 1);
      return;
    }
    const record = node as Record<string, unknown>;
    const isSchema = Object.prototype.hasOwnProperty.call(record, '__absolute_uri__');
    if (isSchema) {
      const absolute = own(record, '__absolute_ref__');
      if (typeof absolute === 'string' && own(validator.lookup, absolute) === undefined) {
        throw new Error(`Unresolved $ref ${JSON.stringify(record['$ref'])}`);
      }
      const pattern = own(record, 'pattern');
      if (typeof pattern === 'string') compilePattern(pattern);
      const patterns = own(record, 'patternProperties');
      if (typeof patterns === 'object' && patterns !== null) for (const key of Object.keys(patterns)) compilePattern(key);
    }
    for (const key of Object.keys(record)) walk(record[key], depth + 1);
  };
  walk(validator.schema, 0);
}

function compilePattern(pattern: string): void {
  try {
    new RegExp(pattern, 'u');
  } catch {
    throw new Error(`the pattern ${JSON.stringify(pattern.slice(0, 60))} is not a valid regular expression`);
  }
}

/** Keywords that only say "a child failed" (always followed by the child's errors, which say why). */
const PASS_THROUGH = new Set(['properties', 'patternProperties', 'items', 'additionalItems', 'prefixItems', '$ref', 'allOf', 'dependentSchemas']);

/** The interpreter's errors in the shared wording, with limits read from the schema it applied. */
export function formatInterpreterErrors(errors: readonly CfOutputUnit[], validator: Pick<InterpreterLike, 'schema' | 'lookup'>): string {
  // What failed inside `contains` or `not` was expected to fail: only the keyword itself speaks.
  const quiet = errors.filter((e) => e.keyword === 'contains' || e.keyword === 'not').map((e) => `${e.keywordLocation}/`);
  const reasons: string[] = [];
  for (const error of errors) {
    if (quiet.some((prefix) => error.keywordLocation.startsWith(prefix))) continue;
    // The interpreter reports these only together with the child errors that say why.
    if (PASS_THROUGH.has(error.keyword)) continue;
    const reason = interpreterReason(error, errors, validator);
    if (reason !== null) reasons.push(reason);
  }
  return joinReasons(reasons);
}

function interpreterReason(
  error: CfOutputUnit,
  all: readonly CfOutputUnit[],
  validator: Pick<InterpreterLike, 'schema' | 'lookup'>,
): string | null {
  const path = decodePointerText(error.instanceLocation.replace(/^#/, ''));
  const where = path ? `${path} ` : '';
  const text = error.error;
  const limit = () => resolveLocation(validator, error.keywordLocation);
  const numberLimit = (fromMessage: RegExp): string => {
    const value = limit();
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    return fromMessage.exec(text)?.[1] ?? '?';
  };
  switch (error.keyword) {
    case 'required':
      return `${where}must have required property '${quoted(text) ?? '?'}'`;
    case 'minimum':
      return `${where}must be >= ${numberLimit(/(\S+)\.$/)}`;
    case 'maximum':
      return `${where}must be <= ${numberLimit(/(\S+)\.$/)}`;
    case 'exclusiveMinimum':
      return `${where}must be > ${numberLimit(/(\S+)\.$/)}`;
    case 'exclusiveMaximum':
      return `${where}must be < ${numberLimit(/(\S+)\.$/)}`;
    case 'multipleOf':
      return `${where}must be multiple of ${numberLimit(/(\S+)\.$/)}`;
    case 'minLength':
      return `${where}must NOT have fewer than ${numberLimit(/< (\d+)\)\.$/)} characters`;
    case 'maxLength':
      return `${where}must NOT have more than ${numberLimit(/> (\d+)\)\.$/)} characters`;
    case 'minItems':
      return `${where}must NOT have fewer than ${numberLimit(/< (\d+)\)\.$/)} items`;
    case 'maxItems':
      return `${where}must NOT have more than ${numberLimit(/> (\d+)\)\.$/)} items`;
    case 'minProperties':
      return `${where}must NOT have fewer than ${numberLimit(/(\d+) properties\.$/)} properties`;
    case 'maxProperties':
      return `${where}must NOT have more than ${numberLimit(/(\d+) properties\.$/)} properties`;
    case 'type': {
      const value = limit();
      if (typeof value === 'string' || (Array.isArray(value) && value.every((t) => typeof t === 'string'))) return `${where}${mustBeType(value)}`;
      const expected = /Expected (.*)\.$/.exec(text)?.[1];
      const names = expected ? [...expected.matchAll(/"([^"]*)"/g)].map((m) => m[1] ?? '') : [];
      return `${where}${names.length ? mustBeType(names) : 'has the wrong type'}`;
    }
    case 'enum': {
      const value = limit();
      if (Array.isArray(value)) return `${where}${mustBeOneOf(value)}`;
      const parsed = jsonAfter(text, 'any of ');
      return `${where}${Array.isArray(parsed) ? mustBeOneOf(parsed) : 'must be equal to one of the allowed values'}`;
    }
    case 'const': {
      const value = limit();
      if (value !== undefined) return `${where}${mustBeConst(value)}`;
      const parsed = jsonAfter(text, 'does not match ');
      return `${where}${parsed === undefined ? 'must be equal to constant' : mustBeConst(parsed)}`;
    }
    case 'pattern': {
      const value = limit();
      return `${where}${typeof value === 'string' ? `must match pattern "${value}"` : 'must match the pattern'}`;
    }
    case 'format':
      return `${where}must match format "${quoted(text) ?? '?'}"`;
    case 'uniqueItems': {
      const indexes = /indexes (\d+) and (\d+)/.exec(text);
      return `${where}must NOT have duplicate items${indexes ? ` (items ## ${indexes[1]} and ${indexes[2]} are identical)` : ''}`;
    }
    case 'additionalProperties': {
      // A schema here (not `false`) has its own errors below, which say more.
      const value = limit();
      if (value !== false && value !== undefined) return null;
      const property = quoted(text);
      return `${where}must NOT have additional properties${property !== null ? ` ('${property}')` : ''}`;
    }
    case 'false': {
      // The echo of additionalProperties:false (reported at the parent) or a `false` property schema.
      // (The interpreter gives a `false` schema's error the instance location as keyword location.)
      const parent = error.instanceLocation.slice(0, error.instanceLocation.lastIndexOf('/'));
      if (all.some((o) => o.keyword === 'additionalProperties' && o.instanceLocation === parent)) return null;
      return `${where}is not allowed`;
    }
    case 'propertyNames':
      return `property name '${quoted(text) ?? '?'}' is invalid`;
    case 'dependencies':
    case 'dependentRequired': {
      const pair = /has "(.*)" but does not have "(.*)"\.$/.exec(text);
      if (pair) return `${where}must have property '${pair[2]}' when property '${pair[1]}' is present`;
      const key = quoted(text);
      return `${where}must match the schema that applies when property '${key ?? '?'}' is present`;
    }
    case 'anyOf':
      return `${where}must match a schema in anyOf`;
    case 'oneOf':
      return `${where}must match exactly one schema in oneOf`;
    case 'not':
      return `${where}must NOT be valid`;
    case 'if':
      return `${where}must match "${/"(then|else)"/.exec(text)?.[1] ?? 'then'}" schema`;
    case 'contains':
      return `${where}must contain at least 1 valid item`;
    default:
      return `${where}${text.replace(/\.$/, '') || 'is invalid'}`;
  }
}

/**
 * The value at a keyword location of the schema the interpreter applied, following `$ref`
 * through its lookup. Only own properties are read (a property named `constructor` is data).
 */
function resolveLocation(validator: Pick<InterpreterLike, 'schema' | 'lookup'>, location: string): unknown {
  let node: unknown = validator.schema;
  const parts = location.replace(/^#\/?/, '');
  if (parts === '') return node;
  for (const raw of parts.split('/')) {
    const key = decodeSegment(raw);
    if (typeof node !== 'object' || node === null) return undefined;
    const record = node as Record<string, unknown>;
    if (key === '$ref' && typeof record['$ref'] === 'string') {
      const absolute = own(record, '__absolute_ref__');
      const uri = typeof absolute === 'string' ? absolute : record['$ref'];
      node = own(validator.lookup, uri);
      continue;
    }
    node = own(record, key);
  }
  return node;
}

function own(record: object, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? (record as Record<string, unknown>)[key] : undefined;
}

function decodeSegment(segment: string): string {
  let text = segment;
  try {
    text = decodeURIComponent(segment);
  } catch {
    /* keep as is */
  }
  return text.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** "#/a~1b/%C3%A9" as "/a~1b/é": a JSON pointer, readable. */
function decodePointerText(pointer: string): string {
  try {
    return decodeURIComponent(pointer);
  } catch {
    return pointer;
  }
}

function quoted(text: string): string | null {
  const match = /"((?:[^"\\]|\\.)*)"/.exec(text);
  return match ? (match[1] ?? '') : null;
}

function jsonAfter(text: string, marker: string): unknown {
  const at = text.indexOf(marker);
  if (at === -1) return undefined;
  try {
    return JSON.parse(text.slice(at + marker.length).replace(/\.$/, '')) as unknown;
  } catch {
    return undefined;
  }
}

