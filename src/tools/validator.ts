/**
 * Validates a model's arguments against a tool's schema (SPEC §4.1), lazily: nothing is
 * loaded or compiled until the first call, and each schema is compiled once.
 *
 * Engines: ajv (fast once compiled; generates code, so it needs `eval`) and the interpreting
 * `@cfworker/json-schema` (no eval). 'auto' uses ajv unless the page's CSP forbids eval, then
 * switches to the interpreter for good. ajv runs with `validateFormats: false`, so `format`
 * is checked only by the interpreter, and with `ownProperties: true`, so both engines read
 * only the arguments' own properties (`required: ["constructor"]` refuses `{}`); a schema that
 * names a `__proto__` property is always interpreted. Both engines' errors are worded by one
 * formatter (validation-reasons.ts).
 */
import { ignoreRefSiblings } from './draft7-refs.js';
import type { JsonSchema } from './types.js';
import { formatAjvErrors, schemaUnusable, type AjvErrorLike, type InterpreterLike, type ReasonCheck } from './validation-reasons.js';
import { describeError } from '../util/describe-error.js';

/** The outcome of one validation. `value` is the parsed arguments object. */
export type ValidationResult = { valid: true; value: Record<string, unknown> } | { valid: false; reason: string };

// Kept in a module of their own, so the widget's first chunk can name the default without the validator.
import { ValidatorEngine, DEFAULT_VALIDATOR_ENGINE } from './validator-engine.js';
export { ValidatorEngine, DEFAULT_VALIDATOR_ENGINE };

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

// Schemas are small (≤ 8 KB) and few (≤ 128 per element); this only bounds re-registration churn.
const MAX_TEXT_CACHE = 256;

interface AjvLike {
  compile(schema: unknown): AjvValidateFn;
}
interface AjvValidateFn {
  (data: unknown): boolean;
  errors?: AjvErrorLike[] | null;
}
/** The lazily loaded interpreter module (interpreter-engine.ts): the engine and its wording. */
interface InterpreterModule {
  Validator: new (schema: unknown, draft?: '4' | '7' | '2019-09' | '2020-12', shortCircuit?: boolean) => InterpreterLike;
  interpreterCheck(validator: InterpreterLike): ReasonCheck;
}

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
  #interpreter: Promise<InterpreterModule> | null = null;
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
      return { valid: false, reason: schemaUnusable(error) };
    }
    let reason: string | null;
    try {
      reason = check(parsed);
    } catch (error) {
      // An unresolvable $ref or a bad pattern surfaces only now: refuse (fail closed).
      return { valid: false, reason: schemaUnusable(error) };
    }
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
    // ajv reads a property named "__proto__" through the prototype's accessor, not as data:
    // such schemas go to the interpreter, which reads own properties only.
    if (mentionsProtoKey(schema)) return this.#compileInterpreted(schema, false);
    const ajv = await this.#loadAjv();
    try {
      // Draft-07 $ref: siblings ignored, for both engines alike (draft7-refs.ts).
      const fn = ajv.compile(ignoreRefSiblings(schema));
      this.#engine = 'ajv';
      return (value) => (fn(value) ? null : formatAjvErrors(fn.errors ?? []));
    } catch (error) {
      if (this.#mode === 'ajv') throw error;
      // CSP without 'unsafe-eval': ajv can never work on this page, so switch for good.
      if (isEvalError(error)) this.#engine = 'interpreter';
      // Anything else ajv refuses (an unusual draft, a duplicate $id) may still interpret.
      return this.#compileInterpreted(schema, false);
    }
  }

  /** `decides`: this compile settles the engine (false when only this one schema needs the interpreter). */
  async #compileInterpreted(schema: JsonSchema, decides = true): Promise<CompiledCheck> {
    const { Validator, interpreterCheck } = await this.#loadInterpreter();
    // The interpreter annotates schemas it dereferences: it gets a private copy (with draft-07 $ref).
    const validator = new Validator(ignoreRefSiblings(schema), '7', false);
    if (decides && this.#engine === null) this.#engine = 'interpreter';
    return interpreterCheck(validator);
  }

  #loadAjv(): Promise<AjvLike> {
    // Dynamic import keeps ajv out of the first-load bundle and off the startup path.
    this.#ajv ??= import('./ajv-draft7.js').then((module) => {
      const Ajv = resolveDefault(module) as new (options: Record<string, unknown>) => AjvLike;
      // AjvDraft7 always reads own properties only (ownProperties: true).
      return new Ajv({ allErrors: true, strict: false, validateFormats: false });
    });
    this.#ajv.catch(() => {
      this.#ajv = null;
    });
    return this.#ajv;
  }

  #loadInterpreter(): Promise<InterpreterModule> {
    this.#interpreter ??= import('./interpreter-engine.js').then((module) => module as unknown as InterpreterModule);
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

/** Whether any object key in the schema is "__proto__" (a property name, a required entry…). */
function mentionsProtoKey(schema: JsonSchema): boolean {
  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch {
    return false;
  }
  return text.includes('"__proto__"');
}
