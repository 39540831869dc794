import { LitElement, html, nothing, type PropertyValues } from 'lit';
import type { WaveSessionApi } from '../src/agent/types.js';
import { WaveVoiceRequestEvent } from './events.js';
import { defaultLabels, type WaveLabels } from './labels.js';
import { baseStyles } from './theme.styles.js';
import { voiceBubbleStyles } from './wave-voice-bubble.styles.js';
import type { ToolItem } from './wave-tool-chip.js';

/** Above this level the bubble counts as "speaking" (the static indicator lights up). */
const SPEAKING_THRESHOLD = 0.05;

function clampLevel(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

/**
 * Voice mode: waves that follow the real audio level, a status line mirroring the latest
 * chip label, the buttons of the confirmation on screen, and "End voice". Under
 * `prefers-reduced-motion: reduce` the waves stand still and a static indicator shows speech.
 *
 * @tagname wave-voice-bubble
 * @summary The voice bubble of `<wave-chat>`.
 * @fires wave-voice-end-request - The visitor pressed "End voice" (cancelable).
 * @csspart voice-bubble - The bubble.
 * @csspart waves - The level bars.
 * @csspart status - The status line.
 * @csspart end-voice-button - End voice.
 *
 * @example
 * bubble.levelSource = () => analyserLevel(); // polled once per animation frame
 */
export class WaveVoiceBubble extends LitElement {
  static override styles = [baseStyles, voiceBubbleStyles];
  static override properties = {
    level: { type: Number },
    levelSource: { attribute: false },
    status: { type: String },
    confirmation: { attribute: false },
    session: { attribute: false },
    labels: { attribute: false },
    costUnit: { type: String, attribute: 'cost-unit' },
  };

  /** Audio level 0..1 (ignored while `levelSource` is set). */
  declare level: number;
  /** Polled once per animation frame for the level, e.g. from an AnalyserNode. */
  declare levelSource: (() => number) | null;
  /** The status line (mirrors the latest chip label). */
  declare status: string;
  /** The confirmation on screen, if any (rendered with the chip's buttons). */
  declare confirmation: ToolItem | null;
  declare session: WaveSessionApi | null;
  declare labels: WaveLabels;
  declare costUnit: string;

  #frame = 0;
  #shown = -1;

  constructor() {
    super();
    this.level = 0;
    this.levelSource = null;
    this.status = '';
    this.confirmation = null;
    this.session = null;
    this.labels = defaultLabels;
    this.costUnit = 'cr';
  }

  /** The level currently drawn (for tests and devtools). */
  get shownLevel(): number {
    return Math.max(0, this.#shown);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#schedule();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
  }

  #schedule(): void {
    if (this.#frame || !this.levelSource || !this.isConnected) return;
    this.#frame = requestAnimationFrame(this.#tick);
  }

  #tick = (): void => {
    this.#frame = 0;
    const source = this.levelSource;
    if (!source) return;
    let value = 0;
    try {
      value = source();
    } catch {
      // A failing meter reads as silence rather than breaking the bubble.
    }
    this.#draw(clampLevel(value));
    this.#schedule();
  };

  #draw(level: number): void {
    // Per-frame updates go straight to a CSS custom property (CSSOM: CSP- and TT-safe), no re-render.
    if (Math.abs(level - this.#shown) < 0.005) return;
    this.#shown = level;
    this.style.setProperty('--_level', level.toFixed(3));
    this.toggleAttribute('speaking', level > SPEAKING_THRESHOLD);
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('levelSource')) {
      if (this.levelSource) this.#schedule();
      else this.#draw(clampLevel(this.level));
    }
    if (changed.has('level') && !this.levelSource) this.#draw(clampLevel(this.level));
  }

  #end = (): void => {
    this.dispatchEvent(new WaveVoiceRequestEvent('wave-voice-end-request'));
  };

  protected override render() {
    const l = this.labels;
    return html`<div part="voice-bubble" class="bubble" role="region" aria-label=${l.voiceBubble}>
      <div part="status" class="status" role="status" aria-live="polite">${this.status || l.voiceListening}</div>
      <div part="waves" class="waves" aria-hidden="true">
        <span class="bar"></span><span class="bar"></span><span class="bar"></span><span class="bar"></span><span class="bar"></span>
      </div>
      ${this.confirmation
        ? html`<wave-tool-chip
            class="confirm"
            exportparts="chip, confirm-button, cancel-button, approve-button"
            .item=${this.confirmation}
            .session=${this.session}
            .labels=${this.labels}
            .costUnit=${this.costUnit}
          ></wave-tool-chip>`
        : nothing}
      <button part="end-voice-button" type="button" @click=${this.#end}>${l.voiceEnd}</button>
    </div>`;
  }
}
