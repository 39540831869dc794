/**
 * Checks a tool call the model made before it may reach the browser: offered, JSON, an object,
 * valid against the tool's schema (with @cfworker/json-schema: no eval, runs on edge runtimes).
 * Fails closed: a call whose schema cannot be applied (an unresolvable `$ref`, a bad pattern)
 * is refused with a reason for the model, never let through. The reasons are worded by the
 * same formatter as the widget's validator (tools/validation-reasons.ts).
 */
import { Validator, type Schema } from '@cfworker/json-schema';
import { ignoreRefSiblings } from '../tools/draft7-refs.js';
import type { PageToolSchema } from '../tools/types.js';
import { interpreterCheck } from '../tools/interpreter-reasons.js';
import { schemaUnusable, type InterpreterLike, type ReasonCheck } from '../tools/validation-reasons.js';
import type { WaveToolCall } from '../transport/protocol.js';

export const CallCheckStatus = {
  ok: 'ok',
  /** The model named a tool that was not offered (or the site does not allow). */
  unknown: 'unknown',
  /** Arguments that are not JSON, not an object, or fail the schema; or a schema that cannot be applied. */
  invalid: 'invalid',
} as const;
export type CallCheckStatus = (typeof CallCheckStatus)[keyof typeof CallCheckStatus];

export interface CallCheck {
  status: CallCheckStatus;
  call: WaveToolCall;
  /** Why it was refused, phrased for the model. */
  reason: string;
  /** The tool's schema cannot be applied: no corrected call can pass, so none should be asked for. */
  schemaUnusable?: boolean;
}

/**
 * The server's check of a value against a schema: draft 7 with its `$ref` rule, interpreted
 * (no eval), worded like the widget's validator. Throws when the schema cannot be applied.
 *
 * @example
 * compileArgumentCheck({ type: 'object', properties: { n: { type: 'integer', minimum: 1 } } })({ n: 0 });
 * // '/n must be >= 1'
 */
export function compileArgumentCheck(schema: unknown): ReasonCheck {
  // The interpreter annotates schemas it dereferences: it gets a private copy.
  const copy = ignoreRefSiblings(schema) as Schema;
  return interpreterCheck(new Validator(copy, '7', false) as unknown as InterpreterLike);
}

/**
 * Judges the model's tool calls against the offered schemas; validators are built lazily, once per tool.
 *
 * @example
 * const checker = new ToolCallChecker(tools);
 * checker.check({ id: 'c1', name: 'set_status', arguments: '{"id":"t1"}' }).status; // 'ok' | 'unknown' | 'invalid'
 */
export class ToolCallChecker {
  readonly #tools: Map<string, PageToolSchema>;
  readonly #validators = new Map<string, ReasonCheck>();

  constructor(tools: PageToolSchema[]) {
    this.#tools = new Map(tools.map((tool) => [tool.name, tool]));
  }

  /** Names offered, for messages that list what exists. */
  get names(): string[] {
    return [...this.#tools.keys()];
  }

  check(raw: { id: string; name: string; arguments: string }): CallCheck {
    const name = raw.name;
    let parsed: unknown;
    let parseError = '';
    try {
      // A tool without parameters may stream no arguments at all.
      parsed = raw.arguments.trim() === '' ? {} : JSON.parse(raw.arguments);
    } catch {
      parseError = 'the arguments are not valid JSON';
    }
    const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
    const args = isObject ? (parsed as Record<string, unknown>) : {};
    const call: WaveToolCall = { id: raw.id, name, arguments: args };
    const tool = this.#tools.get(name);
    if (!tool) {
      const offered = this.names;
      return {
        status: CallCheckStatus.unknown,
        call,
        reason: `The tool "${name}" is not available. ${offered.length ? `Available tools: ${offered.join(', ')}.` : 'No tools are available.'}`,
      };
    }
    if (parseError) return { status: CallCheckStatus.invalid, call, reason: `Invalid arguments for "${name}": ${parseError}.` };
    if (!isObject) return { status: CallCheckStatus.invalid, call, reason: `Invalid arguments for "${name}": they must be a JSON object.` };
    let reason: string | null;
    let schemaUnusableNow = false;
    try {
      let check = this.#validators.get(name);
      if (!check) {
        check = compileArgumentCheck(tool.parameters);
        this.#validators.set(name, check);
      }
      reason = check(args);
    } catch (error) {
      // A schema the interpreter cannot apply is the page's bug; the call is refused (fail closed).
      reason = schemaUnusable(error);
      schemaUnusableNow = true;
    }
    if (reason !== null) {
      const check: CallCheck = { status: CallCheckStatus.invalid, call, reason: `Invalid arguments for "${name}": ${reason}.` };
      if (schemaUnusableNow) check.schemaUnusable = true;
      return check;
    }
    return { status: CallCheckStatus.ok, call, reason: '' };
  }
}
