/**
 * Small voice pieces the first chunk needs without loading voice: the failure kinds a notice
 * names, and an engine that only fails to start ("voice is not supported here").
 */
import { VoiceState, type VoiceEngine } from './types.js';

/** Why voice failed, as the notice names it. */
export const VoiceFailure = {
  micDenied: 'mic-denied',
  noMicrophone: 'no-microphone',
  /** Sound cannot play: no audio output device (the audio context never started). */
  noAudioOutput: 'no-audio-output',
  /** The microphone or the connection did not respond in time. */
  timedOut: 'timed-out',
  connectionLost: 'connection-lost',
  audioCapture: 'audio-capture',
  network: 'network',
  unsupported: 'unsupported',
  /** Voice could not start for another reason (`message` says which). */
  startFailed: 'start-failed',
  error: 'error',
} as const;
export type VoiceFailure = (typeof VoiceFailure)[keyof typeof VoiceFailure];

/**
 * An engine that only fails to start with `message`: lets "voice is not supported here" travel
 * the same path (a notice) as any other start failure.
 *
 * @example
 * await session.startVoice(createVoiceEngine(...) ?? unavailableVoiceEngine('Voice is not supported in this browser.'));
 */
export function unavailableVoiceEngine(message: string, kind: VoiceEngine['kind'] = 'browser'): VoiceEngine {
  let state: VoiceState = VoiceState.idle;
  return {
    kind,
    get state() {
      return state;
    },
    async start() {
      state = VoiceState.error;
      // NotSupportedError: the notice says voice is not available here, in the page's words.
      throw new DOMException(message, 'NotSupportedError');
    },
    stop() {
      state = VoiceState.ended;
    },
    inputLevel: () => 0,
    outputLevel: () => 0,
  };
}
