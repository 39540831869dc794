/**
 * The words a model reads when its tool arguments fail a schema: one formatter for both engines
 * (ajv and the interpreting `@cfworker/json-schema`) and for both sides (the widget's
 * validator and the wave server's tool-call check), so the same mistake reads the same
 * everywhere. Every reason names the real limit, also through `$ref`: "must be >= 1",
 * "must be integer", "must be equal to one of the allowed values: "red", "blue"".
 *
 * This module imports no engine: the caller hands over the engine's output. The interpreter's
 * own part (reading its output and its schema) is interpreter-reasons.ts, loaded with it.
 */
import { describeError } from '../util/describe-error.js';

/** An error as ajv reports it (the fields read here). */
export interface AjvErrorLike {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/** An error as `@cfworker/json-schema` reports it. */
export interface CfOutputUnit {
  keyword: string;
  keywordLocation: string;
  instanceLocation: string;
  error: string;
}

/** What the interpreter validated with: its (dereferenced) schema and its `$ref` lookup. */
export interface InterpreterLike {
  schema: unknown;
  lookup: Record<string, unknown>;
  validate(instance: unknown): { valid: boolean; errors: CfOutputUnit[] };
}

/** A compiled check: null when valid, else the reason. */
export type ReasonCheck = (value: unknown) => string | null;

const MAX_REASONS = 8;
const MAX_REASON_CHARS = 1_000;
const MAX_LISTED_VALUES = 20;
const MAX_VALUE_CHARS = 80;

/**
 * Joins reasons: property-level problems first, then the root's (the same order whichever
 * engine ran), at most 8 and 1,000 characters.
 */
export function joinReasons(reasons: readonly string[]): string {
  const unique = [...new Set(reasons)].sort((a, b) => Number(!a.startsWith('/')) - Number(!b.startsWith('/')));
  const shown = unique.slice(0, MAX_REASONS);
  let text = shown.join('; ');
  if (unique.length > shown.length) text += `; and ${unique.length - shown.length} more`;
  return text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS - 1)}…` : text || 'arguments are invalid';
}

/** ajv's errors in the shared wording. */
export function formatAjvErrors(errors: readonly AjvErrorLike[]): string {
  return joinReasons(
    errors.map((error) => {
      const where = error.instancePath ? `${error.instancePath} ` : '';
      const params = error.params ?? {};
      let message = typeof error.message === 'string' && error.message ? error.message : 'is invalid';
      switch (error.keyword) {
        case 'type':
          if (params['type'] !== undefined) message = mustBeType(params['type']);
          break;
        case 'enum':
          if (Array.isArray(params['allowedValues'])) message = mustBeOneOf(params['allowedValues']);
          break;
        case 'const':
          if ('allowedValue' in params) message = mustBeConst(params['allowedValue']);
          break;
        case 'additionalProperties':
          if (typeof params['additionalProperty'] === 'string') message += ` ('${params['additionalProperty']}')`;
          break;
        case 'propertyNames':
          if (typeof params['propertyName'] === 'string') message = `property name '${params['propertyName']}' is invalid`;
          break;
        default:
          break;
      }
      return where + message;
    }),
  );
}

/**
 * The reason given when a tool's schema cannot be applied: the call is refused (fail closed),
 * and the model is told this is the page's fault, not its arguments'.
 *
 * @example
 * schemaUnusable(new Error('Unresolved $ref "#/definitions/x".'));
 */
export function schemaUnusable(error: unknown): string {
  // The engines' first line is the useful one ("Unresolved $ref …"); the rest lists internals.
  const detail = (describeError(error, { subject: 'The schema engine', maxChars: 200 }).split('\n')[0] ?? '').trim().replace(/\.$/, '');
  return `the tool's parameters schema cannot be applied (${detail}), so the call was refused; this is the page's error, not the arguments': do not retry this tool`;
}

export function mustBeType(type: unknown): string {
  const list = Array.isArray(type) ? type.map(String) : String(type).split(',');
  return `must be ${list.join(' or ')}`;
}

export function mustBeOneOf(values: readonly unknown[]): string {
  const shown = values.slice(0, MAX_LISTED_VALUES).map(valueText);
  const more = values.length > shown.length ? `, and ${values.length - shown.length} more` : '';
  return `must be equal to one of the allowed values: ${shown.join(', ')}${more}`;
}

export function mustBeConst(value: unknown): string {
  return `must be equal to constant: ${valueText(value)}`;
}

function valueText(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'null';
  } catch {
    text = 'a value';
  }
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}
