import { LitElement, html, noChange, nothing, type PropertyValues } from 'lit';
import { AsyncDirective, directive } from 'lit/async-directive.js';
import { repeat } from 'lit/directives/repeat.js';
import type { QueuedMessage, TranscriptItem, WaveSessionApi } from '../src/agent/types.js';
import { defaultLabels, formatLabel, noticeText, type WaveLabels } from './labels.js';
import type * as MarkdownModule from './markdown.js';
import { baseStyles } from './theme.styles.js';
import { transcriptStyles } from './wave-transcript.styles.js';

/** Rows added to the DOM per frame when many arrive at once (keeps frames under ~16 ms). */
const RENDER_CHUNK = 30;

/**
 * Least time between two renders of a streaming reply (ms). Text that grows 20 times a second
 * reads as a continuous flow (nobody reads 60 updates a second; the Vercel AI SDK's
 * `experimental_throttle` and most chat UIs use 50 ms), and each render lays out the message
 * again, so pacing renders divides the layout work of a long reply by the frame rate ÷ 20.
 */
const STREAM_INTERVAL = 50;

/**
 * Least time between two renders of a streaming reply that must be lexed and rendered again (a
 * new block, a delimiter, a line break) (ms), where text that can be appended in place shows
 * every {@link STREAM_INTERVAL} ms. Such a render costs several times an append in place: it
 * runs once a frame at most, its code cold each time (lexing the open block costs ≈ 0.1–0.3 ms
 * so, ≈ 10 µs in a tight loop), so what a stream costs is nearly the number of its renders. A
 * reply dense with Markdown needs one for nearly every interval; at 300 ms it still moves at
 * least three times a second while text arrives (eighteen frames at 60 Hz), plain words added to
 * plain text show in between, and a 12 KB reply streamed one delta a frame costs about 2.5–4 times
 * rendering it once, 8–10 times once the renderer's code is warm (`npm run bench -- markdown`).
 */
const RENDER_INTERVAL = 300;

/**
 * How early (ms) a frame may come and still count as an interval later: frame times are
 * multiples of the display's period, which a sum of them misses by a hair, so that without it
 * 50 ms would take four 60 Hz frames (67 ms), not three.
 */
const FRAME_SLACK = 2;

// The Markdown renderer (and its parser, the largest dependency) loads after the widget is
// usable: transcripts start loading it when connected and show plain text until it is here.
let markdown: typeof MarkdownModule | null = null;
let markdownLoad: Promise<void> | null = null;
const awaitingMarkdown = new Set<WaveTranscript>();

function loadMarkdown(): Promise<void> {
  markdownLoad ??= import('./markdown.js').then(
    (module) => {
      markdown = module;
      for (const transcript of awaitingMarkdown) transcript.requestUpdate();
      awaitingMarkdown.clear();
    },
    (error: unknown) => {
      // Without the renderer, assistant text stays plain text: nothing is lost.
      console.warn('[wave-chat] the Markdown renderer did not load', error);
      awaitingMarkdown.clear();
    },
  );
  return markdownLoad;
}

/** The part each Markdown view was last committed through (see `MarkdownPart`). */
const markdownParts = new WeakMap<MarkdownModule.MarkdownView, MarkdownPart>();

/**
 * A message's Markdown in its bubble, rendered only when its text (or text appended in place)
 * changed. The transcript can also commit new text of the streaming reply through it on its own
 * (`show`), so that a delta costs the reply's Markdown, not a render of the whole transcript.
 */
class MarkdownPart extends AsyncDirective {
  #view: MarkdownModule.MarkdownView | null = null;
  #text = '';
  #edits = -1;

  render(view: MarkdownModule.MarkdownView, text: string): unknown {
    markdownParts.set(view, this);
    if (view === this.#view && text === this.#text && view.edits === this.#edits) return noChange;
    const value = view.render(text);
    this.#view = view;
    this.#text = text;
    this.#edits = view.edits;
    return value;
  }

  /** Commits `text` of this part's view outside the transcript's render; false when it cannot. */
  show(text: string): boolean {
    if (!this.isConnected || !this.#view) return false;
    const value = this.render(this.#view, text);
    if (value !== noChange) this.setValue(value);
    return true;
  }
}

const markdownPart = directive(MarkdownPart);

/** One line of the empty state: what a page tool (or the built-in page reading) does. */
export interface Capability {
  title: string;
  description: string;
}

/**
 * The conversation log: visitor text as plain text, assistant text as safe Markdown, tool
 * chips, and notices (an error notice with a Retry button when the step is retryable).
 * Messages waiting for the current answer are listed last, marked as queued; a stopped answer
 * is marked as stopped. Before the first message, the empty state says what the assistant can
 * do here (`capabilities`, or the built-in page reading when there are none).
 * Rows are keyed by id (lit `repeat`) and each message's Markdown is rendered only when its
 * text changes, so a 500-message transcript re-renders in constant work per update; a bulk
 * arrival renders its newest rows first and the older ones over the next frames.
 *
 * @tagname wave-transcript
 * @summary The transcript of a conversation.
 * @csspart message - One message bubble.
 * @csspart queued-message - A visitor message waiting for the current answer to end.
 * @csspart stopped-marker - The "Stopped" mark on a stopped answer.
 * @csspart empty-state - What the assistant can do here, before the first message.
 * @csspart chip - Forwarded from each tool chip.
 *
 * @example
 * html`<wave-transcript .items=${state.items} .session=${session}></wave-transcript>`
 */
export class WaveTranscript extends LitElement {
  static override styles = [baseStyles, transcriptStyles];
  static override properties = {
    items: { attribute: false },
    history: { attribute: false },
    session: { attribute: false },
    labels: { attribute: false },
    costUnit: { type: String, attribute: 'cost-unit' },
    allowedImageOrigins: { attribute: false },
    autoFocusConfirmations: { type: Boolean, attribute: 'auto-focus-confirmations' },
    queue: { attribute: false },
    capabilities: { attribute: false },
    shown: { type: Boolean },
  };

  declare items: readonly TranscriptItem[];
  /** Rows restored from a previous page (persist-transcript); rendered read-only above `items`. */
  declare history: readonly TranscriptItem[];
  declare session: WaveSessionApi | null;
  declare labels: WaveLabels;
  declare costUnit: string;
  /** Origins images in model Markdown may load from; default none (alt text shown instead). */
  declare allowedImageOrigins: readonly string[];
  declare autoFocusConfirmations: boolean;
  /** Messages waiting for the current answer to end (`SessionState.queue`). */
  declare queue: readonly QueuedMessage[];
  /** What the page's tools do, for the empty state; empty means the built-in page reading. */
  declare capabilities: readonly Capability[];
  /**
   * The transcript is on screen (its panel open, not in voice mode). While not, it neither reads
   * nor writes layout (no forced layout of the page behind a closed panel); on being shown it
   * scrolls to the newest row if it was following them.
   */
  declare shown: boolean;

  /** Following the newest row: the visitor is at the bottom (or has not scrolled away from it). */
  #stickToBottom = true;
  /** `scrollTop` at the last scroll event. */
  #lastTop = 0;
  /** The frame request of `#follow` (0: none). */
  #followFrame = 0;
  readonly #views = new Map<string, MarkdownModule.MarkdownView>();
  /** Index (over history + items) of the first row in the DOM. */
  #renderFrom = 0;
  #lastTotal = 0;
  #backfill = 0;
  /**
   * How long a streaming reply must go without new text before its caret blinks (ms). While
   * text arrives the caret stands still, so a stream costs the page no per-frame style work.
   */
  static caretPauseMs = 700;
  /** The streaming message's id and length at the last update ('' when none streams). */
  #streamSig = '';
  #caretPaused = false;
  #caretTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the streaming reply last had new text (`performance.now()`). */
  #lastTextAt = 0;
  /** The items the DOM shows (at the last update, rendered or appended in place). */
  #shownItems: readonly TranscriptItem[] = [];
  /** The streaming reply's bubble, once looked up (see `#streamingRow`). */
  #streamRow: Element | null = null;
  /** The frame time of the last streaming render (see `scheduleUpdate`). */
  #lastStreamFrame = -Infinity;

  constructor() {
    super();
    this.items = [];
    this.history = [];
    this.session = null;
    this.labels = defaultLabels;
    this.costUnit = 'cr';
    this.allowedImageOrigins = [];
    this.autoFocusConfirmations = true;
    this.queue = [];
    this.capabilities = [];
    this.shown = true;
    this.addEventListener('scroll', () => {
      // Follow new rows only while the visitor is at the bottom, so reading back is not yanked.
      // Leaving the bottom takes a scroll up: a log that grew below the view (a row added before
      // the frame that follows it) does not stop the following. Hidden, it reads no layout.
      if (!this.shown) return;
      const top = this.scrollTop;
      const atBottom = this.scrollHeight - top - this.clientHeight < 24;
      if (top < this.#lastTop - 1 || atBottom) this.#stickToBottom = atBottom;
      this.#lastTop = top;
    });
  }

  /**
   * Keeps the newest row in view without reading or writing layout in an update. While the
   * visitor is at the bottom, the browser's own scroll anchoring keeps it there as the log grows
   * (the 1 px `.end` after the log is the only anchor candidate, and it is in view only at the
   * bottom), during the frame's layout, at no cost of ours. This frame-later check is for what
   * anchoring does not do: the first scroll down from the top, a transcript shown again, and
   * browsers without scroll anchoring (Safari), where the newest text shows one frame late. It
   * runs before the next frame's updates, when layout is clean, so its reads cost no layout.
   */
  #follow(): void {
    if (this.#followFrame || !this.shown || !this.#stickToBottom) return;
    this.#followFrame = requestAnimationFrame(() => {
      this.#followFrame = 0;
      if (!this.shown || !this.#stickToBottom || !this.isConnected) return;
      if (this.scrollHeight - this.scrollTop - this.clientHeight > 1) this.scrollTop = this.scrollHeight;
      this.#lastTop = this.scrollTop;
    });
  }

  protected override updated(): void {
    this.#shownItems = this.items;
    this.#follow();
    if (this.#renderFrom > 0) this.#scheduleBackfill();
  }

  #row(item: TranscriptItem, restored: boolean) {
    switch (item.kind) {
      case 'message':
        return item.role === 'user'
          ? html`<div part="message user-message" class="message user ${restored ? 'restored' : ''}">${item.text}</div>`
          : html`<div
              part="message assistant-message"
              class="message assistant ${restored ? 'restored' : ''} ${item.text === '' ? 'empty' : ''}"
              ?data-streaming=${item.streaming}
              ?data-paused=${item.streaming && this.#caretPaused}
              ?data-stopped=${item.stopped === true}
            >
              ${item.text === '' ? nothing : this.#markdown(item, restored)}
              ${item.stopped ? html`<span part="stopped-marker" class="marker">${this.labels.stopped}</span>` : nothing}
            </div>`;
      case 'tool':
        // A call refused before the visitor saw it (a notice said why) is the model's business only.
        if (item.silent === true) return nothing;
        return html`<wave-tool-chip
          exportparts="chip, status, confirm-button, cancel-button, approve-button"
          .item=${item}
          .session=${restored ? null : this.session}
          .labels=${this.labels}
          .costUnit=${this.costUnit}
          .autoFocus=${!restored && this.autoFocusConfirmations}
        ></wave-tool-chip>`;
      case 'notice':
        return html`<div part="notice" class="notice ${item.level}" role=${item.level === 'error' ? 'alert' : nothing}>
          <span>${noticeText(item.notice, this.labels)}</span>
          ${item.retryable && !restored
            ? html`<button type="button" part="retry-button" @click=${this.#retry}>${this.labels.retry}</button>`
            : nothing}
        </div>`;
    }
  }

  /** A message's Markdown (plain text until the renderer is loaded). */
  #markdown(item: TranscriptItem & { kind: 'message' }, restored: boolean) {
    if (!markdown) return html`<p class="plain">${item.text}</p>`;
    return markdownPart(this.#markdownView(restored ? `h:${item.id}` : item.id, markdown), item.text);
  }

  /** One incremental Markdown view per message, so a streamed reply re-lexes only its tail. */
  #markdownView(key: string, module: typeof MarkdownModule): MarkdownModule.MarkdownView {
    let view = this.#views.get(key);
    if (!view) {
      view = new module.MarkdownView({
        allowedImageOrigins: this.allowedImageOrigins,
        imageLabel: (alt) => formatLabel(this.labels.imageBlocked, { label: alt }),
      });
      this.#views.set(key, view);
    }
    return view;
  }

  /**
   * While a reply streams, render at most once per {@link STREAM_INTERVAL} ms, on an animation
   * frame, and once per {@link RENDER_INTERVAL} ms unless the new text can be appended in place:
   * deltas that arrive in between become one update, and the first delta of a reply shows on the
   * next frame. The end of the stream (no item streaming) renders at once. A hidden page
   * has no frames: it updates every 250 ms, and a page hidden while waiting for a frame still
   * updates within a second.
   */
  protected override async scheduleUpdate(): Promise<void> {
    if (this.#streaming()) {
      await new Promise<void>((resolve) => {
        if (document.visibilityState === 'hidden') {
          setTimeout(resolve, 250);
          return;
        }
        const timer = setTimeout(resolve, 1000);
        const onFrame = (now: number) => {
          const since = now - this.#lastStreamFrame + FRAME_SLACK;
          // A stream that ended while this update waited (Stop, the last delta) renders on this frame.
          if (this.#streaming() && (since < STREAM_INTERVAL || (since < RENDER_INTERVAL && !this.#canAppendInPlace()))) {
            requestAnimationFrame(onFrame);
            return;
          }
          this.#lastStreamFrame = now;
          clearTimeout(timer);
          resolve();
        };
        requestAnimationFrame(onFrame);
      });
    }
    super.scheduleUpdate();
  }

  /** Whether a reply is streaming. */
  #streaming(): boolean {
    return this.items.some((item) => item.kind === 'message' && item.streaming);
  }

  /** Focuses the newest chip awaiting the visitor's answer; false when there is none. */
  focusConfirmation(): boolean {
    const chips = [...this.renderRoot.querySelectorAll<HTMLElement & { item: TranscriptItem | null }>('wave-tool-chip')];
    const chip = chips.reverse().find((c) => c.item?.kind === 'tool' && c.item.status === 'awaiting-confirmation' && !c.item.elsewhere);
    if (!chip) return false;
    chip.focus();
    return true;
  }

  #emptyState() {
    const l = this.labels;
    const caps = this.capabilities;
    return html`<div part="empty-state" class="empty-state">
      ${caps.length === 0
        ? html`<p>${l.emptyBuiltin}</p>`
        : html`<p>${l.emptyTools}</p>
            <ul>
              ${caps.map((c) => html`<li><strong>${c.title}</strong>${c.description ? html`: ${c.description}` : nothing}</li>`)}
            </ul>`}
    </div>`;
  }

  #retry = (): void => {
    void this.session?.retry();
  };

  /**
   * An update whose only change is new text in the streaming reply does not render the
   * transcript: text that cannot change what the Markdown before it makes (plain words at the end
   * of a paragraph, heading or list item, or code in an open fence) is appended to the reply's
   * DOM directly, with no lexing (see `MarkdownView.appendInPlace`); other text is rendered into
   * the reply's bubble alone, through its `MarkdownPart`. Anything else renders as usual.
   */
  protected override shouldUpdate(changed: PropertyValues<this>): boolean {
    const before = changed.get('items') as readonly TranscriptItem[] | undefined;
    const reply = changed.size === 1 && before ? this.#streamedReply(before) : null;
    if (!reply) return true;
    if (!reply.view.appendInPlace(reply.text, reply.row) && !markdownParts.get(reply.view)?.show(reply.text)) return true;
    this.#shownItems = this.items;
    this.#watchCaret();
    this.#follow();
    return false;
  }

  /** Whether the text the reply gained since the last update can be appended in place (no render needed). */
  #canAppendInPlace(): boolean {
    const reply = this.#streamedReply(this.#shownItems);
    return !!reply && reply.view.appendInPlace(reply.text, reply.row, true);
  }

  /**
   * The streaming reply's text, view and bubble, when `items` differ from `before` only by new text
   * in it (and its bubble needs nothing else: not empty, its caret not paused, every row in the DOM).
   */
  #streamedReply(before: readonly TranscriptItem[]): { text: string; view: MarkdownModule.MarkdownView; row: Element } | null {
    if (!markdown || !this.hasUpdated || this.#caretPaused || this.#renderFrom > 0) return null;
    const items = this.items;
    if (before.length !== items.length) return null;
    let at = -1;
    for (let i = 0; i < items.length; i++) {
      if (items[i] === before[i]) continue;
      if (at >= 0) return null;
      at = i;
    }
    const was = before[at];
    const item = items[at];
    if (was?.kind !== 'message' || item?.kind !== 'message' || item.role !== 'assistant' || was.role !== 'assistant') return null;
    if (was.id !== item.id || !was.streaming || !item.streaming || was.stopped || item.stopped || was.text === '' || item.text === '') return null;
    const view = this.#views.get(item.id);
    if (!view) return null;
    const row = this.#streamingRow();
    return row ? { text: item.text, view, row } : null;
  }

  /** The streaming reply's bubble (the only one with `data-streaming`). */
  #streamingRow(): Element | null {
    if (this.#streamRow?.isConnected && this.#streamRow.hasAttribute('data-streaming')) return this.#streamRow;
    const rows = this.renderRoot.querySelectorAll('.log > .message.assistant[data-streaming]');
    this.#streamRow = rows.length === 1 ? rows[0]! : null;
    return this.#streamRow;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Views render with the options they were made with: new options, new views (the DOM they
    // appended to in place back to what lit committed first).
    if (changed.has('allowedImageOrigins') || changed.has('labels')) {
      for (const view of this.#views.values()) view.restore();
      this.#views.clear();
    }
    // A queued message of the visitor's own follows the conversation down again.
    if (changed.has('queue') && this.queue.length > 0) this.#stickToBottom = true;
    if (!changed.has('items') && !changed.has('history')) return;
    this.#watchCaret();
    if (this.#views.size > 0) {
      const ids = new Set([...this.history.map((i) => `h:${i.id}`), ...this.items.map((i) => i.id)]);
      for (const id of this.#views.keys()) if (!ids.has(id)) this.#views.delete(id);
    }
    const total = this.history.length + this.items.length;
    const added = total - this.#lastTotal;
    if (total < this.#lastTotal || total === 0) this.#renderFrom = 0;
    // A bulk arrival (first paint, restored history) renders its newest rows now, older ones per frame.
    if (added > RENDER_CHUNK) this.#renderFrom = Math.max(this.#renderFrom, total - RENDER_CHUNK);
    this.#renderFrom = Math.min(this.#renderFrom, total);
    this.#lastTotal = total;
  }

  /**
   * New text in the streaming reply stills its caret; a pause of `caretPauseMs` lets it blink.
   * One timer runs per pause, not one per update: when it fires early (text came since it was
   * set) it waits again for the rest of the pause.
   */
  #watchCaret(): void {
    const streaming = this.items.find((i) => i.kind === 'message' && i.streaming);
    const sig = streaming?.kind === 'message' ? `${streaming.id}:${streaming.text.length}` : '';
    if (sig === this.#streamSig) return;
    this.#streamSig = sig;
    this.#caretPaused = false;
    if (!sig) {
      clearTimeout(this.#caretTimer);
      this.#caretTimer = undefined;
      return;
    }
    this.#lastTextAt = performance.now();
    if (this.#caretTimer === undefined) this.#caretWait((this.constructor as typeof WaveTranscript).caretPauseMs);
  }

  #caretWait(ms: number): void {
    this.#caretTimer = setTimeout(() => {
      const pause = (this.constructor as typeof WaveTranscript).caretPauseMs;
      const left = this.#lastTextAt + pause - performance.now();
      if (left > 1) {
        this.#caretWait(left);
        return;
      }
      this.#caretTimer = undefined;
      this.#caretPaused = true;
      this.requestUpdate();
    }, ms);
  }

  #scheduleBackfill(): void {
    if (this.#backfill) return;
    this.#backfill = requestAnimationFrame(() => {
      this.#backfill = 0;
      this.#renderFrom = Math.max(0, this.#renderFrom - RENDER_CHUNK);
      this.requestUpdate();
    });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (!markdown) {
      awaitingMarkdown.add(this);
      void loadMarkdown();
    }
  }

  /** Resolves once assistant text renders as Markdown (for tests and pages that wait on it). */
  static markdownReady(): Promise<void> {
    return loadMarkdown();
  }

  override disconnectedCallback(): void {
    awaitingMarkdown.delete(this);
    super.disconnectedCallback();
    cancelAnimationFrame(this.#followFrame);
    this.#followFrame = 0;
    cancelAnimationFrame(this.#backfill);
    this.#backfill = 0;
    clearTimeout(this.#caretTimer);
    this.#caretTimer = undefined;
    this.#streamSig = '';
  }

  /** True once every row is in the DOM (rows of a bulk arrival are added over a few frames). */
  get fullyRendered(): boolean {
    return this.#renderFrom === 0;
  }

  /** Resolves when every row is rendered. */
  async whenFullyRendered(signal?: AbortSignal): Promise<void> {
    while (this.#renderFrom > 0 && !signal?.aborted) {
      await new Promise<void>((r) => requestAnimationFrame(() => r()));
      await this.updateComplete;
    }
  }

  protected override render() {
    const h = this.history.length;
    const from = this.#renderFrom;
    const restored = from < h ? this.history.slice(from) : [];
    const live = from <= h ? this.items : this.items.slice(from - h);
    const empty = this.history.length === 0 && this.items.length === 0 && this.queue.length === 0;
    return html`${empty ? this.#emptyState() : nothing}
      <div class="log" role="log" aria-live="polite" aria-label=${this.labels.transcript} part="log">
        ${repeat(restored, (i) => `h:${i.id}`, (i) => this.#row(i, true))}
        ${repeat(live, (i) => i.id, (i) => this.#row(i, false))}
        ${repeat(
          this.queue,
          (q) => `q:${q.id}`,
          // No whitespace between the tags: user bubbles keep the visitor's line breaks (pre-wrap).
          (q) => html`<div part="message user-message queued-message" class="message user queued"><span class="text">${q.text}</span><span class="marker">${this.labels.queued}</span></div>`,
        )}
      </div>
      <div class="end" aria-hidden="true"></div>`;
  }
}
