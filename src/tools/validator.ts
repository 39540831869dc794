/**
 * Validates a model's arguments against a tool's schema (SPEC §4.1), lazily: nothing is
 * loaded or compiled until the first call, and each schema is compiled once.
 *
 * Engines: ajv (fast once compiled; generates code, so it needs `eval`) and the interpreting
 * `@cfworker/json-schema` (no eval). 'auto' uses ajv unless the page's CSP forbids eval, then
 * switches to the interpreter for good. ajv runs with `validateFormats: false`, so `format`
 * is checked only by the interpreter.
 */
import type { JsonSchema } from './types.js';
import { describeError } from '../util/describe-error.js';

/** The outcome of one validation. `value` is the parsed arguments object. */
export type ValidationResult = { valid: true; value: Record<string, unknown> } | { valid: false; reason: string };

/** Which validator does the work. */
export const ValidatorEngine = {
  ajv: 'ajv',
  interpreter: 'interpreter',
} as const;
export type ValidatorEngine = (typeof ValidatorEngine)[keyof typeof ValidatorEngine];

/** Options for {@link ArgumentValidator}. */
export interface ArgumentValidatorOptions {
  /** 'auto' (default): ajv, or the interpreter where eval is blocked. */
  engine?: 'auto' | ValidatorEngine;
  /**
   * 'auto' first checks whether eval is allowed (`new Function`) so a blocked page never even
   * loads ajv. Set false to go straight to ajv and rely on its compile throwing EvalError.
   */
  probeEval?: boolean;
}

/** A compiled check: returns null when valid, else the reason. */
export type CompiledCheck = (value: unknown) => string | null;

const MAX_REASONS = 8;
const MAX_REASON_CHARS = 1_000;
// Schemas are small (≤ 8 KB) and few (≤ 128 per element); this only bounds re-registration churn.
const MAX_TEXT_CACHE = 256;

interface AjvLike {
  compile(schema: unknown): AjvValidateFn;
}
interface AjvValidateFn {
  (data: unknown): boolean;
  errors?: AjvErrorLike[] | null;
}
interface AjvErrorLike {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}
interface CfOutputUnit {
  keyword: string;
  keywordLocation: string;
  instanceLocation: string;
  error: string;
}
type CfValidatorCtor = new (
  schema: unknown,
  draft?: '4' | '7' | '2019-09' | '2020-12',
  shortCircuit?: boolean,
) => { validate(instance: unknown): { valid: boolean; errors: CfOutputUnit[] } };

/**
 * Validates tool arguments; one instance per element is enough (it caches compiled schemas).
 *
 * @example
 * const validator = new ArgumentValidator();
 * await validator.validate(tool.parameters, '{"quantity":0}');
 * // { valid: false, reason: "/quantity must be >= 1; must have required property 'sku'" }
 */
export class ArgumentValidator {
  readonly #mode: 'auto' | ValidatorEngine;
  readonly #probe: boolean;
  #engine: ValidatorEngine | null = null;
  #ajv: Promise<AjvLike> | null = null;
  #interpreter: Promise<CfValidatorCtor> | null = null;
  readonly #bySchema = new WeakMap<object, CompiledCheck>();
  readonly #byText = new Map<string, CompiledCheck>();
  #compiles = 0;

  constructor(options: ArgumentValidatorOptions = {}) {
    this.#mode = options.engine ?? 'auto';
    this.#probe = options.probeEval ?? true;
  }

  /** The engine in use: null until the first compile decides it. */
  get engine(): ValidatorEngine | null {
    return this.#engine;
  }

  /** How many schemas were actually compiled (cache misses); for tests and benches. */
  get compileCount(): number {
    return this.#compiles;
  }

  /**
   * Validates `args` (an object, or the JSON string a model sends) against `schema`.
   *
   * @example
   * const result = await validator.validate(schema, { sku: 'A1', quantity: 2 });
   * if (result.valid) handler(result.value);
   */
  async validate(schema: JsonSchema, args: unknown, options: { signal?: AbortSignal } = {}): Promise<ValidationResult> {
    const parsed = parseArguments(args);
    if (typeof parsed === 'string') return { valid: false, reason: parsed };
    let check: CompiledCheck;
    try {
      check = await this.compile(schema, options);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      return { valid: false, reason: `the tool's parameters schema could not be compiled: ${describeError(error, { subject: 'The compiler', maxChars: 300 })}` };
    }
    const reason = check(parsed);
    return reason === null ? { valid: true, value: parsed } : { valid: false, reason };
  }

  /**
   * The compiled check for `schema`, compiled on first use and cached (by object and by JSON text).
   *
   * @example
   * (await validator.compile(schema)) === (await validator.compile(schema)); // true
   */
  async compile(schema: JsonSchema, options: { signal?: AbortSignal } = {}): Promise<CompiledCheck> {
    options.signal?.throwIfAborted();
    const cached = this.#lookup(schema);
    if (cached.check) return cached.check;
    const check = await this.#compileFresh(schema);
    options.signal?.throwIfAborted();
    // Another call may have compiled the same schema while the engine loaded: keep the first.
    const again = this.#lookup(schema);
    if (again.check) return again.check;
    this.#store(schema, cached.text, check);
    return check;
  }

  #lookup(schema: JsonSchema): { check?: CompiledCheck; text?: string } {
    const byObject = this.#bySchema.get(schema);
    if (byObject) return { check: byObject };
    let text: string | undefined;
    try {
      text = JSON.stringify(schema);
    } catch {
      text = undefined;
    }
    const byText = text === undefined ? undefined : this.#byText.get(text);
    if (byText) this.#bySchema.set(schema, byText);
    return byText ? { check: byText, text } : { text };
  }

  #store(schema: JsonSchema, text: string | undefined, check: CompiledCheck): void {
    this.#bySchema.set(schema, check);
    if (text === undefined) return;
    if (this.#byText.size >= MAX_TEXT_CACHE) this.#byText.delete(this.#byText.keys().next().value as string);
    this.#byText.set(text, check);
  }

  async #compileFresh(schema: JsonSchema): Promise<CompiledCheck> {
    this.#compiles++;
    if (this.#mode === 'interpreter' || this.#engine === 'interpreter') return this.#compileInterpreted(schema);
    if (this.#mode === 'auto' && this.#probe && this.#engine === null && !evalAllowed()) {
      this.#engine = 'interpreter';
      return this.#compileInterpreted(schema);
    }
    const ajv = await this.#loadAjv();
    try {
      const fn = ajv.compile(schema);
      this.#engine = 'ajv';
      return (value) => (fn(value) ? null : formatAjvErrors(fn.errors ?? []));
    } catch (error) {
      if (this.#mode === 'ajv') throw error;
      // CSP without 'unsafe-eval': ajv can never work on this page, so switch for good.
      if (isEvalError(error)) this.#engine = 'interpreter';
      // Anything else ajv refuses (an unusual draft, a duplicate $id) may still interpret.
      return this.#compileInterpreted(schema);
    }
  }

  async #compileInterpreted(schema: JsonSchema): Promise<CompiledCheck> {
    const Validator = await this.#loadInterpreter();
    // The interpreter annotates schemas it dereferences: give it a private copy.
    const validator = new Validator(JSON.parse(JSON.stringify(schema)) as unknown, '7', false);
    if (this.#engine === null) this.#engine = 'interpreter';
    return (value) => {
      const result = validator.validate(value);
      return result.valid ? null : formatInterpreterErrors(result.errors, schema);
    };
  }

  #loadAjv(): Promise<AjvLike> {
    // Dynamic import keeps ajv out of the first-load bundle and off the startup path.
    this.#ajv ??= import('./ajv-draft7.js').then((module) => {
      const Ajv = resolveDefault(module) as new (options: Record<string, unknown>) => AjvLike;
      return new Ajv({ allErrors: true, strict: false, validateFormats: false });
    });
    this.#ajv.catch(() => {
      this.#ajv = null;
    });
    return this.#ajv;
  }

  #loadInterpreter(): Promise<CfValidatorCtor> {
    this.#interpreter ??= import('@cfworker/json-schema').then((module) => module.Validator as unknown as CfValidatorCtor);
    this.#interpreter.catch(() => {
      this.#interpreter = null;
    });
    return this.#interpreter;
  }
}

/** ajv is CommonJS: depending on the bundler the class sits at `default` or `default.default`. */
function resolveDefault(module: unknown): unknown {
  let value: unknown = module;
  for (let i = 0; i < 2; i++) {
    if (typeof value === 'function') return value;
    const next = (value as { default?: unknown } | null)?.default;
    if (next === undefined) break;
    value = next;
  }
  return value;
}

function evalAllowed(): boolean {
  try {
    // The cheapest possible use of eval; under a CSP without 'unsafe-eval' it throws EvalError.
    return new Function('return true')() === true;
  } catch {
    return false;
  }
}

function isEvalError(error: unknown): boolean {
  return error instanceof EvalError || (error instanceof Error && error.name === 'EvalError');
}

/** Arguments as a plain object, or the reason they are unusable. */
function parseArguments(args: unknown): Record<string, unknown> | string {
  let value = args;
  if (typeof value === 'string') {
    // Models send "" (or nothing) for a call without arguments.
    if (value.trim() === '') return {};
    try {
      value = JSON.parse(value);
    } catch (error) {
      return `arguments are not valid JSON (${describeError(error, { subject: 'JSON.parse', maxChars: 300 })}); send a JSON object`;
    }
  }
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    return `arguments must be a JSON object, not ${Array.isArray(value) ? 'an array' : `a ${typeof value}`}`;
  }
  return value as Record<string, unknown>;
}

function joinReasons(reasons: string[]): string {
  // Property-level problems first, then the root's: the same order whichever engine ran.
  const unique = [...new Set(reasons)].sort((a, b) => Number(!a.startsWith('/')) - Number(!b.startsWith('/')));
  const shown = unique.slice(0, MAX_REASONS);
  let text = shown.join('; ');
  if (unique.length > shown.length) text += `; and ${unique.length - shown.length} more`;
  return text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS - 1)}…` : text || 'arguments are invalid';
}

function formatAjvErrors(errors: readonly AjvErrorLike[]): string {
  return joinReasons(
    errors.map((error) => {
      const where = error.instancePath ? `${error.instancePath} ` : '';
      let message = error.message ?? 'is invalid';
      const params = error.params ?? {};
      if (error.keyword === 'additionalProperties' && typeof params['additionalProperty'] === 'string') {
        message += ` ('${params['additionalProperty']}')`;
      } else if (error.keyword === 'enum' && Array.isArray(params['allowedValues'])) {
        message += `: ${params['allowedValues'].map((v) => JSON.stringify(v)).join(', ')}`;
      }
      return where + message;
    }),
  );
}

/** Reads a value of `schema` at a "#/a/b" keyword location. */
function atLocation(schema: unknown, location: string): unknown {
  let node = schema;
  for (const part of location.replace(/^#\/?/, '').split('/')) {
    if (!part) continue;
    const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Phrases the interpreter's output like ajv's, keeping only the most specific errors. */
function formatInterpreterErrors(errors: readonly CfOutputUnit[], schema: JsonSchema): string {
  const leaves = errors.filter(
    (error) => !errors.some((other) => other !== error && other.keywordLocation.startsWith(`${error.keywordLocation}/`)),
  );
  const reasons: string[] = [];
  for (const error of leaves) {
    const path = error.instanceLocation.replace(/^#/, '');
    const where = path ? `${path} ` : '';
    const limit = atLocation(schema, error.keywordLocation);
    switch (error.keyword) {
      case 'required': {
        const property = /"([^"]*)"/.exec(error.error)?.[1];
        reasons.push(`${where}must have required property '${property ?? '?'}'`);
        break;
      }
      case 'minimum':
        reasons.push(`${where}must be >= ${String(limit)}`);
        break;
      case 'maximum':
        reasons.push(`${where}must be <= ${String(limit)}`);
        break;
      case 'exclusiveMinimum':
        reasons.push(`${where}must be > ${String(limit)}`);
        break;
      case 'exclusiveMaximum':
        reasons.push(`${where}must be < ${String(limit)}`);
        break;
      case 'type':
        reasons.push(`${where}must be ${Array.isArray(limit) ? limit.join(',') : String(limit)}`);
        break;
      case 'enum':
        reasons.push(
          `${where}must be equal to one of the allowed values${Array.isArray(limit) ? `: ${limit.map((v) => JSON.stringify(v)).join(', ')}` : ''}`,
        );
        break;
      case 'minLength':
        reasons.push(`${where}must NOT have fewer than ${String(limit)} characters`);
        break;
      case 'maxLength':
        reasons.push(`${where}must NOT have more than ${String(limit)} characters`);
        break;
      case 'minItems':
        reasons.push(`${where}must NOT have fewer than ${String(limit)} items`);
        break;
      case 'maxItems':
        reasons.push(`${where}must NOT have more than ${String(limit)} items`);
        break;
      case 'additionalProperties': {
        const property = /"([^"]*)"/.exec(error.error)?.[1];
        reasons.push(`${where}must NOT have additional properties${property ? ` ('${property}')` : ''}`);
        break;
      }
      case 'false':
        // The child of additionalProperties:false (already reported above) or of a `false` property schema.
        if (!leaves.some((other) => other.keyword === 'additionalProperties')) reasons.push(`${where}is not allowed`);
        break;
      default:
        reasons.push(`${where}${error.error.replace(/\.$/, '')}`);
    }
  }
  return joinReasons(reasons);
}
