import { expect, fixture, html } from '@open-wc/testing';
import { sendMouse } from '@web/test-runner-commands';
import '../../components/define.js';
import { WaveChat } from '../../components/wave-chat.js';
import type { TranscriptStore } from '../../components/transcript-store.js';
import { tabChannelName } from '../../src/tabs/tab-protocol.js';

/** A store in memory (no IndexedDB in these tests). */
const memoryStore = (): TranscriptStore => {
  const rows = new Map<string, unknown[]>();
  return {
    load: async (key) => (rows.get(key) ?? []) as never,
    save: async (key, items) => void rows.set(key, [...items]),
    clear: async (key) => void rows.delete(key),
  };
};

/** Listens on a site's tabs channel as another tab would, and waits for messages. */
function probe(site: string) {
  const channel = new BroadcastChannel(tabChannelName(`wave-chat:transcript:${site}`));
  const messages: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  channel.onmessage = (e) => {
    messages.push(e.data as Record<string, unknown>);
    for (const w of waiters.splice(0)) w();
  };
  return {
    messages,
    close: () => channel.close(),
    /** Resolves with the first message (from now on or already received after `from`) that `match` accepts. */
    async next(match: (m: Record<string, unknown>) => boolean, from = 0): Promise<Record<string, unknown>> {
      for (;;) {
        const found = messages.slice(from).find(match);
        if (found) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

describe('<wave-chat persist-transcript>: several tabs (TabsController)', () => {
  const originalStore = WaveChat.transcriptStore;
  let probes: Array<{ close(): void }> = [];
  beforeEach(() => {
    WaveChat.transcriptStore = memoryStore();
  });
  afterEach(() => {
    WaveChat.transcriptStore = originalStore;
    for (const p of probes) p.close();
    probes = [];
  });

  const newSite = () => `tabs-${Math.random().toString(36).slice(2)}`;

  it('joins its site’s channel only with persist-transcript, announces its page tools, and leaves when the attribute goes', async () => {
    const site = newSite();
    const p = probe(site);
    probes.push(p);
    const plain = await fixture<WaveChat>(html`<wave-chat site-id=${site}></wave-chat>`);
    plain.registerTool('add_task', { description: 'Add.', handler: () => ({}) });
    const el = await fixture<WaveChat>(html`<wave-chat site-id=${site} persist-transcript></wave-chat>`);
    const hello = await p.next((m) => m.kind === 'state' && m.hello === true);
    expect(hello.tools).to.deep.equal([]);
    el.registerTool('buy_mug', { description: 'Buy a mug.', cost: 30, handler: () => ({}) });
    const withTool = await p.next((m) => m.kind === 'state' && Array.isArray(m.tools) && m.tools.length === 1);
    expect(withTool.tools).to.deep.equal([
      { name: 'buy_mug', description: 'Buy a mug.', parameters: { type: 'object', properties: {} }, confirm: true, cost: 30, tier3: false },
    ]);
    expect(withTool.from).to.equal(hello.from);
    // The element without the attribute never joined.
    expect(new Set(p.messages.map((m) => m.from))).to.deep.equal(new Set([hello.from]));
    el.persistTranscript = false;
    await p.next((m) => m.kind === 'bye' && m.from === hello.from);
  });

  it('only the visitor’s own acts make the tab active: a script’s synthetic events do not', async () => {
    const site = newSite();
    const p = probe(site);
    probes.push(p);
    const el = await fixture<WaveChat>(html`<wave-chat site-id=${site} persist-transcript></wave-chat>`);
    const hello = await p.next((m) => m.kind === 'state' && m.hello === true);
    // Another tab (the probe) was used since: the visitor coming back here is announced at once.
    const other = new BroadcastChannel(tabChannelName(`wave-chat:transcript:${site}`));
    probes.push(other);
    other.postMessage({ v: 1, site, from: 'other', kind: 'state', title: 'Other', activeAt: Date.now() + 1, tools: [], hello: true });
    await p.next((m) => m.kind === 'state' && m.from === hello.from && m.hello !== true);
    const before = p.messages.length;
    for (const type of ['pointerdown', 'keydown', 'focus']) window.dispatchEvent(new Event(type));
    // A round trip (a call for a tool it lacks, which it declines): whatever it posted before has arrived.
    other.postMessage({ v: 1, site, from: 'other', kind: 'call', to: hello.from, id: 'marker', name: 'no_such_tool', args: {}, deadline: Date.now() + 60_000 });
    await p.next((m) => m.kind === 'declined' && m.id === 'marker', before);
    const states = p.messages.slice(before).filter((m) => m.kind === 'state' && m.from === hello.from);
    expect(states, 'nothing announced for the synthetic events').to.have.length(0);
    // A real click in the page: announced at once, since the visitor came from the other tab.
    const clickAt = Date.now();
    await sendMouse({ type: 'click', position: [2, 2] });
    await p.next((m) => m.kind === 'state' && m.from === hello.from && Number(m.activeAt) >= clickAt, before);
    expect(el.isConnected).to.equal(true);
  });

  for (const confirmOpens of [true, false]) {
    it(`a call routed here from another tab waits in view: ${confirmOpens ? 'the panel opens on its chip' : 'with confirm-opens="false", a badge on the launcher and an announcement'}`, async () => {
      const site = newSite();
      const p = probe(site);
      probes.push(p);
      const el = await fixture<WaveChat>(
        confirmOpens
          ? html`<wave-chat site-id=${site} persist-transcript></wave-chat>`
          : html`<wave-chat site-id=${site} persist-transcript confirm-opens="false"></wave-chat>`,
      );
      let ran = 0;
      el.registerTool('delete_task', { description: 'Delete a task.', confirm: true, handler: () => ++ran });
      const joined = await p.next((m) => m.kind === 'state' && Array.isArray(m.tools) && m.tools.length === 1);
      const other = new BroadcastChannel(tabChannelName(`wave-chat:transcript:${site}`));
      probes.push(other);
      other.postMessage({ v: 1, site, from: 'asker', kind: 'call', to: joined.from, id: 'c1', name: 'delete_task', args: {}, deadline: Date.now() + 60_000 });
      await p.next((m) => m.kind === 'status' && m.id === 'c1' && m.waiting === true);
      await el.updateComplete;
      const root = el.shadowRoot!;
      if (confirmOpens) {
        expect(el.open).to.equal(true);
      } else {
        expect(el.open).to.equal(false);
        expect(root.querySelector('[part~="launcher-badge"]')).to.exist;
        expect(root.querySelector('[role="status"]')!.textContent!.trim()).to.not.equal('');
      }
      expect(ran).to.equal(0);
      // The asking tab stops it: the chip there is cancelled, nothing ran.
      other.postMessage({ v: 1, site, from: 'asker', kind: 'abort', to: joined.from, id: 'c1' });
      const result = await p.next((m) => m.kind === 'result' && m.id === 'c1');
      expect(result.ending).to.equal('cancelled');
      expect(ran).to.equal(0);
    });
  }

  it('says goodbye when the page is hidden for good and joins again when it comes back from the cache', async () => {
    const site = newSite();
    const p = probe(site);
    probes.push(p);
    await fixture<WaveChat>(html`<wave-chat site-id=${site} persist-transcript></wave-chat>`);
    const hello = await p.next((m) => m.kind === 'state' && m.hello === true);
    const at = p.messages.length;
    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true }));
    await p.next((m) => m.kind === 'bye' && m.from === hello.from, at);
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    await p.next((m) => m.kind === 'state' && m.hello === true && m.from === hello.from, at);
  });
});
