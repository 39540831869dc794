/**
 * The session a `<wave-chat>` element runs in a real page: the standard SSE transport to its
 * wave server, the conversation loop, the built-in page-reading tools and the tab-scoped grant.
 */
import { createPageTools } from '../page/index.js';
import { sessionStorageOrMemory } from '../storage.js';
import { createSseTransport, type ModelTransport } from '../transport/sse-client.js';
import { ConversationLoop } from './conversation-loop.js';
import { WaveSession } from './wave-session.js';

export interface BrowserSessionOptions {
  siteId: string;
  /** The wave server endpoint (absolute or relative to the page); null leaves the chat unconnected. */
  endpoint: string | null;
  costUnit?: string;
  /** The widget's own UI, which the built-in page tools never read or act on. */
  isOwnUi?: (el: Element) => boolean;
}

/**
 * @example
 * const session = createBrowserSession({ siteId: 'demo', endpoint: '/wave' });
 * session.registerTool('add_task', { description: 'Add a task.', handler: ({ title }) => ({ title }) });
 */
export function createBrowserSession(options: BrowserSessionOptions): WaveSession {
  const endpoint = options.endpoint ? new URL(options.endpoint, globalThis.document?.baseURI).href : null;
  return new WaveSession({
    siteId: options.siteId,
    costUnit: options.costUnit ?? 'cr',
    storage: sessionStorageOrMemory(),
    builtinTools: createPageTools(options.isOwnUi ? { isOwnUi: options.isOwnUi } : {}),
    // Without an endpoint the chat still runs tools through callTool; a message gets a clear notice.
    ...(endpoint
      ? {
          transport: createSseTransport({ endpoint }),
          createLoop: (deps) => new ConversationLoop({ ...deps, transport: deps.transport as ModelTransport }),
        }
      : {}),
  });
}
