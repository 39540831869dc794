/** `<wave-chat>` over the real `WaveSession`: consent driven through the UI with `callTool`. */
import { expect, fixture, html, nextFrame } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../components/define.js';
import { WaveChat } from '../../components/wave-chat.js';
import { WaveSession } from '../../src/agent/wave-session.js';
import { MemoryStorage } from '../../src/storage.js';
import { realClick } from './fake-session.js';
import { until } from '../helpers/until.js';

type Updatable = HTMLElement & { updateComplete: Promise<unknown> };
const originalFactory = WaveChat.createSession;

/** The state, however many turns it takes (the validator is a lazy chunk): see `until`. */
const waitFor = <T>(probe: () => T | null | undefined | false, what: string): Promise<T> => until(probe, what) as Promise<T>;

function chips(el: WaveChat): Updatable[] {
  // The transcript is rendered once the panel is wanted (not at boot): none yet means no chips.
  const t = el.shadowRoot!.querySelector('wave-transcript');
  return [...(t?.shadowRoot?.querySelectorAll<Updatable>('wave-tool-chip') ?? [])];
}
const inChip = (chip: Element, part: string) => chip.shadowRoot!.querySelector<HTMLElement>(`[part~="${part}"]`);

describe('<wave-chat> with the real WaveSession', () => {
  let runs: number;
  beforeEach(() => {
    runs = 0;
    // The interpreter engine keeps this test about the UI, independent of how ajv is served in the test runner.
    WaveChat.createSession = (el) => new WaveSession({ siteId: el.siteId || 'it', costUnit: el.costUnit, storage: new MemoryStorage(), validatorEngine: 'interpreter' });
  });
  afterEach(() => {
    WaveChat.createSession = originalFactory;
  });

  async function chatWithSceneTool(): Promise<WaveChat> {
    const el = await fixture<WaveChat>(html`<wave-chat open site-id="it"></wave-chat>`);
    el.registerTool('add_scene', {
      description: 'Add a scene.',
      cost: 40,
      confirmLabel: 'Add this scene?',
      summary: () => 'Added scene',
      handler: () => {
        runs++;
        return { success: true, scene: runs };
      },
    });
    return el;
  }

  it('a scripted click never confirms; a real click runs the tool once and shows the receipt', async () => {
    const el = await chatWithSceneTool();
    const shown: string[] = [];
    el.addEventListener('wave-confirmation-shown', (e) => shown.push(e.detail.request.label ?? ''));
    const result = el.callTool('add_scene', {});
    const chip = await waitFor(() => chips(el).find((c) => inChip(c, 'confirm-button')), 'confirmation chip');
    expect(shown).to.deep.equal(['Add this scene?']);
    expect(inChip(chip, 'approve-button')).to.exist;

    inChip(chip, 'confirm-button')!.click();
    await nextFrame();
    expect(runs).to.equal(0);
    expect(inChip(chip, 'confirm-button')).to.exist;

    const succeeded = new Promise<string>((r) => el.addEventListener('wave-tool-call-succeeded', (e) => r(e.detail.outcome.label), { once: true }));
    await realClick(inChip(chip, 'confirm-button')!);
    expect(await result).to.deep.include({ success: true, scene: 1 });
    expect(await succeeded).to.equal('Added scene');
    expect(runs).to.equal(1);
    await waitFor(() => inChip(chips(el)[0]!, 'status')?.textContent?.includes('Added scene · −40 cr'), 'receipt');
  });

  it('a page script holding the element\'s session cannot confirm, grant or revoke: it needs a live, trusted DOM event', async () => {
    const el = await chatWithSceneTool();
    let requestId = '';
    el.addEventListener('wave-confirmation-shown', (e) => (requestId = e.detail.request.id));
    const result = el.callTool('add_scene', {});
    const chip = await waitFor(() => chips(el).find((c) => inChip(c, 'confirm-button')), 'confirmation chip');
    const literal = { isTrusted: true, source: 'pointer' } as const;
    const synthetic = { ...literal, event: new MouseEvent('click') };
    const lookalike = { ...literal, event: Object.create(MouseEvent.prototype) as Event };
    expect(el.session.answerConfirmation(requestId, 'confirm', literal)).to.equal(false);
    expect(el.session.answerConfirmation(requestId, 'approve-session', synthetic)).to.equal(false);
    expect(el.session.answerConfirmation(requestId, 'confirm', lookalike)).to.equal(false);
    expect((el.session as WaveSession).approveSpending(literal)).to.equal(false);
    expect(el.state.grant.active).to.equal(false);
    // A trusted click kept and replayed after its dispatch is refused too.
    let kept: Event | null = null;
    document.addEventListener('click', (e) => (kept = e), { once: true, capture: true });
    await realClick(document.body);
    expect(kept).to.not.equal(null);
    expect(el.session.answerConfirmation(requestId, 'confirm', { ...literal, event: kept! } as typeof literal)).to.equal(false);
    await nextFrame();
    expect(runs).to.equal(0);
    await realClick(inChip(chip, 'confirm-button')!);
    expect(await result).to.deep.include({ success: true, scene: 1 });
  });

  it('Escape cancels: the handler never runs and the chip reads cancelled', async () => {
    const el = await chatWithSceneTool();
    const result = el.callTool('add_scene', {});
    await waitFor(() => chips(el).find((c) => inChip(c, 'confirm-button')), 'confirmation chip');
    await nextFrame();
    await sendKeys({ press: 'Escape' });
    const r = await result;
    expect(r.success).to.equal(false);
    expect(runs).to.equal(0);
    // The visitor's own no: declined, and the chip reads cancelled (SPEC §5).
    const declined = await waitFor(() => chips(el)[0]!.shadowRoot!.querySelector('[data-status="declined"]'), 'declined chip');
    expect(declined.querySelector('[part~="status"]')!.textContent!.trim()).to.match(/^Cancelled: /);
  });

  it('Approve for this session: the pill shows the spend, later calls skip asking, a tap revokes', async () => {
    const el = await chatWithSceneTool();
    const first = el.callTool('add_scene', {});
    const chip = await waitFor(() => chips(el).find((c) => inChip(c, 'approve-button')), 'approve button');
    await realClick(inChip(chip, 'approve-button')!);
    await first;
    const pill = el.shadowRoot!.querySelector<Updatable>('wave-header-pill')!;
    await waitFor(() => pill.shadowRoot!.textContent?.includes('Spending approved · 40 cr · tap to stop'), 'pill at 40');

    await el.callTool('add_scene', {});
    expect(runs).to.equal(2);
    await waitFor(() => pill.shadowRoot!.textContent?.includes('Spending approved · 80 cr · tap to stop'), 'pill at 80');
    expect(chips(el).every((c) => !inChip(c, 'confirm-button'))).to.equal(true);

    const revoked = new Promise<boolean>((r) => el.addEventListener('wave-grant-revoked', (e) => r(!e.detail.grant.active), { once: true }));
    await realClick(pill.shadowRoot!.querySelector('[part~="pill"]')!);
    expect(await revoked).to.equal(true);
    await waitFor(() => pill.hidden, 'pill hidden');
  });

  it('closing the chat cancels an outstanding confirmation', async () => {
    const el = await chatWithSceneTool();
    const result = el.callTool('add_scene', {});
    await waitFor(() => chips(el).find((c) => inChip(c, 'confirm-button')), 'confirmation chip');
    el.hide();
    const r = await result;
    expect(r.success).to.equal(false);
    expect(runs).to.equal(0);
  });

  describe('no invisible confirmation (a page calling callTool while the panel is closed)', () => {
    async function closedChat(attrs: 'opens' | 'stays'): Promise<WaveChat> {
      const el =
        attrs === 'opens'
          ? await fixture<WaveChat>(html`<wave-chat site-id="it"></wave-chat>`)
          : await fixture<WaveChat>(html`<wave-chat site-id="it" confirm-opens="false"></wave-chat>`);
      el.registerTool('add_scene', { description: 'Add a scene.', cost: 40, confirmLabel: 'Add this scene?', handler: () => ({ scene: ++runs }) });
      return el;
    }
    const deepActive = () => {
      let a: Element | null = document.activeElement;
      while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
      return a;
    };

    it('opens the panel on the chip; a real click confirms; focus then returns to the composer', async () => {
      const el = await closedChat('opens');
      expect(el.open).to.equal(false);
      const result = el.callTool('add_scene', {});
      const chip = await waitFor(() => chips(el).find((c) => inChip(c, 'confirm-button')), 'confirmation chip');
      expect(el.open, 'the panel opened for the confirmation').to.equal(true);
      await waitFor(() => deepActive() === inChip(chip, 'chip'), 'focus on the chip');
      await realClick(inChip(chip, 'confirm-button')!);
      expect(await result).to.deep.include({ success: true, scene: 1 });
      const composer = el.shadowRoot!.querySelector('wave-composer')!;
      await waitFor(() => deepActive() === composer.shadowRoot!.querySelector('textarea'), 'focus back in the composer');
    });

    it('with confirm-opens="false" the call waits behind a badged launcher, announced; opening shows the chip', async () => {
      const el = await closedChat('stays');
      const result = el.callTool('add_scene', {});
      await waitFor(() => el.shadowRoot!.querySelector('[part~="launcher-badge"]'), 'launcher badge');
      expect(el.open).to.equal(false);
      expect(el.shadowRoot!.querySelector('[role="status"]')!.textContent).to.contain('waiting for your confirmation');
      expect(runs).to.equal(0);
      await realClick(el.shadowRoot!.querySelector('[part~="launcher"]')!);
      const chip = await waitFor(() => chips(el).find((c) => inChip(c, 'confirm-button')), 'confirmation chip');
      await waitFor(() => deepActive() === inChip(chip, 'chip'), 'focus on the chip');
      await realClick(inChip(chip, 'confirm-button')!);
      expect(await result).to.deep.include({ success: true, scene: 1 });
      expect(el.shadowRoot!.querySelector('[part~="launcher-badge"]') === null).to.equal(true);
    });
  });
});
