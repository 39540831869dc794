import { expect, fixture, html, nextFrame, oneEvent } from '@open-wc/testing';
import { emulateMedia } from '../helpers/emulate-media.js';
import './define-parts.js';
import type { WaveVoiceBubble } from '../../components/wave-voice-bubble.js';
import { FakeSession, awaitingChip, realClick } from './fake-session.js';

const bars = (el: WaveVoiceBubble) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('.bar')];
const scaleY = (bar: HTMLElement) => new DOMMatrix(getComputedStyle(bar).transform).d;

async function frames(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await nextFrame();
}

describe('<wave-voice-bubble>', () => {
  beforeEach(async () => {
    await emulateMedia({ reducedMotion: 'no-preference' });
  });
  afterEach(async () => {
    await emulateMedia({ reducedMotion: null });
  });

  describe('rendering', () => {
    it('rests when the level is zero and scales the waves with the level', async () => {
      const el = await fixture<WaveVoiceBubble>(html`<wave-voice-bubble .level=${0}></wave-voice-bubble>`);
      el.shadowRoot!.querySelectorAll<HTMLElement>('.bar').forEach((b) => (b.style.transition = 'none'));
      const rest = bars(el).map(scaleY);
      expect(rest.every((s) => Math.abs(s - 0.12) < 0.01)).to.equal(true);
      el.level = 1;
      await el.updateComplete;
      const loud = bars(el).map(scaleY);
      expect(loud[2]).to.be.greaterThan(0.9);
      expect(loud[0]).to.be.lessThan(loud[2]!);
      expect(el.hasAttribute('speaking')).to.equal(true);
    });

    it('polls levelSource once per animation frame', async () => {
      let calls = 0;
      let value = 0.8;
      const el = await fixture<WaveVoiceBubble>(html`<wave-voice-bubble></wave-voice-bubble>`);
      el.levelSource = () => {
        calls++;
        return value;
      };
      await el.updateComplete;
      await frames(3);
      expect(calls).to.be.greaterThan(0);
      expect(el.shownLevel).to.be.closeTo(0.8, 0.01);
      value = 0;
      await frames(3);
      expect(el.shownLevel).to.equal(0);
      expect(el.hasAttribute('speaking')).to.equal(false);
    });

    it('clamps junk levels to 0..1', async () => {
      const el = await fixture<WaveVoiceBubble>(html`<wave-voice-bubble .level=${7}></wave-voice-bubble>`);
      expect(el.shownLevel).to.equal(1);
      el.level = Number.NaN;
      await el.updateComplete;
      expect(el.shownLevel).to.equal(0);
    });

    it('stops polling when disconnected', async () => {
      let calls = 0;
      const el = await fixture<WaveVoiceBubble>(html`<wave-voice-bubble .levelSource=${() => (calls++, 0.5)}></wave-voice-bubble>`);
      await frames(2);
      el.remove();
      const before = calls;
      await frames(3);
      expect(calls).to.equal(before);
    });

    it('mirrors the status line and shows the confirmation buttons', async () => {
      const el = await fixture<WaveVoiceBubble>(
        html`<wave-voice-bubble status="Adding task…" .confirmation=${awaitingChip('c1')}></wave-voice-bubble>`,
      );
      expect(el.shadowRoot!.querySelector('[part~="status"]')!.textContent).to.contain('Adding task…');
      const chip = el.shadowRoot!.querySelector('wave-tool-chip')!;
      expect(chip.shadowRoot!.querySelector('[part~="confirm-button"]')).to.exist;
    });

    it('under prefers-reduced-motion the waves stand still', async () => {
      await emulateMedia({ reducedMotion: 'reduce' });
      const el = await fixture<WaveVoiceBubble>(html`<wave-voice-bubble .level=${1}></wave-voice-bubble>`);
      const b = bars(el);
      expect(b.every((bar) => getComputedStyle(bar).transform === 'none')).to.equal(true);
      expect(getComputedStyle(b[0]!).transitionDuration).to.equal('0s');
      // The static indicator still shows speech by opacity.
      expect(getComputedStyle(b[0]!).opacity).to.equal('1');
      el.level = 0;
      await el.updateComplete;
      expect(getComputedStyle(b[0]!).opacity).to.equal('0.4');
    });
  });

  describe('interaction', () => {
    it('a real click on the bubble Confirm answers through the session', async () => {
      const session = new FakeSession();
      const el = await fixture<WaveVoiceBubble>(html`<wave-voice-bubble .session=${session} .confirmation=${awaitingChip('c9')}></wave-voice-bubble>`);
      const chip = el.shadowRoot!.querySelector('wave-tool-chip')!;
      await realClick(chip.shadowRoot!.querySelector('[part~="confirm-button"]')!);
      expect(session.answers.map((a) => [a.id, a.decision, a.accepted])).to.deep.equal([['c9', 'confirm', true]]);
    });
  });

  describe('events', () => {
    it('End voice fires a cancelable wave-voice-end-request', async () => {
      const el = await fixture<WaveVoiceBubble>(html`<wave-voice-bubble></wave-voice-bubble>`);
      const ev = oneEvent(el, 'wave-voice-end-request');
      el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="end-voice-button"]')!.click();
      const e = await ev;
      expect(e.cancelable && e.bubbles && e.composed).to.equal(true);
    });
  });

  describe('accessibility', function () {
    // The first axe run in a page loads and compiles axe-core (about 500 KB): on a loaded
    // two-core machine with both browsers running, Firefox took over 10 s once.
    this.timeout(30_000);
    it('is axe-clean with a live status line', async () => {
      const el = await fixture<WaveVoiceBubble>(html`<wave-voice-bubble status="Added scene · −40 cr"></wave-voice-bubble>`);
      expect(el.shadowRoot!.querySelector('[part~="status"]')!.getAttribute('aria-live')).to.equal('polite');
      await expect(el).to.be.accessible();
    });
  });
});
