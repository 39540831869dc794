import { LitElement, html, nothing } from 'lit';
import type { WaveSessionApi } from '../src/agent/types.js';
import type { SpendGrantState } from '../src/consent/types.js';
import { defaultLabels, formatLabel, type WaveLabels } from './labels.js';
import { baseStyles } from './theme.styles.js';
import { headerPillStyles } from './wave-header-pill.styles.js';
import { evidenceFrom } from './controllers/visitor-evidence.js';

/**
 * The spend-grant pill: `Spending approved · 40 cr · tap to stop`. Renders nothing while no
 * grant is active; a trusted tap revokes the grant through the session.
 *
 * @tagname wave-header-pill
 * @summary Header pill showing the active spend grant.
 * @csspart pill - The pill button.
 * @cssproperty --wave-pill-bg - Pill background.
 * @cssproperty --wave-pill-text - Pill text colour.
 *
 * @example
 * html`<wave-header-pill .grant=${state.grant} .session=${session}></wave-header-pill>`
 */
export class WaveHeaderPill extends LitElement {
  static override styles = [baseStyles, headerPillStyles];
  static override properties = {
    grant: { attribute: false },
    session: { attribute: false },
    labels: { attribute: false },
    costUnit: { type: String, attribute: 'cost-unit' },
  };

  declare grant: SpendGrantState | null;
  declare session: WaveSessionApi | null;
  declare labels: WaveLabels;
  declare costUnit: string;

  constructor() {
    super();
    this.grant = null;
    this.session = null;
    this.labels = defaultLabels;
    this.costUnit = 'cr';
  }

  #onClick = (event: MouseEvent): void => {
    this.session?.revokeGrant(evidenceFrom(event));
  };

  protected override willUpdate(): void {
    // Hidden when no grant is active, so the header's layout does not keep an empty slot.
    this.toggleAttribute('hidden', !this.grant?.active);
  }

  protected override render() {
    const g = this.grant;
    if (!g?.active) return nothing;
    const values = { spent: g.spent, unit: this.costUnit, cap: g.cap };
    return html`<button part="pill" type="button" @click=${this.#onClick}>
      ${formatLabel(this.labels.pill, values)}
    </button>`;
  }
}
