import { LitElement, html, nothing, type PropertyValues } from 'lit';
import type { PageToolsApi, SessionState, WaveCoreEvent, WaveSessionApi } from '../src/agent/types.js';
import type { PageToolSchema, SanitizedResult, ToolDefinition } from '../src/tools/types.js';
import { DEFAULT_VALIDATOR_ENGINE } from '../src/tools/validator-engine.js';
import type { VoicePreference } from '../src/agent/browser-session.js';
import { SessionShell } from '../src/agent/session-shell.js';
import { hasSpeechRecognition } from '../src/voice/speech-support.js';
import type { VoiceEngine } from '../src/voice/types.js';
import { SessionBinding } from './controllers/session-binding.js';
import { WebMcpController } from './controllers/webmcp-controller.js';
import { guardVisitorActions } from './controllers/visitor-guard.js';
import { launcherIcons } from './launcher-icons.js';
import { launcherLabel } from './launcher-labels.js';
import type { WaveLabels } from './labels.js';
import { baseStyles } from './theme.styles.js';
import { transcriptKey } from './transcript-key.js';
import type { TranscriptStore } from './transcript-store.js';
import { waveChatStyles } from './wave-chat.styles.js';
import type { WaveComposer, WaveComposerSubmitEvent } from './wave-composer.js';

/** The conversation code (session, transport, loop, runner, voice engines): loaded on first need. */
const loadSessionCode = () => import('./session-code.js');
type SessionCode = Awaited<ReturnType<typeof loadSessionCode>>;
/** Set once the conversation code has loaded (the default voice factory reads it). */
let sessionCode: SessionCode | null = null;
const loadSession = (): Promise<SessionCode> => loadSessionCode().then((code) => (sessionCode = code));

/**
 * The §11 DOM event classes come with the conversation code: the element's own session raises
 * no event before that code has loaded. A session of `createSession`'s (a subclass's, a test's)
 * may; its DOM events then wait, in order, for the classes (loaded at once for such a session),
 * while the element itself reacts at once (a confirmation still opens the panel on its chip).
 */
let domEvents: ((event: WaveCoreEvent) => Event) | null = null;
const loadDomEvents = async (): Promise<(event: WaveCoreEvent) => Event> =>
  (domEvents ??= sessionCode ? sessionCode.toDomEvent : (await import('./events.js')).toDomEvent);


/** IndexedDB, its code loaded on first use. */
const lazyIdbStore: TranscriptStore = {
  load: async (key, signal) => (await loadSession()).idbTranscriptStore.load(key, signal),
  save: async (key, items, signal) => (await loadSession()).idbTranscriptStore.save(key, items, signal),
  clear: async (key, signal) => (await loadSession()).idbTranscriptStore.clear(key, signal),
};

/** The panel's contents and the elements they use: loaded on intent. */
const loadPanelCode = () => import('./wave-panel.js');
type PanelCode = Awaited<ReturnType<typeof loadPanelCode>>;

/** Largest message sent when the server has not said its body limit (half of its default 256 KiB). */
export const DEFAULT_MAX_MESSAGE_BYTES = 128 * 1024;

/** What `GET <endpoint>?site=<id>` tells before the first message. */
type ServerInfo = NonNullable<Awaited<ReturnType<PanelCode['fetchServerInfo']>>>;

/** Colour scheme of the widget. */
export const WaveTheme = { light: 'light', dark: 'dark', auto: 'auto' } as const;
export type WaveTheme = (typeof WaveTheme)[keyof typeof WaveTheme];

/**
 * The embeddable assistant. The page-tool API (`registerTool`, `callTool`, `setContext`…) is
 * the core session's, unchanged; the element renders the session's state and forwards the
 * visitor's actions to it.
 *
 * @tagname wave-chat
 * @summary An AI assistant widget a page can hand its own actions to.
 * @fires wave-tool-call-requested
 * @fires wave-tool-call-started
 * @fires wave-tool-call-succeeded
 * @fires wave-tool-call-failed
 * @fires wave-tool-call-cancelled
 * @fires wave-confirmation-shown
 * @fires wave-confirmation-answered
 * @fires wave-grant-started
 * @fires wave-grant-raised
 * @fires wave-grant-revoked
 * @fires wave-grant-expired
 * @fires wave-message-sent
 * @fires wave-message-received
 * @fires wave-voice-started
 * @fires wave-voice-ended
 * @fires wave-voice-start-request - The composer's voice button (for the voice engine's owner).
 * @fires wave-voice-end-request - The bubble's "End voice" button.
 * @csspart launcher - The button that opens and closes the panel.
 * @csspart launcher-badge - The dot on the launcher while a confirmation waits behind the closed panel.
 * @csspart panel - The chat panel.
 * @csspart header - The panel header.
 * @csspart transcript - The transcript.
 * @csspart message - A message bubble.
 * @csspart chip - A tool chip.
 * @csspart confirm-button - A chip's Confirm.
 * @csspart cancel-button - A chip's Cancel.
 * @csspart approve-button - A chip's "Approve for this session".
 * @csspart pill - The spend-grant pill.
 * @csspart composer - The composer form.
 * @csspart composer-notice - The composer's notice (a message too long to send).
 * @csspart empty-state - What the assistant can do on this page, before the first message.
 * @csspart queued-message - A message waiting for the current answer to end.
 * @csspart stopped-marker - The mark on a stopped answer.
 * @csspart input - The message textarea.
 * @csspart send-button - Send.
 * @csspart voice-bubble - The voice bubble.
 * @csspart waves - The voice level bars.
 * @csspart status - Chip and voice status lines.
 * @cssproperty --wave-accent - Accent colour (buttons, visitor bubbles).
 * @cssproperty --wave-on-accent - Text on the accent colour.
 * @cssproperty --wave-surface - Panel background.
 * @cssproperty --wave-surface-2 - Assistant bubbles, chips.
 * @cssproperty --wave-text - Text colour.
 * @cssproperty --wave-border - Borders.
 * @cssproperty --wave-danger - Failures.
 * @cssproperty --wave-success - Successes.
 * @cssproperty --wave-radius - Corner radius.
 * @cssproperty --wave-font - Font family.
 * @cssproperty --wave-z-index - Stacking of the floating launcher and panel.
 * @cssproperty --wave-panel-width - Floating panel width.
 * @cssproperty --wave-panel-height - Panel height.
 * @cssproperty --wave-dark-* - The same tokens under the dark theme.
 *
 * @example
 * <wave-chat site-id="demo" endpoint="/wave" open></wave-chat>
 * <script type="module">
 *   document.querySelector('wave-chat').registerTool('add_task', { handler: ({ title }) => ({ title }) });
 * </script>
 */
export class WaveChat extends LitElement implements PageToolsApi {
  /**
   * Makes each element's session: by default the browser session (SSE transport to `endpoint`,
   * the conversation loop, the built-in page tools). Called once, when the element is first
   * connected or first used, so `site-id` set before then counts; `endpoint` is read per request.
   */
  static createSession: (el: WaveChat) => WaveSessionApi = (el) =>
    // The page-tool API works at once; the conversation code loads on intent or on first need.
    new SessionShell({
      load: async (parts) => {
        // The built-in page tools' chunk is fetched beside the session's, not after it.
        const [code] = await Promise.all([loadSession(), import('../src/page/page-tools.js').catch(() => null)]);
        return code.createElementSession({
          siteId: el.siteId || 'default',
          endpoint: () => el.endpoint || null,
          costUnit: el.costUnit || 'cr',
          validator: el.validator,
          ...parts,
        });
      },
    });

  /**
   * Makes the voice engine when the visitor starts voice: by default the Web Speech engine
   * driving the text loop, or the realtime engine brokered by the wave server when
   * `voice-engine="realtime"`. Null means voice cannot run here (a notice says so). The default
   * needs the conversation code, which `startVoice` loads before calling it.
   */
  static createVoiceEngine: (el: WaveChat, session: WaveSessionApi) => VoiceEngine | null = (el, session) => {
    if (!sessionCode) throw new Error('the voice code has not loaded');
    return sessionCode.defaultVoiceEngine(el, session);
  };

  /** Where `persist-transcript` keeps the transcript (IndexedDB by default). */
  static transcriptStore: TranscriptStore = lazyIdbStore;

  static override styles = [baseStyles, waveChatStyles];
  static override properties = {
    siteId: { type: String, attribute: 'site-id' },
    endpoint: { type: String },
    open: { type: Boolean, reflect: true },
    floating: { type: Boolean, reflect: true },
    costUnit: { type: String, attribute: 'cost-unit' },
    validator: { type: String },
    theme: { type: String, reflect: true },
    labels: { attribute: false },
    persistTranscript: { type: Boolean, attribute: 'persist-transcript' },
    allowedImageOrigins: { attribute: false },
    voice: { type: Boolean, reflect: true },
    voiceAvailable: { type: Boolean, attribute: 'voice-available' },
    voiceEngine: { type: String, attribute: 'voice-engine' },
    webmcp: { type: Boolean },
    voiceLevel: { type: Number, attribute: false },
    levelSource: { attribute: false },
    confirmOpens: {
      attribute: 'confirm-opens',
      converter: { fromAttribute: (v: string | null) => v === null || v.trim().toLowerCase() !== 'false', toAttribute: (v: boolean) => String(v) },
    },
    _serverInfo: { state: true },
    _announcement: { state: true },
    _panelWanted: { state: true },
    _panelFailed: { state: true },
  };

  declare siteId: string;
  declare endpoint: string;
  /** The panel is open (reflected); closing cancels outstanding confirmations. */
  declare open: boolean;
  /** Fixed bottom-right launcher and panel (the CDN embed). */
  declare floating: boolean;
  /** Unit label on costs, receipts and the pill (default `cr`). */
  declare costUnit: string;
  /** Argument validator: `interpreter` (default, no eval, CSP-safe), `ajv`, or `auto`. Read when the session is made. */
  declare validator: 'interpreter' | 'ajv' | 'auto';
  declare theme: WaveTheme;
  /** Partial overrides of every UI string. */
  declare labels: Partial<WaveLabels>;
  /** Keep finished rows across same-site navigations (IndexedDB), cleared on restart. */
  declare persistTranscript: boolean;
  /** Origins images in model Markdown may load from (default none). */
  declare allowedImageOrigins: readonly string[];
  /** Voice mode: the transcript is hidden and the voice bubble shown. */
  declare voice: boolean;
  /** Show the composer's voice button (default: when Web Speech exists or `voice-engine="realtime"`). */
  declare voiceAvailable: boolean;
  /** `browser` (default: Web Speech driving the text model) or `realtime` (speech-to-speech via the wave server). */
  declare voiceEngine: VoicePreference;
  /** Opt-in WebMCP bridge: page tools offered to the browser's agent and its page tools to ours (no-op without `document.modelContext`). */
  declare webmcp: boolean;
  /** Audio level 0..1 for the waves. */
  declare voiceLevel: number;
  /** Polled per animation frame for the audio level. */
  declare levelSource: (() => number) | null;
  /**
   * A call that needs the visitor's confirmation while the panel is closed (a page's
   * `callTool`, a WebMCP call) opens the panel on its chip. With `confirm-opens="false"` the
   * panel stays closed: the launcher shows a badge and the wait is announced instead.
   */
  declare confirmOpens: boolean;
  declare _serverInfo: ServerInfo | null;
  declare _announcement: string;
  /**
   * The panel's contents are rendered: from the first sign the visitor may open it (pointer over,
   * focus or press on the launcher), `open` set, or a confirmation to show; kept from then on.
   * Before that only the launcher is rendered.
   */
  declare _panelWanted: boolean;
  /** The panel's code could not load (the network failed): a notice and a retry stand in for it. */
  declare _panelFailed: boolean;
  /** The panel's code, once loaded (and the conversation code with it). */
  #panel: PanelCode | null = null;
  #panelLoad: Promise<void> | null = null;

  #sessionInstance: WaveSessionApi | null = null;
  #guarded: WaveSessionApi | null = null;
  #controllerInstance: SessionBinding | null = null;
  /** Core events that came before the event classes had loaded (see loadDomEvents). */
  #eventQueue: WaveCoreEvent[] | null = null;
  #loadAbort: AbortController | null = null;
  #saveQueued = false;
  #startingVoice = false;
  /** The page's tool definitions by name: the empty state titles them (the same words as their chips). */
  readonly #toolDefs = new Map<string, ToolDefinition>();
  #serverInfoFor: string | null = null;
  #serverInfoAbort: AbortController | null = null;
  #removeViewportListeners: (() => void) | null = null;

  constructor() {
    super();
    this.siteId = '';
    this.endpoint = '';
    this.open = false;
    this.floating = false;
    this.costUnit = 'cr';
    this.validator = DEFAULT_VALIDATOR_ENGINE;
    this.theme = 'auto';
    this.labels = {};
    this.persistTranscript = false;
    this.allowedImageOrigins = [];
    this.voice = false;
    this.voiceAvailable = hasSpeechRecognition();
    this.voiceEngine = 'browser';
    this.webmcp = false;
    new WebMcpController(this);
    this.voiceLevel = 0;
    this.levelSource = null;
    this.confirmOpens = true;
    this._serverInfo = null;
    this._announcement = '';
    this._panelWanted = false;
    this._panelFailed = false;
    this.addEventListener('wave-composer-submit', (e: WaveComposerSubmitEvent) => {
      e.stopPropagation();
      void this.send(e.detail.text);
    });
    this.addEventListener('wave-composer-stop', (e) => {
      e.stopPropagation();
      this.stop();
    });
    // The requests bubble out to the page: act after dispatch, so any listener can veto.
    this.addEventListener('wave-voice-start-request', (e) => {
      queueMicrotask(() => {
        if (!e.defaultPrevented) void this.startVoice();
      });
    });
    this.addEventListener('wave-voice-end-request', (e) => {
      queueMicrotask(() => {
        if (!e.defaultPrevented) this.endVoice();
      });
    });
  }

  // Made on first need rather than in the constructor, where a created element has no attributes yet.
  get #session(): WaveSessionApi {
    return this.#ensureSession().session;
  }

  get #controller(): SessionBinding {
    return this.#ensureSession().controller;
  }

  #ensureSession(): { session: WaveSessionApi; controller: SessionBinding } {
    if (!this.#sessionInstance || !this.#controllerInstance) {
      const session = (this.constructor as typeof WaveChat).createSession(this);
      this.#sessionInstance = session;
      // A session of the page's own may raise events before the conversation code is asked for.
      if (!(session instanceof SessionShell)) void loadDomEvents().catch(() => undefined);
      this.#controllerInstance = new SessionBinding(this, session, {
        toDomEvent: (e) => this.#toDomEvent(e),
        onEvent: (e) => this.#onCoreEvent(e),
        onState: () => {
          this.#queueSave();
          this.#keptSync?.adopt();
        },
      });
    }
    return { session: this.#sessionInstance, controller: this.#controllerInstance };
  }

  /** The core session this element renders. */
  get session(): WaveSessionApi {
    // Visitor-only acts through this handle need a live, trusted DOM event (see visitor-guard.ts).
    this.#guarded ??= guardVisitorActions(this.#session);
    return this.#guarded;
  }

  /** The latest session state. */
  get state(): SessionState {
    return this.#controller.state;
  }

  // ── Page-tools API: the core's, unchanged ─────────────────────────────────────

  /** @example chat.registerTool('get_tasks', { handler: () => ({ tasks }) }); */
  registerTool(name: string, definition: ToolDefinition): boolean {
    const ok = this.#session.registerTool(name, definition);
    if (ok) this.#noteTitle(name, definition);
    this.requestUpdate(); // the empty state lists the tools
    return ok;
  }
  /** @example chat.registerTools({ get_tasks: { handler } }); // → 1 */
  registerTools(map: Record<string, ToolDefinition>): number {
    const n = this.#session.registerTools(map);
    try {
      for (const [name, definition] of Object.entries(map)) this.#noteTitle(name, definition);
    } catch {
      /* a hostile map: the empty state falls back to the names */
    }
    this.requestUpdate();
    return n;
  }
  /** @example chat.unregisterTool('get_tasks'); */
  unregisterTool(name: string): boolean {
    this.#toolDefs.delete(String(name));
    this.requestUpdate();
    return this.#session.unregisterTool(name);
  }

  /** Keeps a registered tool's definition: the empty state titles it (the same words as its chips). */
  #noteTitle(name: string, definition: ToolDefinition): void {
    this.#toolDefs.set(String(name), definition);
  }
  /** @example console.table(chat.getHostToolSchemas()); */
  getHostToolSchemas(): PageToolSchema[] {
    return this.#session.getHostToolSchemas();
  }
  /** @example await chat.callTool('add_task', { title: 'Book venue' }); */
  callTool(name: string, args?: unknown): Promise<SanitizedResult> {
    return this.#session.callTool(name, args);
  }
  /** @example chat.setContext({ board: 'Launch', tasks }); */
  setContext(value: unknown): void {
    this.#session.setContext(value);
  }

  // ── Panel and conversation ────────────────────────────────────────────────────

  /** Opens the panel. */
  show(): void {
    this.open = true;
  }
  /** Closes the panel (cancels outstanding confirmations). */
  hide(): void {
    this.open = false;
  }
  /** @example launcherElsewhere.onclick = () => chat.toggle(); */
  toggle(): void {
    this.open = !this.open;
  }
  /** Sends a visitor message. @example await chat.send('Add a task'); */
  send(text: string): Promise<void> {
    return this.#session.send(text);
  }
  /** Stops the reply in progress. */
  stop(): void {
    this.#session.stop();
  }
  /** Starts a new conversation (and forgets a persisted transcript). */
  restart(): void {
    this.#session.restart();
    if (!this.persistTranscript) return;
    // The other tabs start the new conversation too (once their turn is over): they keep one.
    if (this.#keptSync) this.#keptSync.restarted();
    else void WaveChat.transcriptStore.clear(this.#storeKey).catch(() => undefined);
  }

  /**
   * Starts voice on a new engine (`WaveChat.createVoiceEngine`). Failures (no support, a
   * refused microphone) become a notice in the transcript.
   *
   * @example
   * chatEl.startVoice();
   */
  async startVoice(): Promise<void> {
    const session = this.#session;
    if (!session.startVoice || session.state.voice || this.#startingVoice) return;
    this.#startingVoice = true;
    try {
      const code = sessionCode ?? (await loadSession());
      await code.startVoiceOn(session, () => (this.constructor as typeof WaveChat).createVoiceEngine(this, session), this);
    } catch (error) {
      // The session reports voice failures as notices; nothing may escape into the page.
      this.levelSource = null;
      if (!sessionCode) console.error('wave-chat: voice could not start: its code did not load', error);
    } finally {
      this.#startingVoice = false;
    }
  }

  /** Ends voice and returns to text. @example chatEl.endVoice(); */
  endVoice(): void {
    this.#session.endVoice?.('stopped');
  }

  get #storeKey(): string {
    return transcriptKey(this.siteId);
  }

  /** The DOM event for a core event, or null when it waits for the event classes (then dispatched in order). */
  #toDomEvent(event: WaveCoreEvent): Event | null {
    domEvents ??= sessionCode?.toDomEvent ?? null;
    if (!this.#eventQueue && domEvents) return domEvents(event);
    if (this.#eventQueue) {
      this.#eventQueue.push(event);
      return null;
    }
    this.#eventQueue = [event];
    void loadDomEvents().then(
      (toDomEvent) => {
        const queue = this.#eventQueue ?? [];
        this.#eventQueue = null;
        for (const e of queue) this.dispatchEvent(toDomEvent(e));
      },
      (error: unknown) => {
        // The classes did not load (offline CDN): the events are dropped, the chat goes on.
        this.#eventQueue = null;
        console.error('wave-chat: its events could not be dispatched: their code did not load', error);
      },
    );
    return null;
  }

  #onCoreEvent(event: WaveCoreEvent): void {
    if (event.type === 'confirmation-shown') this.#confirmationShown();
    else if (event.type === 'confirmation-answered') this.#confirmationAnswered(event.source);
    else if (event.type === 'voice-started') this.voice = true;
    else if (event.type === 'voice-ended') {
      this.voice = false;
      this.levelSource = null;
      this.voiceLevel = 0;
    }
  }

  /** No confirmation waits unseen: open the panel on it, or badge the launcher and announce it. */
  #confirmationShown(): void {
    if (this.open) return;
    if (this.confirmOpens) this.open = true;
    else this._announcement = launcherLabel(this.labels, 'confirmationWaiting');
  }

  /** A visitor's answer removes the chip's buttons: focus goes back to the composer, not the page body. */
  #confirmationAnswered(source: string): void {
    if (source === 'system' || !this.open || this.voice) return;
    const active = document.activeElement;
    // Only when focus was in the widget (on the chip) or already fell to the page body.
    if (active === null || active === document.body || this.matches(':focus-within')) this.#composer?.focus();
  }

  get #composer(): WaveComposer | null {
    return this.renderRoot.querySelector<WaveComposer>('wave-composer');
  }

  #onPanelKeydown = (event: KeyboardEvent): void => {
    // A chip's Escape cancels its confirmation first (it marks the event handled).
    if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing || !this.open) return;
    event.preventDefault();
    this.hide();
  };

  /** Reads the model label and the body limit from the server (a GET on the endpoint), once per endpoint. */
  async #loadServerInfo(panel: PanelCode): Promise<void> {
    const endpoint = this.endpoint;
    const site = this.siteId || 'default';
    const key = `${endpoint} ${site}`;
    if (!endpoint || this.#serverInfoFor === key) return;
    this.#serverInfoFor = key;
    this.#serverInfoAbort?.abort();
    const ctrl = new AbortController();
    this.#serverInfoAbort = ctrl;
    const info = await panel.fetchServerInfo(endpoint, site, ctrl.signal);
    if (info && !ctrl.signal.aborted) this._serverInfo = info;
  }

  #syncViewport = (): void => {
    // The panel fits the visual viewport: the part of the page the visitor sees, whatever the
    // page's own width (a page wider than the screen grows the layout viewport, not this).
    // Set on the shadow's own launcher and panel (never on the page's element or its style attribute).
    const vv = window.visualViewport;
    const values: [string, string][] = [
      ['--_vv-x', `${vv ? vv.offsetLeft : 0}px`],
      ['--_vv-y', `${vv ? vv.offsetTop : 0}px`],
      ['--_vv-w', `${vv ? vv.width : document.documentElement.clientWidth}px`],
      ['--_vv-h', `${vv ? vv.height : window.innerHeight}px`],
    ];
    for (const target of this.renderRoot.querySelectorAll<HTMLElement>('.launcher, .panel')) {
      for (const [name, value] of values) target.style.setProperty(name, value);
    }
  };

  #watchViewport(): void {
    if (this.#removeViewportListeners || typeof window === 'undefined') return;
    const vv = window.visualViewport;
    const on = this.#syncViewport;
    vv?.addEventListener('resize', on);
    vv?.addEventListener('scroll', on);
    window.addEventListener('resize', on);
    this.#removeViewportListeners = () => {
      vv?.removeEventListener('resize', on);
      vv?.removeEventListener('scroll', on);
      window.removeEventListener('resize', on);
    };
    // Back in the page after a move: measure again (the first connection measures after its first render).
    if (this.hasUpdated) this.#syncAfterFrame();
  }

  /**
   * Measures the visual viewport once the page's next frame is laid out: reading it during
   * start-up would force a layout of the whole page before the launcher is usable. Until then
   * the launcher sits by 100vw/100dvh (the same place, except on a zoomed or over-wide page).
   */
  #syncAfterFrame(): void {
    requestAnimationFrame(() =>
      setTimeout(() => {
        if (this.isConnected) this.#syncViewport();
      }, 0),
    );
  }

  #queueSave(): void {
    if (!this.persistTranscript || this.#saveQueued) return;
    this.#saveQueued = true;
    // Coalesce a burst of streaming updates into one write. Never before the kept conversation
    // has been read: a state change at start-up (the model label, a first message) would
    // otherwise overwrite it with what this page has so far.
    const loading = this.#historyLoad;
    queueMicrotask(() => {
      void (async () => {
        await loading;
        const code = await loadSession();
        this.#saveQueued = false;
        await this.#kept(code).save();
      })().catch(() => undefined);
    });
  }

  /** Several tabs keep one conversation (kept-sync.ts, in the conversation code). */
  #keptSync: InstanceType<SessionCode['KeptSync']> | null = null;

  #kept(code: SessionCode): InstanceType<SessionCode['KeptSync']> {
    const el = this;
    this.#keptSync ??= new code.KeptSync({
      get persistTranscript() {
        return el.persistTranscript;
      },
      get isConnected() {
        return el.isConnected;
      },
      get state() {
        return el.state;
      },
      session: () => this.#session,
      storeKey: () => this.#storeKey,
      store: () => WaveChat.transcriptStore,
      historyLoad: () => this.#historyLoad,
    });
    return this.#keptSync;
  }

  /** The read of the kept conversation in progress (saves wait for it). */
  #historyLoad: Promise<void> | null = null;

  #loadHistory(): Promise<void> {
    this.#historyLoad = this.#readHistory();
    return this.#historyLoad;
  }

  async #readHistory(): Promise<void> {
    this.#loadAbort?.abort();
    const ctrl = new AbortController();
    this.#loadAbort = ctrl;
    try {
      const rows = await WaveChat.transcriptStore.load(this.#storeKey, ctrl.signal);
      if (ctrl.signal.aborted) return;
      // The restored turns join the session's record (shown from there): the next request carries them.
      this.#session.restore?.(rows);
      // From now on this tab hears of the other tabs' saves.
      this.#kept(sessionCode ?? (await loadSession())).open();
    } catch {
      // Storage may be unavailable (private mode, blocked IndexedDB): the chat still works.
    }
  }

  override connectedCallback(): void {
    this.#ensureSession();
    super.connectedCallback();
    if (this.persistTranscript) void this.#loadHistory();
    this.#watchViewport();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#loadAbort?.abort();
    this.#keptSync?.close();
    this.#serverInfoAbort?.abort();
    this.#serverInfoFor = null;
    this.#removeViewportListeners?.();
    this.#removeViewportListeners = null;
  }

  /** The visitor may open the panel soon: load and render its contents now, ahead of the press (again after a failed load). */
  #onIntent = (): void => {
    this._panelWanted = true;
    if (this._panelFailed) this.#loadPanel();
  };

  /** Loads the panel's code and the conversation code, once; a failure shows a notice and is retried on the next intent. */
  #loadPanel(): void {
    if (this.#panel || this.#panelLoad) return;
    this._panelFailed = false;
    const session = this.#session as WaveSessionApi & { load?: () => Promise<unknown> };
    const load = Promise.all([loadPanelCode(), typeof session.load === 'function' ? session.load() : null]).then(
      ([panel]) => {
        this.#panel = panel;
        this.requestUpdate();
      },
      (error: unknown) => {
        console.error('wave-chat: the chat panel could not load', error);
        this._panelFailed = true;
      },
    );
    const pending: Promise<void> = load.finally(() => {
      if (this.#panelLoad === pending) this.#panelLoad = null;
    });
    this.#panelLoad = pending;
  }

  /** The several-tabs controller: its code loads with the conversation code, once `persist-transcript` is set. */
  #tabs: Promise<unknown> | null = null;

  protected override willUpdate(changed: PropertyValues<this>): void {
    // With the kept conversation open in several tabs, calls go to the most recently active one with the tool.
    if (this.persistTranscript && !this.#tabs) {
      this.#tabs = loadSession().then(
        (code) => new code.TabsController(this),
        (error: unknown) => {
          this.#tabs = null;
          console.warn('[wave-chat] could not join the other tabs', error);
        },
      );
    }
    if (this.open) this._panelWanted = true;
    // Opening again after a failed load is an intent too: it tries again.
    if (this._panelWanted && (!this._panelFailed || (changed.has('open') && this.open))) this.#loadPanel();
    if (changed.has('open') && changed.get('open') === true && !this.open) {
      // Closing drops the queued messages: their text goes back into the box, nothing is lost.
      const queued = (this.state.queue ?? []).map((q) => q.text);
      const composer = this.#composer;
      if (queued.length > 0 && composer) composer.value = [composer.value.trim(), ...queued].filter(Boolean).join('\n\n');
      this.#session.endVoice?.('closed');
      this.#session.close();
    }
    if (this.open) this._announcement = '';
    // Realtime voice needs no Web Speech: offer the button unless voiceAvailable was set alongside.
    if (changed.has('voiceEngine') && this.voiceEngine === 'realtime' && !(changed.has('voiceAvailable') && changed.get('voiceAvailable') !== undefined)) {
      this.voiceAvailable = true;
    }
    if (changed.has('persistTranscript') && changed.get('persistTranscript') !== undefined && this.isConnected) {
      if (this.persistTranscript) void this.#loadHistory();
      else {
        this.#keptSync?.close();
        this.#session.restore?.([]);
      }
    }
  }

  /** The composer's focus on an open before the panel had rendered (it waits for the composer's render). */
  #firstFocus: Promise<void> | null = null;
  /** The panel opened before its contents had rendered: focus the composer when they do. */
  #focusOnArrival = false;
  #panelRendered = false;

  // `updateComplete` includes the panel's load once it is wanted and that focus move, so whoever
  // waits on it sees the settled panel.
  protected override async getUpdateComplete(): Promise<boolean> {
    let done = await super.getUpdateComplete();
    while (this.#panelLoad) {
      await this.#panelLoad;
      done = await super.getUpdateComplete();
    }
    const focus = this.#firstFocus;
    this.#firstFocus = null;
    if (focus) await focus;
    return done;
  }

  protected override firstUpdated(): void {
    this.#syncAfterFrame();
  }

  protected override updated(changed: PropertyValues<this>): void {
    // The panel's first render: it takes the visual viewport's size like the launcher did.
    const panelArrived = this.#panel !== null && !this.#panelRendered;
    if (panelArrived) this.#panelRendered = true;
    // Shown now (or its contents just arrived): placed from the visual viewport at once.
    if ((panelArrived || (changed.has('open') && this.open)) && this.open) this.#syncViewport();
    if (changed.has('open') && changed.get('open') !== undefined) {
      // Move focus with the panel: into the composer on open, back to the launcher on close.
      this.#focusOnArrival = this.open && (!this.#panelRendered || panelArrived);
      const target = this.open
        ? this.renderRoot.querySelector<HTMLElement>('wave-composer')
        : this.renderRoot.querySelector<HTMLElement>('[part~="launcher"]');
      if (!this.#focusOnArrival) target?.focus();
    }
    // A composer rendered in this very update (its code arrived after the open) has no textarea
    // yet: focus it once it has rendered, if the panel is still open and focus has not gone elsewhere.
    if (this.open && panelArrived && this.#focusOnArrival) {
      this.#focusOnArrival = false;
      const target = this.renderRoot.querySelector<HTMLElement>('wave-composer');
      if (target) {
        this.#firstFocus = (target as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete.then(() => {
          if (this.open && this.#focusIsFree()) target.focus();
        });
      }
    }
    if (this.open && this.isConnected && this.#panel) void this.#loadServerInfo(this.#panel);
  }

  /** Focus is on the launcher or nowhere in particular (not somewhere the visitor put it). */
  #focusIsFree(): boolean {
    const active = document.activeElement;
    if (active === null || active === document.body) return true;
    if (active !== this) return false;
    const inner = this.shadowRoot?.activeElement ?? null;
    return inner === null || inner.matches('[part~="launcher"]');
  }

  protected override render() {
    const label = (key: Parameters<typeof launcherLabel>[1]) => launcherLabel(this.labels, key);
    const state = this.state;
    const waiting = !this.open && state.items.some((i) => i.kind === 'tool' && i.status === 'awaiting-confirmation' && !i.elsewhere);
    return html`
      <button
        part="launcher"
        class="launcher primary"
        type="button"
        aria-expanded=${this.open ? 'true' : 'false'}
        aria-controls="panel"
        aria-label=${this.open ? label('launcherClose') : waiting ? label('launcherPending') : label('launcherOpen')}
        @click=${() => this.toggle()}
        @keydown=${this.#onPanelKeydown}
        @pointerenter=${this.#onIntent}
        @pointerdown=${this.#onIntent}
        @focus=${this.#onIntent}
      >
        ${this.open ? launcherIcons.close : launcherIcons.chat}
        ${waiting ? html`<span part="launcher-badge" class="launcher-badge" aria-hidden="true"></span>` : nothing}
      </button>
      <div class="visually-hidden" role="status" aria-live="polite">${this._announcement}</div>
      <section part="panel" id="panel" class="panel" role="region" aria-labelledby="title" ?hidden=${!this.open} @keydown=${this.#onPanelKeydown}>
        ${this._panelWanted ? this.#panelContents() : nothing}
      </section>
    `;
  }

  /** The header, the voice bubble, the transcript and the composer (rendered once wanted and loaded). */
  #panelContents() {
    if (this.#panel) {
      return this.#panel.renderPanel({
        labels: this.labels,
        state: this.state,
        session: this.session,
        open: this.open,
        voice: this.voice,
        voiceLevel: this.voiceLevel,
        levelSource: this.levelSource,
        voiceAvailable: this.voiceAvailable,
        costUnit: this.costUnit,
        allowedImageOrigins: this.allowedImageOrigins,
        serverModel: this._serverInfo?.model ?? null,
        maxBodyBytes: this._serverInfo?.maxBodyBytes ?? null,
        toolDefs: this.#toolDefs,
        restart: this.#restartClicked,
        hide: this.#hideClicked,
      });
    }
    if (!this._panelFailed) return nothing;
    return html`<p part="load-failed" class="load-failed" role="alert">
      ${launcherLabel(this.labels, 'panelLoadFailed')}
      <button part="retry-button" type="button" @click=${this.#onIntent}>${launcherLabel(this.labels, 'panelRetry')}</button>
    </p>`;
  }

  #restartClicked = (): void => this.restart();
  #hideClicked = (): void => this.hide();
}
