/**
 * What a request offers the model, shared by the session and the launcher's shell so the two can
 * never tell different stories.
 */
import type { ToolRouter } from '../tabs/tab-router.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { PageToolSchema } from '../tools/types.js';

/**
 * This tab's schemas, then, with the kept conversation open in other tabs (SPEC §13), the tools
 * only they offer. A router that fails leaves this tab's own.
 */
export function withOtherTabsSchemas(own: PageToolSchema[], registry: ToolRegistry, router: ToolRouter | null): PageToolSchema[] {
  if (!router) return own;
  try {
    return [...own, ...router.remoteSchemas(new Set([...own.map((s) => s.name), ...registry.list().map((t) => t.name)]))];
  } catch {
    return own;
  }
}
