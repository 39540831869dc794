/**
 * Large catalogues (SPEC §7): when more than 20 tools are registered or their schemas pass
 * 16 KB, a request carries an active set plus a synthetic `load_tools` whose description
 * indexes every deferred tool. Nothing is dropped silently. The plan itself is tool-plan.ts's
 * (the launcher's shell needs it before this code loads); this runs `load_tools`.
 */
import type { ToolRegistry } from './registry.js';
import { LOAD_TOOLS_NAME, planPageSchemas, planSchemas, planTools, type ToolPlan } from './tool-plan.js';
import { ToolLimits, type PageToolSchema } from './types.js';

export { LOAD_TOOLS_NAME, loadToolsSchema } from './tool-plan.js';

/** Options for {@link ToolDeferral}. */
export interface ToolDeferralOptions {
  /** Most tools offered at once (default 20). */
  maxActiveTools?: number;
  /** Most serialized schema bytes offered at once (default 16 KB). */
  maxActiveBytes?: number;
}

// A load result with schemas must still fit the sanitizer's 4,096 characters with room to spare.
const LOAD_RESULT_BUDGET = 3_600;

/**
 * Decides which tool schemas a request carries and runs the synthetic `load_tools`.
 * One instance per conversation; `reset()` when a new one starts.
 *
 * @example
 * const deferral = new ToolDeferral();
 * const schemas = deferral.schemas(registry); // all tools, or the active set + load_tools
 * deferral.load(registry, { names: ['export_csv'] }); // { success: true, loaded: ['export_csv'], tools: [...] }
 */
export class ToolDeferral {
  readonly #maxTools: number;
  readonly #maxBytes: number;
  /** Names loaded in this conversation, oldest first. */
  #loaded: string[] = [];

  constructor(options: ToolDeferralOptions = {}) {
    this.#maxTools = options.maxActiveTools ?? ToolLimits.deferralToolCount;
    this.#maxBytes = options.maxActiveBytes ?? ToolLimits.deferralSchemaBytes;
  }

  /**
   * The page tools this tab offers the other tabs of the kept conversation: the active set without
   * `load_tools` (a tab loads its own deferred tools).
   */
  pageSchemas(registry: ToolRegistry): PageToolSchema[] {
    return planPageSchemas(this.#plan(registry));
  }

  /**
   * Schemas for the next request: every tool when within the limits, else the active set
   * followed by `load_tools`.
   *
   * @example
   * deferral.schemas(registry).map((s) => s.name); // ['search', 'open', …, 'load_tools']
   */
  schemas(registry: ToolRegistry): PageToolSchema[] {
    return planSchemas(this.#plan(registry));
  }

  /**
   * Whether the catalogue is over the limits (more than 20 tools, or over 16 KB of schemas).
   *
   * @example
   * deferral.isDeferring(registry); // true with 21 tools
   */
  isDeferring(registry: ToolRegistry): boolean {
    return this.#plan(registry).deferring;
  }

  /**
   * True when `name` is offered in the current request: every registered tool when not
   * deferring; the active set (and `load_tools`) when deferring.
   *
   * @example
   * if (!deferral.isActive(registry, call.name)) return deferral.unknownToolError(registry, call.name);
   */
  isActive(registry: ToolRegistry, name: string): boolean {
    const plan = this.#plan(registry);
    if (!plan.deferring) return registry.get(name) !== undefined;
    return name === LOAD_TOOLS_NAME || plan.active.has(name);
  }

  /**
   * Runs `load_tools({ names })`: the named tools join the active set from now on, and their
   * schemas come back in the result (while it stays small) so the model can call them at once.
   *
   * @example
   * deferral.load(registry, '{"names":["export_csv"]}');
   * // { success: true, loaded: ['export_csv'], tools: [{ name, description, parameters }] }
   */
  load(registry: ToolRegistry, args: unknown): { success: boolean; [k: string]: unknown } {
    const names = parseNames(args);
    if (typeof names === 'string') return { success: false, error: names };
    const unknown = names.filter((name) => !registry.get(name));
    if (unknown.length > 0) {
      return {
        success: false,
        error: `Unknown tool name${unknown.length > 1 ? 's' : ''}: ${unknown.map(quote).join(', ')}. Valid names: ${registry
          .list()
          .map((tool) => tool.name)
          .join(', ')}.`,
      };
    }
    const requested = [...new Set(names)];
    // Re-loading moves a name to the newest position; the oldest loads make room for new ones.
    this.#loaded = [...this.#loaded.filter((name) => !requested.includes(name)), ...requested];
    let plan = this.#plan(registry);
    while (plan.deferring && requested.some((name) => !plan.active.has(name))) {
      const evictable = this.#loaded.findIndex((name) => !requested.includes(name));
      if (evictable === -1) break;
      this.#loaded.splice(evictable, 1);
      plan = this.#plan(registry);
    }
    const loaded = requested.filter((name) => !plan.deferring || plan.active.has(name));
    const notLoaded = requested.filter((name) => !loaded.includes(name));
    // A name that could not fit is not kept as "loaded": it would only confuse later plans.
    this.#loaded = this.#loaded.filter((name) => !notLoaded.includes(name));

    const result: { success: boolean; [k: string]: unknown } = { success: loaded.length > 0, loaded };
    const tools: { name: string; description: string; parameters: unknown }[] = [];
    const later: string[] = [];
    let size = 200;
    for (const name of loaded) {
      const schema = registry.toSchema(registry.get(name)!);
      const entry = { name, description: schema.description, parameters: schema.parameters };
      const bytes = JSON.stringify(entry).length;
      if (size + bytes <= LOAD_RESULT_BUDGET) {
        tools.push(entry);
        size += bytes;
      } else later.push(name);
    }
    result['tools'] = tools;
    if (later.length > 0) {
      result['note'] = `Loaded; the full schemas of ${later.join(', ')} are in your tool list from the next step.`;
    }
    if (notLoaded.length > 0) {
      result['error'] = `Could not load ${notLoaded.join(', ')}: at most ${this.#maxTools} tools (${this.#maxBytes} bytes of schemas) can be active at once; load fewer at a time.`;
    }
    return result;
  }

  /**
   * Forgets what was loaded (a new conversation).
   *
   * @example
   * deferral.reset();
   */
  reset(): void {
    this.#loaded = [];
  }

  /**
   * A clear message for a call to an unknown or not-yet-loaded tool, listing what exists.
   *
   * @example
   * deferral.unknownToolError(registry, 'export_csv');
   * // 'Tool "export_csv" is not loaded yet. Call load_tools({"names":["export_csv"]}) first, then call it.'
   */
  unknownToolError(registry: ToolRegistry, name: string): string {
    const shown = quote(typeof name === 'string' ? name : String(name));
    const plan = this.#plan(registry);
    if (registry.get(name)) {
      return `Tool ${shown} is not loaded yet. Call ${LOAD_TOOLS_NAME}({"names":[${shown}]}) first, then call it.`;
    }
    if (registry.size === 0) return `Unknown tool ${shown}: no page tools are registered.`;
    if (!plan.deferring) {
      return `Unknown tool ${shown}. Available tools: ${plan.all.map((entry) => entry.tool.name).join(', ')}.`;
    }
    const deferred = plan.all.filter((entry) => !plan.active.has(entry.tool.name)).map((entry) => entry.tool.name);
    return `Unknown tool ${shown}. Available tools: ${plan.activeList
      .map((entry) => entry.tool.name)
      .join(', ')}. Available through ${LOAD_TOOLS_NAME}: ${deferred.join(', ')}.`;
  }

  #plan(registry: ToolRegistry): ToolPlan {
    return planTools(registry, this.#loaded, this.#maxTools, this.#maxBytes);
  }
}

function quote(name: string): string {
  return JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
}

function parseNames(args: unknown): string[] | string {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return 'load_tools arguments are not valid JSON: expected {"names":["tool_name"]}';
    }
  }
  const names = typeof value === 'object' && value !== null ? (value as { names?: unknown }).names : undefined;
  if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === 'string')) {
    return 'load_tools needs {"names":["tool_name", …]}: a non-empty array of tool names';
  }
  return names as string[];
}
