/**
 * `<wave-chat floating>` on a phone (Chromium only: the mobile layout and visual viewports are
 * emulated over CDP by the `emulate-phone` command of web-test-runner.config.mjs).
 */
import { expect, fixture, html } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import '../../components/define.js';
import { WaveChat } from '../../components/wave-chat.js';
import { ConversationStatus, type TranscriptItem } from '../../src/agent/types.js';
import { FakeSession, awaitingChip } from './fake-session.js';
import { until } from '../helpers/until.js';

const originalFactory = WaveChat.createSession;
const q = <T extends Element = HTMLElement>(el: Element | null, selector: string): T | null => el?.shadowRoot?.querySelector<T>(selector) ?? null;
const sessionOf = (el: WaveChat) => el.session as FakeSession;
const msg = (id: string, role: 'user' | 'assistant', text: string): TranscriptItem => ({ kind: 'message', id, role, text, streaming: false });
const inner = q;
const composerOf = (el: WaveChat) => q(el, 'wave-composer') as HTMLElement & { updateComplete: Promise<unknown> };
const transcriptOf = (el: WaveChat) => q(el, 'wave-transcript') as HTMLElement & { updateComplete: Promise<unknown> };

async function settled(el: WaveChat): Promise<void> {
  await el.updateComplete;
  await composerOf(el).updateComplete;
  await transcriptOf(el).updateComplete;
  const chips = [...transcriptOf(el).shadowRoot!.querySelectorAll<HTMLElement & { updateComplete: Promise<unknown> }>('wave-tool-chip')];
  await Promise.all(chips.map((c) => c.updateComplete));
}
const within = (r: DOMRect, box: { left: number; top: number; right: number; bottom: number }, what: string) => {
  expect(r.width > 0 && r.height > 0, `${what} is shown`).to.equal(true);
  expect(r.left >= box.left - 0.5 && r.top >= box.top - 0.5, `${what} starts on screen (${r.left},${r.top})`).to.equal(true);
  expect(r.right <= box.right + 0.5 && r.bottom <= box.bottom + 0.5, `${what} ends on screen (${r.right},${r.bottom} of ${box.right},${box.bottom})`).to.equal(true);
};
const visualBox = () => {
  const vv = window.visualViewport!;
  return { left: vv.offsetLeft, top: vv.offsetTop, right: vv.offsetLeft + vv.width, bottom: vv.offsetTop + vv.height };
};

describe('<wave-chat floating> on a phone', () => {
  beforeEach(() => {
    WaveChat.createSession = () => new FakeSession();
  });
  afterEach(async () => {
    WaveChat.createSession = originalFactory;
    await executeServerCommand('emulate-phone', null);
  });

  /** The emulated phone has reached the page: its visual viewport is `width` CSS px wide. */
  const viewportIs = (width: number) => until(() => Math.abs(window.visualViewport!.width - width) < 1, `a ${width} px wide visual viewport`);
  /** The open panel's layout has settled inside the current visual viewport (checked in detail below). */
  const panelFollows = (el: WaveChat) =>
    until(() => {
      const r = q(el, '[part~="panel"]')?.getBoundingClientRect();
      const b = visualBox();
      return !!r && r.width > 0 && r.left >= b.left - 0.5 && r.top >= b.top - 0.5 && r.right <= b.right + 0.5 && r.bottom <= b.bottom + 0.5;
    }, 'the open panel laid out within the visual viewport');

  async function wideFloatingPage() {
    const meta = document.createElement('meta');
    meta.name = 'viewport';
    meta.content = 'width=device-width, initial-scale=1';
    document.head.append(meta);
    const page = await fixture<HTMLElement>(html`<div>
      <div style="width: 404px; height: 10px"></div>
      <wave-chat floating></wave-chat>
    </div>`);
    return { el: page.querySelector('wave-chat') as WaveChat, done: () => meta.remove() };
  }

  it('at 390×844 on a page wider than the screen, the panel, Send/Stop and a chip are fully on screen', async () => {
    const { el, done } = await wideFloatingPage();
    try {
      await executeServerCommand('emulate-phone', { width: 390, height: 844, scale: 1 });
      await viewportIs(390);
      const probe = document.createElement('div');
      probe.style.cssText = 'position: fixed; inset: 0';
      document.body.append(probe);
      const layout = probe.getBoundingClientRect();
      probe.remove();
      expect(layout.width, 'the page is wider than the screen (the layout viewport grew)').to.be.greaterThan(window.visualViewport!.width);
      el.open = true;
      sessionOf(el).update({ status: ConversationStatus.runningTools, items: [msg('1', 'user', 'buy it'), awaitingChip('c1')] });
      await settled(el);
      await panelFollows(el);
      const box = visualBox();
      within(q(el, '[part~="panel"]')!.getBoundingClientRect(), box, 'panel');
      const composer = composerOf(el);
      within(inner(composer, '[part~="send-button"]')!.getBoundingClientRect(), box, 'Send');
      within(inner(composer, '[part~="stop-button"]')!.getBoundingClientRect(), box, 'Stop');
      const chip = transcriptOf(el).shadowRoot!.querySelector('wave-tool-chip')!;
      for (const part of ['confirm-button', 'cancel-button', 'approve-button']) within(inner(chip, `[part~="${part}"]`)!.getBoundingClientRect(), box, part);
    } finally {
      done();
    }
  });

  it('pinch-zoomed in, the panel follows the visual viewport', async () => {
    const { el, done } = await wideFloatingPage();
    try {
      await executeServerCommand('emulate-phone', { width: 390, height: 844, scale: 2 });
      await viewportIs(195);
      el.open = true;
      await settled(el);
      await panelFollows(el);
      expect(window.visualViewport!.width).to.be.lessThan(200);
      within(q(el, '[part~="panel"]')!.getBoundingClientRect(), visualBox(), 'panel');
      within(inner(composerOf(el), '[part~="send-button"]')!.getBoundingClientRect(), visualBox(), 'Send');
    } finally {
      done();
    }
  });
});
