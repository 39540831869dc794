/**
 * The browser engine: Web Speech recognition and speechSynthesis driving the text loop, so voice
 * works with the offline model and any text provider. No audio leaves the browser's own services.
 */
import { systemClock } from '../clock.js';
import type { Clock } from '../clock.js';
import { createLevelMeter } from './level-meter.js';
import { openMicrophone } from './browser-audio.js';
import { audioFailureReason, beginVoiceStart, VoiceEndReason, VoiceState } from './types.js';
import type { VoiceEngine, VoiceQuestion, VoiceStartOptions } from './types.js';

/** The part of `SpeechRecognition` the engine uses. */
export interface SpeechRecognitionLike {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((event: SpeechRecognitionEventLike) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: ((event?: unknown) => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}
export interface SpeechRecognitionEventLike {
  resultIndex: number;
  results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal: boolean }>;
}
export type SpeechRecognitionConstructorLike = new () => SpeechRecognitionLike;

/** The part of `SpeechSynthesisUtterance` the engine uses. */
export interface SpeechUtteranceLike {
  text: string;
  lang: string;
  onend: ((event?: unknown) => void) | null;
  onerror: ((event?: unknown) => void) | null;
  onboundary: ((event?: unknown) => void) | null;
}
export type SpeechUtteranceConstructorLike = new (text: string) => SpeechUtteranceLike;
export interface SpeechSynthesisLike {
  speak(utterance: SpeechUtteranceLike): void;
  cancel(): void;
}

/** A microphone level source for the waves (Web Speech exposes no audio). */
export interface MicLevel {
  level(): number;
  close(): void;
}

export interface BrowserEngineOptions {
  /** Sends the visitor's words through the text loop (tools, consent) and resolves with the reply. */
  sendText(text: string, signal: AbortSignal): Promise<string>;
  /** Default: `SpeechRecognition` or `webkitSpeechRecognition`. */
  SpeechRecognitionImpl?: SpeechRecognitionConstructorLike;
  /** Default: `speechSynthesis`. */
  speechSynthesis?: SpeechSynthesisLike;
  /** Default: `SpeechSynthesisUtterance`. */
  SpeechSynthesisUtteranceImpl?: SpeechUtteranceConstructorLike;
  lang?: string;
  /** Opens a microphone meter for the waves; default via getUserMedia, `null` for none. */
  openMicLevel?: (() => Promise<MicLevel>) | null;
  clock?: Clock;
}

// Errors after which restarting recognition would only loop.
const FATAL_RECOGNITION_ERRORS = new Set(['not-allowed', 'service-not-allowed', 'audio-capture', 'language-not-supported', 'network']);
// Speech synthesis sometimes never reports its end: a spoken line is over after this at most.
const SPEAK_BASE_MS = 4000;
const SPEAK_MS_PER_CHAR = 90;
const SPEAK_CAP_MS = 60_000;
// Synthesis exposes no audio: the output wave pulses on word boundaries and decays over this.
const BOUNDARY_DECAY_MS = 180;

/** What the engine says to put a confirmation to the visitor. */
export function spokenQuestion(question: VoiceQuestion): string {
  const label = question.label.trim() || 'Shall I go ahead?';
  return question.cost > 0 ? `${label} (${question.cost} credits)` : label;
}

/** Markdown the model may write, reduced to what a voice should say. */
export function speakableText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/[*_`#>~|]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

async function defaultMicLevel(clock: Clock): Promise<MicLevel> {
  const stream = await openMicrophone(globalThis.navigator?.mediaDevices, { audio: true }, { clock });
  const ctx = new AudioContext();
  const meter = createLevelMeter(ctx, ctx.createMediaStreamSource(stream));
  return {
    level: () => meter.level(),
    close: () => {
      meter.dispose();
      stream.getTracks().forEach((t) => t.stop());
      void ctx.close().catch(() => undefined);
    },
  };
}

function globalRecognition(): SpeechRecognitionConstructorLike | undefined {
  const g = globalThis as unknown as Record<string, SpeechRecognitionConstructorLike | undefined>;
  return g['SpeechRecognition'] ?? g['webkitSpeechRecognition'];
}

/**
 * Creates the browser voice engine. The visitor's final utterances go first to the consent hook,
 * then (if passed) to `sendText`; replies are spoken. Recognition keeps running while a turn is
 * thinking, so a spoken "yes" can settle a confirmation the text loop waits on; it pauses while
 * the reply is spoken, so the engine never hears itself.
 *
 * @example
 * const engine = createBrowserEngine({ sendText: (text, signal) => sendForReply(session, text, signal) });
 * await engine.start({ signal, tools: [], context: null, runTool, isConfirming, onState, onTranscript, onEnd });
 */
export function createBrowserEngine(options: BrowserEngineOptions): VoiceEngine {
  const clock = options.clock ?? systemClock;
  let state: VoiceState = VoiceState.idle;
  let start: VoiceStartOptions | null = null;
  let recognition: SpeechRecognitionLike | null = null;
  let recognising = false;
  let turn: AbortController | null = null;
  let queued: string[] = [];
  let mic: MicLevel | null = null;
  let lastBoundary = -Infinity;
  let removeAbort: (() => void) | null = null;
  let synthesis: SpeechSynthesisLike | null = null;
  // When the current recognition session was started: the earliest its speech can have begun.
  let sessionStartedAt: number | null = null;
  // The confirmation being asked aloud, while one waits (SPEC §9).
  let question: VoiceQuestion | null = null;
  let speaking: { resolve: () => void; timer: unknown } | null = null;
  const now = () => start?.now?.() ?? clock.now();

  const isOver = () => state === VoiceState.ended || state === VoiceState.error;
  const setState = (next: VoiceState) => {
    if (state === next) return;
    state = next;
    start?.onState(next);
  };

  const end = (reason: string, final: VoiceState = VoiceState.ended) => {
    if (isOver()) return;
    // Set first so the recogniser's onend (fired by abort) does not restart it.
    state = final;
    turn?.abort(new Error(`voice ended: ${reason}`));
    turn = null;
    queued = [];
    removeAbort?.();
    if (recognition) {
      recognition.onresult = null;
      recognition.onerror = null;
      recognition.onend = null;
      try {
        recognition.abort();
      } catch {
        // Not started: nothing to abort.
      }
    }
    recognising = false;
    question = null;
    finishSpeaking();
    synthesis?.cancel();
    mic?.close();
    mic = null;
    start?.onState(final);
    start?.onEnd(reason);
  };

  const listen = () => {
    if (isOver() || recognising || !recognition || state === VoiceState.speaking) return;
    try {
      // Taken before start(): speech this session hears cannot have begun earlier.
      const at = now();
      recognition.start();
      recognising = true;
      sessionStartedAt = at;
    } catch {
      // Already started (the browser raced us): it will report onend and we restart then.
    }
  };

  const finishSpeaking = () => {
    const current = speaking;
    speaking = null;
    if (!current) return;
    clock.clearTimeout(current.timer);
    current.resolve();
  };

  /**
   * Speaks `words` with recognition paused, so the engine never hears itself. `keepHeard` stops
   * recognition gracefully (what the visitor had already said still arrives); otherwise it is
   * aborted. Resolves when spoken, or after a cap (some browsers never fire `end`).
   */
  const speak = (words: string, keepHeard = false): Promise<void> =>
    new Promise((resolve) => {
      const text = speakableText(words);
      const Utterance = options.SpeechSynthesisUtteranceImpl ?? (globalThis.SpeechSynthesisUtterance as unknown as SpeechUtteranceConstructorLike | undefined);
      const canSpeak = !!text && !!synthesis && !!Utterance;
      // Speaking first, so the recogniser's end does not restart it under the voice.
      if (canSpeak) setState(VoiceState.speaking);
      if (recognising) {
        try {
          if (keepHeard) recognition?.stop();
          else recognition?.abort();
        } catch {
          // Already stopping.
        }
      }
      if (!canSpeak || !synthesis || !Utterance) return resolve();
      finishSpeaking();
      const utterance = new Utterance(text);
      if (options.lang) utterance.lang = options.lang;
      utterance.onboundary = () => {
        lastBoundary = clock.now();
      };
      const timer = clock.setTimeout(finishSpeaking, Math.min(SPEAK_CAP_MS, SPEAK_BASE_MS + text.length * SPEAK_MS_PER_CHAR));
      const entry = { resolve, timer };
      speaking = entry;
      const done = () => {
        if (speaking === entry) finishSpeaking();
      };
      utterance.onend = done;
      utterance.onerror = done;
      lastBoundary = clock.now();
      synthesis.speak(utterance);
    });

  /** Puts the waiting confirmation to the visitor, then listens for the answer. */
  const askAloud = async (asked: VoiceQuestion): Promise<void> => {
    if (isOver()) return;
    await speak(spokenQuestion(asked), true);
    if (isOver() || question !== asked) return;
    setState(VoiceState.listening);
    listen();
  };

  const runTurn = async (text: string) => {
    if (!start || isOver()) return;
    const controller = new AbortController();
    turn = controller;
    setState(VoiceState.thinking);
    let reply = '';
    try {
      reply = await options.sendText(text, controller.signal);
    } catch {
      // The text loop shows its own error notice; voice simply listens again.
      reply = '';
    }
    if (turn !== controller || isOver()) return;
    turn = null;
    if (reply) {
      start.onTranscript({ role: 'assistant', text: reply, final: true });
      await speak(reply);
      if (isOver()) return;
    }
    if (queued.length > 0) {
      const next = queued.join(' ');
      queued = [];
      void runTurn(next);
      return;
    }
    setState(VoiceState.listening);
    listen();
  };

  const onFinal = (text: string) => {
    if (!start || isOver()) return;
    start.onTranscript({ role: 'user', text, final: true });
    // The recogniser heard the visitor: this is the one place a spoken answer may settle consent.
    if (start.onUserUtterance?.(text, { speechStartedAt: sessionStartedAt }) === 'consumed') return;
    if (!turn) {
      void runTurn(text);
      return;
    }
    // Said while a turn waits (on a confirmation, say): kept for the model, sent when the turn
    // ends; a waiting confirmation is asked again so the visitor knows what is still open.
    queued.push(text);
    if (question) void askAloud(question);
  };

  return {
    kind: 'browser',
    get state() {
      return state;
    },
    inputLevel: () => mic?.level() ?? 0,
    outputLevel: () => {
      if (state !== VoiceState.speaking) return 0;
      const since = clock.now() - lastBoundary;
      return Math.max(0.2, Math.exp(-since / BOUNDARY_DECAY_MS));
    },
    stop(reason: string = VoiceEndReason.stopped) {
      end(reason);
    },
    ask(next: VoiceQuestion | null): Promise<void> {
      question = next;
      if (!next || isOver()) return Promise.resolve();
      return askAloud(next);
    },
    async start(startOptions: VoiceStartOptions): Promise<void> {
      if (state !== VoiceState.idle) throw new Error(`voice engine already ${state}`);
      start = startOptions;
      const { signal } = startOptions;
      removeAbort = beginVoiceStart(signal, () => end(VoiceEndReason.aborted), () => setState(VoiceState.connecting));
      const Recognition = options.SpeechRecognitionImpl ?? globalRecognition();
      if (!Recognition) {
        end(VoiceEndReason.error, VoiceState.error);
        throw new Error('speech recognition is not available in this browser');
      }
      synthesis = options.speechSynthesis ?? (globalThis.speechSynthesis as SpeechSynthesisLike | undefined) ?? null;
      const openMic = options.openMicLevel === undefined ? () => defaultMicLevel(clock) : options.openMicLevel;
      if (openMic) {
        // The waves are a nicety: a meter that cannot open leaves them flat, voice still works.
        // But no microphone, a refused one or one that never opens is voice failing: say which.
        let failure: unknown = null;
        mic = await openMic().catch((error: unknown) => {
          failure = error;
          return null;
        });
        const reason = failure ? audioFailureReason(failure) : null;
        if (reason && reason !== VoiceEndReason.error && !isOver()) {
          end(reason, VoiceState.error);
          throw failure;
        }
        if (isOver()) {
          mic?.close();
          mic = null;
          throw signal.reason ?? new Error('voice ended');
        }
      }
      const rec = new Recognition();
      recognition = rec;
      rec.continuous = false;
      rec.interimResults = true;
      if (options.lang) rec.lang = options.lang;
      rec.onresult = (event) => {
        for (let i = event.resultIndex; i < event.results.length; i++) {
          const result = event.results[i]!;
          const text = (result[0]?.transcript ?? '').trim();
          if (!text) continue;
          if (result.isFinal) onFinal(text);
          else start?.onTranscript({ role: 'user', text, final: false });
        }
      };
      rec.onerror = (event) => {
        if (!FATAL_RECOGNITION_ERRORS.has(event.error)) return;
        let reason: string = event.error;
        if (event.error === 'not-allowed' || event.error === 'service-not-allowed') reason = VoiceEndReason.micDenied;
        // The recogniser found no microphone to capture from.
        else if (event.error === 'audio-capture') reason = VoiceEndReason.micMissing;
        end(reason, VoiceState.error);
      };
      rec.onend = () => {
        recognising = false;
        // Chrome ends recognition after each phrase or a silence: keep listening until stopped.
        if (state === VoiceState.listening || state === VoiceState.thinking) listen();
      };
      setState(VoiceState.listening);
      listen();
    },
  };
}
