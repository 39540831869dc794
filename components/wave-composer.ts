import { LitElement, html, nothing } from 'lit';
import { defaultLabels, type WaveLabels } from './labels.js';
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
 * The message box: Enter sends, Shift+Enter adds a line, Stop replaces Send while a reply
 * streams. A voice button (or anything slotted into `voice`) asks the host to start voice.
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
  };

  /** A reply is streaming or tools are running: Stop is shown. */
  declare busy: boolean;
  declare voiceAvailable: boolean;
  declare disabled: boolean;
  declare labels: WaveLabels;
  /** The draft text. */
  declare value: string;

  constructor() {
    super();
    this.busy = false;
    this.voiceAvailable = false;
    this.disabled = false;
    this.labels = defaultLabels;
    this.value = '';
  }

  get input(): HTMLTextAreaElement | null {
    return this.renderRoot.querySelector('textarea');
  }

  override focus(options?: FocusOptions): void {
    this.input?.focus(options);
  }

  /** Sends the draft (trimmed); empty drafts and sends while busy do nothing. */
  submit(): boolean {
    const text = this.value.trim();
    if (!text || this.busy || this.disabled) return false;
    this.value = '';
    this.dispatchEvent(new WaveComposerSubmitEvent(text));
    return true;
  }

  #onInput = (e: Event): void => {
    this.value = (e.target as HTMLTextAreaElement).value;
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
    this.dispatchEvent(new Event('wave-composer-stop', { bubbles: true, composed: true }));
  };

  #voice = (): void => {
    this.dispatchEvent(new WaveVoiceRequestEvent('wave-voice-start-request'));
  };

  protected override render() {
    const l = this.labels;
    return html`<form part="composer" @submit=${this.#onSubmit}>
      <textarea
        part="input"
        rows="1"
        aria-label=${l.composerLabel}
        placeholder=${l.composerPlaceholder}
        .value=${this.value}
        ?disabled=${this.disabled}
        @input=${this.#onInput}
        @keydown=${this.#onKeydown}
      ></textarea>
      <slot name="voice">
        ${this.voiceAvailable
          ? html`<button part="voice-button" type="button" aria-label=${l.voiceStart} title=${l.voiceStart} @click=${this.#voice}>
              <span aria-hidden="true">🎙</span>
            </button>`
          : nothing}
      </slot>
      ${this.busy
        ? html`<button part="stop-button" type="button" @click=${this.#stop}>${l.stop}</button>`
        : html`<button part="send-button" class="primary" type="submit" ?disabled=${this.disabled}>${l.send}</button>`}
    </form>`;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'wave-composer-submit': WaveComposerSubmitEvent;
  }
}
