/**
 * Voice as a plug-in of the session (SPEC §5, §9), loaded when voice first starts: opens an
 * engine with one fixed snapshot of the tools and context, runs its tool calls through the
 * session's public `runToolCall` (the same resolution, validation and consent as typed turns),
 * settles confirmations from the visitor's recognised speech only, and cancels them when voice
 * ends. It reads and drives the session through its public API (`VoicePluginDeps`); the only things
 * the session hands it privately are its outputs (`VoicePort`): the voice status in the state,
 * notices and the two voice events.
 */
import type { Clock } from '../clock.js';
import { CancelReason, type ConfirmDecision, type VisitorEvidence } from '../consent/types.js';
import { LOAD_TOOLS_NAME } from '../tools/deferral.js';
import { ToolOutcomeStatus, type PageToolSchema, type ToolCall, type ToolOutcome } from '../tools/types.js';
import { voiceWaitResult, withVoiceWait } from '../voice/tool-wait.js';
import { audioFailureReason, VoiceEndReason, VoiceState } from '../voice/types.js';
import type { VoiceEngine } from '../voice/types.js';
import { VoiceConsentDesk } from '../voice/voice-consent.js';
import { NoticeKind, type NoticeFact, type SessionState, type Unsubscribe, type WaveCoreEvent } from './types.js';
import { waitingConfirmations } from './on-screen-confirmation.js';
import { describeError } from '../util/describe-error.js';
import { VoiceFailure } from '../voice/voice-failure.js';


/** The voice part of the session state: the engine's state and the confirmation asked aloud. */
export interface VoiceStatus {
  state: VoiceState;
  engine: string;
  /** The id of the confirmation being asked aloud (the one the voice bubble shows), or null. */
  asking?: string | null;
}

/**
 * The session's public API, as voice uses it (`WaveSession` implements it): read the state,
 * the tools and the context, observe changes, run a call as the model's, add a spoken turn,
 * answer or withdraw confirmations.
 */
export interface VoicePluginDeps {
  readonly state: SessionState;
  /** The session's clock: speech timing and the voice waits use it. */
  readonly clock: Clock;
  subscribe(listener: (state: SessionState) => void): Unsubscribe;
  getHostToolSchemas(): PageToolSchema[];
  getContext(): string | null;
  /** Runs a call as the model's: the same resolution, validation, consent and chips as typed turns. */
  runToolCall(call: ToolCall, signal: AbortSignal): Promise<ToolOutcome>;
  /** A settled spoken line enters the record as a visitor or assistant turn, like a typed one. */
  appendTurn(role: 'user' | 'assistant', text: string): void;
  answerConfirmation(id: string, decision: ConfirmDecision, evidence: VisitorEvidence): boolean;
  revokeGrant(evidence: VisitorEvidence): boolean;
  approveSpending(evidence: VisitorEvidence): boolean;
  /** Cancels every outstanding confirmation (voice ended: nothing waits on buttons that are gone). */
  cancelConfirmations(reason: CancelReason): void;
}

/** What only the session's owner may write, handed to the plug-in when the session loads it. */
export interface VoicePort {
  setVoice(voice: VoiceStatus | null): void;
  notice(level: 'info' | 'error', notice: NoticeFact): void;
  emit(event: Extract<WaveCoreEvent, { type: 'voice-started' | 'voice-ended' }>): void;
}

interface Run {
  engine: VoiceEngine;
  tools: PageToolSchema[];
  controller: AbortController;
  started: boolean;
  ended: boolean;
  endReason: string | null;
  /** Set when the caller ended it (endVoice, close, restart): no failure notice then. */
  endedByCaller: boolean;
  /** Spoken consent for this session: what is asked aloud, and which answers count. */
  desk: VoiceConsentDesk;
  unwatch: (() => void) | null;
  state: VoiceState;
  asking: string | null;
}

// Reasons the caller chose: nothing went wrong, so nothing to tell the visitor.
const QUIET_REASONS = new Set<string>([VoiceEndReason.stopped, VoiceEndReason.aborted, 'closed', 'restarted', 'replaced']);

/** The notice for a voice session that failed or dropped, or null when it ended normally. */
export function voiceEndNotice(reason: string): NoticeFact | null {
  if (QUIET_REASONS.has(reason)) return null;
  return { kind: NoticeKind.voiceFailed, reason: voiceFailure(reason) };
}

function voiceFailure(reason: string): VoiceFailure {
  if (reason === VoiceEndReason.micDenied || reason === 'not-allowed') return VoiceFailure.micDenied;
  // No microphone at all is never worded as a refusal.
  if (reason === VoiceEndReason.micMissing) return VoiceFailure.noMicrophone;
  if (reason === VoiceEndReason.noAudioOutput) return VoiceFailure.noAudioOutput;
  if (reason === VoiceEndReason.timedOut) return VoiceFailure.timedOut;
  if (reason === VoiceEndReason.connectionLost) return VoiceFailure.connectionLost;
  if (reason === 'audio-capture') return VoiceFailure.audioCapture;
  if (reason === 'network') return VoiceFailure.network;
  return VoiceFailure.error;
}

/**
 * One voice session at a time for one `WaveSession` (which loads this plug-in when voice first starts).
 *
 * @example
 * const voice = new VoicePlugin(session, port);
 * await voice.start(engine);   // emits voice-started
 * voice.end('stopped');        // cancels confirmations, emits voice-ended
 */
export class VoicePlugin {
  readonly #session: VoicePluginDeps;
  readonly #port: VoicePort;
  #current: Run | null = null;

  constructor(session: VoicePluginDeps, port: VoicePort) {
    this.#session = session;
    this.#port = port;
  }

  /** Whether a session is connecting or on. */
  get active(): boolean {
    return this.#current !== null;
  }

  /** The tool set fixed when voice opened, while it is on; null otherwise (the text loop's turns use it too). */
  get tools(): PageToolSchema[] | null {
    return this.#current ? this.#current.tools.map((t) => ({ ...t })) : null;
  }

  /**
   * Starts `engine`. Resolves once voice is on, or once it failed (the failure becomes a notice
   * in the transcript, never a rejection: a refused microphone must not break the page).
   */
  async start(engine: VoiceEngine, options: { instructions?: string } = {}): Promise<void> {
    if (this.#current) this.end('replaced');
    const session = this.#session;
    const port = this.#port;
    // One snapshot: the tool set and context are fixed for the session (SPEC §9).
    const tools = session.getHostToolSchemas().map((t) => ({ ...t }));
    const context = session.getContext();
    const byName = new Map(tools.map((t) => [t.name, t]));
    const desk = new VoiceConsentDesk({
      now: () => session.clock.now(),
      answerConfirmation: (id, decision, evidence) => session.answerConfirmation(id, decision, evidence),
      revokeGrant: (evidence) => session.revokeGrant(evidence),
      grantActive: () => session.state.grant.active,
      approveSpending: (evidence) => session.approveSpending(evidence),
      ask: (question) => (run.started && !run.ended ? engine.ask?.(question) : undefined),
      onAsking: (id) => {
        run.asking = id;
        if (this.#current === run && !run.ended) port.setVoice({ state: run.state, engine: engine.kind, asking: id });
      },
    });
    const run: Run = {
      engine,
      tools,
      controller: new AbortController(),
      started: false,
      ended: false,
      endReason: null,
      endedByCaller: false,
      desk,
      unwatch: null,
      state: VoiceState.connecting,
      asking: null,
    };
    this.#current = run;
    port.setVoice({ state: VoiceState.connecting, engine: engine.kind, asking: null });
    try {
      await engine.start({
        signal: run.controller.signal,
        tools,
        context,
        ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
        runTool: async (call, signal) => {
          const outcome = await session.runToolCall(call, signal);
          // load_tools is the one way the voice tool set grows (SPEC §7), for either engine.
          if (call.name === LOAD_TOOLS_NAME && outcome.status === ToolOutcomeStatus.succeeded && !run.ended) {
            run.tools = session.getHostToolSchemas().map((t) => ({ ...t }));
            byName.clear();
            for (const t of run.tools) byName.set(t.name, t);
          }
          return outcome;
        },
        // The realtime engine then sends the grown set in a session.update.
        toolsAfterLoad: () => run.tools.map((t) => ({ ...t })),
        isConfirming: (name) => {
          const schema = byName.get(name);
          return !!schema && (schema.confirm || schema.cost > 0 || schema.tier3);
        },
        onState: (state) => {
          run.state = state;
          if (this.#current === run && !run.ended) port.setVoice({ state, engine: engine.kind, asking: run.asking });
        },
        onTranscript: (event) => {
          const text = event.text.trim();
          if (!event.final || !text || run.ended) return;
          session.appendTurn(event.role, text);
        },
        // Engines call this only with recognised speech: the one source of voice evidence.
        onUserUtterance: (text, heard) => (run.ended ? 'pass' : desk.hear(text, heard)),
        now: () => session.clock.now(),
        onEnd: (reason) => this.#finish(run, reason),
      });
    } catch (error) {
      const reason = run.endReason;
      this.#finish(run, reason ?? VoiceEndReason.error);
      if (!run.endedByCaller) {
        const known = reason && reason !== VoiceEndReason.error ? voiceEndNotice(reason) : null;
        port.notice('error', known ?? startFailure(error));
      }
      return;
    }
    if (run.ended) {
      // The engine ended while starting without throwing: say why unless the caller stopped it.
      const text = run.endedByCaller ? null : voiceEndNotice(run.endReason ?? VoiceEndReason.error);
      if (text) port.notice('error', text);
      return;
    }
    run.started = true;
    port.emit({ type: 'voice-started', engine: engine.kind });
    // From now on one confirmation at a time is asked aloud; chips already waiting from text
    // chat are asked in turn too.
    run.unwatch = session.subscribe((state) => {
      if (!run.ended) desk.update(waitingConfirmations(state.items));
    });
    desk.begin(waitingConfirmations(session.state.items));
  }

  /**
   * Runs a text-loop tool call (the browser engine's turns) under the voice waits while voice is
   * on: 240 s for a confirming tool, 30 s for an ordinary one, as in every engine (SPEC §9).
   */
  async runTool(call: ToolCall, signal: AbortSignal, run: (call: ToolCall, signal: AbortSignal) => Promise<ToolOutcome>): Promise<ToolOutcome> {
    const current = this.#current;
    if (!current) return run(call, signal);
    const schema = current.tools.find((t) => t.name === call.name);
    const confirming = !!schema && (schema.confirm || schema.cost > 0 || schema.tier3);
    const waited = await withVoiceWait(this.#session.clock, confirming, (s) => run(call, s), signal);
    if (!waited.timedOut) return waited.value;
    return {
      callId: call.id,
      name: call.name,
      status: confirming ? ToolOutcomeStatus.cancelled : ToolOutcomeStatus.failed,
      result: voiceWaitResult(confirming),
      label: confirming ? 'Cancelled' : 'Timed out',
      attempts: 1,
    };
  }

  /** Ends the session (the engine's `onEnd` then cancels confirmations and emits `voice-ended`). */
  end(reason: string = VoiceEndReason.stopped): void {
    const run = this.#current;
    if (!run) return;
    run.endedByCaller = true;
    try {
      run.engine.stop(reason);
    } catch {
      // A broken engine still ends here.
    }
    // Engines call onEnd from stop; finishing here too covers one that does not.
    this.#finish(run, reason);
    run.controller.abort(new DOMException(`Voice ${reason}.`, 'AbortError'));
  }

  #finish(run: Run, reason: string): void {
    if (run.ended) return;
    run.ended = true;
    run.endReason = reason;
    run.unwatch?.();
    run.unwatch = null;
    run.desk.close();
    const session = this.#session;
    const port = this.#port;
    // SPEC §5: nothing waits on buttons that are gone.
    session.cancelConfirmations(CancelReason.voiceEnded);
    if (this.#current === run) {
      this.#current = null;
      port.setVoice(null);
    }
    if (!run.started) return;
    port.emit({ type: 'voice-ended', engine: run.engine.kind, reason });
    const text = run.endedByCaller ? null : voiceEndNotice(reason);
    if (text) port.notice('error', text);
  }
}

function startFailure(error: unknown): NoticeFact {
  const name = error instanceof Error ? error.name : '';
  // Refused, no microphone, no audio output, timed out: each has its own notice.
  const known = audioFailureReason(error);
  if (known !== VoiceEndReason.error) return { kind: NoticeKind.voiceFailed, reason: voiceFailure(known) };
  const message = describeError(error, { fallback: '' });
  const reason = name === 'NotSupportedError' ? VoiceFailure.unsupported : VoiceFailure.startFailed;
  return message ? { kind: NoticeKind.voiceFailed, reason, message } : { kind: NoticeKind.voiceFailed, reason };
}
