/**
 * Tool resolution (SPEC §6, §7, §8): which tool a call names, as offered to its source. Page
 * tools while any is registered (the model only the active ones under deferral; the page's own
 * `callTool` any registered one), else the built-in page tools.
 */
import type { ToolDeferral } from './deferral.js';
import type { ToolRegistry } from './registry.js';
import type { BuiltinToolDefinition, JsonSchema } from './types.js';

/**
 * Where a call comes from: the model, or the page's own `callTool`. `'host'` is the former name
 * of `'page'`, still accepted (deprecated).
 */
export type ToolCallSource = 'model' | 'page' | 'host';

/** What resolution reads. */
export interface ResolveFrom {
  registry: ToolRegistry;
  deferral: ToolDeferral;
  /** Built-in tools, offered only while the registry is empty. */
  builtins: () => Readonly<Record<string, BuiltinToolDefinition>>;
}

export interface ResolvedTool {
  name: string;
  definition: BuiltinToolDefinition;
  parameters: JsonSchema;
  /** A built-in tool of ours: its plain-data results get the looser built-in caps. */
  builtin?: boolean;
}

export type Resolution = { kind: 'tool'; tool: ResolvedTool } | { kind: 'load_tools' } | { kind: 'unknown'; error: string };

/** Text the model receives for an unknown built-in. */
export const unknownBuiltinText = (name: string, names: string[]) => `Unknown tool "${name}". Available tools: ${names.length ? names.join(', ') : 'none'}.`;

/**
 * Resolves one call's tool name. Never throws (a throwing `builtins` reads as none).
 *
 * @example
 * resolveTool('add_task', 'model', { registry, deferral, builtins: () => ({}) }); // { kind: 'tool', tool }
 */
export function resolveTool(name: string, source: ToolCallSource, from: ResolveFrom): Resolution {
  const { registry, deferral } = from;
  if (registry.size > 0) {
    if (name === 'load_tools' && deferral.isDeferring(registry)) return { kind: 'load_tools' };
    const registered = registry.get(name);
    if (registered && (source === 'page' || source === 'host' || deferral.isActive(registry, name))) {
      return { kind: 'tool', tool: { name, definition: registered.definition, parameters: registered.parameters } };
    }
    return { kind: 'unknown', error: deferral.unknownToolError(registry, name) };
  }
  const builtins = readBuiltins(from.builtins);
  const def = Object.prototype.hasOwnProperty.call(builtins, name) ? builtins[name] : undefined;
  if (def && typeof def.handler === 'function') {
    const parameters = isObject(def.parameters) ? def.parameters : { type: 'object', properties: {} };
    return { kind: 'tool', tool: { name, definition: def, parameters, builtin: true } };
  }
  return { kind: 'unknown', error: unknownBuiltinText(name, Object.keys(builtins)) };
}

function readBuiltins(builtins: () => Readonly<Record<string, BuiltinToolDefinition>>): Readonly<Record<string, BuiltinToolDefinition>> {
  try {
    return builtins() ?? {};
  } catch {
    return {};
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
