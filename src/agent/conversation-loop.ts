/**
 * The text conversation loop (SPEC §3, §4, §10): a visitor message goes out with the history,
 * the active tool schemas and the page state; the reply streams in; tool calls run in order
 * through the core; their results go back as a continuation, until the model answers.
 */
import type { PageToolSchema, SanitizedResult, ToolCall, ToolOutcome } from '../tools/types.js';
import {
  PROTOCOL_VERSION,
  type WaveMessage,
  type WaveRequest,
  type WaveStreamEvent,
  type WaveToolCall,
} from '../transport/protocol.js';
import { TransportError, type ModelTransport } from '../transport/sse-client.js';
import { describeError as describeThrown } from '../util/describe-error.js';
import { randomId } from '../util/ids.js';
import { applyLoopUpdate } from './record.js';
import { HistoryBudget, toModelMessages } from './to-model-messages.js';
import { ConversationStatus, NoticeKind, type NoticeFact, type TranscriptItem } from './types.js';

/** What the loop reports to the session, in order. */
export type LoopUpdate =
  | { type: 'user-message'; id: string; text: string }
  /** `id` is the assistant message being streamed. */
  | { type: 'assistant-delta'; id: string; delta: string }
  /** `discarded`: the step failed, so this partial text is shown but not part of the conversation. */
  | { type: 'assistant-done'; id: string; text: string; discarded?: boolean }
  /** A call of step `step` (its assistant message id) settled with `result`, what the model receives. */
  | { type: 'tool-result'; step: string; call: WaveToolCall; result: SanitizedResult }
  | { type: 'meta'; model: string; offline: boolean }
  | { type: 'status'; status: ConversationStatus }
  /** Something the visitor should know, as a fact (the elements word it). */
  | { type: 'notice'; level: 'info' | 'error'; notice: NoticeFact; retryable: boolean };

export interface ConversationLoopOptions {
  transport: ModelTransport;
  /** Runs one call through the core (validation, consent, retry, sanitization). Should not reject. */
  runTool: (call: ToolCall, signal: AbortSignal) => Promise<ToolOutcome>;
  /** Read at every step, so a tool registered mid-chain is offered in the next continuation. */
  schemas: () => PageToolSchema[];
  /** Read at every step, so a `setContext` from a handler reaches the next continuation. */
  context: () => string | null;
  siteId: string;
  conversationId: () => string;
  /** Model steps allowed per visitor message (default 8). */
  maxSteps?: number;
  onUpdate: (update: LoopUpdate) => void;
  /**
   * The transcript the updates were written into (the session's). Every request's messages are
   * derived from it. Omitted: the loop keeps its own, written by the same rules.
   */
  record?: () => readonly TranscriptItem[];
  /** Message ids (default: `crypto.randomUUID()`); injected for deterministic tests. */
  createId?: () => string;
}

/** Result the model receives for a call that was never run because the visitor stopped. */
export const STOPPED_RESULT: SanitizedResult = Object.freeze({
  success: false,
  cancelled: true,
  error: 'Stopped by the visitor.',
});

const DEFAULT_MAX_STEPS = 8;


type StepResult =
  | { kind: 'done'; step: string; toolCalls: WaveToolCall[]; reason: 'stop' | 'tool_calls' | 'length'; offered: ReadonlySet<string> }
  | { kind: 'aborted' }
  | { kind: 'failed'; error: unknown }
  | { kind: 'stale' };

/** A chain that failed (or hit the step limit) and can be resumed by `retry()`. */
interface PendingStep {
  stepsUsed: number;
}

/**
 * Drives model steps and tool calls for one conversation. It never throws: failures become
 * `notice` updates. One chain runs at a time: a `send` while a reply is in flight is rejected
 * with an info notice (not queued), so the visitor never has a message answered out of order.
 *
 * @example
 * const loop = new ConversationLoop({
 *   transport: createSseTransport({ endpoint: '/wave' }),
 *   runTool: (call, signal) => runner.run(call, { signal }),
 *   schemas: () => registry.getHostToolSchemas(),
 *   context: () => pageContext.serialized,
 *   siteId: 'demo',
 *   conversationId: () => session.conversationId,
 *   onUpdate: (u) => session.apply(u),
 * });
 * const stop = new AbortController();
 * await loop.send('Add milk to my list', stop.signal);
 */
export class ConversationLoop {
  readonly #options: ConversationLoopOptions;
  readonly #maxSteps: number;
  /** The loop's own record, when no `record` option is given. */
  #own: readonly TranscriptItem[] = [];
  #busy = false;
  #pending: PendingStep | undefined;
  #status: ConversationStatus = ConversationStatus.idle;
  // Bumped by reset(): a chain from an earlier conversation must not touch the new history.
  #generation = 0;
  #chainAbort: AbortController | undefined;

  constructor(options: ConversationLoopOptions) {
    this.#options = options;
    const max = options.maxSteps ?? DEFAULT_MAX_STEPS;
    this.#maxSteps = Number.isFinite(max) && max >= 1 ? Math.floor(max) : DEFAULT_MAX_STEPS;
  }

  /** The conversation as the next request will carry it (derived from the record, within the budget). */
  get history(): readonly WaveMessage[] {
    return toModelMessages(this.#record(), { budget: HistoryBudget });
  }

  #record(): readonly TranscriptItem[] {
    return this.#options.record ? this.#options.record() : this.#own;
  }

  /** True while a step streams or tools run. */
  get busy(): boolean {
    return this.#busy;
  }

  /** True when the last chain failed (or stopped at the step limit) and `retry()` would resume it. */
  get canRetry(): boolean {
    return !this.#busy && this.#pending !== undefined;
  }

  /** Sends a visitor message and runs the chain to the model's answer. Never rejects. */
  async send(text: string, signal: AbortSignal): Promise<void> {
    if (this.#busy) {
      this.#emit({ type: 'notice', level: 'info', notice: { kind: NoticeKind.busy }, retryable: false });
      return;
    }
    const trimmed = text.trim();
    if (trimmed === '' || signal.aborted) return;
    // A new message supersedes a failed step: its history is still valid, the retry is dropped.
    this.#pending = undefined;
    this.#emit({ type: 'user-message', id: this.#newId(), text });
    await this.#runChain(0, signal);
  }

  /** Re-sends the failed model step (history up to the last completed tool results). Never rejects. */
  async retry(signal: AbortSignal): Promise<void> {
    const pending = this.#pending;
    if (this.#busy || !pending || signal.aborted) return;
    this.#pending = undefined;
    await this.#runChain(pending.stepsUsed, signal);
  }

  /** Forgets the history (a new conversation) and abandons any chain in flight. */
  reset(): void {
    this.#generation += 1;
    this.#chainAbort?.abort(new DOMException('The conversation was reset.', 'AbortError'));
    this.#chainAbort = undefined;
    this.#own = [];
    this.#pending = undefined;
    this.#busy = false;
    this.#status = ConversationStatus.idle;
  }

  async #runChain(stepsUsedAtStart: number, outer: AbortSignal): Promise<void> {
    const generation = this.#generation;
    const chain = new AbortController();
    const onAbort = () => chain.abort(outer.reason);
    outer.addEventListener('abort', onAbort, { once: true });
    this.#chainAbort = chain;
    this.#busy = true;
    let stepsUsed = stepsUsedAtStart;
    try {
      for (;;) {
        if (generation !== this.#generation) return;
        if (chain.signal.aborted) break;
        if (stepsUsed >= this.#maxSteps) {
          this.#pending = { stepsUsed: 0 };
          this.#emit({ type: 'notice', level: 'info', notice: { kind: NoticeKind.stepLimit, steps: this.#maxSteps }, retryable: true });
          break;
        }
        const result = await this.#runStep(chain.signal, generation);
        if (result.kind === 'stale') return;
        if (result.kind === 'aborted') break;
        if (result.kind === 'failed') {
          const { notice, retryable } = describeError(result.error);
          if (retryable) this.#pending = { stepsUsed };
          this.#setStatus(ConversationStatus.error);
          this.#emit({ type: 'notice', level: 'error', notice, retryable });
          return;
        }
        stepsUsed += 1;
        if (result.toolCalls.length === 0) {
          if (result.reason === 'length') {
            this.#emit({ type: 'notice', level: 'info', notice: { kind: NoticeKind.replyTruncated }, retryable: false });
          }
          break;
        }
        const completed = await this.#runTools(result.step, result.toolCalls, result.offered, chain.signal, generation);
        if (!completed) {
          if (generation !== this.#generation) return;
          break;
        }
      }
      this.#setStatus(ConversationStatus.idle);
    } catch (error) {
      // Only a bug in an injected callback lands here; the loop still never throws.
      if (generation !== this.#generation) return;
      this.#setStatus(ConversationStatus.error);
      this.#emit({ type: 'notice', level: 'error', notice: describeError(error).notice, retryable: false });
    } finally {
      outer.removeEventListener('abort', onAbort);
      if (generation === this.#generation) {
        this.#busy = false;
        this.#chainAbort = undefined;
      }
    }
  }

  /** One model step: request, stream, and (on `end`) the assistant message appended to history. */
  async #runStep(signal: AbortSignal, generation: number): Promise<StepResult> {
    let request: WaveRequest;
    try {
      request = {
        v: PROTOCOL_VERSION,
        siteId: this.#options.siteId,
        conversationId: this.#options.conversationId(),
        messages: toModelMessages(this.#record(), { budget: HistoryBudget }),
        tools: this.#options.schemas(),
        context: this.#options.context(),
      };
    } catch (error) {
      return { kind: 'failed', error };
    }
    const offered = new Set(request.tools.map((tool) => tool.name));
    this.#setStatus(ConversationStatus.streaming);

    const messageId = this.#newId();
    let text = '';
    let streamed = false;
    const toolCalls: WaveToolCall[] = [];
    const seen = new Set<string>();
    const used = new Set<string>();
    for (const item of this.#record()) if (item.kind === 'tool') used.add(item.id);
    let reason: 'stop' | 'tool_calls' | 'length' | undefined;
    let failure: { error: unknown } | undefined;

    let iterator: AsyncIterator<WaveStreamEvent> | undefined;
    try {
      iterator = this.#options.transport.step(request, signal)[Symbol.asyncIterator]();
      for (;;) {
        const next = await raceAbort(iterator.next(), signal);
        if (generation !== this.#generation) return { kind: 'stale' };
        if (next.done) break;
        const event = next.value;
        if (event.type === 'text') {
          if (event.delta === '') continue;
          text += event.delta;
          streamed = true;
          this.#emit({ type: 'assistant-delta', id: messageId, delta: event.delta });
        } else if (event.type === 'tool_call') {
          // A model may repeat a call id within a step; it runs once.
          const given = typeof event.id === 'string' && event.id !== '' ? event.id : `call_${this.#newId()}`;
          if (seen.has(given)) continue;
          seen.add(given);
          // Some models number calls per request; an id the record already holds gets a fresh one
          // (the request repeats ours back), so every call stays one row and one result.
          const id = used.has(given) ? `call_${this.#newId()}` : given;
          toolCalls.push({ id, name: event.name, arguments: event.arguments });
        } else if (event.type === 'meta') {
          this.#emit({ type: 'meta', model: event.model, offline: event.offline });
        } else if (event.type === 'notice') {
          if (event.code === 'unknown_tools') {
            this.#emit({ type: 'notice', level: 'info', notice: { kind: NoticeKind.toolsUnavailable, tools: [...(event.tools ?? [])] }, retryable: false });
          }
        } else if (event.type === 'error') {
          // A transport that yields errors instead of throwing them.
          failure = {
            error: new TransportError({ code: event.code, message: event.message, retryable: event.retryable }),
          };
          break;
        } else if (event.type === 'end') {
          reason = event.reason;
          break;
        }
      }
      if (!failure && reason === undefined && !signal.aborted) {
        failure = {
          error: new TransportError({
            code: 'incomplete_stream',
            message: 'The reply was interrupted before it finished. Try again.',
            retryable: true,
          }),
        };
      }
    } catch (error) {
      if (generation !== this.#generation) return { kind: 'stale' };
      if (!signal.aborted) failure = { error };
    } finally {
      // Not awaited: an async generator queues return() behind a pending next().
      const active = iterator;
      if (active?.return) void Promise.resolve().then(() => active.return?.()).catch(() => undefined);
    }
    if (generation !== this.#generation) return { kind: 'stale' };

    if (signal.aborted) {
      // Stopped: keep what was said, and close every call so the history stays valid.
      if (streamed) this.#emit({ type: 'assistant-done', id: messageId, text });
      for (const call of toolCalls) this.#emit({ type: 'tool-result', step: messageId, call, result: STOPPED_RESULT });
      return { kind: 'aborted' };
    }
    if (failure) {
      // The partial reply is closed on screen but not kept: the retried step answers afresh.
      if (streamed) this.#emit({ type: 'assistant-done', id: messageId, text, discarded: true });
      return { kind: 'failed', error: failure.error };
    }

    // The step's calls are filed under `messageId` as they settle (toModelMessages joins them).
    if (streamed) this.#emit({ type: 'assistant-done', id: messageId, text });
    return { kind: 'done', step: messageId, toolCalls, reason: reason ?? 'stop', offered };
  }

  /** Runs the step's calls in order. Returns false when stopped (remaining calls are closed as stopped). */
  async #runTools(
    step: string,
    calls: WaveToolCall[],
    offered: ReadonlySet<string>,
    signal: AbortSignal,
    generation: number,
  ): Promise<boolean> {
    this.#setStatus(ConversationStatus.runningTools);
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i] as WaveToolCall;
      if (signal.aborted) {
        for (const rest of calls.slice(i)) this.#emit({ type: 'tool-result', step, call: rest, result: STOPPED_RESULT });
        return false;
      }
      let result: SanitizedResult;
      // Calls to tools this step did not offer (unknown, suppressed, not yet loaded) never run.
      if (!offered.has(call.name)) {
        result = unknownToolResult(call.name, offered);
      } else {
        try {
          const outcome = await this.#options.runTool(
            { id: call.id, name: call.name, arguments: call.arguments },
            signal,
          );
          result = outcome.result;
        } catch (error) {
          result = signal.aborted ? STOPPED_RESULT : { success: false, error: describeThrown(error, { subject: 'The tool' }) };
        }
      }
      if (generation !== this.#generation) return false;
      this.#emit({ type: 'tool-result', step, call, result });
    }
    return !signal.aborted;
  }

  #setStatus(status: ConversationStatus): void {
    if (status === this.#status) return;
    this.#status = status;
    this.#emit({ type: 'status', status });
  }

  #emit(update: LoopUpdate): void {
    if (!this.#options.record) this.#own = applyLoopUpdate(this.#own, update);
    try {
      this.#options.onUpdate(update);
    } catch (error) {
      // A listener's bug must not break the chain (or leave tools half-recorded).
      console.error('wave-chat: onUpdate listener threw', error);
    }
  }

  #newId(): string {
    return this.#options.createId ? this.#options.createId() : randomId();
  }
}

function unknownToolResult(name: string, offered: ReadonlySet<string>): SanitizedResult {
  const available = [...offered];
  return {
    success: false,
    error:
      `Unknown tool "${name}": it was not offered in this step, so nothing was done. ` +
      (available.length > 0 ? `Available tools: ${available.join(', ')}.` : 'No tools are available.'),
  };
}

/** A failed step as a fact: the transport's code and message (for developers), and whether retry may help. */
function describeError(error: unknown): { notice: NoticeFact; retryable: boolean } {
  if (error instanceof TransportError) {
    return { notice: { kind: NoticeKind.stepFailed, code: error.code || 'unknown', message: error.message }, retryable: error.retryable };
  }
  // For developers: what was thrown, readable whatever it was (empty when it says nothing).
  const message = describeThrown(error, { fallback: '' });
  return { notice: { kind: NoticeKind.stepFailed, code: 'internal', message }, retryable: true };
}


/** Resolves or rejects with `promise`, or rejects as soon as `signal` aborts. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
