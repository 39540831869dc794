/**
 * The session a `<wave-chat>` element runs in a real page: the standard SSE transport to its
 * wave server, the conversation loop, the built-in page-reading tools and the tab-scoped grant.
 */
import { createPageTools } from '../page/index.js';
import { sessionStorageOrMemory } from '../storage.js';
import { createSseTransport, TransportError, type ModelTransport } from '../transport/sse-client.js';
import { ConversationLoop } from './conversation-loop.js';
import { WaveSession } from './wave-session.js';

export interface BrowserSessionOptions {
  siteId: string;
  /**
   * The wave server endpoint (absolute or relative to the page). A function is read at every
   * request, so an element's `endpoint` set after it was created still counts.
   */
  endpoint: string | null | (() => string | null);
  costUnit?: string;
  /** The widget's own UI, which the built-in page tools never read or act on. */
  isOwnUi?: (el: Element) => boolean;
  /**
   * Argument validation engine. Default `interpreter`: no `eval`, so it works, and reports no
   * violation, under any CSP or Trusted Types policy. `ajv` compiles (needs `'unsafe-eval'`);
   * `auto` tries ajv and falls back, but its probe raises a CSP report on strict pages.
   */
  validator?: 'interpreter' | 'ajv' | 'auto';
}

/**
 * @example
 * const session = createBrowserSession({ siteId: 'demo', endpoint: '/wave' });
 * session.registerTool('add_task', { description: 'Add a task.', handler: ({ title }) => ({ title }) });
 */
export function createBrowserSession(options: BrowserSessionOptions): WaveSession {
  const endpointOf = typeof options.endpoint === 'function' ? options.endpoint : () => options.endpoint as string | null;
  return new WaveSession({
    siteId: options.siteId,
    costUnit: options.costUnit ?? 'cr',
    storage: sessionStorageOrMemory(),
    validatorEngine: options.validator ?? 'interpreter',
    builtinTools: createPageTools(options.isOwnUi ? { isOwnUi: options.isOwnUi } : {}),
    transport: endpointTransport(endpointOf),
    createLoop: (deps) => new ConversationLoop({ ...deps, transport: deps.transport as ModelTransport }),
  });
}

/** The SSE transport to whatever the endpoint is when a step starts. */
function endpointTransport(endpointOf: () => string | null): ModelTransport {
  let cached: { url: string; transport: ModelTransport } | null = null;
  return {
    step(request, signal) {
      const raw = endpointOf();
      if (!raw) {
        // Without an endpoint the chat still runs tools through callTool; a message gets a clear notice.
        throw new TransportError({ code: 'no_endpoint', message: NO_ENDPOINT, retryable: false });
      }
      const url = new URL(raw, globalThis.document?.baseURI).href;
      if (cached?.url !== url) cached = { url, transport: createSseTransport({ endpoint: url }) };
      return cached.transport.step(request, signal);
    },
  };
}

const NO_ENDPOINT = 'This chat has no wave server endpoint: set the endpoint attribute (or data-endpoint on the script tag).';
