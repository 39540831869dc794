/**
 * The page-tool catalogue of one element (SPEC §3, §7): accepts or rejects definitions,
 * keeps registration order, and produces the handler-free schemas a request carries.
 */
import { consentSchema } from '../consent/policy.js';
import { inspectParametersSchema } from './schema-check.js';
import { RESERVED_TOOL_NAMES, ToolLimits } from './limits.js';
import type { PageToolSchema, JsonSchema, ToolDefinition } from './types.js';
import { describeError } from '../util/describe-error.js';

/** One accepted tool. `definition` is the page's own object, so `cost`/`confirmLabel` getters stay live. */
export interface RegisteredTool {
  readonly name: string;
  readonly definition: ToolDefinition;
  /** A detached JSON copy of the checked schema (the default when the page gave none). */
  readonly parameters: JsonSchema;
  /** Monotonic registration counter; a replaced tool gets a new one. */
  readonly order: number;
  /** The description as checked at registration ('' when absent). Optional so fakes may omit it. */
  readonly description?: string;
}

/** Options for {@link ToolRegistry}. */
export interface ToolRegistryOptions {
  /** Where rejection warnings go (default `console.warn`). */
  warn?: (message: string) => void;
  /** Catalogue size limit (default 128, SPEC §7). */
  maxTools?: number;
}

// Largest delay setTimeout honours; beyond it browsers fire at once.
const MAX_TIMEOUT_MS = 2_147_483_647;

const DEFAULT_PARAMETERS: JsonSchema = Object.freeze({ type: 'object', properties: Object.freeze({}) });

/**
 * Holds the page tools of one element.
 *
 * @example
 * const registry = new ToolRegistry();
 * registry.register('set_status', {
 *   description: 'Set a task status.',
 *   parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
 *   handler: ({ id }) => ({ id }),
 * }); // true
 * registry.toSchema(registry.get('set_status')!); // { name, description, parameters, confirm, cost, tier3 }
 */
export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #listeners = new Set<() => void>();
  readonly #warn: (message: string) => void;
  readonly #maxTools: number;
  #order = 0;

  constructor(options: ToolRegistryOptions = {}) {
    this.#warn = options.warn ?? ((message) => console.warn(message));
    this.#maxTools = options.maxTools ?? ToolLimits.maxTools;
  }

  /** Number of registered tools. */
  get size(): number {
    return this.#tools.size;
  }

  /**
   * Registers (or replaces) one tool. Returns false, with exactly one warning naming the
   * reason, when the name or definition is not acceptable (SPEC §3).
   *
   * @example
   * registry.register('Bad Name', { handler() {} }); // false, warns "invalid name"
   */
  register(name: unknown, definition: unknown): boolean {
    const reason = this.#check(name, definition);
    if (typeof reason === 'string') {
      this.#warn(`[wave-chat] registerTool(${describeName(name)}) rejected: ${reason}`);
      return false;
    }
    const key = name as string;
    // Replacing keeps nothing of the old entry: delete first so the new one takes a fresh position.
    this.#tools.delete(key);
    this.#tools.set(key, {
      name: key,
      definition: definition as ToolDefinition,
      parameters: reason.parameters,
      order: this.#order++,
      description: reason.description,
    });
    this.#emit();
    return true;
  }

  /**
   * Registers every `{ name: definition }` entry; returns how many were accepted.
   *
   * @example
   * registry.registerMany({ a: { handler: () => 1 }, b: { handler: () => 2 } }); // 2
   */
  registerMany(map: unknown): number {
    if (typeof map !== 'object' || map === null || Array.isArray(map)) {
      this.#warn('[wave-chat] registerTools(map) rejected: expected an object of { name: definition }');
      return 0;
    }
    let entries: [string, unknown][];
    try {
      entries = Object.keys(map).map((key) => [key, (map as Record<string, unknown>)[key]]);
    } catch (error) {
      this.#warn(`[wave-chat] registerTools(map) rejected: the map could not be read (${describeError(error, { subject: 'Reading it', maxChars: 200 })})`);
      return 0;
    }
    let count = 0;
    for (const [name, definition] of entries) if (this.register(name, definition)) count++;
    return count;
  }

  /**
   * Removes a tool; true when it was registered.
   *
   * @example
   * registry.unregister('set_status'); // true
   */
  unregister(name: unknown): boolean {
    if (typeof name !== 'string' || !this.#tools.delete(name)) return false;
    this.#emit();
    return true;
  }

  /** The tool registered under `name`. */
  get(name: string): RegisteredTool | undefined {
    return this.#tools.get(name);
  }

  /** All tools in registration order (a replaced tool moves to the end). */
  list(): RegisteredTool[] {
    return [...this.#tools.values()];
  }

  /**
   * The handler-free schema a request carries. `cost`, `confirm` and `tier3` are read fresh
   * (they may be getters); `confirm` is forced on by `cost > 0` and by `tier3` (which always asks).
   * A getter that throws, or a cost that turns invalid, reads as cost 0 with confirmation on.
   *
   * @example
   * registry.toSchema(tool).confirm; // true when the tool's cost getter now returns 40
   */
  toSchema(tool: RegisteredTool): PageToolSchema {
    return {
      name: tool.name,
      description: tool.description ?? readDescription(tool.definition),
      parameters: tool.parameters,
      // Anything we could not read safely asks the visitor: failing closed, never open.
      ...consentSchema(tool.definition),
    };
  }

  /**
   * Calls `listener` after every change; returns the unsubscribe function.
   *
   * @example
   * const off = registry.onChange(() => console.log(registry.size));
   */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  #emit(): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch (error) {
        // One faulty listener must not stop the others nor the registration.
        this.#warn(`[wave-chat] a tool registry listener threw: ${describeError(error, { subject: 'The listener', maxChars: 200 })}`);
      }
    }
  }

  /** Returns the reason to reject, or what to store. */
  #check(name: unknown, definition: unknown): string | { parameters: JsonSchema; description: string } {
    if (typeof name !== 'string' || !ToolLimits.namePattern.test(name)) {
      return 'invalid name: use 1 to 48 lowercase letters, digits or underscores (^[a-z0-9_]{1,48}$)';
    }
    if (RESERVED_TOOL_NAMES.has(name)) return `reserved name: "${name}" is a built-in tool`;
    if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) {
      return 'definition must be an object';
    }
    try {
      const handler = readData(definition, 'handler');
      if (handler.kind === 'missing' || handler.value === undefined) return 'missing handler: definition.handler is required';
      if (typeof handler.value !== 'function') return 'handler must be a function';

      const description = readData(definition, 'description');
      let text = '';
      if (description.kind !== 'missing' && description.value !== undefined) {
        if (typeof description.value !== 'string') return 'description must be a string';
        if (description.value.length > ToolLimits.maxDescriptionChars) {
          return `description is ${description.value.length} characters; the limit is ${ToolLimits.maxDescriptionChars}`;
        }
        text = description.value;
      }

      let parameters = DEFAULT_PARAMETERS;
      const params = readData(definition, 'parameters');
      if (params.kind !== 'missing' && params.value !== undefined) {
        const inspection = inspectParametersSchema(params.value);
        if (!inspection.ok) return `parameters is not a valid JSON Schema: ${inspection.reason}`;
        parameters = deepFreeze(inspection.schema);
      }

      // cost and confirmLabel may be getters read at confirmation time: never invoke them here.
      const cost = readData(definition, 'cost', { skipGetters: true });
      if (cost.kind === 'data' && cost.value !== undefined && !isValidCost(cost.value)) {
        return 'cost must be a number >= 0';
      }
      const summary = readData(definition, 'summary');
      if (summary.kind !== 'missing' && summary.value !== undefined && typeof summary.value !== 'function') {
        return 'summary must be a function';
      }
      const timeout = readData(definition, 'timeoutMs');
      if (timeout.kind !== 'missing' && timeout.value !== undefined) {
        const ms = timeout.value;
        if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0 || ms > MAX_TIMEOUT_MS) {
          return `timeoutMs must be a number of milliseconds between 1 and ${MAX_TIMEOUT_MS}`;
        }
      }
      if (!this.#tools.has(name) && this.#tools.size >= this.#maxTools) {
        return `catalogue full: at most ${this.#maxTools} tools per element (unregister one first)`;
      }
      return { parameters, description: text };
    } catch (error) {
      return `definition could not be read (${describeError(error, { subject: 'Reading it', maxChars: 200 })})`;
    }
  }
}

function isValidCost(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function describeName(name: unknown): string {
  if (typeof name === 'string') return JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name);
  if (name === null) return 'null';
  return `<${typeof name}>`;
}

type Read = { kind: 'missing'; value?: undefined } | { kind: 'data' | 'getter'; value: unknown };

/** Finds `key` on the object or its prototypes; reads accessors unless told not to. */
function readData(object: object, key: string, options: { skipGetters?: boolean } = {}): Read {
  for (let target: object | null = object; target; target = Object.getPrototypeOf(target) as object | null) {
    const descriptor = Object.getOwnPropertyDescriptor(target, key);
    if (!descriptor) continue;
    if ('value' in descriptor) return { kind: 'data', value: descriptor.value };
    if (options.skipGetters) return { kind: 'getter', value: undefined };
    return { kind: 'getter', value: descriptor.get ? descriptor.get.call(object) : undefined };
  }
  return { kind: 'missing' };
}

function readDescription(definition: ToolDefinition): string {
  try {
    const text: unknown = definition.description;
    return typeof text === 'string' ? text.slice(0, ToolLimits.maxDescriptionChars) : '';
  } catch {
    return '';
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
