/**
 * The half of a session a page can use before the session's code has arrived: the tool
 * catalogue, the page state and the schemas of the next request, synchronously, with the same
 * checks and errors as the full session (it is the same registry and context, handed to the
 * session when it is made). Everything that needs the conversation code (`send`, `callTool`,
 * voice, a restored conversation) loads it first and then runs on it; listeners subscribed here
 * hear the loaded session. Nothing but timing tells the two halves apart.
 */
import { PageContext } from '../context/page-context.js';
import { ToolRegistry } from '../tools/registry.js';
import { planPageSchemas, planSchemas, planTools } from '../tools/tool-plan.js';
import type { PageToolSchema, SanitizedResult, ToolCall, ToolDefinition, ToolOutcome } from '../tools/types.js';
import type { ToolRouter } from '../tabs/tab-router.js';
import { INACTIVE_GRANT } from '../consent/inactive-grant.js';
import type { ConfirmDecision, VisitorEvidence } from '../consent/types.js';
import type { VoiceEngine } from '../voice/types.js';
import { describeError } from '../util/describe-error.js';
import { randomId } from '../util/ids.js';
import { withOtherTabsSchemas } from './tool-schemas.js';
import { ConversationStatus, type SessionState, type TranscriptItem, type Unsubscribe, type WaveCoreEvent, type WaveSessionApi } from './types.js';

/** What the shell hands to the session it loads: the session takes these over as its own. */
export interface SessionParts {
  registry: ToolRegistry;
  context: PageContext;
  /** The conversation id the shell's state already showed. */
  conversationId: string;
}

/** A loaded session, with the optional members the shell forwards (`WaveSession` has them all). */
export type LoadedSession = WaveSessionApi & {
  getContext?(): string | null;
  dispose?(): void;
  ownToolSchemas?(): PageToolSchema[];
  runCall?(call: ToolCall, options?: { signal?: AbortSignal }): Promise<ToolOutcome>;
  setToolRouter?(router: ToolRouter | null): void;
};

export interface SessionShellOptions {
  /** Loads the session's code and makes the session around `parts`. Called on first need, and again after a failure. */
  load: (parts: SessionParts) => Promise<LoadedSession>;
  warn?: (message: string) => void;
  createId?: () => string;
}

/**
 * @example
 * const session = new SessionShell({ load: async (parts) => (await import('./browser-session.js')).createBrowserSession({ siteId: 'demo', endpoint: '/wave', ...parts }) });
 * session.registerTool('add_task', { handler: ({ title }) => ({ title }) }); // true, at once
 * await session.callTool('add_task', { title: 'Milk' }); // loads the session's code, then runs
 */
export class SessionShell implements WaveSessionApi {
  /** The tool catalogue (the loaded session's too). */
  readonly registry: ToolRegistry;
  readonly #context: PageContext;
  readonly #options: SessionShellOptions;
  readonly #stateListeners = new Set<(state: SessionState) => void>();
  readonly #eventListeners = new Set<(event: WaveCoreEvent) => void>();
  #state: SessionState;
  #session: LoadedSession | null = null;
  #loading: Promise<LoadedSession> | null = null;
  /** Rows to restore once the session exists (`restore` before it did). */
  #restore: readonly TranscriptItem[] | null = null;
  /** The other tabs' router (several tabs), handed to the session when it exists. */
  #router: ToolRouter | null = null;

  constructor(options: SessionShellOptions) {
    this.#options = options;
    const warn = options.warn ?? ((m: string) => console.warn(m));
    this.registry = new ToolRegistry({ warn });
    this.#context = new PageContext({ warn });
    this.#state = {
      conversationId: this.#newId(),
      status: ConversationStatus.idle,
      items: [],
      grant: INACTIVE_GRANT,
      model: null,
      voice: null,
    };
  }

  /** True once the session's code has loaded and the session runs. */
  get loaded(): boolean {
    return this.#session !== null;
  }

  /**
   * Loads the session's code (once). A failed load rejects with a clear error and is tried
   * again on the next call.
   */
  load(): Promise<LoadedSession> {
    if (this.#session) return Promise.resolve(this.#session);
    this.#loading ??= this.#options
      .load({ registry: this.registry, context: this.#context, conversationId: this.#state.conversationId })
      .then(
        (session) => {
          this.#attach(session);
          return session;
        },
        (error: unknown) => {
          this.#loading = null;
          throw new Error(`wave-chat could not load the conversation code (${describeError(error, { subject: 'Loading it' })}); it tries again on the next call.`);
        },
      );
    return this.#loading;
  }

  #attach(session: LoadedSession): void {
    this.#session = session;
    session.subscribe((state) => this.#publish(state));
    session.onEvent((event) => {
      for (const listener of [...this.#eventListeners]) {
        try {
          listener(event);
        } catch {
          /* a listener cannot break the session */
        }
      }
    });
    const rows = this.#restore;
    this.#restore = null;
    if (rows) session.restore?.(rows);
    if (this.#router) session.setToolRouter?.(this.#router);
    this.#publish(session.state);
  }

  get state(): SessionState {
    return this.#session ? this.#session.state : this.#state;
  }

  subscribe(listener: (state: SessionState) => void): Unsubscribe {
    this.#stateListeners.add(listener);
    return () => this.#stateListeners.delete(listener);
  }

  onEvent(listener: (event: WaveCoreEvent) => void): Unsubscribe {
    this.#eventListeners.add(listener);
    return () => this.#eventListeners.delete(listener);
  }

  // Page tools, at once

  registerTool(name: string, definition: ToolDefinition): boolean {
    return this.#session ? this.#session.registerTool(name, definition) : this.registry.register(name, definition);
  }

  registerTools(map: Record<string, ToolDefinition>): number {
    return this.#session ? this.#session.registerTools(map) : this.registry.registerMany(map);
  }

  unregisterTool(name: string): boolean {
    return this.#session ? this.#session.unregisterTool(name) : this.registry.unregister(name);
  }

  /**
   * Exactly what the next request would carry. Before the session's code has loaded with no page
   * tool registered, that is the built-in tools, whose code comes with the session's: asking
   * starts that load, and until it is done the list is empty (as it was for the moments the
   * built-in tools took to load after start-up).
   */
  getHostToolSchemas(): PageToolSchema[] {
    if (this.#session) return this.#session.getHostToolSchemas();
    if (this.registry.size === 0) this.load().catch((error: unknown) => this.#warn(error));
    // A first request's plan (nothing loaded through `load_tools` yet), `load_tools` included.
    const own = this.registry.size === 0 ? [] : planSchemas(planTools(this.registry, []));
    return withOtherTabsSchemas(own, this.registry, this.#router);
  }

  /** The page tools this tab offers the other tabs (see `WaveSession.ownToolSchemas`). */
  ownToolSchemas(): PageToolSchema[] {
    if (this.#session?.ownToolSchemas) return this.#session.ownToolSchemas();
    if (this.registry.size === 0) return [];
    // Before the session exists: a first request's plan (nothing loaded through `load_tools` yet).
    return planPageSchemas(planTools(this.registry, []));
  }

  /** Routes the model's calls through the other tabs' router (handed on once the session exists). */
  setToolRouter(router: ToolRouter | null): void {
    this.#router = router;
    this.#session?.setToolRouter?.(router);
  }

  /** A call routed here from another tab: runs once the session's code has loaded. */
  async runCall(call: ToolCall, options: { signal?: AbortSignal } = {}): Promise<ToolOutcome> {
    const session = await this.load();
    if (!session.runCall) throw new Error('this session cannot run routed calls');
    return session.runCall(call, options);
  }

  setContext(value: unknown): void {
    if (this.#session) this.#session.setContext(value);
    else this.#context.set(value);
  }

  /** The serialized page state the next request carries, or null. */
  getContext(): string | null {
    return this.#session?.getContext ? this.#session.getContext() : this.#context.get();
  }

  // What needs the conversation code: loaded first

  async callTool(name: string, args?: unknown, options?: { signal?: AbortSignal }): Promise<SanitizedResult> {
    return (await this.load()).callTool(name, args, options);
  }

  async send(text: string, options?: { signal?: AbortSignal }): Promise<void> {
    return (await this.load()).send(text, options);
  }

  async retry(): Promise<void> {
    return (await this.load()).retry();
  }

  async startVoice(engine: VoiceEngine, options?: { instructions?: string }): Promise<void> {
    const session = await this.load();
    return session.startVoice?.(engine, options);
  }

  restore(items: readonly TranscriptItem[]): void {
    if (this.#session) {
      this.#session.restore?.(items);
      return;
    }
    // A kept conversation continues: the next request needs the session, so it loads now.
    this.#restore = items;
    this.load().catch((error: unknown) => this.#warn(error));
  }

  // Acts on what runs: nothing runs before the session exists

  stop(): void {
    this.#session?.stop();
  }

  close(): void {
    this.#session?.close();
  }

  endVoice(reason?: string): void {
    this.#session?.endVoice?.(reason);
  }

  restart(): void {
    if (this.#session) {
      this.#session.restart();
      return;
    }
    this.#restore = null;
    this.#publish({ ...this.#state, conversationId: this.#newId(), items: [], earlier: [] });
  }

  answerConfirmation(id: string, decision: ConfirmDecision, evidence: VisitorEvidence): boolean {
    return this.#session ? this.#session.answerConfirmation(id, decision, evidence) : false;
  }

  revokeGrant(evidence: VisitorEvidence): boolean {
    return this.#session ? this.#session.revokeGrant(evidence) : false;
  }

  dispose(): void {
    this.#session?.dispose?.();
  }

  #publish(state: SessionState): void {
    if (!this.#session) this.#state = state;
    for (const listener of [...this.#stateListeners]) {
      try {
        listener(state);
      } catch {
        /* a listener cannot break the session */
      }
    }
  }

  #warn(error: unknown): void {
    (this.#options.warn ?? ((m: string) => console.warn(m)))(`[wave-chat] ${error instanceof Error ? error.message : String(error)}`);
  }

  #newId(): string {
    return this.#options.createId ? this.#options.createId() : randomId();
  }
}
