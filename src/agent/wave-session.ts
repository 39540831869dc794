/**
 * One conversation session: the core behind a `<wave-chat>` element. It owns the page-tool
 * catalogue, the page context, consent (gate and grant), the runner, the transcript and the
 * events, and exposes them through `WaveSessionApi`; the element only renders and forwards.
 */
import { systemClock, type Clock } from '../clock.js';
import { ConfirmationGate } from '../consent/confirmation-gate.js';
import { SpendGrant, SpendGrantEvent } from '../consent/spend-grant.js';
import { CancelReason, type ConfirmDecision, type SpendGrantState, type VisitorEvidence } from '../consent/types.js';
import { isTrustedEvidence } from '../consent/confirmation-gate.js';
import { randomId } from '../util/ids.js';
import { consentSchema } from '../consent/policy.js';
import { PageContext } from '../context/page-context.js';
import type { KeyValueStorage } from '../storage.js';
import { ToolDeferral } from '../tools/deferral.js';
import { ToolRegistry } from '../tools/registry.js';
import { ToolRunner, type BuiltinToolDefinition, type ToolChipItem } from '../tools/runner.js';
import { resolveTool } from '../tools/resolve.js';
import type { ToolRouter } from '../tabs/tab-router.js';
import { ToolOutcomeStatus, type PageToolSchema, type SanitizedResult, type ToolCall, type ToolDefinition, type ToolOutcome } from '../tools/types.js';
import { ArgumentValidator, DEFAULT_VALIDATOR_ENGINE } from '../tools/validator.js';
import { VoiceState, type VoiceEngine } from '../voice/types.js';
import type { LoopUpdate } from './conversation-loop.js';
import { applyLoopUpdate, keptKey, recapOutput, upsertPart } from './record.js';
import { sendForReply } from './send-for-reply.js';
import { withOtherTabsSchemas } from './tool-schemas.js';
import type { VoicePlugin, VoicePort } from './voice-plugin.js';
import {
  ConversationStatus,
  NoticeKind,
  isSettled,
  type NoticeFact,
  type SessionState,
  type TranscriptItem,
  type Unsubscribe,
  type WaveCoreEvent,
  type WaveSessionApi,
} from './types.js';
import { describeError } from '../util/describe-error.js';

/** What a loop factory receives (matches `ConversationLoopOptions`, transport left unchecked). */
export interface SessionLoopDeps {
  /** The `transport` option as given (a `ModelTransport` once wired). */
  transport: unknown;
  runTool: (call: ToolCall, signal: AbortSignal) => Promise<ToolOutcome>;
  schemas: () => PageToolSchema[];
  context: () => string | null;
  siteId: string;
  conversationId: () => string;
  clock: Clock;
  onUpdate: (update: LoopUpdate) => void;
  /** The session's transcript (restored turns first): the loop derives every request from it. */
  record: () => readonly TranscriptItem[];
}

/** The part of `ConversationLoop` the session drives. */
export interface SessionLoop {
  send(text: string, signal: AbortSignal): Promise<void>;
  retry(signal: AbortSignal): Promise<void>;
  reset(): void;
}

export interface WaveSessionOptions {
  siteId?: string;
  clock?: Clock;
  /** Where the spend grant is mirrored (sessionStorage in the browser). Omit for memory only. */
  storage?: KeyValueStorage;
  warn?: (message: string) => void;
  transport?: unknown;
  /** Built-in page-reading tools, offered only while no page tool is registered (SPEC §8). */
  builtinTools?: Readonly<Record<string, BuiltinToolDefinition>>;
  /** Makes the conversation loop, on the first `send`/`retry`. Without it, `send` shows an error notice. */
  createLoop?: (deps: SessionLoopDeps) => SessionLoop;
  /** Receipt unit label, e.g. `cr` (default). */
  costUnit?: string;
  /** Conversation ids (default `crypto.randomUUID()`). */
  createId?: () => string;
  /** Argument validator engine (default `DEFAULT_VALIDATOR_ENGINE`, the interpreter: no eval, CSP-safe). */
  validatorEngine?: 'auto' | 'ajv' | 'interpreter';
  /**
   * The tool catalogue and page state to take over, with the conversation id already shown:
   * a `SessionShell` held them while this session's code loaded. Default: new ones.
   */
  registry?: ToolRegistry;
  context?: PageContext;
  conversationId?: string;
}


/**
 * The session behind one `<wave-chat>`.
 *
 * @example
 * const session = new WaveSession({ siteId: 'demo', storage: sessionStorageOrMemory(),
 *   createLoop: (deps) => new ConversationLoop({ ...deps, transport: deps.transport as ModelTransport }) });
 * session.registerTool('add_task', { description: 'Add a task.', handler: ({ title }) => ({ title }) });
 * session.subscribe((state) => render(state));
 * await session.callTool('add_task', { title: 'Milk' }); // { success: true, title: 'Milk' }
 */
export class WaveSession implements WaveSessionApi {
  /** Receipt unit label for the chips (`· −40 cr`). */
  readonly costUnit: string;
  readonly siteId: string;
  readonly registry: ToolRegistry;
  readonly #clock: Clock;
  readonly #options: WaveSessionOptions;
  readonly #deferral = new ToolDeferral();
  readonly #validator: ArgumentValidator;
  readonly #context: PageContext;
  readonly #gate: ConfirmationGate;
  readonly #grant: SpendGrant;
  readonly #runner: ToolRunner;
  readonly #stateListeners = new Set<(state: SessionState) => void>();
  readonly #eventListeners = new Set<(event: WaveCoreEvent) => void>();
  #state: SessionState;
  #loop: SessionLoop | null = null;
  #reply: AbortController | null = null;
  /** The drive in progress, until its loop has returned (a message sent meanwhile is queued). */
  #active: Promise<void> | null = null;
  readonly #queue: { id: string; text: string; reply: AbortController; done: () => void }[] = [];
  /** The visitor stopped the drive in progress; `#stopMarked` once its answer carries the marker. */
  #stopped = false;
  #stopMarked = false;
  #removePagehide: (() => void) | null = null;
  /** Several tabs (SPEC §13): where the model's calls go, while the kept conversation is open in other tabs. */
  #router: ToolRouter | null = null;
  /** Calls running here for another tab's conversation: call id → that tab's title. */
  readonly #fromTabs = new Map<string, string>();
  /** The voice plug-in, once voice has started here (its code loads on first use). */
  #voice: VoicePlugin | null = null;
  /** Bumped when voice is ended or the chat closes: a start still loading its code then does not start. */
  #voiceTurn = 0;

  constructor(options: WaveSessionOptions = {}) {
    this.#options = options;
    this.siteId = options.siteId ?? 'default';
    this.costUnit = options.costUnit ?? 'cr';
    this.#clock = options.clock ?? systemClock;
    this.#validator = new ArgumentValidator({ engine: options.validatorEngine ?? DEFAULT_VALIDATOR_ENGINE });
    const warn = options.warn ?? ((m: string) => console.warn(m));
    this.registry = options.registry ?? new ToolRegistry({ warn });
    this.#context = options.context ?? new PageContext({ warn });
    this.#gate = new ConfirmationGate({
      onShown: (request) => this.#emit({ type: 'confirmation-shown', request }),
      onAnswered: (request, outcome) =>
        this.#emit({ type: 'confirmation-answered', id: request.id, decision: outcome.decision, source: outcome.source }),
    });
    this.#state = {
      conversationId: options.conversationId ?? this.#newId(),
      status: ConversationStatus.idle,
      items: [],
      grant: { active: false, spent: 0, cap: 0, grantedAt: 0, expiresAt: 0 },
      model: null,
      voice: null,
    };
    this.#grant = new SpendGrant({
      siteId: this.siteId,
      clock: this.#clock,
      ...(options.storage ? { storage: options.storage } : {}),
      onEvent: (event, grant) => this.#emit(grantEvent(event, grant)),
      onChange: (grant) => this.#set({ grant }),
    });
    this.#state = { ...this.#state, grant: this.#grant.state() };
    this.#runner = new ToolRunner({
      registry: this.registry,
      validator: this.#validator,
      deferral: this.#deferral,
      gate: this.#gate,
      grant: this.#grant,
      clock: this.#clock,
      builtinTools: () => options.builtinTools ?? {},
      emit: (event) => this.#emit(event),
      // A call routed here from another tab says so on every chip of it.
      onChip: (chip) => {
        const from = this.#fromTabs.get(chip.id);
        this.#upsertPart(from === undefined ? chip : { ...chip, fromTab: from });
      },
      onNotice: (_id, notice) => this.#notice('info', notice),
    });
    // SPEC §5: the grant ends when the page unloads.
    const target = globalThis as { addEventListener?: unknown; removeEventListener?: unknown };
    if (typeof target.addEventListener === 'function' && typeof target.removeEventListener === 'function') {
      const onPagehide = () => this.#grant.clear();
      globalThis.addEventListener('pagehide', onPagehide);
      this.#removePagehide = () => globalThis.removeEventListener('pagehide', onPagehide);
    }
  }

  /** The session's clock (the grant, retries, timeouts, voice waits and speech timing use it). */
  get clock(): Clock {
    return this.#clock;
  }

  /** The current snapshot (a new object after every change). Reading it also expires a stale grant. */
  get state(): SessionState {
    this.#grant.state();
    return this.#state;
  }

  /** Calls `listener` after every change; not called immediately. */
  subscribe(listener: (state: SessionState) => void): Unsubscribe {
    this.#stateListeners.add(listener);
    return () => this.#stateListeners.delete(listener);
  }

  onEvent(listener: (event: WaveCoreEvent) => void): Unsubscribe {
    this.#eventListeners.add(listener);
    return () => this.#eventListeners.delete(listener);
  }

  // Page tools API (SPEC §3, §6)

  registerTool(name: string, definition: ToolDefinition): boolean {
    return this.registry.register(name, definition);
  }

  registerTools(map: Record<string, ToolDefinition>): number {
    return this.registry.registerMany(map);
  }

  unregisterTool(name: string): boolean {
    return this.registry.unregister(name);
  }

  /**
   * Exactly what the next request carries: page tools (through deferral) or else the built-ins;
   * with the kept conversation open in other tabs, also the tools only they offer (SPEC §13).
   */
  getHostToolSchemas(): PageToolSchema[] {
    const own = this.registry.size > 0 ? this.#deferral.schemas(this.registry) : Object.entries(this.#options.builtinTools ?? {}).map(([name, def]) => builtinSchema(name, def));
    return withOtherTabsSchemas(own, this.registry, this.#router);
  }

  /**
   * The page tools this tab offers the other tabs of the kept conversation: its active page
   * tools, never the built-ins (they read this page), `load_tools` or another tab's tools.
   */
  ownToolSchemas(): PageToolSchema[] {
    if (this.registry.size === 0) return [];
    return this.#deferral.pageSchemas(this.registry);
  }

  /**
   * Routes the model's tool calls through `router` (several tabs, SPEC §13), or runs them all
   * here again (`null`). A page's own `callTool` always runs here.
   */
  setToolRouter(router: ToolRouter | null): void {
    this.#router = router;
  }

  /**
   * Runs a tool exactly as a model call would, resolving with what the model would receive.
   * Aborting `options.signal` (a WebMCP agent cancelling) stops it as Stop would.
   */
  async callTool(name: string, args?: unknown, options: { signal?: AbortSignal } = {}): Promise<SanitizedResult> {
    const call: ToolCall = { id: `page_${this.#newId()}`, name: String(name), arguments: args ?? {} };
    const outcome = await this.runCall(call, options);
    return outcome.result;
  }

  /**
   * `callTool` under a given call id, resolving with the whole outcome (status, label, spend):
   * how a call routed here from another tab runs (its chip, consent and grant are this tab's).
   */
  async runCall(call: ToolCall, options: { signal?: AbortSignal; fromTab?: string } = {}): Promise<ToolOutcome> {
    const signal = options?.signal instanceof AbortSignal ? options.signal : new AbortController().signal;
    const from = typeof options?.fromTab === 'string' ? options.fromTab : undefined;
    if (from !== undefined) this.#fromTabs.set(call.id, from);
    try {
      return await this.#runner.run(call, { signal, conversationId: this.#state.conversationId, source: 'page' });
    } finally {
      this.#fromTabs.delete(call.id);
    }
  }

  /** A call from the model (text or voice): here, or in the most recently active tab that has its tool. */
  #runModelCall(call: ToolCall, signal: AbortSignal): Promise<ToolOutcome> {
    const here = () => this.#runner.run(call, { signal, conversationId: this.#state.conversationId, source: 'model' });
    const router = this.#router;
    if (!router) return here();
    const name = typeof call?.name === 'string' ? call.name : '';
    const resolution = resolveTool(name, 'model', { registry: this.registry, deferral: this.#deferral, builtins: () => this.#options.builtinTools ?? {} });
    const has = resolution.kind !== 'unknown' || this.registry.get(name) !== undefined;
    // The router never rejects; were it to, the call is reported failed (never run twice here).
    return router.route(call, signal, { has, run: here }, (part) => this.#upsertPart(part)).catch(
      (error: unknown): ToolOutcome => ({ callId: call.id, name, status: ToolOutcomeStatus.failed, result: { success: false, error: describeError(error) }, label: '', attempts: 0 }),
    );
  }

  setContext(value: unknown): void {
    this.#context.set(value);
  }

  /** The serialized page state the next request carries, or null. */
  getContext(): string | null {
    return this.#context.get();
  }

  // Conversation

  /**
   * Sends a visitor message. While an answer is still coming the message waits in
   * `state.queue` (shown as queued) and is sent on its own when that answer ends. Aborting
   * `options.signal` stops just this message's reply (or drops it from the queue).
   */
  send(text: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    const reply = new AbortController();
    const signal = options?.signal;
    if (!(signal instanceof AbortSignal)) return this.#sendWith(text, reply);
    if (signal.aborted) return Promise.resolve();
    const onAbort = () => {
      if (this.#reply === reply) this.#reply = null;
      reply.abort(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    return this.#sendWith(text, reply).finally(() => signal.removeEventListener('abort', onAbort));
  }

  #sendWith(text: unknown, reply: AbortController): Promise<void> {
    const message = typeof text === 'string' ? text : String(text);
    if (message.trim() === '') return Promise.resolve();
    if (!this.#active) return this.#sendNow(message, reply);
    return new Promise<void>((done) => {
      this.#queue.push({ id: this.#newId(), text: message, reply, done });
      this.#publishQueue();
    });
  }

  async #sendNow(message: string, reply: AbortController): Promise<void> {
    this.#emit({ type: 'message-sent', text: message });
    const loop = this.#ensureLoop();
    if (!loop) {
      if (!this.#isVoiceEcho('user', message)) this.#append({ kind: 'message', id: this.#newId(), role: 'user', text: message, streaming: false });
      this.#notice('error', { kind: NoticeKind.notConnected });
      return;
    }
    // A new message supersedes a failed step (its history goes along): that step's Retry is no longer live.
    this.#retireRetry(false);
    await this.#drive(reply, (signal) => loop.send(message, signal));
  }

  /** Re-runs the failed step; only one Retry is live at a time, and it goes away once used. */
  async retry(): Promise<void> {
    if (this.#active) return;
    const loop = this.#ensureLoop();
    if (!loop) {
      this.#notice('error', { kind: NoticeKind.notConnected });
      return;
    }
    this.#retireRetry(true);
    await this.#drive(new AbortController(), (signal) => loop.retry(signal));
  }

  /** The failed step's notice loses its Retry (`remove`: the notice goes, its step is re-run now). */
  #retireRetry(remove: boolean): void {
    const items = this.#state.items;
    if (!items.some((i) => i.kind === 'notice' && i.retryable)) return;
    const next: TranscriptItem[] = [];
    for (const item of items) {
      if (item.kind !== 'notice' || !item.retryable) next.push(item);
      else if (!remove) next.push({ ...item, retryable: false });
    }
    this.#set({ items: next });
  }

  #publishQueue(): void {
    this.#set({ queue: this.#queue.map(({ id, text }) => ({ id, text })) });
  }

  /** Sends the oldest queued message, once the drive before it has ended. */
  #sendQueued(): void {
    for (;;) {
      const entry = this.#queue.shift();
      if (!entry) return;
      this.#publishQueue();
      if (entry.reply.signal.aborted) {
        entry.done();
        continue;
      }
      void this.#sendNow(entry.text, entry.reply).then(entry.done, entry.done);
      return;
    }
  }

  /** Drops queued messages (the chat closed or restarted); their sends resolve. */
  #clearQueue(): void {
    if (this.#queue.length === 0) return;
    const dropped = this.#queue.splice(0);
    this.#publishQueue();
    for (const entry of dropped) entry.done();
  }

  stop(): void {
    this.#interrupt('stopped');
  }

  /** Closing also ends the reply and voice: its chips and buttons are gone. */
  close(): void {
    this.endVoice('closed');
    this.#interrupt('closed');
  }

  restart(): void {
    this.endVoice('restarted');
    this.#interrupt('restarted');
    this.#stopped = false;
    this.#grant.clear();
    this.#deferral.reset();
    try {
      this.#loop?.reset();
    } catch {
      /* a broken loop is replaced below */
    }
    this.#set({
      conversationId: this.#newId(),
      items: [],
      earlier: [],
      status: ConversationStatus.idle,
      grant: this.#grant.state(),
    });
  }

  /** Detaches the pagehide listener and closes; the session is not used after this. */
  dispose(): void {
    this.close();
    this.#removePagehide?.();
    this.#removePagehide = null;
  }

  /**
   * Continues an earlier conversation (`persist-transcript` after a navigation): `items` go
   * before this page's turns in the record, so the next request carries them (within the
   * budget). Only finished rows are taken; kept results are re-capped like fresh ones.
   *
   * @example
   * session.restore(await store.load(key));
   */
  restore(items: readonly TranscriptItem[]): void {
    // This page's own settled rows that the kept record also has (another tab's save merged
    // them, several tabs of one site keep one conversation) move into the restored part, in the
    // kept order; this page's version stands (it may carry a stop mark or a chip's origin).
    const own = new Map<string, TranscriptItem>();
    const routed = new Map<string, TranscriptItem>();
    for (const item of this.#state.items) {
      if (item.kind === 'message' ? item.streaming : item.kind !== 'tool' || !isSettled(item.status)) continue;
      own.set(keptKey(item), item);
      // A call this tab ran for another tab's turn: that turn's row is the same call.
      if (item.kind === 'tool' && item.fromTab !== undefined && item.step === undefined) routed.set(item.id, item);
    }
    const rows = Array.isArray(items) ? items : [];
    // The newest filed row of each routed call id is that call (an older turn may reuse the id).
    const callRow = new Map<string, number>();
    rows.forEach((item, i) => {
      if (item?.kind === 'tool' && item.step !== undefined && routed.has(item.id)) callRow.set(item.id, i);
    });
    const earlier: TranscriptItem[] = [];
    const moved = new Set<TranscriptItem>();
    for (const [i, item] of rows.entries()) {
      if (!item || typeof item !== 'object') continue;
      const mine = own.get(keptKey(item));
      if (mine) {
        earlier.push(mine);
        moved.add(mine);
      } else if (item.kind === 'message' && !item.streaming) earlier.push(item);
      else if (item.kind === 'tool' && isSettled(item.status)) {
        const { confirmation: _pending, ...part } = item;
        const kept = typeof part.output === 'string' ? { ...part, output: recapOutput(part.output) } : part;
        const asked = callRow.get(part.id) === i ? routed.get(part.id) : undefined;
        if (asked && asked.kind === 'tool') {
          moved.add(asked);
          earlier.push({ ...kept, fromTab: asked.fromTab });
        } else earlier.push(kept);
      }
    }
    this.#set(moved.size > 0 ? { earlier, items: this.#state.items.filter((i) => !moved.has(i)) } : { earlier });
  }

  answerConfirmation(id: string, decision: ConfirmDecision, evidence: VisitorEvidence): boolean {
    return this.#gate.answer(id, decision, evidence);
  }

  revokeGrant(evidence: VisitorEvidence): boolean {
    if (!isTrustedEvidence(evidence) || !this.#grant.state().active) return false;
    this.#grant.revoke('visitor');
    return true;
  }

  /**
   * Starts the spend grant from an explicit visitor act outside a chip (a spoken blanket phrase
   * "approve all spending"). Ignored unless `evidence.isTrusted`.
   */
  approveSpending(evidence: VisitorEvidence): boolean {
    if (!isTrustedEvidence(evidence)) return false;
    this.#grant.start();
    return true;
  }

  // The public surface plug-ins (voice) use, beside the page-tools API and `state`/`subscribe`.

  /**
   * Runs a tool call as the model's own: the same resolution, validation, consent, chips and
   * events as a typed turn's call, resolving with its outcome. Voice engines' calls come here.
   *
   * @example
   * const outcome = await session.runToolCall({ id: 'v1', name: 'add_task', arguments: { title: 'Milk' } }, signal);
   */
  runToolCall(call: ToolCall, signal: AbortSignal): Promise<ToolOutcome> {
    return this.#runModelCall(call, signal);
  }

  /**
   * Adds a settled spoken line to the record as a visitor or assistant turn, like a typed one
   * (the next request carries it). A reply the text loop already recorded is not added twice.
   *
   * @example
   * session.appendTurn('user', 'what is on the board?');
   */
  appendTurn(role: 'user' | 'assistant', text: string): void {
    if (role !== 'user' && role !== 'assistant') return;
    const line = typeof text === 'string' ? text.trim() : '';
    if (line === '') return;
    this.#recordVoiceLine(role, line);
  }

  /**
   * Cancels every outstanding confirmation, as closing does (the calls resolve cancelled and
   * the model is told not to retry). It can only withdraw, never consent.
   */
  cancelConfirmations(reason: CancelReason = CancelReason.voiceEnded): void {
    this.#gate.cancelAll(reason);
  }

  // Voice (SPEC §9)

  /**
   * Opens a voice session on `engine`; voice's code loads on the first call. The tools and
   * context are snapshotted now and stay fixed for the session; its tool calls run through
   * `runToolCall` (the same runner, chips and consent as text chat). Resolves once voice is on
   * (after `voice-started`) or has failed; a failure (no microphone, refused, no support, the
   * code could not load) becomes a notice in the transcript, never a rejection.
   *
   * @example
   * await session.startVoice(createBrowserEngine({ sendText: (t, s) => sendForReply(session, t, s) }));
   * session.state.voice; // { state: 'listening', engine: 'browser' }
   */
  startVoice(engine: VoiceEngine, options: { instructions?: string } = {}): Promise<void> {
    if (this.#voice) return this.#voice.start(engine, options);
    const turn = this.#voiceTurn;
    // Connecting from the first moment, while voice's code loads.
    const connecting = { state: VoiceState.connecting, engine: String(engine?.kind ?? 'browser'), asking: null };
    this.#set({ voice: connecting });
    const settle = () => {
      if (this.#state.voice === connecting) this.#set({ voice: null });
    };
    return loadVoicePlugin().then(
      (module) => {
        // Ended, closed or restarted while the code loaded: voice does not start.
        if (turn !== this.#voiceTurn) {
          settle();
          return stopUnstarted(engine);
        }
        this.#voice ??= new module.VoicePlugin(this, this.#voicePort());
        return this.#voice.start(engine, options);
      },
      (error: unknown) => {
        settle();
        if (turn !== this.#voiceTurn) return;
        this.#notice('error', { kind: NoticeKind.voiceFailed, reason: 'start-failed', message: describeError(error, { subject: 'Loading voice' }) });
      },
    );
  }

  /**
   * Ends the voice session: cancels its outstanding confirmations and emits `voice-ended`.
   *
   * @example
   * session.endVoice('stopped');
   */
  endVoice(reason = 'stopped'): void {
    this.#voiceTurn += 1;
    this.#voice?.end(reason);
  }

  /** The voice plug-in's outputs: its status in the state, its notices, its two events. */
  #voicePort(): VoicePort {
    return {
      setVoice: (voice) => this.#set({ voice }),
      notice: (level, notice) => this.#notice(level, notice),
      emit: (event) => this.#emit(event),
    };
  }

  /**
   * Sends a spoken turn through the normal text loop and resolves with the last assistant
   * message of that turn ('' if none). Aborting `signal` stops that reply. The words are not
   * recorded twice: the line the voice engine reported is the turn's visitor message, and the
   * engine's line for the reply is the reply already recorded (see `#isVoiceEcho`). The same
   * `sendForReply` (src/agent/send-for-reply.ts) as any session's: kept as a method for callers.
   *
   * @example
   * const reply = await session.sendForReply('add a scene', signal);
   */
  sendForReply(text: string, signal: AbortSignal): Promise<string> {
    return sendForReply(this, text, signal);
  }

  #recordVoiceLine(role: 'user' | 'assistant', text: string): void {
    if (role === 'assistant' && this.#isVoiceEcho('assistant', text)) return;
    this.#append({ kind: 'message', id: `${VOICE_LINE}${this.#newId()}`, role, text, streaming: false });
  }

  /**
   * True when `text` is already the newest message of the record from the other side of a voice
   * turn: the visitor's words the voice engine reported, now echoed by the text loop; or the
   * text loop's reply, now reported by the engine that spoke it. Read from the record, no flags.
   */
  #isVoiceEcho(role: 'user' | 'assistant', text: string): boolean {
    if (!this.#voice?.active) return false;
    let last: TranscriptItem | undefined;
    for (let i = this.#state.items.length - 1; i >= 0 && !last; i--) {
      const item = this.#state.items[i] as TranscriptItem;
      if (item.kind === 'message') last = item;
    }
    if (!last || last.kind !== 'message' || last.role !== role || last.text.trim() !== text.trim()) return false;
    // The user's line came from the engine; the assistant's from the text loop.
    return role === 'user' ? last.id.startsWith(VOICE_LINE) : !last.id.startsWith(VOICE_LINE);
  }

  #interrupt(reason: 'stopped' | 'closed' | 'restarted'): void {
    const reply = this.#reply;
    this.#reply = null;
    if (reason === 'stopped' && this.#active) this.#stopped = true;
    // Closing or restarting drops what was queued (the element keeps the text for the visitor).
    if (reason !== 'stopped') this.#clearQueue();
    reply?.abort(new DOMException(`The reply was ${reason}.`, 'AbortError'));
    this.#gate.cancelAll(reason);
    this.#runner.abortAll(reason);
  }

  async #drive(reply: AbortController, step: (signal: AbortSignal) => Promise<void>): Promise<void> {
    this.#reply = reply;
    this.#stopped = false;
    this.#stopMarked = false;
    const run = (async () => {
      try {
        await step(reply.signal);
      } catch (error) {
        this.#notice('error', { kind: NoticeKind.stepFailed, code: 'internal', message: describeError(error, { subject: 'The reply' }) }, true);
        this.#set({ status: ConversationStatus.error });
      } finally {
        if (this.#reply === reply) this.#reply = null;
      }
    })();
    this.#active = run;
    try {
      await run;
    } finally {
      if (this.#active === run) {
        // Stopped before any answer text: the marker stands on its own.
        if (this.#stopped && !this.#stopMarked) {
          this.#append({ kind: 'message', id: this.#newId(), role: 'assistant', text: '', streaming: false, stopped: true });
        }
        this.#stopped = false;
        this.#active = null;
        this.#sendQueued();
      }
    }
  }

  #ensureLoop(): SessionLoop | null {
    if (this.#loop || !this.#options.createLoop) return this.#loop;
    try {
      this.#loop = this.#options.createLoop({
        transport: this.#options.transport,
        // While voice is on, a turn's tools are awaited no longer than voice allows (SPEC §9).
        runTool: (call, signal) =>
          this.#voice ? this.#voice.runTool(call, signal, (c, s) => this.runToolCall(c, s)) : this.runToolCall(call, signal),
        // While voice is on, its turns keep the tool set it opened with (SPEC §9).
        schemas: () => this.#voice?.tools ?? this.getHostToolSchemas(),
        context: () => this.#context.get(),
        siteId: this.siteId,
        conversationId: () => this.#state.conversationId,
        clock: this.#clock,
        onUpdate: (update) => this.#apply(update),
        record: () => {
          const earlier = this.#state.earlier ?? [];
          return earlier.length > 0 ? [...earlier, ...this.#state.items] : this.#state.items;
        },
      });
    } catch (error) {
      this.#options.warn?.(`[wave-chat] could not start the conversation: ${describeError(error, { subject: 'Starting it' })}`);
      this.#loop = null;
    }
    return this.#loop;
  }

  /** Folds one loop update into the transcript and status. */
  #apply(update: LoopUpdate): void {
    switch (update.type) {
      case 'user-message':
        // A spoken turn is already in the record: the engine reported the line.
        if (this.#isVoiceEcho('user', update.text)) return;
        this.#set({ items: applyLoopUpdate(this.#state.items, update) });
        return;
      case 'assistant-delta':
      case 'tool-result':
        this.#set({ items: applyLoopUpdate(this.#state.items, update) });
        return;
      case 'assistant-done':
        {
          const items = applyLoopUpdate(this.#state.items, update);
          if (this.#stopped) {
            // The visitor stopped this answer: it carries the marker.
            this.#stopMarked = true;
            this.#set({ items: items.map((i) => (i.id === update.id && i.kind === 'message' ? { ...i, stopped: true } : i)) });
          } else {
            this.#set({ items });
          }
        }
        this.#emit({ type: 'message-received', text: update.text });
        return;
      case 'meta':
        this.#set({ model: { name: update.model, offline: update.offline } });
        return;
      case 'status':
        this.#set({ status: update.status });
        return;
      case 'notice':
        this.#notice(update.level, update.notice, update.retryable);
        return;
    }
  }

  #notice(level: 'info' | 'error', notice: NoticeFact, retryable = false): void {
    this.#append({ kind: 'notice', id: this.#newId(), level, notice, ...(retryable ? { retryable } : {}) });
  }

  #append(item: TranscriptItem): void {
    this.#set({ items: [...this.#state.items, item] });
  }

  /** A chip's new facts (see `upsertPart`). */
  #upsertPart(part: ToolChipItem): void {
    this.#set({ items: upsertPart(this.#state.items, part) });
  }

  #set(patch: Partial<SessionState>): void {
    this.#state = { ...this.#state, ...patch };
    const state = this.#state;
    for (const listener of [...this.#stateListeners]) {
      try {
        listener(state);
      } catch {
        /* a listener cannot break the session */
      }
    }
  }

  #emit(event: WaveCoreEvent): void {
    for (const listener of [...this.#eventListeners]) {
      try {
        listener(event);
      } catch {
        /* a listener cannot break the session */
      }
    }
  }

  #newId(): string {
    return this.#options.createId ? this.#options.createId() : randomId();
  }
}

function grantEvent(event: SpendGrantEvent, grant: SpendGrantState): WaveCoreEvent {
  switch (event) {
    case SpendGrantEvent.started:
      return { type: 'grant-started', grant };
    case SpendGrantEvent.raised:
      return { type: 'grant-raised', grant };
    case SpendGrantEvent.revoked:
      return { type: 'grant-revoked', grant };
    case SpendGrantEvent.expired:
      return { type: 'grant-expired', grant };
  }
}

function builtinSchema(name: string, def: BuiltinToolDefinition): PageToolSchema {
  const read = <T>(fn: () => T, fallback: T): T => {
    try {
      return fn();
    } catch {
      return fallback;
    }
  };
  return {
    name,
    description: read(() => (typeof def.description === 'string' ? def.description : ''), ''),
    parameters: read(() => (typeof def.parameters === 'object' && def.parameters !== null ? def.parameters : null), null) ?? {
      type: 'object',
      properties: {},
    },
    // The same rule as the runner's and the registry's: tier3 and an unreadable cost confirm too.
    ...consentSchema(def),
  };
}

let voicePlugin: Promise<typeof import('./voice-plugin.js')> | null = null;
/** Voice's code, loaded once on the first `startVoice` (pages that never use voice never fetch it). */
function loadVoicePlugin(): Promise<typeof import('./voice-plugin.js')> {
  voicePlugin ??= import('./voice-plugin.js').catch((error: unknown) => {
    voicePlugin = null;
    throw error;
  });
  return voicePlugin;
}

/** An engine handed to a voice start that will not happen: stopped, so nothing is left open. */
function stopUnstarted(engine: VoiceEngine): void {
  try {
    engine.stop?.('aborted');
  } catch {
    /* a broken engine is dropped anyway */
  }
}

/** Id prefix of a line a voice engine reported. */
const VOICE_LINE = 'voice_';

