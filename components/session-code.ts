/**
 * The conversation code `<wave-chat>` loads on intent or first need (one chunk of the CDN
 * build, which the panel's chunk builds on): the browser session (transport, loop, runner,
 * consent, validator), the voice engine factory and the kept conversation's store.
 */
import { createBrowserSession, createVoiceEngine, voiceLevelSource, type BrowserSessionOptions } from '../src/agent/browser-session.js';
import type { WaveSessionApi } from '../src/agent/types.js';
import { unavailableVoiceEngine } from '../src/voice/voice-failure.js';
import type { VoiceEngine } from '../src/voice/types.js';
import type { WaveSession } from '../src/agent/wave-session.js';
import { createLazyPageTools } from '../src/page/lazy-page-tools.js';

// The kept conversation's code (persist-transcript) rides here: it shares the record's helpers.
export { idbTranscriptStore } from './transcript-store.js';
export { KeptSync } from './kept-sync.js';
// Several tabs join only with persist-transcript (it loads this chunk anyway).
export { TabsController } from './controllers/tabs-controller.js';
// The §11 DOM events (the element's session raises none before this code has loaded).
export { toDomEvent } from './events.js';

/**
 * The element's browser session, resolved once its built-in page tools are there too (the
 * element fetches their chunk beside this one), so a first request never goes without them.
 */
export async function createElementSession(options: BrowserSessionOptions): Promise<WaveSession> {
  const pageTools = createLazyPageTools(options.isOwnUi ? { isOwnUi: options.isOwnUi } : {});
  const session = createBrowserSession({ ...options, builtinTools: pageTools.tools });
  await pageTools.ready;
  return session;
}

/**
 * `WaveChat.createVoiceEngine`'s default: the Web Speech engine driving the text loop, or the
 * realtime engine brokered by the wave server when `voice-engine="realtime"`.
 */
export function defaultVoiceEngine(el: { endpoint: string; siteId: string; voiceEngine: string }, session: WaveSessionApi): VoiceEngine | null {
  return createVoiceEngine(session, {
    endpoint: el.endpoint || null,
    siteId: el.siteId || 'default',
    prefer: el.voiceEngine === 'realtime' ? 'realtime' : 'browser',
  });
}

/**
 * Starts voice on `session` with the engine `make` returns (an engine that reports why voice
 * cannot run when it throws or returns null), and hands the waves their level through `host`.
 */
export async function startVoiceOn(
  session: WaveSessionApi,
  make: () => VoiceEngine | null,
  host: { levelSource: (() => number) | null },
): Promise<void> {
  let engine: VoiceEngine | null;
  try {
    engine = make();
  } catch (error) {
    engine = unavailableVoiceEngine(error instanceof Error ? error.message : 'the voice engine failed');
  }
  engine ??= unavailableVoiceEngine('voice is not supported in this browser');
  const level = voiceLevelSource(engine);
  host.levelSource = level;
  await session.startVoice?.(engine);
  if (!session.state.voice && host.levelSource === level) host.levelSource = null;
}
