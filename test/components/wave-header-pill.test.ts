import { expect, fixture, html } from '@open-wc/testing';
import './define-parts.js';
import type { WaveHeaderPill } from '../../components/wave-header-pill.js';
import { FakeSession, activeGrant, inactiveGrant, realClick } from './fake-session.js';

const pill = (el: WaveHeaderPill) => el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="pill"]');

describe('<wave-header-pill>', () => {
  describe('rendering', () => {
    it('is hidden while no grant is active', async () => {
      const el = await fixture<WaveHeaderPill>(html`<wave-header-pill .grant=${inactiveGrant}></wave-header-pill>`);
      expect(pill(el)).to.equal(null);
      expect(el.hidden).to.equal(true);
      expect(getComputedStyle(el).display).to.equal('none');
    });

    it('shows the amount spent under the grant and re-renders live', async () => {
      const el = await fixture<WaveHeaderPill>(html`<wave-header-pill .grant=${activeGrant(40)}></wave-header-pill>`);
      expect(el.hidden).to.equal(false);
      expect(pill(el)!.textContent!.trim()).to.equal('Spending approved · 40 cr · tap to stop');
      el.grant = activeGrant(120);
      el.costUnit = 'pts';
      await el.updateComplete;
      expect(pill(el)!.textContent!.trim()).to.equal('Spending approved · 120 pts · tap to stop');
      el.grant = inactiveGrant;
      await el.updateComplete;
      expect(pill(el)).to.equal(null);
    });
  });

  describe('interaction', () => {
    it('a real tap revokes with trusted evidence', async () => {
      const session = new FakeSession();
      const el = await fixture<WaveHeaderPill>(html`<wave-header-pill .session=${session} .grant=${activeGrant(40)}></wave-header-pill>`);
      await realClick(pill(el)!);
      expect(session.revokes).to.deep.equal([{ isTrusted: true, source: 'pointer' }]);
    });

    it('a scripted click passes isTrusted false (the core ignores it)', async () => {
      const session = new FakeSession();
      const el = await fixture<WaveHeaderPill>(html`<wave-header-pill .session=${session} .grant=${activeGrant(40)}></wave-header-pill>`);
      pill(el)!.click();
      expect(session.revokes.map((e) => e.isTrusted)).to.deep.equal([false]);
    });
  });

  describe('accessibility', function () {
    // The first axe run in a page loads and compiles axe-core (about 500 KB): on a loaded
    // two-core machine with both browsers running, Firefox took over 10 s once.
    this.timeout(30_000);
    it('is an axe-clean button', async () => {
      const el = await fixture<WaveHeaderPill>(html`<wave-header-pill .grant=${activeGrant(40)}></wave-header-pill>`);
      expect(pill(el)!.tagName).to.equal('BUTTON');
      await expect(el).to.be.accessible();
    });
  });
});
