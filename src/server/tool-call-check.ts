/**
 * Checks a tool call the model made before it may reach the browser: offered, JSON, an object,
 * valid against the tool's schema (with @cfworker/json-schema: no eval, runs on edge runtimes).
 */
import { Validator, type Schema } from '@cfworker/json-schema';
import type { HostToolSchema } from '../tools/types.js';
import type { WaveToolCall } from '../transport/protocol.js';

export const CallCheckStatus = {
  ok: 'ok',
  /** The model named a tool that was not offered (or the site does not allow). */
  unknown: 'unknown',
  /** Arguments that are not JSON, not an object, or fail the schema. */
  invalid: 'invalid',
} as const;
export type CallCheckStatus = (typeof CallCheckStatus)[keyof typeof CallCheckStatus];

export interface CallCheck {
  status: CallCheckStatus;
  call: WaveToolCall;
  /** Why it was refused, phrased for the model. */
  reason: string;
}

const WRAPPER_KEYWORDS = new Set(['properties', 'items', 'prefixItems', 'allOf', '$ref', 'patternProperties', 'additionalItems']);

/**
 * Judges the model's tool calls against the offered schemas; validators are built lazily, once per tool.
 *
 * @example
 * const checker = new ToolCallChecker(tools);
 * checker.check({ id: 'c1', name: 'set_status', arguments: '{"id":"t1"}' }).status; // 'ok' | 'unknown' | 'invalid'
 */
export class ToolCallChecker {
  readonly #tools: Map<string, HostToolSchema>;
  readonly #validators = new Map<string, Validator>();

  constructor(tools: HostToolSchema[]) {
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
    let validator = this.#validators.get(name);
    if (!validator) {
      // Draft 7 matches the widget's ajv, so both sides judge arguments alike.
      validator = new Validator(tool.parameters as Schema, '7', false);
      this.#validators.set(name, validator);
    }
    let errors: string[];
    try {
      const result = validator.validate(args);
      // Wrapper keywords only repeat that a child failed; the leaves say why.
      const leaves = result.errors.filter((e) => !WRAPPER_KEYWORDS.has(e.keyword));
      errors = result.valid ? [] : (leaves.length ? leaves : result.errors).map((e) => `${e.instanceLocation.replace(/^#/, '') || '/'} ${e.error.replace(/\.$/, '')}`);
    } catch {
      // A schema the interpreter cannot apply (e.g. a bad regex) is the page's bug; the widget's ajv still judges it.
      errors = [];
    }
    if (errors.length > 0) {
      return { status: CallCheckStatus.invalid, call, reason: `Invalid arguments for "${name}": ${errors.slice(0, 3).join('; ')}.` };
    }
    return { status: CallCheckStatus.ok, call, reason: '' };
  }
}
