import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { ChipStatus, type ToolPart, type WaveSessionApi } from '../src/agent/types.js';
import type { ConfirmDecision } from '../src/consent/types.js';
import { chipText, label, tabName, toolPartTitle, type WaveLabels, defaultLabels } from './labels.js';
import { evidenceFrom } from './controllers/visitor-evidence.js';
import { baseStyles } from './theme.styles.js';
import { toolChipStyles } from './wave-tool-chip.styles.js';

/** The tool row of the transcript. */
export type ToolItem = ToolPart;

/** How long after a confirmation takes focus before Enter on it confirms (Escape always cancels). */
export const CONFIRM_SETTLE_MS = 600;

/** The text a chip shows for its state (shared with the voice bubble's status line); worded in labels.ts. */
export { chipText };

/**
 * One tool call: requested, awaiting the visitor's confirmation, running, succeeded (with a
 * receipt), failed, cancelled or declined (`ChipStatus`). Buttons forward the visitor's own event as evidence, so a page
 * script calling `.click()` (`isTrusted: false`) never confirms.
 *
 * @tagname wave-tool-chip
 * @summary A tool-call chip with consent buttons.
 * @csspart chip - The chip group.
 * @csspart status - The label line.
 * @csspart chip-origin - "Asked from the tab “…”" on a call another tab's conversation asked for.
 * @csspart confirm-button - Confirm.
 * @csspart cancel-button - Cancel.
 * @csspart approve-button - Approve for this session.
 * @cssproperty --wave-danger - Failed chip colour.
 * @cssproperty --wave-success - Succeeded chip border.
 *
 * @example
 * html`<wave-tool-chip .item=${item} .session=${session} cost-unit="cr"></wave-tool-chip>`
 */
export class WaveToolChip extends LitElement {
  static override styles = [baseStyles, toolChipStyles];
  static override properties = {
    item: { attribute: false },
    session: { attribute: false },
    labels: { attribute: false },
    costUnit: { type: String, attribute: 'cost-unit' },
    autoFocus: { type: Boolean, attribute: 'auto-focus' },
  };

  declare item: ToolItem | null;
  declare session: WaveSessionApi | null;
  declare labels: WaveLabels;
  declare costUnit: string;
  /** Take focus when a new confirmation appears (off for restored or off-screen chips). */
  declare autoFocus: boolean;

  #focusedFor: string | null = null;

  #focusedAt = -Infinity;

  constructor() {
    super();
    this.item = null;
    this.session = null;
    this.labels = defaultLabels;
    this.costUnit = 'cr';
    this.autoFocus = true;
  }

  /** The chip's group element (focused when a confirmation appears). */
  get group(): HTMLElement | null {
    return this.renderRoot.querySelector<HTMLElement>('[part~="chip"]');
  }

  override focus(options?: FocusOptions): void {
    // Focus moved here without the visitor's doing (e.g. the panel opened on this chip): Enter
    // only confirms after the settle delay, as when the chip takes focus on its own.
    this.#focusedAt = performance.now();
    this.group?.focus(options);
  }

  #answer(decision: ConfirmDecision, event: Event): void {
    const id = this.item?.confirmation?.id ?? this.item?.id;
    if (!id || !this.session) return;
    this.session.answerConfirmation(id, decision, evidenceFrom(event));
  }

  #onKeydown = (event: KeyboardEvent): void => {
    // Only the visitor's own keys settle a confirmation; synthetic ones are ignored here and by the core.
    if (!event.isTrusted || this.item?.status !== ChipStatus.awaitingConfirmation || this.item.elsewhere) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      this.#answer('cancel', event);
    } else if (event.key === 'Enter' && event.composedPath()[0] === this.group) {
      // On a focused button Enter already clicks it; only the group itself maps Enter to Confirm.
      // The group takes focus on its own: an Enter meant for the composer (typed just as focus
      // moved, or held down) must not confirm a paid or destructive action.
      if (event.repeat || performance.now() - this.#focusedAt < CONFIRM_SETTLE_MS) return;
      event.preventDefault();
      this.#answer('confirm', event);
    }
  };

  protected override updated(changed: PropertyValues<this>): void {
    const c = this.item?.status === ChipStatus.awaitingConfirmation ? this.item.confirmation : undefined;
    // Also when auto-focus turns on (the panel opened on a confirmation that arrived while closed).
    if ((changed.has('item') || changed.has('autoFocus')) && c && this.autoFocus && this.#focusedFor !== c.id && this.isConnected) {
      this.#focusedFor = c.id;
      this.#focusedAt = performance.now();
      this.group?.focus({ preventScroll: false });
    }
  }

  protected override render() {
    const item = this.item;
    if (!item) return nothing;
    const labels = this.labels;
    const text = chipText(item, labels, this.costUnit);
    // A call asked in another tab (SPEC §13) is answered there: no buttons here.
    const awaiting = item.status === ChipStatus.awaitingConfirmation && !item.elsewhere;
    const c = awaiting ? item.confirmation : undefined;
    return html`<div
      part="chip"
      class="chip"
      role="group"
      tabindex=${awaiting ? '-1' : nothing}
      aria-label=${label(labels, 'chipGroup', { title: toolPartTitle(labels, item), name: item.name })}
      data-status=${item.status}
      @keydown=${this.#onKeydown}
    >
      <div class="line">
        ${this.#icon(item.status)}
        <span part="status" class="label" aria-live=${awaiting ? 'assertive' : 'polite'}>${text}</span>
      </div>
      ${item.fromTab !== undefined
        ? html`<div class="origin" part="chip-origin">${label(labels, 'fromTab', { tab: tabName(labels, item.fromTab) })}</div>`
        : nothing}
      ${c && c.cost > 0 && c.label
        ? html`<div class="cost">${label(labels, 'costLine', { cost: c.cost, unit: this.costUnit })}</div>`
        : nothing}
      ${awaiting
        ? html`<div class="buttons">
            <button part="confirm-button" class="primary" type="button" @click=${(e: Event) => this.#answer('confirm', e)}>
              ${labels.confirm}
            </button>
            <button part="cancel-button" type="button" @click=${(e: Event) => this.#answer('cancel', e)}>${labels.cancel}</button>
            ${c?.offersSessionApproval
              ? html`<button part="approve-button" type="button" @click=${(e: Event) => this.#answer('approve-session', e)}>
                  ${labels.approveSession}
                </button>`
              : nothing}
          </div>`
        : nothing}
    </div>`;
  }

  #icon(status: ChipStatus) {
    switch (status) {
      case ChipStatus.requested:
      case ChipStatus.running:
        return html`<span class="icon spinner" aria-hidden="true"></span>`;
      case ChipStatus.succeeded:
        return html`<span class="icon" aria-hidden="true">✓</span>`;
      case ChipStatus.failed:
        return html`<span class="icon" aria-hidden="true">✕</span>`;
      case ChipStatus.cancelled:
      case ChipStatus.declined:
        return html`<span class="icon" aria-hidden="true">⊘</span>`;
      case ChipStatus.awaitingConfirmation:
        return html`<span class="icon" aria-hidden="true">?</span>`;
    }
  }
}
