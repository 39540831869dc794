/**
 * Voice: one engine interface (SPEC §9) behind which sit the realtime speech-to-speech engine
 * and the browser (Web Speech) engine.
 */
import type { PageToolSchema, ToolCall, ToolOutcome } from '../tools/types.js';

/** Engine state, the Lit `TaskStatus` pattern. The status line and the waves follow it. */
export const VoiceState = {
  idle: 'idle',
  connecting: 'connecting',
  listening: 'listening',
  thinking: 'thinking',
  speaking: 'speaking',
  ended: 'ended',
  error: 'error',
} as const;
export type VoiceState = (typeof VoiceState)[keyof typeof VoiceState];

/** Which engine a session runs on. */
export const VoiceEngineKind = {
  realtime: 'realtime',
  browser: 'browser',
} as const;
export type VoiceEngineKind = (typeof VoiceEngineKind)[keyof typeof VoiceEngineKind];

/** Why a session ended, when the engine (not the caller) ends it. */
export const VoiceEndReason = {
  stopped: 'stopped',
  aborted: 'aborted',
  connectionLost: 'connection-lost',
  error: 'error',
  /** The visitor (or the page's permissions policy) refused the microphone. */
  micDenied: 'mic-denied',
  /** There is no microphone at all. */
  micMissing: 'mic-missing',
  /** Sound cannot play: no audio output device (the audio context never starts). */
  noAudioOutput: 'no-audio-output',
  /** The microphone or the connection did not respond in time. */
  timedOut: 'timed-out',
} as const;
export type VoiceEndReason = (typeof VoiceEndReason)[keyof typeof VoiceEndReason];

/** One line of the (hidden) transcript. */
export interface VoiceTranscriptEvent {
  role: 'user' | 'assistant';
  text: string;
  /** False for interim deltas, true once the line is settled. */
  final: boolean;
}

/** What the voice-consent hook did with an utterance. */
export type UtteranceHandling = 'consumed' | 'pass';

/** When the visitor began saying an utterance, from the engine's own timing (never transcript order). */
export interface VoiceHeard {
  /**
   * The earliest the speech can have begun, on the session's clock (`VoiceStartOptions.now`):
   * the realtime API's speech-start audio offset, or the start of the recognition session that
   * heard it. Null when the engine cannot tell: such an utterance never answers a confirmation.
   */
  speechStartedAt: number | null;
}

/** A confirmation the session asks the visitor about aloud (SPEC §9). */
export interface VoiceQuestion {
  id: string;
  /** The chip's question (`confirmLabel` or the default). */
  label: string;
  cost: number;
  tier3: boolean;
  /**
   * Why it is asked now: `shown` (the first of a batch, as the model calls the tool), `turn`
   * (it waited behind another and its turn came), `again` (a blanket phrase could not answer it).
   */
  reason: 'shown' | 'turn' | 'again';
}

/** Everything an engine needs for one session; the tool set is fixed once it starts. */
export interface VoiceStartOptions {
  /** Aborting ends the session (same as `stop('aborted')`). */
  signal: AbortSignal;
  /** Page tools at the moment voice opens (SPEC §3: fixed for the session). */
  tools: PageToolSchema[];
  /** Serialized page state, or null; sent once in the opening frame. */
  context: string | null;
  instructions?: string;
  /** Runs a tool call through the same core as text chat (validation, consent, sanitization). */
  runTool(call: ToolCall, signal: AbortSignal): Promise<ToolOutcome>;
  /** Whether `name` asks for confirmation: decides the 240 s vs 30 s wait. */
  isConfirming(name: string): boolean;
  onState(state: VoiceState): void;
  onTranscript(event: VoiceTranscriptEvent): void;
  /**
   * Voice consent: called with each final utterance of the visitor, only ever from the speech
   * recogniser or the realtime input transcription (never model output), with when the visitor
   * began saying it. 'consumed' means it settled a confirmation or the grant and must not
   * reach the model.
   */
  onUserUtterance?(text: string, heard: VoiceHeard): UtteranceHandling;
  /** The session's clock, for `VoiceHeard.speechStartedAt` (default: the engine's own clock). */
  now?(): number;
  /** Called once when the session ends for any reason; the wiring cancels confirmations. */
  onEnd(reason: string): void;
  /**
   * After a successful `load_tools` call (SPEC §7): the tool set now active, so the engine can
   * update its session. Descriptions are already neutralised.
   */
  toolsAfterLoad?(): PageToolSchema[];
}

/** One voice engine (SPEC §9). */
export interface VoiceEngine {
  readonly kind: VoiceEngineKind;
  start(options: VoiceStartOptions): Promise<void>;
  stop(reason?: string): void;
  readonly state: VoiceState;
  /**
   * Puts a confirmation to the visitor aloud, or (null) stops asking. Resolves once the
   * question has been asked; an answer counts only if speech began after that. Optional: an
   * engine without it relies on the model asking, and the question counts as asked when shown.
   */
  ask?(question: VoiceQuestion | null): void | Promise<void>;
  /** Microphone level, 0..1, smoothed. */
  inputLevel(): number;
  /** Playback level, 0..1, smoothed. */
  outputLevel(): number;
}

/** The waits of SPEC §5 for a tool result in voice. */
export const VoiceToolWaitMs = {
  ordinary: 30_000,
  confirming: 240_000,
} as const;

/**
 * The opening every engine's `start` shares: ends the engine when `signal` aborts (returning
 * the listener's remover) and moves it to `connecting`; throws the abort reason if the signal
 * was already aborted.
 *
 * @example
 * removeAbort = beginVoiceStart(signal, () => end(VoiceEndReason.aborted), () => setState(VoiceState.connecting));
 */
export function beginVoiceStart(signal: AbortSignal, endAborted: () => void, connecting: () => void): () => void {
  signal.addEventListener('abort', endAborted, { once: true });
  const remove = () => signal.removeEventListener('abort', endAborted);
  connecting();
  if (signal.aborted) {
    endAborted();
    throw signal.reason;
  }
  return remove;
}

/** How long starting voice may wait on the audio devices and the connection before it gives up. */
export const VoiceStartTimeoutMs = {
  /** getUserMedia, including the visitor reading the permission prompt. */
  microphone: 45_000,
  /** AudioContext.resume(): hangs (Firefox) when there is no audio output device. */
  resume: 5_000,
  /** Minting the session and opening its connection. */
  connect: 20_000,
} as const;

/** An audio start failure with a known cause: `reason` is the `VoiceEndReason` it ends with. */
export class VoiceAudioError extends Error {
  readonly reason: VoiceEndReason;
  constructor(reason: VoiceEndReason, message: string) {
    super(message);
    this.name = 'VoiceAudioError';
    this.reason = reason;
  }
}

/**
 * Why opening audio failed, as a `VoiceEndReason`: refused, no microphone, no audio output,
 * timed out, or another error.
 *
 * @example
 * audioFailureReason(new DOMException('', 'NotFoundError')); // 'mic-missing'
 */
export function audioFailureReason(error: unknown): VoiceEndReason {
  if (error instanceof VoiceAudioError) return error.reason;
  const name = (error as { name?: unknown } | null)?.name;
  const message = error instanceof Error ? error.message : '';
  const is = (...names: string[]) => names.some((n) => n === name || message === n);
  if (is('NotAllowedError', 'SecurityError', 'PermissionDeniedError')) return VoiceEndReason.micDenied;
  if (is('NotFoundError', 'DevicesNotFoundError', 'OverconstrainedError', 'NotReadableError', 'TrackStartError')) return VoiceEndReason.micMissing;
  if (is('TimeoutError')) return VoiceEndReason.timedOut;
  return VoiceEndReason.error;
}

/**
 * Resolves or rejects as `promise` does, or rejects with `onTimeout()` after `ms` on `clock`;
 * the timer is always cleared.
 *
 * @example
 * await withTimeout(clock, ctx.resume(), 5000, () => new VoiceAudioError('no-audio-output', 'no audio output'));
 */
export function withTimeout<T>(clock: { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(h: unknown): void }, promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimeout(() => reject(onTimeout()), ms);
    promise.then(
      (value) => {
        clock.clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clock.clearTimeout(timer);
        reject(error);
      },
    );
  });
}
