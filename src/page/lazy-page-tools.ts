/**
 * The built-in page tools, loaded after the widget is usable: their DOM-reading code is a
 * separate chunk of the CDN build. The returned record is empty until the chunk arrives (a few
 * milliseconds after start-up) and then holds the six tools; the session reads it afresh for
 * every request, so nothing else changes.
 */
import type { BuiltinToolDefinition, PageToolsOptions } from './page-tools.js';

export interface LazyPageTools {
  /** Filled in place once the implementation has loaded. */
  readonly tools: Record<string, BuiltinToolDefinition>;
  /** Resolves when `tools` is filled (or the load failed, with a console warning). */
  readonly ready: Promise<void>;
}

/**
 * @example
 * const { tools, ready } = createLazyPageTools();
 * new WaveSession({ builtinTools: tools });
 * await ready; // tools.read_page is there now
 */
export function createLazyPageTools(options: PageToolsOptions = {}): LazyPageTools {
  const tools: Record<string, BuiltinToolDefinition> = {};
  const ready = import('./page-tools.js').then(
    (module) => {
      Object.assign(tools, module.createPageTools(options));
    },
    (error: unknown) => {
      // The page's own tools still work; only the built-in page reading is missing.
      console.warn('[wave-chat] the built-in page tools did not load', error);
    },
  );
  return { tools, ready };
}
