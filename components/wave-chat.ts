import { LitElement, html, nothing, type PropertyValues } from 'lit';
import {
  ConversationStatus,
  type PageToolsApi,
  type SessionState,
  type TranscriptItem,
  type WaveCoreEvent,
  type WaveSessionApi,
} from '../src/agent/types.js';
import type { PageToolSchema, SanitizedResult, ToolDefinition } from '../src/tools/types.js';
import { DEFAULT_VALIDATOR_ENGINE } from '../src/tools/validator.js';
import {
  createBrowserSession,
  createVoiceEngine,
  hasSpeechRecognition,
  voiceLevelSource,
  type VoicePreference,
} from '../src/agent/browser-session.js';
import { unavailableVoiceEngine } from '../src/voice/voice-failure.js';
import type { VoiceEngine } from '../src/voice/types.js';
import { onScreenConfirmation } from '../src/agent/on-screen-confirmation.js';
import { readableToolName, toolTitle } from '../src/tools/tool-title.js';
import { SessionController } from './controllers/session-controller.js';
import { TabsController } from './controllers/tabs-controller.js';
import { WebMcpController } from './controllers/webmcp-controller.js';
import { guardVisitorActions } from './controllers/visitor-guard.js';
import { icons } from './icons.js';
import { resolveLabels, type WaveLabels } from './labels.js';
import { baseStyles } from './theme.styles.js';
import { idbTranscriptStore, persistableItems, transcriptKey, type TranscriptStore } from './transcript-store.js';
import { waveChatStyles } from './wave-chat.styles.js';
import { chipText, type ToolItem } from './wave-tool-chip.js';
import type { WaveComposer, WaveComposerSubmitEvent } from './wave-composer.js';
import type { Capability } from './wave-transcript.js';

/** Largest message sent when the server has not said its body limit (half of its default 256 KiB). */
export const DEFAULT_MAX_MESSAGE_BYTES = 128 * 1024;

/** What `GET <endpoint>?site=<id>` tells before the first message. */
interface ServerInfo {
  model: { name: string; offline: boolean } | null;
  maxBodyBytes: number | null;
}

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
    createBrowserSession({
      siteId: el.siteId || 'default',
      endpoint: () => el.endpoint || null,
      costUnit: el.costUnit || 'cr',
      validator: el.validator,
    });

  /**
   * Makes the voice engine when the visitor starts voice: by default the Web Speech engine
   * driving the text loop, or the realtime engine brokered by the wave server when
   * `voice-engine="realtime"`. Null means voice cannot run here (a notice says so).
   */
  static createVoiceEngine: (el: WaveChat, session: WaveSessionApi) => VoiceEngine | null = (el, session) =>
    createVoiceEngine(session, {
      endpoint: el.endpoint || null,
      siteId: el.siteId || 'default',
      prefer: el.voiceEngine === 'realtime' ? 'realtime' : 'browser',
    });

  /** Where `persist-transcript` keeps the transcript (IndexedDB by default). */
  static transcriptStore: TranscriptStore = idbTranscriptStore;

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

  #sessionInstance: WaveSessionApi | null = null;
  #guarded: WaveSessionApi | null = null;
  #controllerInstance: SessionController | null = null;
  #loadAbort: AbortController | null = null;
  #saveQueued = false;
  #resolvedLabels: WaveLabels = resolveLabels(null);
  #startingVoice = false;
  readonly #toolTitles = new Map<string, string>();
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
    // With the kept conversation open in several tabs, calls go to the most recently active one with the tool.
    new TabsController(this);
    this.voiceLevel = 0;
    this.levelSource = null;
    this.confirmOpens = true;
    this._serverInfo = null;
    this._announcement = '';
    this._panelWanted = false;
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

  get #controller(): SessionController {
    return this.#ensureSession().controller;
  }

  #ensureSession(): { session: WaveSessionApi; controller: SessionController } {
    if (!this.#sessionInstance || !this.#controllerInstance) {
      const session = (this.constructor as typeof WaveChat).createSession(this);
      this.#sessionInstance = session;
      this.#controllerInstance = new SessionController(this, session, {
        onEvent: (e) => this.#onCoreEvent(e),
        onState: () => this.#queueSave(),
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
    this.#toolTitles.delete(String(name));
    this.requestUpdate();
    return this.#session.unregisterTool(name);
  }

  /** The readable title of a registered tool, for the empty state (the same words as its chips). */
  #noteTitle(name: string, definition: ToolDefinition): void {
    this.#toolTitles.set(String(name), toolTitle(String(name), definition));
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
    if (this.persistTranscript) void WaveChat.transcriptStore.clear(this.#storeKey).catch(() => undefined);
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
      let engine: VoiceEngine | null;
      try {
        engine = (this.constructor as typeof WaveChat).createVoiceEngine(this, session);
      } catch (error) {
        engine = unavailableVoiceEngine(error instanceof Error ? error.message : 'the voice engine failed');
      }
      engine ??= unavailableVoiceEngine('voice is not supported in this browser');
      const level = voiceLevelSource(engine);
      this.levelSource = level;
      await session.startVoice(engine);
      if (!session.state.voice && this.levelSource === level) this.levelSource = null;
    } catch {
      // The session reports voice failures as notices; nothing may escape into the page.
      this.levelSource = null;
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
    else this._announcement = this.#resolvedLabels.confirmationWaiting;
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

  /** What the assistant can do here, from the page's tools (readable names and descriptions). */
  #capabilities(): Capability[] {
    let schemas: PageToolSchema[];
    try {
      schemas = this.#session.getHostToolSchemas();
    } catch {
      return [];
    }
    const builtin = schemas.length > 0 && schemas.every((s) => BUILTIN_TOOLS.has(s.name));
    if (builtin) return [];
    return schemas
      .filter((s) => s.name !== 'load_tools')
      .slice(0, 8)
      .map((s) => ({
        title: this.#toolTitles.get(s.name) ?? readableToolName(s.name),
        description: firstSentence(typeof s.description === 'string' ? s.description : ''),
      }));
  }

  /** Reads the model label and the body limit from the server (a GET on the endpoint), once per endpoint. */
  async #loadServerInfo(): Promise<void> {
    const endpoint = this.endpoint;
    const site = this.siteId || 'default';
    const key = `${endpoint} ${site}`;
    if (!endpoint || this.#serverInfoFor === key) return;
    this.#serverInfoFor = key;
    this.#serverInfoAbort?.abort();
    const ctrl = new AbortController();
    this.#serverInfoAbort = ctrl;
    try {
      const url = new URL(endpoint, document.baseURI);
      url.searchParams.set('site', site);
      const res = await fetch(url, { method: 'GET', headers: { accept: 'application/json' }, signal: ctrl.signal });
      if (!res.ok) return;
      const body = (await res.json()) as Record<string, unknown> | null;
      if (ctrl.signal.aborted || !body || typeof body !== 'object') return;
      const name = typeof body.model === 'string' ? body.model.slice(0, 200) : '';
      const max = body.maxBodyBytes;
      this._serverInfo = {
        model: name ? { name, offline: body.offline === true } : null,
        maxBodyBytes: typeof max === 'number' && Number.isInteger(max) && max > 0 ? max : null,
      };
    } catch {
      // An older server or no network: the label comes with the first reply, as before.
    }
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
    on();
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
        this.#saveQueued = false;
        // The session's record is the one source: the kept turns it restored, then this page's.
        const state = this.state;
        const rows = persistableItems([...(state.earlier ?? []), ...state.items]);
        // Nothing to keep (a new conversation): nothing stored, not an empty list.
        if (rows.length === 0) await WaveChat.transcriptStore.clear(this.#storeKey);
        else await WaveChat.transcriptStore.save(this.#storeKey, rows);
      })().catch(() => undefined);
    });
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
    this.#serverInfoAbort?.abort();
    this.#serverInfoFor = null;
    this.#removeViewportListeners?.();
    this.#removeViewportListeners = null;
  }

  /** The visitor may open the panel soon: render its contents now, ahead of the press. */
  #onIntent = (): void => {
    this._panelWanted = true;
  };

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (this.open) this._panelWanted = true;
    if (changed.has('labels')) this.#resolvedLabels = resolveLabels(this.labels);
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
      else this.#session.restore?.([]);
    }
  }

  /** The composer's focus on a first open with no intent before (it waits for the composer's render). */
  #firstFocus: Promise<void> | null = null;

  // `updateComplete` includes that focus move, so whoever waits on it sees the settled panel.
  protected override async getUpdateComplete(): Promise<boolean> {
    const done = await super.getUpdateComplete();
    const focus = this.#firstFocus;
    this.#firstFocus = null;
    if (focus) await focus;
    return done;
  }

  protected override firstUpdated(): void {
    this.#syncViewport();
  }

  protected override updated(changed: PropertyValues<this>): void {
    // The panel's first render: it takes the visual viewport's size like the launcher did.
    if (changed.has('_panelWanted') && this._panelWanted) this.#syncViewport();
    if (changed.has('open') && changed.get('open') !== undefined) {
      // Move focus with the panel: into the composer on open, back to the launcher on close.
      const target = this.open
        ? this.renderRoot.querySelector<HTMLElement>('wave-composer')
        : this.renderRoot.querySelector<HTMLElement>('[part~="launcher"]');
      target?.focus();
      // A composer rendered in this very update (first open with no intent before) has no
      // textarea yet: focus it once it has rendered, if the panel is still open.
      if (this.open && target && changed.has('_panelWanted')) {
        this.#firstFocus = (target as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete.then(() => {
          if (this.open && !this.matches(':focus-within')) target.focus();
        });
      }
    }
    if (this.open && this.isConnected) void this.#loadServerInfo();
  }

  #lastTool(items: readonly TranscriptItem[]): ToolItem | null {
    for (let i = items.length - 1; i >= 0; i--) {
      const it = items[i];
      if (it?.kind === 'tool') return it;
    }
    return null;
  }

  protected override render() {
    const l = this.#resolvedLabels;
    const state = this.state;
    const waiting = !this.open && state.items.some((i) => i.kind === 'tool' && i.status === 'awaiting-confirmation' && !i.elsewhere);
    return html`
      <button
        part="launcher"
        class="launcher primary"
        type="button"
        aria-expanded=${this.open ? 'true' : 'false'}
        aria-controls="panel"
        aria-label=${this.open ? l.launcherClose : waiting ? l.launcherPending : l.launcherOpen}
        @click=${() => this.toggle()}
        @keydown=${this.#onPanelKeydown}
        @pointerenter=${this.#onIntent}
        @pointerdown=${this.#onIntent}
        @focus=${this.#onIntent}
      >
        ${this.open ? icons.close : icons.chat}
        ${waiting ? html`<span part="launcher-badge" class="launcher-badge" aria-hidden="true"></span>` : nothing}
      </button>
      <div class="visually-hidden" role="status" aria-live="polite">${this._announcement}</div>
      <section part="panel" id="panel" class="panel" role="region" aria-labelledby="title" ?hidden=${!this.open} @keydown=${this.#onPanelKeydown}>
        ${this._panelWanted ? this.#panelContents() : nothing}
      </section>
    `;
  }

  /** The header, the voice bubble, the transcript and the composer (rendered once wanted). */
  #panelContents() {
    const l = this.#resolvedLabels;
    const state = this.state;
    const busy = state.status === ConversationStatus.streaming || state.status === ConversationStatus.runningTools;
    const lastTool = this.voice ? this.#lastTool(state.items) : null;
    const model = state.model ?? this._serverInfo?.model ?? null;
    const earlier = state.earlier ?? [];
    const empty = state.items.length === 0 && earlier.length === 0;
    const maxBodyBytes = this._serverInfo?.maxBodyBytes;
    return html`
        <header part="header">
          <span class="title" id="title">${l.title}</span>
          ${model
            ? model.offline
              ? html`<span class="badge" part="model-badge">${l.offlineModel}</span>`
              : html`<span class="model" part="model">${model.name}</span>`
            : nothing}
          <span class="spacer"></span>
          <wave-header-pill
            exportparts="pill"
            .grant=${state.grant}
            .session=${this.session}
            .labels=${l}
            .costUnit=${this.costUnit}
          ></wave-header-pill>
          <button part="restart-button" class="icon" type="button" aria-label=${l.restart} title=${l.restart} @click=${() => this.restart()}>
            ${icons.restart}
          </button>
          <button part="close-button" class="icon" type="button" aria-label=${l.close} title=${l.close} @click=${() => this.hide()}>
            ${icons.close}
          </button>
        </header>
        ${this.voice
          ? html`<wave-voice-bubble
              exportparts="voice-bubble, waves, status, chip, confirm-button, cancel-button, approve-button"
              .level=${this.voiceLevel}
              .levelSource=${this.levelSource}
              .status=${lastTool ? chipText(lastTool, l, this.costUnit) : ''}
              .confirmation=${onScreenConfirmation(state.items, state.voice?.asking)}
              .session=${this.session}
              .labels=${l}
              .costUnit=${this.costUnit}
            ></wave-voice-bubble>`
          : nothing}
        <wave-transcript
          part="transcript"
          exportparts="log, message, user-message, assistant-message, notice, retry-button, chip, status, confirm-button, cancel-button, approve-button, empty-state, queued-message, stopped-marker"
          ?hidden=${this.voice}
          .items=${state.items}
          .history=${earlier}
          .session=${this.session}
          .labels=${l}
          .costUnit=${this.costUnit}
          .allowedImageOrigins=${this.allowedImageOrigins}
          .autoFocusConfirmations=${this.open && !this.voice}
          .shown=${this.open && !this.voice}
          .queue=${state.queue ?? []}
          .capabilities=${empty ? this.#capabilities() : []}
        ></wave-transcript>
        <wave-composer
          exportparts="composer, input, send-button, stop-button, voice-button, composer-notice"
          ?hidden=${this.voice}
          .busy=${busy}
          .maxBytes=${maxBodyBytes ? Math.floor(maxBodyBytes / 2) : DEFAULT_MAX_MESSAGE_BYTES}
          .voiceAvailable=${this.voiceAvailable}
          .labels=${l}
        ></wave-composer>
    `;
  }
}

/** The built-in page-reading tools: with only these, the empty state says what page reading does. */
const BUILTIN_TOOLS = new Set(['read_page', 'click_element', 'fill_field', 'select_option', 'scroll_to', 'navigate']);

/** The first sentence of a description, at most 140 characters. */
function firstSentence(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  const m = /^.+?[.!?](?=\s|$)/.exec(t);
  const s = m ? m[0] : t;
  return s.length > 140 ? `${s.slice(0, 139)}…` : s;
}
