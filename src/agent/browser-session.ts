/**
 * The session a `<wave-chat>` element runs in a real page: the standard SSE transport to its
 * wave server, the conversation loop, the built-in page-reading tools and the tab-scoped grant.
 */
import { DEFAULT_VALIDATOR_ENGINE } from '../tools/validator.js';
import { createLazyPageTools } from '../page/lazy-page-tools.js';
import type { BuiltinToolDefinition } from '../tools/types.js';
import { sessionStorageOnFirstUse } from '../storage.js';
import type { SessionParts } from './session-shell.js';
import { createSseTransport, TransportError, type ModelTransport } from '../transport/sse-client.js';
import { VoiceEndReason, VoiceState, type VoiceEngine, type VoiceEngineKind, type VoiceStartOptions } from '../voice/types.js';
import { ConversationLoop } from './conversation-loop.js';
import { WaveSession } from './wave-session.js';
import { sendForReply, type ReplySession } from './send-for-reply.js';
import type { TranscriptItem } from './types.js';
import { hasSpeechRecognition } from '../voice/speech-support.js';

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
  /** The built-in page tools (default: loaded just after start-up, see `createLazyPageTools`). */
  builtinTools?: Readonly<Record<string, BuiltinToolDefinition>>;
  /** A `SessionShell`'s registry, page state and conversation id, taken over. */
  registry?: SessionParts['registry'];
  context?: SessionParts['context'];
  conversationId?: string;
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
    // sessionStorage is probed when the grant first writes or clears, not when the session is made.
    storage: sessionStorageOnFirstUse(),
    ...(options.registry ? { registry: options.registry } : {}),
    ...(options.context ? { context: options.context } : {}),
    ...(options.conversationId ? { conversationId: options.conversationId } : {}),
    validatorEngine: options.validator ?? DEFAULT_VALIDATOR_ENGINE,
    // The page-reading code loads just after start-up (the record fills in place).
    builtinTools: options.builtinTools ?? createLazyPageTools(options.isOwnUi ? { isOwnUi: options.isOwnUi } : {}).tools,
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

/** Which voice engine to prefer (the element's `voice-engine` attribute). */
export const VoicePreference = { realtime: 'realtime', browser: 'browser' } as const;
export type VoicePreference = (typeof VoicePreference)[keyof typeof VoicePreference];

export interface VoiceEngineFactoryOptions {
  /** The wave server endpoint (absolute or relative to the page); the realtime engine needs it. */
  endpoint: string | null;
  siteId: string;
  /** Default `browser`. `realtime` only when the wave server is known to broker voice. */
  prefer?: VoicePreference;
}

/** The session methods a voice engine drives: its record and `send` (spoken turns go through `sendForReply`). */
export interface VoiceEngineSession extends ReplySession {
  readonly state: { readonly conversationId: string; readonly items: readonly TranscriptItem[] };
}

export { hasSpeechRecognition } from '../voice/speech-support.js';

/**
 * Makes the voice engine for `session`: the realtime engine brokered by the wave server when
 * `prefer` is `realtime` and an endpoint is set, else the Web Speech engine driving the text
 * loop. Null when neither can run here.
 *
 * @example
 * const engine = createVoiceEngine(session, { endpoint: '/wave', siteId: 'demo', prefer: 'browser' });
 * if (engine) await session.startVoice(engine);
 */
export function createVoiceEngine(session: VoiceEngineSession, options: VoiceEngineFactoryOptions): VoiceEngine | null {
  if (options.prefer === VoicePreference.realtime && options.endpoint) {
    const endpoint = new URL(options.endpoint, globalThis.document?.baseURI).href;
    return lazyEngine('realtime', async () => {
      const { createRealtimeEngine, createVoiceSessionClient } = await import('../voice/engines.js');
      return createRealtimeEngine({
        createSession: createVoiceSessionClient({ endpoint, siteId: options.siteId, conversationId: session.state.conversationId }),
      });
    });
  }
  if (!hasSpeechRecognition()) return null;
  return lazyEngine('browser', async () => {
    const { createBrowserEngine } = await import('../voice/engines.js');
    return createBrowserEngine({
      sendText: (text, signal) => sendForReply(session, text, signal),
      ...(globalThis.navigator?.language ? { lang: globalThis.navigator.language } : {}),
    });
  });
}

/**
 * A voice engine whose code loads when voice starts, so pages that never use voice never
 * download it. Stopping before the code has arrived ends the session without starting it.
 */
function lazyEngine(kind: VoiceEngineKind, load: () => Promise<VoiceEngine>): VoiceEngine {
  let engine: VoiceEngine | null = null;
  let stoppedWith: string | null = null;
  return {
    kind,
    get state() {
      return engine?.state ?? (stoppedWith === null ? VoiceState.idle : VoiceState.ended);
    },
    inputLevel: () => engine?.inputLevel() ?? 0,
    outputLevel: () => engine?.outputLevel() ?? 0,
    async start(options: VoiceStartOptions) {
      options.onState(VoiceState.connecting);
      const loaded = await load();
      if (stoppedWith !== null || options.signal.aborted) {
        options.onEnd(stoppedWith ?? VoiceEndReason.aborted);
        return;
      }
      engine = loaded;
      await loaded.start(options);
    },
    stop(reason?: string) {
      stoppedWith = reason ?? VoiceEndReason.stopped;
      engine?.stop(reason);
    },
    ask(question) {
      return engine?.ask?.(question);
    },
  };
}

/**
 * The waves' input for an engine: the louder of microphone and playback.
 *
 * @example
 * chat.levelSource = voiceLevelSource(engine);
 */
export function voiceLevelSource(engine: VoiceEngine): () => number {
  return () => Math.max(engine.inputLevel(), engine.outputLevel());
}
