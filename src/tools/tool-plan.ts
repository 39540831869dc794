/**
 * Which page tools a request offers (SPEC §7): every tool within the limits, else an active set
 * plus a synthetic `load_tools` whose description indexes every deferred tool. The launcher's
 * shell asks this before the conversation code has loaded; `ToolDeferral` (deferral.ts, with that
 * code) runs `load_tools` and keeps what a conversation loaded.
 */
import type { RegisteredTool, ToolRegistry } from './registry.js';
import { utf8Length } from './schema-check.js';
import { ToolLimits } from './limits.js';
import type { PageToolSchema } from './types.js';

export const LOAD_TOOLS_NAME = 'load_tools';

const MAX_SENTENCE_CHARS = 160;

export interface PlanEntry {
  tool: RegisteredTool;
  schema: PageToolSchema;
  bytes: number;
}

export interface ToolPlan {
  deferring: boolean;
  all: PlanEntry[];
  active: Set<string>;
  activeList: PlanEntry[];
}

/**
 * The plan for the next request: core tools first, then the ones loaded in this conversation
 * (oldest first), then the rest in registration order, as many as the limits hold.
 *
 * @example
 * planTools(registry, []).deferring; // true with 21 tools
 */
export function planTools(
  registry: ToolRegistry,
  loaded: readonly string[],
  maxTools: number = ToolLimits.deferralToolCount,
  maxBytes: number = ToolLimits.deferralSchemaBytes,
): ToolPlan {
  const all = registry.list().map((tool) => {
    const schema = registry.toSchema(tool);
    return { tool, schema, bytes: utf8Length(JSON.stringify(schema)) };
  });
  const totalBytes = all.reduce((sum, entry) => sum + entry.bytes, 0);
  const deferring = all.length > maxTools || totalBytes > maxBytes;
  if (!deferring) return { deferring, all, active: new Set(all.map((e) => e.tool.name)), activeList: all };

  const byName = new Map(all.map((entry) => [entry.tool.name, entry]));
  const candidates: PlanEntry[] = [];
  const seen = new Set<string>();
  const push = (entry: PlanEntry | undefined) => {
    if (entry && !seen.has(entry.tool.name)) {
      seen.add(entry.tool.name);
      candidates.push(entry);
    }
  };
  for (const entry of all) if (isCore(entry.tool)) push(entry);
  for (const name of loaded) push(byName.get(name));
  for (const entry of all) push(entry);

  const active = new Set<string>();
  const activeList: PlanEntry[] = [];
  let bytes = 0;
  for (const entry of candidates) {
    if (activeList.length >= maxTools) break;
    // A tool too large for what is left is skipped; a smaller later one may still fit.
    if (bytes + entry.bytes > maxBytes) continue;
    bytes += entry.bytes;
    active.add(entry.tool.name);
    activeList.push(entry);
  }
  return { deferring, all, active, activeList };
}

/**
 * The schemas a plan offers: every tool when within the limits, else the active set followed by
 * `load_tools`.
 */
export function planSchemas(plan: ToolPlan): PageToolSchema[] {
  if (!plan.deferring) return plan.all.map((entry) => entry.schema);
  const deferred = plan.all.filter((entry) => !plan.active.has(entry.tool.name));
  return [...plan.activeList.map((entry) => entry.schema), loadToolsSchema(deferred.map((entry) => entry.tool))];
}

/** The page tools a plan offers, without `load_tools` (what a tab offers the other tabs). */
export function planPageSchemas(plan: ToolPlan): PageToolSchema[] {
  return planSchemas(plan).filter((s) => s.name !== LOAD_TOOLS_NAME);
}

function isCore(tool: RegisteredTool): boolean {
  try {
    return tool.definition.core === true;
  } catch {
    return false;
  }
}

/** "name: first sentence of its description" */
function indexLine(tool: RegisteredTool, description: string): string {
  const text = description.replace(/\s+/g, ' ').trim();
  const match = /^.*?[.!?](?=\s|$)/.exec(text);
  let sentence = match ? match[0] : text;
  if (sentence.length > MAX_SENTENCE_CHARS) sentence = `${sentence.slice(0, MAX_SENTENCE_CHARS - 1)}…`;
  return sentence ? `${tool.name}: ${sentence}` : tool.name;
}

/**
 * The synthetic `load_tools` schema indexing the deferred tools.
 *
 * @example
 * loadToolsSchema(deferredTools).description; // 'Loads … Deferred tools:\n- export_csv: Export the board as CSV.'
 */
export function loadToolsSchema(deferred: readonly RegisteredTool[]): PageToolSchema {
  const lines = deferred.map((tool) => `- ${indexLine(tool, tool.description ?? safeDescription(tool))}`);
  return {
    name: LOAD_TOOLS_NAME,
    description:
      'Loads more page tools so you can call them. Only some tools are offered at first; the others are listed ' +
      'below as "name: what it does". Call this with the names you need, then call those tools.\nDeferred tools:\n' +
      lines.join('\n'),
    parameters: {
      type: 'object',
      properties: { names: { type: 'array', items: { type: 'string' }, minItems: 1 } },
      required: ['names'],
    },
    confirm: false,
    cost: 0,
    tier3: false,
  };
}

function safeDescription(tool: RegisteredTool): string {
  try {
    const text: unknown = tool.definition.description;
    return typeof text === 'string' ? text : '';
  } catch {
    return '';
  }
}
