/**
 * Draft-07 `$ref` semantics for both engines: "All other properties in a "$ref" object MUST be
 * ignored." ajv 8 applies the siblings anyway (later drafts' rule) and the interpreter lets a
 * sibling `$id` change the base URI; both then judge differently from the standard and from
 * each other. Handing them a copy in which a `$ref` object keeps only its `$ref` (and the
 * `definitions` other references may point into) makes them agree with draft 07.
 */

/** Keywords whose value is one schema. */
const ONE_SCHEMA = ['additionalItems', 'contains', 'additionalProperties', 'propertyNames', 'not', 'if', 'then', 'else'] as const;
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs'] as const;
/** Kept beside a `$ref`: what other references may point into. */
const KEPT_WITH_REF = ['definitions', '$defs'] as const;
const MAX_DEPTH = 128;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A copy of `schema` (plain JSON) in which every schema object holding a `$ref` keeps only
 * `$ref`, `definitions` and `$defs`. Data inside `enum`, `const`, `default`, `examples` is
 * copied as is, even when it has a "$ref" key.
 *
 * @example
 * ignoreRefSiblings({ properties: { a: { $ref: '#/definitions/n', maxItems: 2 } } });
 * // { properties: { a: { $ref: '#/definitions/n' } } }
 */
export function ignoreRefSiblings<T>(schema: T): T {
  return schemaCopy(schema as Json, 0) as T;
}

function isRecord(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function put(target: { [key: string]: Json }, key: string, value: Json): void {
  // A property named "__proto__" is data here: define it, never set the prototype.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function schemaCopy(schema: Json, depth: number): Json {
  if (!isRecord(schema) || depth > MAX_DEPTH) return dataCopy(schema);
  const out: { [key: string]: Json } = {};
  const refOnly = typeof schema['$ref'] === 'string';
  for (const key of Object.keys(schema)) {
    const value = schema[key] as Json;
    if (refOnly && key !== '$ref' && !(KEPT_WITH_REF as readonly string[]).includes(key)) continue;
    put(out, key, keywordCopy(key, value, depth));
  }
  return out;
}

function keywordCopy(key: string, value: Json, depth: number): Json {
  if ((ONE_SCHEMA as readonly string[]).includes(key)) return schemaCopy(value, depth + 1);
  if ((SCHEMA_LISTS as readonly string[]).includes(key)) return Array.isArray(value) ? value.map((s) => schemaCopy(s, depth + 1)) : dataCopy(value);
  if (key === 'items') return Array.isArray(value) ? value.map((s) => schemaCopy(s, depth + 1)) : schemaCopy(value, depth + 1);
  if ((SCHEMA_MAPS as readonly string[]).includes(key) || key === 'dependencies') {
    if (!isRecord(value)) return dataCopy(value);
    const out: { [name: string]: Json } = {};
    for (const name of Object.keys(value)) {
      const sub = value[name] as Json;
      // dependencies: a list of names is data, an object is a schema.
      put(out, name, key === 'dependencies' && Array.isArray(sub) ? dataCopy(sub) : schemaCopy(sub, depth + 1));
    }
    return out;
  }
  return dataCopy(value);
}

function dataCopy(value: Json): Json {
  // Plain JSON in, plain JSON out; a round trip keeps "__proto__" keys as own data.
  return value === null || typeof value !== 'object' ? value : (JSON.parse(JSON.stringify(value)) as Json);
}
