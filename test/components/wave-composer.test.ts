import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import './define-parts.js';
import type { WaveComposer, WaveComposerSubmitEvent } from '../../components/wave-composer.js';
import { realClick } from './fake-session.js';

const q = <T extends HTMLElement>(el: WaveComposer, part: string) => el.shadowRoot!.querySelector<T>(`[part~="${part}"]`);

describe('<wave-composer>', () => {
  describe('rendering', () => {
    it('shows Send when idle, and Stop beside Send while busy (a message can still be sent, to be queued)', async () => {
      const el = await fixture<WaveComposer>(html`<wave-composer></wave-composer>`);
      expect(q(el, 'send-button')).to.exist;
      expect(q(el, 'stop-button') === null).to.equal(true);
      el.busy = true;
      await el.updateComplete;
      expect(q(el, 'send-button') !== null).to.equal(true);
      expect(q(el, 'stop-button')!.textContent!.trim()).to.equal('Stop');
      expect(q(el, 'send-button')!.textContent!.trim()).to.equal('Send');
    });

    it('shows a voice button only when voice is available', async () => {
      const el = await fixture<WaveComposer>(html`<wave-composer></wave-composer>`);
      expect(q(el, 'voice-button')).to.equal(null);
      el.voiceAvailable = true;
      await el.updateComplete;
      expect(q(el, 'voice-button')).to.exist;
    });
  });

  describe('interaction', () => {
    it('Enter sends the trimmed text and clears the box', async () => {
      const el = await fixture<WaveComposer>(html`<wave-composer></wave-composer>`);
      const sent: string[] = [];
      el.addEventListener('wave-composer-submit', (e: WaveComposerSubmitEvent) => sent.push(e.detail.text));
      el.focus();
      await sendKeys({ type: '  hello there ' });
      await sendKeys({ press: 'Enter' });
      await el.updateComplete;
      expect(sent).to.deep.equal(['hello there']);
      expect(q<HTMLTextAreaElement>(el, 'input')!.value).to.equal('');
    });

    it('Shift+Enter inserts a newline instead of sending', async () => {
      const el = await fixture<WaveComposer>(html`<wave-composer></wave-composer>`);
      const sent: string[] = [];
      el.addEventListener('wave-composer-submit', (e: WaveComposerSubmitEvent) => sent.push(e.detail.text));
      el.focus();
      await sendKeys({ type: 'a' });
      await sendKeys({ down: 'Shift' });
      await sendKeys({ press: 'Enter' });
      await sendKeys({ up: 'Shift' });
      await sendKeys({ type: 'b' });
      expect(sent).to.deep.equal([]);
      expect(q<HTMLTextAreaElement>(el, 'input')!.value).to.equal('a\nb');
    });

    it('does not send an empty message', async () => {
      const el = await fixture<WaveComposer>(html`<wave-composer></wave-composer>`);
      const sent: string[] = [];
      el.addEventListener('wave-composer-submit', (e: WaveComposerSubmitEvent) => sent.push(e.detail.text));
      await realClick(q(el, 'send-button')!);
      expect(sent).to.deep.equal([]);
    });

    it('the Send button sends', async () => {
      const el = await fixture<WaveComposer>(html`<wave-composer></wave-composer>`);
      el.value = 'via button';
      await el.updateComplete;
      const ev = oneEvent(el, 'wave-composer-submit');
      await realClick(q(el, 'send-button')!);
      expect((await ev).detail.text).to.equal('via button');
    });
  });

  describe('while busy, too long, and after Stop', () => {
    it('Enter while busy still sends (the host queues it): the keypress is never dropped', async () => {
      const el = await fixture<WaveComposer>(html`<wave-composer busy></wave-composer>`);
      const sent: string[] = [];
      el.addEventListener('wave-composer-submit', (e: WaveComposerSubmitEvent) => sent.push(e.detail.text));
      el.focus();
      await sendKeys({ type: 'one' });
      await sendKeys({ press: 'Enter' });
      await sendKeys({ type: 'two' });
      await sendKeys({ press: 'Enter' });
      expect(sent).to.deep.equal(['one', 'two']);
      expect(q<HTMLTextAreaElement>(el, 'input')!.value).to.equal('');
    });

    it('a message over max-bytes stays in the box with a notice; typing clears the notice', async () => {
      const el = await fixture<WaveComposer>(html`<wave-composer max-bytes="100"></wave-composer>`);
      const sent: string[] = [];
      el.addEventListener('wave-composer-submit', (e: WaveComposerSubmitEvent) => sent.push(e.detail.text));
      el.value = 'x'.repeat(101);
      await el.updateComplete;
      el.focus();
      await sendKeys({ press: 'Enter' });
      await el.updateComplete;
      expect(sent).to.deep.equal([]);
      expect(q<HTMLTextAreaElement>(el, 'input')!.value).to.have.length(101);
      expect(q(el, 'composer-notice')!.textContent).to.contain('too long to send (101 characters; the most is about 100)');
      expect(q(el, 'input')!.getAttribute('aria-invalid')).to.equal('true');
      await sendKeys({ press: 'Backspace' });
      await el.updateComplete;
      expect(q(el, 'composer-notice') === null).to.equal(true);
      await sendKeys({ press: 'Enter' });
      expect(sent).to.have.length(1);
    });

    it('a real click on Stop keeps focus in the box when Stop goes away', async () => {
      const el = await fixture<WaveComposer>(html`<wave-composer busy></wave-composer>`);
      el.addEventListener('wave-composer-stop', () => (el.busy = false));
      await realClick(q(el, 'stop-button')!);
      await el.updateComplete;
      expect(el.shadowRoot!.activeElement === q(el, 'input')).to.equal(true);
    });
  });

  describe('events', () => {
    it('Stop fires wave-composer-stop; the voice button asks for voice', async () => {
      const el = await fixture<WaveComposer>(html`<wave-composer busy voice-available></wave-composer>`);
      const stop = oneEvent(el, 'wave-composer-stop');
      q(el, 'stop-button')!.click();
      expect((await stop).composed).to.equal(true);
      const voice = oneEvent(el, 'wave-voice-start-request');
      q(el, 'voice-button')!.click();
      expect((await voice).cancelable).to.equal(true);
    });
  });

  describe('accessibility', function () {
    // The first axe run in a page loads and compiles axe-core (about 500 KB): on a loaded
    // two-core machine with both browsers running, Firefox took over 10 s once.
    this.timeout(30_000);
    it('is axe-clean with a labelled textarea', async () => {
      const el = await fixture<WaveComposer>(html`<wave-composer voice-available></wave-composer>`);
      expect(q(el, 'input')!.getAttribute('aria-label')).to.equal('Message');
      await expect(el).to.be.accessible();
    });
  });
});
