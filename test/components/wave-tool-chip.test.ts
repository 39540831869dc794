import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import './define-parts.js';
import { CONFIRM_SETTLE_MS, type WaveToolChip } from '../../components/wave-tool-chip.js';
import { ChipStatus } from '../../src/agent/types.js';
import { FakeSession, awaitingChip, realClick } from './fake-session.js';
import { fakePerformanceNow } from '../helpers/fake-clock.js';

function part(el: WaveToolChip, name: string): HTMLElement | null {
  return el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
}

describe('<wave-tool-chip>', () => {
  describe('rendering', () => {
    it('shows the running label with a spinner', async () => {
      const el = await fixture<WaveToolChip>(
        html`<wave-tool-chip .item=${{ kind: 'tool', id: 'a', name: 'add', status: ChipStatus.running, label: 'Adding task…' }}></wave-tool-chip>`,
      );
      expect(part(el, 'status')!.textContent).to.contain('Adding task…');
      expect(el.shadowRoot!.querySelector('.spinner')).to.exist;
      expect(part(el, 'confirm-button')).to.equal(null);
    });

    it('a call asked in another tab (SPEC §13) says where to answer and has no buttons here', async () => {
      const el = await fixture<WaveToolChip>(
        html`<wave-tool-chip
          .item=${{ kind: 'tool', id: 'a', name: 'add_task', title: 'Add task', status: ChipStatus.awaitingConfirmation, elsewhere: { tab: 'Task board', waiting: true } }}
        ></wave-tool-chip>`,
      );
      expect(part(el, 'status')!.textContent!.trim()).to.equal('Confirm Add task in the tab “Task board”.');
      expect(part(el, 'confirm-button')).to.equal(null);
      expect(part(el, 'cancel-button')).to.equal(null);
    });

    it('a call asked for by the conversation in another tab says so under its question, buttons and all', async () => {
      const item = { ...awaitingChip('c1', { toolName: 'delete_task', title: 'Delete task' }), fromTab: 'Shop' };
      const el = await fixture<WaveToolChip>(html`<wave-tool-chip .item=${item}></wave-tool-chip>`);
      expect(part(el, 'chip-origin')!.textContent!.trim()).to.equal('Asked from the tab “Shop”');
      expect(part(el, 'confirm-button')).to.exist;
    });

    it('names the tool by its readable title (and key argument) when running without a label', async () => {
      const el = await fixture<WaveToolChip>(
        html`<wave-tool-chip .item=${{ kind: 'tool', id: 'a', name: 'get_tasks', status: ChipStatus.running }}></wave-tool-chip>`,
      );
      expect(part(el, 'status')!.textContent!.trim()).to.equal('Get tasks…');
      el.item = { kind: 'tool', id: 'a', name: 'add_task', title: 'Add task', subject: 'Milk', status: ChipStatus.running };
      await el.updateComplete;
      expect(part(el, 'status')!.textContent!.trim()).to.equal('Add task “Milk”…');
    });

    it('a default confirmation names what is approved: title, key argument, cost; no raw tool name', async () => {
      const paid = awaitingChip('c1', { toolName: 'buy_wave_sticker_pack', title: 'Buy wave sticker pack', cost: 30 });
      delete paid.confirmation!.label;
      delete paid.label;
      const el = await fixture<WaveToolChip>(html`<wave-tool-chip .item=${paid}></wave-tool-chip>`);
      expect(part(el, 'status')!.textContent!.trim()).to.equal('Buy wave sticker pack · 30 cr?');
      expect(el.shadowRoot!.querySelector('.cost'), 'the cost is in the question').to.equal(null);
      expect(el.shadowRoot!.textContent).to.not.contain('buy_wave_sticker_pack');

      const del = awaitingChip('c2', { toolName: 'delete_task', title: 'Delete task', subject: 'Draft launch email', cost: 0, offersSessionApproval: false });
      delete del.confirmation!.label;
      delete del.label;
      el.item = del;
      await el.updateComplete;
      expect(part(el, 'status')!.textContent!.trim()).to.equal('Delete task “Draft launch email”?');

      // The receipt uses the same words.
      el.item = { kind: 'tool', id: 'c1', name: 'buy_wave_sticker_pack', title: 'Buy wave sticker pack', status: ChipStatus.succeeded, spent: 30 };
      await el.updateComplete;
      expect(part(el, 'status')!.textContent!.trim()).to.equal('Done: Buy wave sticker pack · −30 cr');
    });

    it('shows the summary with a receipt in the configured unit', async () => {
      const el = await fixture<WaveToolChip>(
        html`<wave-tool-chip
          cost-unit="pts"
          .item=${{ kind: 'tool', id: 'a', name: 'add_scene', status: ChipStatus.succeeded, label: 'Added scene', spent: 40 }}
        ></wave-tool-chip>`,
      );
      expect(part(el, 'status')!.textContent!.trim()).to.equal('Added scene · −40 pts');
    });

    it('shows no receipt for a free tool', async () => {
      const el = await fixture<WaveToolChip>(
        html`<wave-tool-chip .item=${{ kind: 'tool', id: 'a', name: 'x', status: ChipStatus.succeeded, label: 'Read 3 tasks' }}></wave-tool-chip>`,
      );
      expect(part(el, 'status')!.textContent!.trim()).to.equal('Read 3 tasks');
    });

    it('renders a failure red with the handler\'s error text', async () => {
      const el = await fixture<WaveToolChip>(
        html`<wave-tool-chip .item=${{ kind: 'tool', id: 'a', name: 'delete_task', status: ChipStatus.failed, failure: 'handler', error: 'No task with that id' }}></wave-tool-chip>`,
      );
      const chip = part(el, 'chip')!;
      expect(chip.dataset.status).to.equal('failed');
      expect(part(el, 'status')!.textContent!.trim()).to.equal('Delete task failed: No task with that id');
      expect(getComputedStyle(chip).color).to.equal('rgb(207, 34, 46)');
    });

    it('words each kind of failure from its labels, never from the model-facing text', async () => {
      const cases: Array<[string, string]> = [
        ['timeout', "Sync didn't answer in time. It may or may not have happened."],
        ['unknown-tool', 'Sync is not available on this page.'],
        ['unreadable-cost', 'Sync is unavailable right now.'],
        ['handler', 'Sync failed.'],
      ];
      for (const [failure, text] of cases) {
        const el = await fixture<WaveToolChip>(
          html`<wave-tool-chip .item=${{ kind: 'tool', id: 'a', name: 'sync', status: ChipStatus.failed, failure }}></wave-tool-chip>`,
        );
        expect(part(el, 'status')!.textContent!.trim(), failure).to.equal(text);
      }
    });

    it('reads as cancelled, naming the action', async () => {
      const el = await fixture<WaveToolChip>(
        html`<wave-tool-chip .item=${{ kind: 'tool', id: 'a', name: 'empty_cart', status: ChipStatus.cancelled }}></wave-tool-chip>`,
      );
      expect(part(el, 'status')!.textContent!.trim()).to.equal('Cancelled: Empty cart');
    });

    it('shows a built-in tool by its label, not its name', async () => {
      const el = await fixture<WaveToolChip>(
        html`<wave-tool-chip .item=${{ kind: 'tool', id: 'a', name: 'read_page', title: 'Read page', builtin: true, status: ChipStatus.running }}></wave-tool-chip>`,
      );
      expect(part(el, 'status')!.textContent!.trim()).to.equal('Read the page…');
    });

    it('shows question, cost line, Confirm, Cancel and Approve for this session', async () => {
      const el = await fixture<WaveToolChip>(html`<wave-tool-chip .item=${awaitingChip('c1')}></wave-tool-chip>`);
      expect(part(el, 'status')!.textContent).to.contain('Add this scene?');
      expect(el.shadowRoot!.querySelector('.cost')!.textContent).to.contain('40 cr');
      expect(part(el, 'confirm-button')!.textContent!.trim()).to.equal('Confirm');
      expect(part(el, 'cancel-button')!.textContent!.trim()).to.equal('Cancel');
      expect(part(el, 'approve-button')!.textContent!.trim()).to.equal('Approve for this session');
    });

    it('omits session approval when the request does not offer it (tier3)', async () => {
      const el = await fixture<WaveToolChip>(
        html`<wave-tool-chip .item=${awaitingChip('c1', { tier3: true, offersSessionApproval: false })}></wave-tool-chip>`,
      );
      expect(part(el, 'confirm-button')).to.exist;
      expect(part(el, 'approve-button')).to.equal(null);
    });

    it('shows the running total on the grant re-ask', async () => {
      const el = await fixture<WaveToolChip>(
        html`<wave-tool-chip
          .item=${awaitingChip('c1', { offersSessionApproval: false, grantRunningTotal: 180, grantCap: 200 })}
        ></wave-tool-chip>`,
      );
      expect(part(el, 'status')!.textContent).to.contain("You've spent 180 cr of 200 under this approval.");
      expect(part(el, 'approve-button')).to.equal(null);
    });

    it('uses localised labels', async () => {
      const labels = { ...(await import('../../components/labels.js')).defaultLabels, confirm: 'Bestätigen' };
      const el = await fixture<WaveToolChip>(html`<wave-tool-chip .labels=${labels} .item=${awaitingChip('c1')}></wave-tool-chip>`);
      expect(part(el, 'confirm-button')!.textContent!.trim()).to.equal('Bestätigen');
    });
  });

  describe('interaction', () => {
    it('a real click on Confirm answers with trusted pointer evidence', async () => {
      const session = new FakeSession();
      const el = await fixture<WaveToolChip>(html`<wave-tool-chip .session=${session} .item=${awaitingChip('c1')}></wave-tool-chip>`);
      await realClick(part(el, 'confirm-button')!);
      expect(session.answers).to.have.length(1);
      expect(session.answers[0]).to.deep.include({ id: 'c1', decision: 'confirm', accepted: true });
      expect(session.answers[0]!.evidence).to.deep.equal({ isTrusted: true, source: 'pointer' });
    });

    it('a page script calling .click() never confirms (isTrusted false)', async () => {
      const session = new FakeSession();
      const el = await fixture<WaveToolChip>(html`<wave-tool-chip .session=${session} .item=${awaitingChip('c1')}></wave-tool-chip>`);
      part(el, 'confirm-button')!.click();
      part(el, 'approve-button')!.click();
      expect(session.answers.map((a) => a.evidence.isTrusted)).to.deep.equal([false, false]);
      expect(session.answers.every((a) => !a.accepted)).to.equal(true);
    });

    it('a real click on Cancel and on Approve send those decisions', async () => {
      const session = new FakeSession();
      const el = await fixture<WaveToolChip>(html`<wave-tool-chip .session=${session} .item=${awaitingChip('c1')}></wave-tool-chip>`);
      await realClick(part(el, 'cancel-button')!);
      await realClick(part(el, 'approve-button')!);
      expect(session.answers.map((a) => a.decision)).to.deep.equal(['cancel', 'approve-session']);
      expect(session.answers.every((a) => a.accepted)).to.equal(true);
    });

    it('a new confirmation takes focus; an Enter typed as focus arrives is ignored, a later Enter confirms', async () => {
      // Time since focus is the chip's own performance.now(): faked, so a slow key press cannot
      // land after the delay by accident, nor a fast machine press before it.
      const clock = fakePerformanceNow();
      try {
        const session = new FakeSession();
        const el = await fixture<WaveToolChip>(html`<wave-tool-chip .session=${session} .item=${awaitingChip('c1')}></wave-tool-chip>`);
        expect(el.shadowRoot!.activeElement).to.equal(part(el, 'chip'));
        // An Enter meant for the composer, pressed just as the chip took focus, confirms nothing …
        await sendKeys({ press: 'Enter' });
        // … nor one a moment before the delay is over.
        clock.advance(CONFIRM_SETTLE_MS - 1);
        await sendKeys({ press: 'Enter' });
        expect(session.answers).to.have.length(0);
        clock.advance(1);
        await sendKeys({ press: 'Enter' });
        expect(session.answers).to.have.length(1);
        expect(session.answers[0]).to.deep.include({ decision: 'confirm', accepted: true });
        expect(session.answers[0]!.evidence).to.deep.equal({ isTrusted: true, source: 'keyboard' });
      } finally {
        clock.restore();
      }
    });

    it('Escape cancels from the keyboard', async () => {
      const session = new FakeSession();
      await fixture<WaveToolChip>(html`<wave-tool-chip .session=${session} .item=${awaitingChip('c1')}></wave-tool-chip>`);
      await sendKeys({ press: 'Escape' });
      expect(session.answers.map((a) => [a.decision, a.evidence.source, a.accepted])).to.deep.equal([['cancel', 'keyboard', true]]);
    });

    it('Enter on a focused Cancel button cancels (the button wins, not the group)', async () => {
      const session = new FakeSession();
      const el = await fixture<WaveToolChip>(html`<wave-tool-chip .session=${session} .item=${awaitingChip('c1')}></wave-tool-chip>`);
      part(el, 'cancel-button')!.focus();
      await sendKeys({ press: 'Enter' });
      expect(session.answers.map((a) => [a.decision, a.evidence.source])).to.deep.equal([['cancel', 'keyboard']]);
    });

    it('synthetic keydown events are ignored', async () => {
      const session = new FakeSession();
      const el = await fixture<WaveToolChip>(html`<wave-tool-chip .session=${session} .item=${awaitingChip('c1')}></wave-tool-chip>`);
      part(el, 'chip')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
      part(el, 'chip')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
      expect(session.answers).to.have.length(0);
    });

    it('does not steal focus again for the same confirmation', async () => {
      const item = awaitingChip('c1');
      const el = await fixture<WaveToolChip>(html`<div><button id="other">x</button><wave-tool-chip .item=${item}></wave-tool-chip></div>`);
      const chip = el.querySelector('wave-tool-chip')!;
      el.querySelector<HTMLButtonElement>('#other')!.focus();
      chip.item = { ...item };
      await chip.updateComplete;
      expect(document.activeElement).to.equal(el.querySelector('#other'));
    });
  });

  describe('accessibility', function () {
    // The first axe run in a page loads and compiles axe-core (about 500 KB): on a loaded
    // two-core machine with both browsers running, Firefox took over 10 s once.
    this.timeout(30_000);
    it('is a labelled group with a live outcome', async () => {
      const el = await fixture<WaveToolChip>(
        html`<wave-tool-chip .item=${{ kind: 'tool', id: 'a', name: 'add_task', status: ChipStatus.succeeded, label: 'Added' }}></wave-tool-chip>`,
      );
      expect(part(el, 'chip')!.getAttribute('role')).to.equal('group');
      expect(part(el, 'chip')!.getAttribute('aria-label')).to.equal('Action: Add task');
      expect(part(el, 'status')!.getAttribute('aria-live')).to.equal('polite');
      await expect(el).to.be.accessible();
    });

    it('is axe-clean while awaiting confirmation', async () => {
      const el = await fixture<WaveToolChip>(html`<wave-tool-chip .item=${awaitingChip('c1')}></wave-tool-chip>`);
      await expect(el).to.be.accessible();
    });
  });
});
