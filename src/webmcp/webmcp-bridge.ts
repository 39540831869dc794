/**
 * The opt-in WebMCP bridge (SPEC §13) between one widget's page tools and the browser's own
 * agent (`document.modelContext`):
 *
 * - out: every page tool registered with the widget is registered with the model context too
 *   (and unregistered with it); the browser agent's call runs through the widget's `callTool`,
 *   so validation, the consent chip, grants, tier3 and sanitization hold exactly as for the
 *   widget's own model. `readOnlyHint` is set only for tools that neither confirm nor cost.
 * - in: tools the page registered directly with the model context (same origin) are offered
 *   to the widget's model and run through `executeTool`, behind a confirmation unless marked
 *   read-only (their cost is unknown); they follow `toolchange`. The widgets' own mirrored
 *   tools are never offered back.
 */
import type { RegisteredTool, ToolRegistry } from '../tools/registry.js';
import { ToolLimits, RESERVED_TOOL_NAMES, type SanitizedResult, type ToolDefinition } from '../tools/types.js';
import type { ModelContext, ModelContextToolInit, RegisteredModelContextTool } from './model-context.js';

export interface WebMcpBridgeOptions {
  modelContext: ModelContext;
  /** The widget's page-tool catalogue: what goes out, and where incoming tools are registered. */
  registry: ToolRegistry;
  /** Runs a call exactly as the widget's own model would (the session's `callTool`). */
  callTool: (name: string, args: unknown, options: { signal?: AbortSignal }) => Promise<SanitizedResult>;
  /** Only tools registered by documents of this origin come in (default: this page's origin). */
  origin?: string;
  warn?: (message: string) => void;
}

interface Export {
  readonly tool: RegisteredTool;
  readonly controller: AbortController;
}

interface Import {
  /** The latest `getTools()` entry (what `executeTool` is given). */
  tool: RegisteredModelContextTool;
  readonly key: string;
  readonly definition: ToolDefinition;
}

// Names mirrored out by any widget of this document, so no widget offers them back to itself.
const mirrored = new Map<string, WebMcpBridge>();

/**
 * @example
 * const mc = findModelContext();
 * if (mc) new WebMcpBridge({ modelContext: mc, registry: session.registry,
 *   callTool: (name, args, o) => session.callTool(name, args, o) }).start();
 */
export class WebMcpBridge {
  readonly #mc: ModelContext;
  readonly #registry: ToolRegistry;
  readonly #callTool: WebMcpBridgeOptions['callTool'];
  readonly #origin: string | undefined;
  readonly #warn: (message: string) => void;
  readonly #exports = new Map<string, Export>();
  readonly #imports = new Map<string, Import>();
  readonly #warned = new Set<string>();
  #offRegistry: (() => void) | null = null;
  #generation = 0;
  #running = false;
  #dirty = false;
  #syncing = false;
  #settled: Promise<void> = Promise.resolve();

  constructor(options: WebMcpBridgeOptions) {
    this.#mc = options.modelContext;
    this.#registry = options.registry;
    this.#callTool = options.callTool;
    this.#origin = options.origin ?? globalThis.location?.origin;
    this.#warn = options.warn ?? ((m) => console.warn(m));
  }

  /** Starts mirroring both ways (idempotent). */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#offRegistry = this.#registry.onChange(() => this.#syncOut());
    this.#mc.addEventListener('toolchange', this.#onToolChange);
    this.#syncOut();
    this.#onToolChange();
  }

  /** Unregisters everything it registered, on both sides (idempotent). */
  stop(): void {
    if (!this.#running) return;
    this.#running = false;
    this.#generation++;
    this.#offRegistry?.();
    this.#offRegistry = null;
    this.#mc.removeEventListener('toolchange', this.#onToolChange);
    for (const name of [...this.#exports.keys()]) this.#unexport(name);
    for (const name of [...this.#imports.keys()]) this.#unimport(name);
  }

  /** Resolves once the latest `toolchange` has been applied (for tests and callers that wait). */
  get settled(): Promise<void> {
    return this.#settled;
  }

  // ── out: the widget's page tools → the browser's agent ─────────────────────────

  #syncOut(): void {
    if (!this.#running) return;
    const wanted = new Map<string, RegisteredTool>();
    for (const tool of this.#registry.list()) if (!this.#isImport(tool)) wanted.set(tool.name, tool);
    for (const [name, record] of this.#exports) if (wanted.get(name) !== record.tool) this.#unexport(name);
    for (const [name, tool] of wanted) if (!this.#exports.has(name)) this.#export(tool);
  }

  #export(tool: RegisteredTool): void {
    const name = tool.name;
    const owner = mirrored.get(name);
    if (owner && owner !== this) {
      this.#warnOnce(`out:${name}`, `[wave-chat] WebMCP: "${name}" is already offered to the browser's agent by another widget`);
      return;
    }
    const record: Export = { tool, controller: new AbortController() };
    this.#exports.set(name, record);
    mirrored.set(name, this);
    const schema = this.#registry.toSchema(tool);
    const init: ModelContextToolInit = {
      name,
      description: schema.description,
      inputSchema: tool.parameters,
      annotations: { readOnlyHint: neitherConfirmsNorCosts(tool.definition, schema) },
      // The browser agent's call is a page call (as `callTool`): the same runner, chip, grant and sanitizer.
      execute: (input, client) => this.#callTool(name, input ?? {}, client?.signal ? { signal: client.signal } : {}),
    };
    const failed = (error: unknown) => {
      if (record.controller.signal.aborted) return;
      this.#warnOnce(`out:${name}`, `[wave-chat] WebMCP: could not offer "${name}" to the browser's agent (${describe(error)})`);
      if (this.#exports.get(name) === record) {
        this.#exports.delete(name);
        if (mirrored.get(name) === this) mirrored.delete(name);
      }
    };
    try {
      this.#mc.registerTool(init, { signal: record.controller.signal }).catch(failed);
    } catch (error) {
      failed(error);
    }
  }

  #unexport(name: string): void {
    const record = this.#exports.get(name);
    if (!record) return;
    this.#exports.delete(name);
    if (mirrored.get(name) === this) mirrored.delete(name);
    // Aborting the registration's signal is how WebMCP unregisters a tool.
    record.controller.abort();
  }

  #isImport(tool: RegisteredTool): boolean {
    return this.#imports.get(tool.name)?.definition === tool.definition;
  }

  // ── in: tools the page gave the browser's agent → the widget's model ────────────

  // A burst of changes (a page registering many tools; our own mirrored ones) is read with one
  // getTools() at a time: changes that arrive meanwhile are applied by one more pass.
  readonly #onToolChange = (): void => {
    this.#dirty = true;
    if (!this.#syncing) this.#settled = this.#drain();
  };

  async #drain(): Promise<void> {
    this.#syncing = true;
    try {
      while (this.#dirty && this.#running) {
        this.#dirty = false;
        await this.#syncIn();
      }
    } finally {
      this.#syncing = false;
    }
  }

  async #syncIn(): Promise<void> {
    const generation = ++this.#generation;
    let tools: RegisteredModelContextTool[];
    try {
      tools = await this.#mc.getTools();
    } catch {
      return;
    }
    if (!this.#running || generation !== this.#generation || !Array.isArray(tools)) return;
    const wanted = new Map<string, { tool: RegisteredModelContextTool; key: string }>();
    for (const tool of tools) {
      const name = readString(tool, 'name');
      if (name === null || mirrored.has(name)) continue;
      if (this.#origin !== undefined && readString(tool, 'origin') !== null && readString(tool, 'origin') !== this.#origin) continue;
      const local = widgetName(name);
      if (local === null) {
        this.#warnOnce(`in:${name}`, `[wave-chat] WebMCP: the page's tool ${JSON.stringify(name.slice(0, 60))} has no usable widget name (^[a-z0-9_]{1,48}$ once lower-cased)`);
        continue;
      }
      if (wanted.has(local)) {
        this.#warnOnce(`in:${name}`, `[wave-chat] WebMCP: the page's tool ${JSON.stringify(name)} clashes with another as "${local}"`);
        continue;
      }
      const key = keyOf(tool);
      if (key !== null) wanted.set(local, { tool, key });
    }
    for (const [name, record] of this.#imports) {
      const next = wanted.get(name);
      if (!next || next.key !== record.key || this.#registry.get(name)?.definition !== record.definition) this.#unimport(name);
      else record.tool = next.tool;
    }
    for (const [name, next] of wanted) if (!this.#imports.has(name)) this.#import(name, next.tool, next.key);
  }

  #import(name: string, tool: RegisteredModelContextTool, key: string): void {
    if (this.#registry.get(name)) {
      // The page registered a widget tool of that name itself: its own wins.
      this.#warnOnce(`in:${name}`, `[wave-chat] WebMCP: the page's tool "${name}" is not offered to the widget's model: a widget tool has that name`);
      return;
    }
    const readOnly = readAnnotation(tool, 'readOnlyHint') === true;
    const mc = this.#mc;
    const record: Import = {
      tool,
      key,
      definition: {
        description: (readString(tool, 'description') ?? '').slice(0, ToolLimits.maxDescriptionChars),
        ...(isObject(read(tool, 'inputSchema')) ? { parameters: read(tool, 'inputSchema') as object as Record<string, unknown> } : {}),
        // Its cost is unknown to the widget: it asks, unless the page marked it read-only.
        confirm: !readOnly,
        handler: async (args: unknown, context) => parseResult(await mc.executeTool(record.tool, isObject(args) ? args : {}, { signal: context.signal })),
      },
    };
    // Recorded first: the registry's change listener (#syncOut) must see it as an import.
    this.#imports.set(name, record);
    if (!this.#registry.register(name, record.definition)) this.#imports.delete(name);
  }

  #unimport(name: string): void {
    const record = this.#imports.get(name);
    if (!record) return;
    this.#imports.delete(name);
    if (this.#registry.get(name)?.definition === record.definition) this.#registry.unregister(name);
  }

  #warnOnce(key: string, message: string): void {
    if (this.#warned.has(key)) return;
    this.#warned.add(key);
    this.#warn(message);
  }
}

/** True when the tool can never ask nor spend: plain data `confirm`, `cost`, `tier3` all off. */
function neitherConfirmsNorCosts(definition: ToolDefinition, schema: { confirm: boolean; cost: number; tier3: boolean }): boolean {
  if (schema.confirm || schema.cost > 0 || schema.tier3) return false;
  // A getter may start costing later: only plain values count as free.
  for (const key of ['confirm', 'cost', 'tier3']) {
    for (let target: object | null = definition; target; target = Object.getPrototypeOf(target) as object | null) {
      const descriptor = Object.getOwnPropertyDescriptor(target, key);
      if (!descriptor) continue;
      if (!('value' in descriptor)) return false;
      break;
    }
  }
  return true;
}

/** The widget name for a WebMCP tool name (which may hold capitals, dots and dashes), or null. */
export function widgetName(name: string): string | null {
  const local = name.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  if (!ToolLimits.namePattern.test(local) || RESERVED_TOOL_NAMES.has(local)) return null;
  return local;
}

/** `executeTool` resolves with the result serialized: JSON back to data, other text as is. */
function parseResult(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function keyOf(tool: RegisteredModelContextTool): string | null {
  try {
    return JSON.stringify([
      readString(tool, 'name'),
      readString(tool, 'description'),
      read(tool, 'inputSchema') ?? null,
      readAnnotation(tool, 'readOnlyHint') === true,
    ]);
  } catch {
    return null;
  }
}

function read(object: unknown, key: string): unknown {
  try {
    return (object as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function readString(object: unknown, key: string): string | null {
  const value = read(object, key);
  return typeof value === 'string' ? value : null;
}

function readAnnotation(tool: unknown, key: string): unknown {
  return read(read(tool, 'annotations'), key);
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return 'unknown error';
  }
}
