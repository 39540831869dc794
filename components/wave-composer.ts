import { LitElement, html, nothing } from 'lit';
import { icons } from './icons.js';
import { defaultLabels, formatLabel, type WaveLabels } from './labels.js';
import { baseStyles } from './theme.styles.js';
import { composerStyles } from './wave-composer.styles.js';
import { WaveVoiceRequestEvent } from './events.js';

/** Internal event: the visitor submitted `detail.text` (handled by `<wave-chat>`). */
export class WaveComposerSubmitEvent extends CustomEvent<{ text: string }> {
  static readonly eventName = 'wave-composer-submit';
  constructor(text: string) {
    super(WaveComposerSubmitEvent.eventName, { bubbles: true, composed: true, detail: { text } });
  }
}

/**
 * The message box: Enter sends, Shift+Enter adds a line. While a reply streams Stop appears
 * beside Send, and Enter or Send still sends (the chat queues the message): a keypress is never
 * dropped. A message over `maxBytes` is not sent: a notice says so and the text stays.
 * A voice button (or anything slotted into `voice`) asks the chat to start voice.
 *
 * @tagname wave-composer
 * @summary The composer of `<wave-chat>`.
 * @fires wave-composer-submit - The visitor sent a message (`detail.text`).
 * @fires wave-composer-stop - The visitor pressed Stop.
 * @fires wave-voice-start-request - The voice button was pressed.
 * @slot voice - Replaces the built-in voice button.
 * @csspart composer - The form.
 * @csspart input - The textarea.
 * @csspart send-button - Send.
 * @csspart stop-button - Stop.
 * @csspart voice-button - The built-in voice button.
 * @csspart composer-notice - The notice under the box (a message too long to send).
 *
 * @example
 * html`<wave-composer ?busy=${streaming} @wave-composer-submit=${(e) => session.send(e.detail.text)}></wave-composer>`
 */
export class WaveComposer extends LitElement {
  static override styles = [baseStyles, composerStyles];
  static override properties = {
    busy: { type: Boolean, reflect: true },
    voiceAvailable: { type: Boolean, attribute: 'voice-available' },
    disabled: { type: Boolean, reflect: true },
    labels: { attribute: false },
    value: { type: String },
    maxBytes: { type: Number, attribute: 'max-bytes' },
    _tooLong: { state: true },
  };

  /** A reply is streaming or tools are running: Stop is shown. */
  declare busy: boolean;
  declare voiceAvailable: boolean;
  declare disabled: boolean;
  declare labels: WaveLabels;
  /** The draft text. */
  declare value: string;
  /** Largest message (UTF-8 bytes) that may be sent; 0 for no limit. */
  declare maxBytes: number;
  declare _tooLong: { length: number; limit: number } | null;

  constructor() {
    super();
    this.busy = false;
    this.voiceAvailable = false;
    this.disabled = false;
    this.labels = defaultLabels;
    this.value = '';
    this.maxBytes = 0;
    this._tooLong = null;
  }

  get input(): HTMLTextAreaElement | null {
    return this.renderRoot.querySelector('textarea');
  }

  override focus(options?: FocusOptions): void {
    this.input?.focus(options);
  }

  /**
   * Sends the draft (trimmed), also while busy (the chat queues it). An empty draft does
   * nothing; one over `maxBytes` stays in the box and a notice explains why.
   */
  submit(): boolean {
    const text = this.value.trim();
    if (!text || this.disabled) return false;
    const limit = this.maxBytes > 0 ? this.maxBytes : Infinity;
    // A cheap bound first: UTF-8 needs at most 3 bytes per UTF-16 unit.
    if (text.length * 3 > limit && new TextEncoder().encode(text).length > limit) {
      this._tooLong = { length: text.length, limit: this.maxBytes };
      return false;
    }
    this._tooLong = null;
    this.value = '';
    this.dispatchEvent(new WaveComposerSubmitEvent(text));
    return true;
  }

  #onInput = (e: Event): void => {
    this.value = (e.target as HTMLTextAreaElement).value;
    this._tooLong = null;
  };

  #onKeydown = (e: KeyboardEvent): void => {
    // isComposing: Enter that commits an IME candidate must not send.
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      this.submit();
    }
  };

  #onSubmit = (e: SubmitEvent): void => {
    e.preventDefault();
    this.submit();
  };

  #stop = (): void => {
    // The Stop button goes away with the reply: keep the visitor's focus in the box.
    this.input?.focus();
    this.dispatchEvent(new Event('wave-composer-stop', { bubbles: true, composed: true }));
  };

  #voice = (): void => {
    this.dispatchEvent(new WaveVoiceRequestEvent('wave-voice-start-request'));
  };

  protected override render() {
    const l = this.labels;
    const tooLong = this._tooLong;
    return html`<form part="composer" @submit=${this.#onSubmit}>
      <textarea
        part="input"
        rows="1"
        aria-label=${l.composerLabel}
        aria-describedby=${tooLong ? 'notice' : nothing}
        aria-invalid=${tooLong ? 'true' : nothing}
        placeholder=${l.composerPlaceholder}
        .value=${this.value}
        ?disabled=${this.disabled}
        @input=${this.#onInput}
        @keydown=${this.#onKeydown}
      ></textarea>
      <slot name="voice">
        ${this.voiceAvailable
          ? html`<button part="voice-button" type="button" aria-label=${l.voiceStart} title=${l.voiceStart} @click=${this.#voice}>
              ${icons.mic}
            </button>`
          : nothing}
      </slot>
      ${this.busy
        ? html`<button part="stop-button" class="icon-button" type="button" title=${l.stop} @click=${this.#stop}>
            ${icons.stop}<span class="visually-hidden">${l.stop}</span>
          </button>`
        : nothing}
      <button part="send-button" class="primary icon-button" type="submit" title=${l.send} ?disabled=${this.disabled}>
        ${icons.send}<span class="visually-hidden">${l.send}</span>
      </button>
    </form>
    ${tooLong
      ? html`<p part="composer-notice" id="notice" class="notice" role="alert">
          ${formatLabel(l.messageTooLong, { length: tooLong.length.toLocaleString(), limit: tooLong.limit.toLocaleString() })}
        </p>`
      : nothing}`;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'wave-composer-submit': WaveComposerSubmitEvent;
  }
}
