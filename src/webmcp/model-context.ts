/**
 * The slice of WebMCP (`document.modelContext`, the browser's own agent's tool registry) the
 * bridge uses, as Chromium ships it behind `--enable-features=WebMCP`: `registerTool(tool,
 * { signal })` (aborting the signal unregisters), `getTools()`, `executeTool(tool, input,
 * { signal })` (resolves with the result as a string) and the `toolchange` event.
 */

/** What `registerTool` takes. */
export interface ModelContextToolInit {
  name: string;
  title?: string;
  description: string;
  inputSchema?: object;
  annotations?: ModelContextAnnotations;
  execute: (input: Record<string, unknown>, client?: { signal?: AbortSignal }) => unknown;
}

export interface ModelContextAnnotations {
  /** The tool only reads: an agent may run it without asking. */
  readOnlyHint?: boolean;
}

/** What `getTools()` lists: a tool some script of this page (or one of its frames) registered. */
export interface RegisteredModelContextTool {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema?: object;
  readonly annotations?: ModelContextAnnotations;
  /** Origin of the registering document. */
  readonly origin?: string;
}

export interface ModelContext extends EventTarget {
  registerTool(tool: ModelContextToolInit, options?: { signal?: AbortSignal }): Promise<void>;
  getTools(): Promise<RegisteredModelContextTool[]>;
  executeTool(tool: RegisteredModelContextTool, input: object, options?: { signal?: AbortSignal }): Promise<unknown>;
}

/**
 * The document's model context, or null where the browser has none (the bridge is then a no-op).
 *
 * @example
 * const mc = findModelContext(); // null in Firefox, and in Chromium without WebMCP
 */
export function findModelContext(doc: unknown = globalThis.document): ModelContext | null {
  try {
    const mc: unknown = (doc as { modelContext?: unknown } | undefined)?.modelContext;
    if (typeof mc !== 'object' || mc === null) return null;
    const api = mc as Partial<ModelContext>;
    const ok =
      typeof api.registerTool === 'function' &&
      typeof api.getTools === 'function' &&
      typeof api.executeTool === 'function' &&
      typeof api.addEventListener === 'function' &&
      typeof api.removeEventListener === 'function';
    return ok ? (mc as ModelContext) : null;
  } catch {
    return null;
  }
}
