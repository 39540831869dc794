/** Shared helpers for the page-tool tests: a clean stage in the body and handler plumbing. */
import type { HandlerContext } from '../../src/tools/types.js';
import type { BuiltinToolDefinition } from '../../src/page/index.js';

/** A handler context with a live signal. */
export function context(signal: AbortSignal = new AbortController().signal): HandlerContext {
  return { callId: 'call-1', conversationId: 'conv-1', signal };
}

/** Replaces the test page's visible content with `markup` (removed by {@link clearStage}). */
export function stage(markup: string): HTMLElement {
  clearStage();
  const host = document.createElement('div');
  host.id = 'stage';
  host.innerHTML = markup;
  document.body.append(host);
  return host;
}

export function clearStage(): void {
  document.getElementById('stage')?.remove();
}

/** Runs a built-in tool's handler and returns its plain result object. */
export async function call(
  tools: Record<string, BuiltinToolDefinition>,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const tool = tools[name];
  if (!tool) throw new Error(`no tool ${name}`);
  return (await tool.handler(args, context())) as Record<string, unknown>;
}

/** Reads the page and returns its outline text. */
export async function outline(tools: Record<string, BuiltinToolDefinition>, page = 1): Promise<string> {
  const result = await call(tools, 'read_page', { page });
  if (result['success'] !== true) throw new Error(String(result['error']));
  return String(result['outline']);
}

/** The ref on the first outline line that contains `needle`. */
export function refOn(text: string, needle: string): string {
  const line = text.split('\n').find((l) => l.includes(needle));
  const ref = line && /\[ref=([a-z0-9]+)\]/.exec(line)?.[1];
  if (!ref) throw new Error(`no ref on a line with ${needle} in:\n${text}`);
  return ref;
}

/** The exact error for a ref that no longer points at anything. */
export function staleError(ref: string): string {
  return `Unknown or stale ref "${ref}": call read_page again to get fresh refs.`;
}
