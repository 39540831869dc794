import { aTimeout, expect, fixture, html, nextFrame, oneEvent } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import { emulateMedia } from '../helpers/emulate-media.js';
import { fakePerformanceNow } from '../helpers/fake-clock.js';
import { until } from '../helpers/until.js';
import { get } from 'idb-keyval';
import '../../components/define.js';
import { WaveChat } from '../../components/wave-chat.js';
import { CONFIRM_SETTLE_MS } from '../../components/wave-tool-chip.js';
import { WaveTranscript } from '../../components/wave-transcript.js';
import { idbTranscriptStore, type TranscriptStore } from '../../components/transcript-store.js';
import { keptChannelName, transcriptKey } from '../../components/transcript-key.js';
import { ChipStatus, ConversationStatus, type TranscriptItem, type WaveCoreEvent } from '../../src/agent/types.js';
import { FakeSession, activeGrant, awaitingChip, deepActiveElement, realClick } from './fake-session.js';

const originalFactory = WaveChat.createSession;
const originalStore = WaveChat.transcriptStore;
let sessions: FakeSession[] = [];

function q<T extends Element = HTMLElement>(el: WaveChat, selector: string): T | null {
  return el.shadowRoot!.querySelector<T>(selector);
}
const sessionOf = (el: WaveChat) => el.session as FakeSession;
type MessageItem = Extract<TranscriptItem, { kind: 'message' }>;
const msg = (id: string, role: 'user' | 'assistant', text: string): MessageItem => ({ kind: 'message', id, role, text, streaming: false });

/** Every element made in a test gets a fresh FakeSession, kept in `sessions`. */
function useFakeSessions(): void {
  sessions = [];
  WaveChat.createSession = () => {
    const s = new FakeSession();
    sessions.push(s);
    return s;
  };
}

describe('<wave-chat>', () => {
  beforeEach(useFakeSessions);
  afterEach(async () => {
    WaveChat.createSession = originalFactory;
    WaveChat.transcriptStore = originalStore;
    await setViewport({ width: 800, height: 600 });
  });

  describe('rendering', () => {
    it('makes its session once, on first need, so attributes set after creation reach the factory', () => {
      let seenSiteId = '';
      const factory = WaveChat.createSession;
      WaveChat.createSession = (el) => {
        seenSiteId = el.siteId;
        return factory(el);
      };
      const el = document.createElement('wave-chat');
      expect(sessions).to.have.length(0);
      el.setAttribute('site-id', 'shop-7');
      el.getHostToolSchemas();
      el.getHostToolSchemas();
      expect(sessions).to.have.length(1);
      expect(seenSiteId).to.equal('shop-7');
      expect(sessionOf(el).answers, 'the element hands out the factory\'s session (guarded)').to.equal(sessions[0]!.answers);
    });

    describe('launcher first: nothing rendered that is not shown', () => {
      it('renders only the launcher at boot, no transcript, composer, pill or voice bubble', async () => {
        const el = await fixture<WaveChat>(html`<wave-chat></wave-chat>`);
        expect(q(el, '[part~="launcher"]')).to.exist;
        for (const tag of ['wave-transcript', 'wave-composer', 'wave-header-pill', 'wave-voice-bubble', 'header']) {
          expect(q(el, tag), `${tag} before intent`).to.equal(null);
        }
      });

      for (const [intent, act] of [
        ['pointer over the launcher', (b: HTMLElement) => b.dispatchEvent(new PointerEvent('pointerenter'))],
        ['focus on the launcher', (b: HTMLElement) => b.focus()],
        ['a press on the launcher', (b: HTMLElement) => b.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }))],
      ] as const) {
        it(`renders the panel's contents on ${intent}, still closed, and keeps them`, async () => {
          const el = await fixture<WaveChat>(html`<wave-chat></wave-chat>`);
          act(q(el, '[part~="launcher"]')!);
          await el.updateComplete;
          expect(el.open).to.equal(false);
          expect(q(el, 'wave-transcript')).to.exist;
          expect(q(el, 'wave-composer')).to.exist;
          expect(q(el, '[part~="panel"]')!.hidden).to.equal(true);
          el.show();
          await el.updateComplete;
          el.hide();
          await el.updateComplete;
          expect(q(el, 'wave-transcript'), 'kept after closing').to.exist;
        });
      }

      it('renders the panel when open is set, and focuses the composer on that first open', async () => {
        const el = await fixture<WaveChat>(html`<wave-chat></wave-chat>`);
        el.show();
        await el.updateComplete;
        expect(q(el, 'wave-transcript')).to.exist;
        await until(() => el.matches(':focus-within'), 'focus in the composer');
        expect(deepActiveElement()?.tagName).to.equal('TEXTAREA');
      });

      it('a confirmation requested while closed renders and opens the panel on its chip', async () => {
        const el = await fixture<WaveChat>(html`<wave-chat></wave-chat>`);
        expect(q(el, 'wave-transcript')).to.equal(null);
        const s = sessionOf(el);
        s.update({ status: ConversationStatus.runningTools, items: [awaitingChip('c1')] });
        s.emit({ type: 'confirmation-shown', request: awaitingChip('c1').confirmation! });
        await el.updateComplete;
        expect(el.open).to.equal(true);
        const t = q<WaveTranscript>(el, 'wave-transcript')!;
        await t.updateComplete;
        expect(t.shadowRoot!.querySelector('wave-tool-chip')).to.exist;
      });

      it('reads and writes no layout at boot or while closed; scrolls to the newest row on opening', async () => {
        const reads: string[] = [];
        const proto = Element.prototype;
        const heightDesc = Object.getOwnPropertyDescriptor(proto, 'scrollHeight')!;
        const topDesc = Object.getOwnPropertyDescriptor(proto, 'scrollTop')!;
        const rect = proto.getBoundingClientRect;
        const inWidget = (node: Element) => node.closest('wave-chat') !== null || (node.getRootNode() as ShadowRoot).host !== undefined;
        Object.defineProperty(proto, 'scrollHeight', { configurable: true, get(this: Element) { if (inWidget(this)) reads.push('scrollHeight'); return heightDesc.get!.call(this); } });
        Object.defineProperty(proto, 'scrollTop', { configurable: true, get(this: Element) { return topDesc.get!.call(this); }, set(this: Element, v: number) { if (inWidget(this)) reads.push('scrollTop='); topDesc.set!.call(this, v); } });
        proto.getBoundingClientRect = function (this: Element) { if (inWidget(this)) reads.push('getBoundingClientRect'); return rect.call(this); };
        try {
          const el = await fixture<WaveChat>(html`<wave-chat></wave-chat>`);
          const launcher = q(el, '[part~="launcher"]')!;
          launcher.dispatchEvent(new PointerEvent('pointerenter'));
          await el.updateComplete;
          const s = sessionOf(el);
          s.update({ items: Array.from({ length: 40 }, (_, i) => msg(`m${i}`, i % 2 ? 'assistant' : 'user', `line ${i}`)) });
          await el.updateComplete;
          const t = q<WaveTranscript>(el, 'wave-transcript')!;
          await t.updateComplete;
          await nextFrame();
          await nextFrame();
          expect(reads, 'no layout read or write while closed').to.deep.equal([]);
          el.show();
          await el.updateComplete;
          await t.updateComplete;
          // It scrolls on the frame after (no layout inside an update).
          await until(() => reads.includes('scrollTop='), 'the transcript scrolls once shown');
          expect(t.scrollTop, 'at the newest row').to.be.greaterThan(0);
          expect(t.scrollHeight - t.scrollTop - t.clientHeight).to.be.lessThan(2);
        } finally {
          Object.defineProperty(proto, 'scrollHeight', heightDesc);
          Object.defineProperty(proto, 'scrollTop', topDesc);
          proto.getBoundingClientRect = rect;
        }
      });
    });

    it('shows the launcher and hides the panel while closed', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat></wave-chat>`);
      expect(q(el, '[part~="launcher"]')!.getAttribute('aria-expanded')).to.equal('false');
      expect(q(el, '[part~="panel"]')!.hidden).to.equal(true);
      el.open = true;
      await el.updateComplete;
      expect(q(el, '[part~="panel"]')!.hidden).to.equal(false);
      expect(q(el, '[part~="launcher"]')!.getAttribute('aria-expanded')).to.equal('true');
    });

    it('reflects open, floating and theme, and reads site-id, endpoint and cost-unit', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat site-id="s1" endpoint="/wave" cost-unit="pts" floating></wave-chat>`);
      expect([el.siteId, el.endpoint, el.costUnit, el.floating]).to.deep.equal(['s1', '/wave', 'pts', true]);
      expect(el.getAttribute('theme')).to.equal('auto');
      // Opening GETs the endpoint for the model label (made in the update itself): answered here
      // as a server without that GET would, so the dev server logs no 404 for a test about attributes.
      const original = window.fetch;
      window.fetch = async () => new Response('', { status: 404 });
      try {
        el.show();
        await el.updateComplete;
      } finally {
        window.fetch = original;
      }
      expect(el.hasAttribute('open')).to.equal(true);
      expect(getComputedStyle(q(el, '[part~="launcher"]')!).position).to.equal('fixed');
    });

    it('labels the offline demo model, or shows the model name', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat open></wave-chat>`);
      sessionOf(el).update({ model: { name: 'offline demo model', offline: true } });
      await el.updateComplete;
      expect(q(el, '[part~="header"]')!.textContent).to.contain('Offline demo model');
      sessionOf(el).update({ model: { name: 'gpt-x', offline: false } });
      await el.updateComplete;
      expect(q(el, '[part~="header"]')!.textContent).to.contain('gpt-x');
      expect(q(el, '[part~="header"]')!.textContent).not.to.contain('Offline demo model');
    });

    it('shows the grant pill live from the session state', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat open cost-unit="cr"></wave-chat>`);
      const pill = q(el, 'wave-header-pill')!;
      expect(pill.hidden).to.equal(true);
      sessionOf(el).update({ grant: activeGrant(80) });
      await el.updateComplete;
      await (pill as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
      expect(pill.shadowRoot!.textContent).to.contain('Spending approved · 80 cr · tap to stop');
    });

    it('renders the session items in the transcript and re-renders on change', async () => {
      await WaveTranscript.markdownReady();
      const el = await fixture<WaveChat>(html`<wave-chat open></wave-chat>`);
      sessionOf(el).update({ items: [msg('1', 'user', 'hi'), msg('2', 'assistant', '**yo**')] });
      await el.updateComplete;
      const t = q(el, 'wave-transcript')! as HTMLElement & { updateComplete: Promise<unknown> };
      // The Markdown renderer is a lazy chunk: wait for it, not for a guess at how long it takes.
      await (customElements.get('wave-transcript') as unknown as { markdownReady(): Promise<void> }).markdownReady();
      await t.updateComplete;
      // The Markdown renderer is a lazy chunk: under load it may arrive after the first render.
      await until(() => t.shadowRoot!.querySelector('strong'), 'the Markdown rendered');
      expect(t.shadowRoot!.querySelector('strong')!.textContent).to.equal('yo');
    });

    it('applies localised labels', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat open .labels=${{ title: 'Assistent', send: 'Senden' }}></wave-chat>`);
      expect(q(el, '.title')!.textContent).to.equal('Assistent');
      const composer = q(el, 'wave-composer')!;
      expect(composer.shadowRoot!.querySelector('[part~="send-button"]')!.textContent!.trim()).to.equal('Senden');
    });

    it('takes the full width of a narrow phone when floating', async () => {
      await setViewport({ width: 400, height: 700 });
      const el = await fixture<WaveChat>(html`<wave-chat floating open></wave-chat>`);
      const rect = q(el, '[part~="panel"]')!.getBoundingClientRect();
      expect(rect.width).to.equal(400);
    });

    it('switches to dark tokens with theme="dark"', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat open theme="dark"></wave-chat>`);
      expect(getComputedStyle(q(el, '[part~="panel"]')!).backgroundColor).to.equal('rgb(22, 24, 29)');
      el.theme = 'light';
      await el.updateComplete;
      expect(getComputedStyle(q(el, '[part~="panel"]')!).backgroundColor).to.equal('rgb(255, 255, 255)');
    });

    it('follows a dark colour scheme with theme="auto" (the same dark tokens), and theme="light" overrides it', async () => {
      await emulateMedia({ colorScheme: 'dark' });
      try {
        const el = await fixture<WaveChat>(html`<wave-chat open></wave-chat>`);
        expect(getComputedStyle(q(el, '[part~="panel"]')!).backgroundColor).to.equal('rgb(22, 24, 29)');
        el.theme = 'light';
        await el.updateComplete;
        expect(getComputedStyle(q(el, '[part~="panel"]')!).backgroundColor).to.equal('rgb(255, 255, 255)');
      } finally {
        await emulateMedia({ colorScheme: null });
      }
    });

    it('honours --wave-* custom properties', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat open theme="light" style="--wave-surface: rgb(1, 2, 3)"></wave-chat>`);
      expect(getComputedStyle(q(el, '[part~="panel"]')!).backgroundColor).to.equal('rgb(1, 2, 3)');
    });
  });

  describe('interaction', () => {
    it('a real click on the launcher toggles open; closing calls session.close()', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat></wave-chat>`);
      await realClick(q(el, '[part~="launcher"]')!);
      await el.updateComplete;
      expect(el.open).to.equal(true);
      expect(sessionOf(el).calls).to.not.include('close');
      await realClick(q(el, '[part~="launcher"]')!);
      await el.updateComplete;
      expect(el.open).to.equal(false);
      expect(sessionOf(el).calls).to.include('close');
    });

    it('show(), hide() and toggle() drive open; the close button hides', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat></wave-chat>`);
      el.toggle();
      expect(el.open).to.equal(true);
      el.hide();
      expect(el.open).to.equal(false);
      el.show();
      await el.updateComplete;
      await realClick(q(el, '[part~="close-button"]')!);
      await el.updateComplete;
      expect(el.open).to.equal(false);
      expect(sessionOf(el).calls.filter((c) => c === 'close')).to.have.length(1);
    });

    it('typing and Enter in the composer sends through the session', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat></wave-chat>`);
      el.show();
      await el.updateComplete;
      await until(() => deepActiveElement()?.tagName === 'TEXTAREA', 'focus in the composer');
      await sendKeys({ type: 'add a task' });
      await sendKeys({ press: 'Enter' });
      expect(sessionOf(el).sent).to.deep.equal(['add a task']);
    });

    it('Stop shows while streaming and stops the session', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat open></wave-chat>`);
      sessionOf(el).update({ status: ConversationStatus.streaming });
      await el.updateComplete;
      const composer = q(el, 'wave-composer')! as HTMLElement & { updateComplete: Promise<unknown> };
      await composer.updateComplete;
      await realClick(composer.shadowRoot!.querySelector('[part~="stop-button"]')!);
      expect(sessionOf(el).calls).to.include('stop');
    });

    it('restart button restarts the session', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat open></wave-chat>`);
      await realClick(q(el, '[part~="restart-button"]')!);
      expect(sessionOf(el).calls).to.include('restart');
    });

    it('a new confirmation in the open chat takes focus and confirms with Enter', async () => {
      // Enter confirms once the chip has held focus a moment: the chip's clock is faked, so the
      // press comes after that moment on any machine, and only then.
      const clock = fakePerformanceNow();
      try {
        const el = await fixture<WaveChat>(html`<wave-chat open></wave-chat>`);
        sessionOf(el).update({ items: [awaitingChip('c1')] });
        await el.updateComplete;
        const chip = () => q<WaveTranscript>(el, 'wave-transcript')?.shadowRoot?.querySelector('wave-tool-chip');
        await until(() => chip()?.shadowRoot?.activeElement?.matches('[part~="chip"]'), 'the new chip took focus');
        clock.advance(CONFIRM_SETTLE_MS);
        await sendKeys({ press: 'Enter' });
        expect(sessionOf(el).answers.map((a) => [a.id, a.decision, a.accepted])).to.deep.equal([['c1', 'confirm', true]]);
      } finally {
        clock.restore();
      }
    });
  });

  describe('page tools API', () => {
    it('delegates every method to its session unchanged', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat></wave-chat>`);
      const handler = () => ({ ok: 1 });
      expect(el.registerTool('a', { handler })).to.equal(true);
      expect(el.registerTools({ b: { handler } })).to.equal(1);
      expect(el.getHostToolSchemas().map((s) => s.name)).to.deep.equal(['a', 'b']);
      expect(el.unregisterTool('a')).to.equal(true);
      expect(await el.callTool('b', { x: 1 })).to.deep.equal({ success: true, name: 'b', args: { x: 1 } });
      el.setContext({ page: 1 });
      await el.send('hi');
      el.stop();
      el.restart();
      expect(sessionOf(el).context).to.deep.equal({ page: 1 });
      expect(sessionOf(el).calls).to.deep.equal([
        'registerTool:a',
        'registerTool:b',
        'unregisterTool:a',
        'callTool:b',
        'setContext',
        'send',
        'stop',
        'restart',
      ]);
    });

    it('each element has its own session', async () => {
      await fixture(html`<div><wave-chat></wave-chat><wave-chat></wave-chat></div>`);
      expect(sessions).to.have.length(2);
      expect(sessions[0]).to.not.equal(sessions[1]);
    });
  });

  describe('events', () => {
    const all: WaveCoreEvent[] = [
      { type: 'tool-call-requested', callId: 'c', name: 'n', args: { a: 1 } },
      { type: 'tool-call-started', callId: 'c', name: 'n', attempt: 1 },
      { type: 'tool-call-succeeded', outcome: { callId: 'c', name: 'n', status: 'succeeded', result: { success: true }, label: 'ok', attempts: 1 } },
      { type: 'tool-call-failed', outcome: { callId: 'c', name: 'n', status: 'failed', result: { success: false }, label: 'x', attempts: 3 } },
      { type: 'tool-call-cancelled', outcome: { callId: 'c', name: 'n', status: 'cancelled', result: { success: false }, label: 'Cancelled', attempts: 0 } },
      { type: 'confirmation-shown', request: awaitingChip('c').confirmation! },
      { type: 'confirmation-answered', id: 'c', decision: 'confirm', source: 'pointer' },
      { type: 'grant-started', grant: activeGrant(0) },
      { type: 'grant-raised', grant: activeGrant(200, 400) },
      { type: 'grant-revoked', grant: activeGrant(0) },
      { type: 'grant-expired', grant: activeGrant(0) },
      { type: 'message-sent', text: 'hi' },
      { type: 'message-received', text: 'hello' },
      { type: 'voice-started', engine: 'browser' },
      { type: 'voice-ended', engine: 'browser', reason: 'visitor' },
    ];

    it('re-dispatches every core event as a bubbling, composed wave-* event with its detail', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat></wave-chat>`);
      for (const core of all) {
        const name = `wave-${core.type}`;
        const seen = oneEvent(document, name);
        sessionOf(el).emit(core);
        const ev = (await seen) as CustomEvent;
        const { type: _t, ...detail } = core;
        expect(ev.bubbles && ev.composed, name).to.equal(true);
        expect(ev.target).to.equal(el);
        expect(ev.detail, name).to.deep.equal(detail);
      }
    });

    it('unsubscribes from the session when removed', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat></wave-chat>`);
      expect(sessionOf(el).listenerCount).to.equal(1);
      el.remove();
      expect(sessionOf(el).listenerCount).to.equal(0);
    });
  });

  describe('voice', () => {
    it('voice-started hides the transcript and shows the bubble mirroring the latest chip', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat open></wave-chat>`);
      const s = sessionOf(el);
      s.update({ items: [msg('1', 'user', 'add'), { kind: 'tool', id: 't', name: 'add_scene', status: ChipStatus.succeeded, label: 'Added scene', spent: 40 }] });
      s.emit({ type: 'voice-started', engine: 'browser' });
      await el.updateComplete;
      expect(el.voice).to.equal(true);
      expect(q(el, 'wave-transcript')!.hidden).to.equal(true);
      expect(q(el, 'wave-transcript')).to.exist;
      const bubble = q(el, 'wave-voice-bubble')! as HTMLElement & { updateComplete: Promise<unknown> };
      await bubble.updateComplete;
      expect(bubble.shadowRoot!.querySelector('[part~="status"]')!.textContent).to.contain('Added scene · −40 cr');
      s.update({ items: [...s.state.items, awaitingChip('c2')] });
      await el.updateComplete;
      await bubble.updateComplete;
      expect(bubble.shadowRoot!.querySelector('wave-tool-chip')).to.exist;
      s.emit({ type: 'voice-ended', engine: 'browser', reason: 'visitor' });
      await el.updateComplete;
      expect(q(el, 'wave-voice-bubble')).to.equal(null);
      expect(q(el, 'wave-transcript')!.hidden).to.equal(false);
    });
  });

  describe('persist-transcript', () => {
    it('is off by default: nothing is written', async () => {
      const saved: unknown[] = [];
      const read: unknown[] = [];
      // An immediate store: were persisting on, its read and the write after it would be done
      // within the macrotask awaited below (IndexedDB's own pace could hide a write).
      WaveChat.transcriptStore = {
        ...idbTranscriptStore,
        load: async (k) => (read.push(k), []),
        save: async (k, items) => void saved.push([k, items]),
      };
      const el = await fixture<WaveChat>(html`<wave-chat></wave-chat>`);
      sessionOf(el).update({ items: [msg('1', 'user', 'hi')] });
      await el.updateComplete;
      await aTimeout(0);
      expect(read, 'nothing read').to.deep.equal([]);
      expect(saved, 'nothing written').to.deep.equal([]);
    });

    it('never overwrites the kept conversation with a state change that comes before it is read', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const kept = [msg('k1', 'user', 'kept question'), msg('k2', 'assistant', 'kept answer')];
      const saves: string[][] = [];
      let firstSave!: () => void;
      const saved = new Promise<void>((r) => (firstSave = r));
      WaveChat.transcriptStore = {
        ...idbTranscriptStore,
        // A slow read (a lazy chunk, a busy IndexedDB) …
        load: async () => {
          await gate;
          return kept;
        },
        save: async (_k, items) => {
          saves.push(items.map((i) => i.id));
          firstSave();
        },
      };
      const el = await fixture<WaveChat>(html`<wave-chat site-id="race" persist-transcript open></wave-chat>`);
      // … while the page's own state changes first (the model label, a new message).
      sessionOf(el).update({ items: [msg('n1', 'user', 'new question')] });
      await aTimeout(0);
      expect(saves, 'nothing written before the kept conversation was read').to.deep.equal([]);
      release();
      await saved;
      expect(saves[0], 'the first write holds the kept rows, then the new one').to.deep.equal(['k1', 'k2', 'n1']);
    });

    describe('several tabs of one site keep one conversation', () => {
      /** One store for the "tabs" (elements of one page on one site's channel), as IndexedDB is one per origin. Its save overwrites: the element merges. */
      const sharedStore = () => {
        const rows = new Map<string, TranscriptItem[]>();
        const store: TranscriptStore = {
          load: async (k) => [...(rows.get(k) ?? [])],
          save: async (k, items) => void rows.set(k, [...items]),
          clear: async (k) => void rows.delete(k),
        };
        return { store, ids: (k: string) => (rows.get(k) ?? []).map((i) => i.id) };
      };
      /** Hears the site's kept-conversation channel, as a third tab would. */
      const hear = (key: string) => {
        const channel = new BroadcastChannel(keptChannelName(key));
        const heard: string[] = [];
        channel.onmessage = (e) => heard.push((e.data as { kind: string }).kind);
        return { heard, close: () => channel.close() };
      };
      const record = (el: WaveChat) => [...(el.state.earlier ?? []), ...el.state.items].map((i) => i.id);
      /** Two "tabs" of a fresh site sharing one store, a third tab listening, both past their first read. */
      const twoTabs = async () => {
        const site = `tabs-${Math.random().toString(36).slice(2)}`;
        const key = transcriptKey(site);
        const { store, ids } = sharedStore();
        WaveChat.transcriptStore = store;
        const ear = hear(key);
        const a = await fixture<WaveChat>(html`<wave-chat site-id=${site} persist-transcript></wave-chat>`);
        const b = await fixture<WaveChat>(html`<wave-chat site-id=${site} persist-transcript></wave-chat>`);
        await until(() => sessionOf(a).calls.includes('restore') && sessionOf(b).calls.includes('restore'), 'both tabs read the kept conversation');
        return { site, key, ids, ear, a, b };
      };

      it('turns of two tabs and a call routed between them all survive, in order; a running turn finishes before its tab merges', async () => {
        const { site, key, ids, ear, a, b } = await twoTabs();
        try {
          // A converses.
          sessionOf(a).update({ items: [msg('a1', 'user', 'add milk'), msg('a2', 'assistant', 'Added.')] });
          await until(() => ids(key).join() === 'a1,a2', "A's turn is kept");
          await until(() => record(b).join() === 'a1,a2', 'B hears of it and takes it in');
          // B answers a call A's turn routed to it ("Asked from the tab …") and converses too.
          const routed: TranscriptItem = { kind: 'tool', id: 'call_1', name: 'add_task', status: ChipStatus.succeeded, fromTab: 'Shop' };
          sessionOf(b).update({ items: [routed, msg('b1', 'user', 'and eggs'), msg('b2', 'assistant', 'Added eggs.')] });
          await until(() => ids(key).join() === 'a1,a2,b1,b2', "B's turn is kept after A's, without the routed chip");
          await until(() => record(a).join() === 'a1,a2,b1,b2', 'A takes in B\'s turn, after its own');
          // A's next turn is under way when B keeps another: A merges only once its turn is over.
          sessionOf(a).update({ status: ConversationStatus.streaming, items: [...sessionOf(a).state.items, msg('a3', 'user', 'and bread'), { kind: 'message', id: 'a4', role: 'assistant', text: 'Add', streaming: true }] });
          await until(() => ids(key).join() === 'a1,a2,b1,b2,a3', 'the question of the running turn is kept at once');
          const restores = sessionOf(a).calls.filter((c) => c === 'restore').length;
          const heardBefore = ear.heard.length;
          sessionOf(b).update({ items: [...sessionOf(b).state.items, msg('b3', 'user', 'and jam'), msg('b4', 'assistant', 'Added jam.')] });
          await until(() => ear.heard.length > heardBefore, "B's save is announced");
          await until(() => ids(key).join() === 'a1,a2,b1,b2,a3,b3,b4', "B's new turn is kept after A's running one");
          expect(sessionOf(a).calls.filter((c) => c === 'restore').length, 'nothing moves under a running turn').to.equal(restores);
          sessionOf(a).update({ status: ConversationStatus.idle, items: sessionOf(a).state.items.map((i) => (i.id === 'a4' ? msg('a4', 'assistant', 'Added bread.') : i)) });
          await until(() => ids(key).join() === 'a1,a2,b1,b2,a3,a4,b3,b4', "A's answer is kept with its question");
          await until(() => record(a).join() === 'a1,a2,b1,b2,a3,a4,b3,b4', 'A merges once its turn is over');
          // The routed chip stays on B's screen (this fake session does not file it under A's row, the core does).
          await until(() => record(b).join() === 'a1,a2,b1,b2,a3,a4,b3,b4,call_1', 'B takes in the end of A\'s turn');
          // "Navigating" in either tab: a fresh page restores the whole conversation.
          a.remove();
          const next = await fixture<WaveChat>(html`<wave-chat site-id=${site} persist-transcript></wave-chat>`);
          await until(() => record(next).join() === 'a1,a2,b1,b2,a3,a4,b3,b4', 'the next page has every turn of both tabs, in order');
        } finally {
          ear.close();
        }
      });

      it('a tab with nothing new saves nothing and tells no one; a new conversation in one tab starts one in the others', async () => {
        const { key, ids, ear, a, b } = await twoTabs();
        try {
          sessionOf(a).update({ items: [msg('a1', 'user', 'hi'), msg('a2', 'assistant', 'Hello.')] });
          await until(() => record(b).join() === 'a1,a2', 'B takes in A\'s turn');
          // B's adoption and A's label change write nothing: only the one save was announced.
          sessionOf(a).update({ model: { name: 'offline', offline: true } });
          sessionOf(b).update({ model: { name: 'offline', offline: true } });
          await aTimeout(0);
          expect(ear.heard).to.deep.equal(['kept']);
          a.restart();
          await until(() => ear.heard.includes('restarted'), 'the new conversation is announced');
          await until(() => sessionOf(b).calls.includes('restart'), 'B starts the new conversation too');
          await until(() => record(b).length === 0 && ids(key).length === 0, 'the old turns are not kept again');
          sessionOf(b).update({ items: [msg('n1', 'user', 'new start')] });
          await until(() => ids(key).join() === 'n1', 'the new conversation is kept');
        } finally {
          ear.close();
        }
      });
    });

    it('keeps finished rows in IndexedDB and restores them on the next page; restart clears', async () => {
      // Each IndexedDB step resolves a promise the test awaits: however slow the database (or the
      // lazy chunk holding idb-keyval) is on this machine, the test waits for it, never for a guess.
      let saved!: () => void;
      const savedP = new Promise<void>((r) => (saved = r));
      let loaded!: () => void;
      let loadedP = new Promise<void>((r) => (loaded = r));
      let cleared!: () => void;
      const clearedP = new Promise<void>((r) => (cleared = r));
      const store: TranscriptStore = {
        ...idbTranscriptStore,
        save: async (k, items, signal) => {
          await idbTranscriptStore.save(k, items, signal);
          saved();
        },
        load: async (k, signal) => {
          const rows = await idbTranscriptStore.load(k, signal);
          loaded();
          return rows;
        },
        clear: async (k, signal) => {
          await idbTranscriptStore.clear(k, signal);
          cleared();
        },
      };
      WaveChat.transcriptStore = store;
      await idbTranscriptStore.clear('wave-chat:transcript:persist-test');
      const first = await fixture<WaveChat>(html`<wave-chat site-id="persist-test" persist-transcript></wave-chat>`);
      sessionOf(first).update({
        items: [msg('1', 'user', 'hello'), msg('2', 'assistant', 'hi **there**'), awaitingChip('c1'), { kind: 'message', id: '3', role: 'assistant', text: 'stre', streaming: true }],
      });
      await savedP;
      const stored = (await get('wave-chat:transcript:persist-test')) as TranscriptItem[];
      expect(stored.map((i) => i.id)).to.deep.equal(['1', '2']);
      first.remove();

      // "Next page": a fresh element with the same site id (the first one's read is long done:
      // its save waited for it).
      loadedP = new Promise<void>((r) => (loaded = r));
      const second = await fixture<WaveChat>(html`<wave-chat site-id="persist-test" persist-transcript open></wave-chat>`);
      await loadedP;
      // The session's record is what the transcript shows: the kept turns are its `earlier` rows.
      const earlier = () => sessionOf(second).state.earlier ?? [];
      await until(() => earlier().length > 0, 'the kept rows reach the session once read');
      expect(earlier().map((i) => i.id)).to.deep.equal(['1', '2']);
      await second.updateComplete;
      const t = q(second, 'wave-transcript')! as HTMLElement & { updateComplete: Promise<unknown> };
      await t.updateComplete;
      expect(t.shadowRoot!.textContent).to.contain('hello');

      second.restart();
      expect(earlier()).to.deep.equal([]);
      await clearedP;
      await second.updateComplete;
      await t.updateComplete;
      expect(t.shadowRoot!.textContent).to.not.contain('hello');
      expect(await get('wave-chat:transcript:persist-test')).to.equal(undefined);
    });
  });

  describe('accessibility', function () {
    // The first axe run in a page loads and compiles axe-core (about 500 KB): on a loaded
    // two-core machine with both browsers running, Firefox took over 10 s once.
    this.timeout(30_000);
    it('is axe-clean closed and open with content', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat theme="light"></wave-chat>`);
      await expect(el).to.be.accessible();
      el.open = true;
      sessionOf(el).update({
        model: { name: 'offline', offline: true },
        grant: activeGrant(40),
        items: [msg('1', 'user', 'hi'), msg('2', 'assistant', 'Hello'), awaitingChip('c1')],
      });
      await el.updateComplete;
      // Checked with the content in place: the chip renders in the transcript's own update.
      const t = q<WaveTranscript>(el, 'wave-transcript')!;
      await until(() => t.shadowRoot!.querySelector('wave-tool-chip')?.shadowRoot?.querySelector('[part~="confirm-button"]'), 'the chip and its buttons rendered');
      await expect(el).to.be.accessible();
    });

    it('is axe-clean in the dark theme', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat open theme="dark"></wave-chat>`);
      sessionOf(el).update({ items: [msg('1', 'user', 'hi'), msg('2', 'assistant', 'Hello [x](https://example.com)')] });
      await el.updateComplete;
      // Checked with the link in place: the Markdown renderer is a lazy chunk.
      const t = q<WaveTranscript>(el, 'wave-transcript')!;
      await until(() => t.shadowRoot!.querySelector('a[href^="https://example.com"]'), 'the Markdown link rendered');
      await expect(el).to.be.accessible();
    });
  });
});

describe('<wave-chat> first run', () => {
  beforeEach(useFakeSessions);
  afterEach(async () => {
    WaveChat.createSession = originalFactory;
    await setViewport({ width: 800, height: 600 });
  });

  const inner = <T extends Element = HTMLElement>(host: Element | null, selector: string): T | null =>
    host?.shadowRoot?.querySelector<T>(selector) ?? null;
  const composerOf = (el: WaveChat) => q(el, 'wave-composer') as HTMLElement & { updateComplete: Promise<unknown>; value: string };
  const transcriptOf = (el: WaveChat) => q(el, 'wave-transcript') as HTMLElement & { updateComplete: Promise<unknown> };
  async function settled(el: WaveChat): Promise<void> {
    await el.updateComplete;
    // The panel's contents exist once it is wanted (opened, or intent on the launcher).
    await (composerOf(el) as HTMLElement & { updateComplete?: Promise<unknown> } | null)?.updateComplete;
    await (transcriptOf(el) as HTMLElement & { updateComplete?: Promise<unknown> } | null)?.updateComplete;
    const chips = [...(transcriptOf(el)?.shadowRoot ?? document.createDocumentFragment()).querySelectorAll<HTMLElement & { updateComplete: Promise<unknown> }>('wave-tool-chip')];
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

  describe('icons', () => {
    it('draws every icon as inline SVG, no emoji or symbol characters, with the accessible names unchanged', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat voice-available></wave-chat>`);
      const launcher = q(el, '[part~="launcher"]')!;
      expect(launcher.getAttribute('aria-label')).to.equal('Open assistant');
      const check = (button: Element | null, name: string) => {
        expect(button, name).to.exist;
        expect(button!.querySelector('svg'), `${name} has an SVG icon`).to.exist;
        expect(button!.querySelector('svg')!.getAttribute('aria-hidden')).to.equal('true');
        // Only the label's own letters, never a glyph an emoji or symbol font would have to supply.
        expect(/[^\s\x20-\x7e]/.test(button!.textContent ?? ''), `${name} holds no symbol character`).to.equal(false);
      };
      check(launcher, 'launcher (closed)');
      el.open = true;
      sessionOf(el).update({ status: ConversationStatus.streaming });
      await settled(el);
      check(launcher, 'launcher (open)');
      expect(launcher.getAttribute('aria-label')).to.equal('Close assistant');
      check(q(el, '[part~="close-button"]'), 'close');
      expect(q(el, '[part~="close-button"]')!.getAttribute('aria-label')).to.equal('Close');
      check(q(el, '[part~="restart-button"]'), 'restart');
      expect(q(el, '[part~="restart-button"]')!.getAttribute('aria-label')).to.equal('New conversation');
      const composer = composerOf(el);
      check(inner(composer, '[part~="voice-button"]'), 'mic');
      expect(inner(composer, '[part~="voice-button"]')!.getAttribute('aria-label')).to.equal('Start voice');
      check(inner(composer, '[part~="send-button"]'), 'send');
      check(inner(composer, '[part~="stop-button"]'), 'stop');
      expect(inner(composer, '[part~="send-button"]')!.textContent!.trim()).to.equal('Send');
      expect(inner(composer, '[part~="stop-button"]')!.textContent!.trim()).to.equal('Stop');
    });
  });

  describe('fits the viewport', () => {
    it('on a short desktop window the floating panel and launcher stay on screen', async () => {
      await setViewport({ width: 800, height: 420 });
      const el = await fixture<WaveChat>(html`<wave-chat floating open></wave-chat>`);
      await settled(el);
      await nextFrame();
      const box = visualBox();
      within(q(el, '[part~="panel"]')!.getBoundingClientRect(), box, 'panel');
      within(q(el, '[part~="launcher"]')!.getBoundingClientRect(), box, 'launcher');
      const panel = q(el, '[part~="panel"]')!.getBoundingClientRect();
      const launcher = q(el, '[part~="launcher"]')!.getBoundingClientRect();
      expect(panel.bottom <= launcher.top, 'the panel stands above the launcher').to.equal(true);
    });

    it('inline in a box of set height, the open panel fits the box (nothing spills over what follows)', async () => {
      const wrap = await fixture<HTMLElement>(html`<div><wave-chat open style="display: block; height: 512px"></wave-chat><p>after</p></div>`);
      const el = wrap.querySelector('wave-chat') as WaveChat;
      await settled(el);
      const host = el.getBoundingClientRect();
      const panel = q(el, '[part~="panel"]')!.getBoundingClientRect();
      expect(panel.bottom <= host.bottom + 0.5, `panel bottom ${panel.bottom} within the element ${host.bottom}`).to.equal(true);
      expect(panel.height).to.be.greaterThan(300);
    });
  });

  describe('keyboard and focus', () => {
    it('Escape closes the panel and returns focus to the launcher', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat open></wave-chat>`);
      await settled(el);
      composerOf(el).focus();
      await sendKeys({ press: 'Escape' });
      await el.updateComplete;
      expect(el.open).to.equal(false);
      expect(deepActiveElement() === q(el, '[part~="launcher"]')).to.equal(true);
      // From the launcher too, while open; a closed widget lets Escape pass to the page.
      el.open = true;
      await settled(el);
      q(el, '[part~="launcher"]')!.focus();
      await sendKeys({ press: 'Escape' });
      await el.updateComplete;
      expect(el.open).to.equal(false);
      let passed = false;
      const onKey = (e: KeyboardEvent) => (passed = e.key === 'Escape' && !e.defaultPrevented);
      document.addEventListener('keydown', onKey);
      await sendKeys({ press: 'Escape' });
      document.removeEventListener('keydown', onKey);
      expect(passed, 'Escape on the closed launcher is not swallowed').to.equal(true);
    });

    it("Escape on a confirmation cancels the chip first and leaves the panel open", async () => {
      const el = await fixture<WaveChat>(html`<wave-chat open></wave-chat>`);
      sessionOf(el).update({ status: ConversationStatus.runningTools, items: [awaitingChip('c1')] });
      await settled(el);
      const chip = transcriptOf(el).shadowRoot!.querySelector('wave-tool-chip')!;
      expect(chip.shadowRoot!.activeElement, 'the chip took focus').to.exist;
      await sendKeys({ press: 'Escape' });
      await el.updateComplete;
      expect(sessionOf(el).answers.map((a) => [a.decision, a.accepted])).to.deep.equal([['cancel', true]]);
      expect(el.open).to.equal(true);
    });

    it('after a chip is answered, focus goes back to the composer (not the page body)', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat open></wave-chat>`);
      const s = sessionOf(el);
      s.update({ status: ConversationStatus.runningTools, items: [awaitingChip('c1')] });
      await settled(el);
      const chip = transcriptOf(el).shadowRoot!.querySelector('wave-tool-chip')!;
      await realClick(inner(chip, '[part~="confirm-button"]')!);
      // The core's answer: the event, then the chip runs (its buttons go).
      s.emit({ type: 'confirmation-answered', id: 'c1', decision: 'confirm', source: 'pointer' });
      s.update({ items: [{ kind: 'tool', id: 'c1', name: 'add_scene', status: ChipStatus.running, label: 'Adding…' }] });
      await settled(el);
      expect(deepActiveElement() === inner(composerOf(el), 'textarea')).to.equal(true);
    });

    it('after Stop, focus goes back to the composer', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat open></wave-chat>`);
      const s = sessionOf(el);
      s.update({ status: ConversationStatus.streaming, items: [msg('1', 'user', 'hi')] });
      await settled(el);
      await realClick(inner(composerOf(el), '[part~="stop-button"]')!);
      expect(s.calls).to.include('stop');
      s.update({ status: ConversationStatus.idle });
      await settled(el);
      expect(inner(composerOf(el), '[part~="stop-button"]') === null).to.equal(true);
      expect(deepActiveElement() === inner(composerOf(el), 'textarea')).to.equal(true);
    });
  });

  describe('messages while an answer comes', () => {
    it('Enter while an answer streams sends (to be queued) and empties the box; queued messages show as queued', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat open></wave-chat>`);
      const s = sessionOf(el);
      s.update({ status: ConversationStatus.streaming, items: [msg('1', 'user', 'first'), { ...msg('2', 'assistant', 'Wor'), streaming: true }] });
      await settled(el);
      composerOf(el).focus();
      for (const word of ['two', 'three', 'four', 'five', 'six']) {
        await sendKeys({ type: word });
        await sendKeys({ press: 'Enter' });
      }
      await settled(el);
      expect(s.sent, 'five separate messages, none merged or dropped').to.deep.equal(['two', 'three', 'four', 'five', 'six']);
      expect(inner<HTMLTextAreaElement>(composerOf(el), 'textarea')!.value).to.equal('');
      s.update({ queue: s.sent.map((text, i) => ({ id: `q${i}`, text })) });
      await settled(el);
      const queued = [...transcriptOf(el).shadowRoot!.querySelectorAll('[part~="queued-message"]')];
      expect(queued.map((r) => r.firstElementChild!.textContent)).to.deep.equal(['two', 'three', 'four', 'five', 'six']);
      expect(queued[0]!.textContent).to.contain('Queued');
      const log = transcriptOf(el).shadowRoot!.querySelector('[part~="log"]')!;
      expect(log.lastElementChild === queued.at(-1), 'queued messages come after the answer in progress').to.equal(true);
    });

    it('closing with queued messages puts their text back in the box', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat open></wave-chat>`);
      const s = sessionOf(el);
      s.update({ status: ConversationStatus.streaming, queue: [{ id: 'q1', text: 'one' }, { id: 'q2', text: 'two' }] });
      await settled(el);
      el.open = false;
      await settled(el);
      expect(s.calls).to.include('close');
      expect(composerOf(el).value).to.equal('one\n\ntwo');
    });

    it('a stopped answer carries a "Stopped" marker', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat open></wave-chat>`);
      sessionOf(el).update({
        items: [msg('1', 'user', 'hi'), { ...msg('2', 'assistant', 'Half an ans'), stopped: true }, msg('3', 'user', 'x'), { ...msg('4', 'assistant', ''), stopped: true }],
      });
      await settled(el);
      const markers = [...transcriptOf(el).shadowRoot!.querySelectorAll('[part~="stopped-marker"]')];
      expect(markers.map((m) => m.textContent)).to.deep.equal(['Stopped', 'Stopped']);
      expect(markers[0]!.closest('.message')!.textContent).to.contain('Half an ans');
    });
  });

  describe('an over-size message', () => {
    it('is not sent: a friendly notice says so and the text stays in the composer', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat open></wave-chat>`);
      await settled(el);
      const composer = composerOf(el);
      const text = 'a'.repeat(270_000);
      composer.value = text;
      await settled(el);
      composer.focus();
      await sendKeys({ press: 'Enter' });
      await settled(el);
      expect(sessionOf(el).sent).to.deep.equal([]);
      expect(inner<HTMLTextAreaElement>(composer, 'textarea')!.value).to.equal(text);
      const notice = inner(composer, '[part~="composer-notice"]')!;
      expect(notice.getAttribute('role')).to.equal('alert');
      expect(notice.textContent).to.match(/too long to send/);
      expect(notice.textContent).to.contain('270,000');
      expect(notice.textContent).to.not.match(/body|bytes|262144/i);
      // Shortened, it goes.
      composer.value = 'short now';
      await settled(el);
      await sendKeys({ press: 'Enter' });
      await settled(el);
      expect(sessionOf(el).sent).to.deep.equal(['short now']);
      expect(inner(composer, '[part~="composer-notice"]') === null).to.equal(true);
    });

    it('counts bytes, not characters, against the server limit', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat open></wave-chat>`);
      el.endpoint = '/info-limit';
      const original = window.fetch;
      window.fetch = async () => new Response(JSON.stringify({ model: 'm', offline: false, maxBodyBytes: 2000 }), { headers: { 'content-type': 'application/json' } });
      try {
        el.open = false;
        await el.updateComplete;
        el.open = true;
        await settled(el);
        // The limit comes from a GET on the endpoint: wait for the composer to be given it.
        await until(() => (composerOf(el) as unknown as { maxBytes: number }).maxBytes === 1000, 'the server limit reached the composer');
      } finally {
        window.fetch = original;
      }
      const composer = composerOf(el);
      composer.value = 'é'.repeat(600); // 1,200 bytes: over half of 2,000
      await settled(el);
      composer.focus();
      await sendKeys({ press: 'Enter' });
      await settled(el);
      expect(sessionOf(el).sent).to.deep.equal([]);
      expect(inner(composer, '[part~="composer-notice"]')).to.exist;
    });
  });

  describe('the empty state and the model label', () => {
    it("says what the page's tools do, from their readable names and descriptions", async () => {
      const el = await fixture<WaveChat>(html`<wave-chat open></wave-chat>`);
      el.registerTool('add_task', { description: 'Add a task to the board. Returns its id.', handler: () => ({}) });
      el.registerTool('delete_task', { title: 'Remove a task', description: 'Delete a task by id.', handler: () => ({}) });
      await settled(el);
      const empty = transcriptOf(el).shadowRoot!.querySelector('[part~="empty-state"]')!;
      const items = [...empty.querySelectorAll('li')].map((li) => li.textContent!.replace(/\s+/g, ' ').trim());
      expect(items).to.deep.equal(['Add task: Add a task to the board.', 'Remove a task: Delete a task by id.']);
      sessionOf(el).update({ items: [msg('1', 'user', 'hi')] });
      await settled(el);
      expect(transcriptOf(el).shadowRoot!.querySelector('[part~="empty-state"]') === null, 'gone once the conversation starts').to.equal(true);
    });

    it('with no page tools, says what the built-in page reading does', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat open></wave-chat>`);
      await settled(el);
      const empty = transcriptOf(el).shadowRoot!.querySelector('[part~="empty-state"]')!;
      expect(empty.textContent).to.contain('read this page');
    });

    it('shows the model label from the start, read with a GET on the endpoint', async () => {
      const original = window.fetch;
      const requests: { url: string; method: string }[] = [];
      window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
        requests.push({ url: String(input), method: init?.method ?? 'GET' });
        return new Response(JSON.stringify({ model: 'offline demo model', offline: true, maxBodyBytes: 262144 }), {
          headers: { 'content-type': 'application/json' },
        });
      };
      try {
        const el = await fixture<WaveChat>(html`<wave-chat endpoint="/wave" site-id="shop" open></wave-chat>`);
        // The reply is read and parsed when the browser gets to it (a tick later in Firefox).
        await until(() => q(el, '[part~="model-badge"]'), 'the model label from the GET');
        expect(q(el, '[part~="model-badge"]')!.textContent).to.equal('Offline demo model');
        expect(requests).to.have.length(1);
        expect(requests[0]!.method).to.equal('GET');
        expect(new URL(requests[0]!.url).pathname).to.equal('/wave');
        expect(new URL(requests[0]!.url).searchParams.get('site')).to.equal('shop');
        expect(sessionOf(el).sent, 'no message was needed').to.deep.equal([]);
      } finally {
        window.fetch = original;
      }
    });
  });

  describe('no invisible confirmation', () => {
    it('a confirmation while the panel is closed opens the panel on the chip', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat></wave-chat>`);
      const s = sessionOf(el);
      s.update({ status: ConversationStatus.runningTools, items: [awaitingChip('c1')] });
      s.emit({ type: 'confirmation-shown', request: awaitingChip('c1').confirmation! });
      await settled(el);
      await settled(el);
      expect(el.open).to.equal(true);
      const chip = transcriptOf(el).shadowRoot!.querySelector('wave-tool-chip')!;
      expect(deepActiveElement() === inner(chip, '[part~="chip"]'), 'focus is on the chip').to.equal(true);
    });

    it('with confirm-opens="false", the launcher is badged and the wait announced; opening shows the chip', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat confirm-opens="false"></wave-chat>`);
      expect(el.confirmOpens).to.equal(false);
      const s = sessionOf(el);
      const launcher = q(el, '[part~="launcher"]')!;
      expect(q(el, '[part~="launcher-badge"]') === null).to.equal(true);
      s.update({ status: ConversationStatus.runningTools, items: [awaitingChip('c1')] });
      s.emit({ type: 'confirmation-shown', request: awaitingChip('c1').confirmation! });
      await settled(el);
      expect(el.open).to.equal(false);
      expect(q(el, '[part~="launcher-badge"]')).to.exist;
      expect(launcher.getAttribute('aria-label')).to.equal('Open assistant: a confirmation is waiting');
      const live = q(el, '[role="status"][aria-live]')!;
      expect(live.closest('[hidden]') === null, 'the live region is not inside the hidden panel').to.equal(true);
      expect(live.textContent).to.contain('waiting for your confirmation');
      await realClick(launcher);
      await settled(el);
      await settled(el);
      expect(el.open).to.equal(true);
      const chip = transcriptOf(el).shadowRoot!.querySelector('wave-tool-chip')!;
      expect(deepActiveElement() === inner(chip, '[part~="chip"]'), 'the chip takes focus when the panel opens').to.equal(true);
      expect(q(el, '[part~="launcher-badge"]') === null).to.equal(true);
    });

    it('the badge goes when the confirmation is settled elsewhere (e.g. timed out)', async () => {
      const el = await fixture<WaveChat>(html`<wave-chat confirm-opens="false"></wave-chat>`);
      const s = sessionOf(el);
      s.update({ items: [awaitingChip('c1')] });
      s.emit({ type: 'confirmation-shown', request: awaitingChip('c1').confirmation! });
      await settled(el);
      expect(q(el, '[part~="launcher-badge"]')).to.exist;
      s.update({ items: [{ kind: 'tool', id: 'c1', name: 'add_scene', status: ChipStatus.cancelled, label: 'Cancelled' }] });
      await settled(el);
      expect(q(el, '[part~="launcher-badge"]') === null).to.equal(true);
      expect(q(el, '[part~="launcher"]')!.getAttribute('aria-label')).to.equal('Open assistant');
    });
  });
});
