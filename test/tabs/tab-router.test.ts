import { expect } from '@open-wc/testing';
import { WaveSession, type SessionLoop, type SessionLoopDeps } from '../../src/agent/wave-session.js';
import type { ToolPart, TranscriptItem } from '../../src/agent/types.js';
import type { VisitorEvidence } from '../../src/consent/types.js';
import { MemoryStorage } from '../../src/storage.js';
import { parseTabMessage, TAB_PROTOCOL, tabChannelName } from '../../src/tabs/tab-protocol.js';
import { TabRouter, TabText, TabTimings, type TabChannel } from '../../src/tabs/tab-router.js';
import type { PageToolSchema, ToolCall, ToolOutcome } from '../../src/tools/types.js';
import { FakeClock, flushMicrotasks } from '../helpers/fake-clock.js';
import { until as untilState } from '../helpers/until.js';

const SITE = 'demo';

/** Channels of one name in one browser: what one posts, every other one receives (a structured copy, later). */
class FakeHub {
  readonly channels = new Set<FakeChannel>();
  /** Messages posted by anyone, for assertions. */
  readonly log: Array<Record<string, unknown>> = [];
  channel(): FakeChannel {
    const channel = new FakeChannel(this);
    this.channels.add(channel);
    return channel;
  }
}

class FakeChannel implements TabChannel {
  readonly #hub: FakeHub;
  readonly #listeners = new Set<(event: MessageEvent) => void>();
  closed = false;
  /** A tab that stopped answering (frozen, hung): it neither receives nor sends. */
  deaf = false;
  constructor(hub: FakeHub) {
    this.#hub = hub;
  }
  postMessage(message: unknown): void {
    if (this.closed) throw new DOMException('closed', 'InvalidStateError');
    const data = structuredClone(message);
    if (this.deaf) return;
    this.#hub.log.push(data as Record<string, unknown>);
    for (const other of this.#hub.channels) if (other !== this) queueMicrotask(() => other.deliver(data));
  }
  deliver(data: unknown): void {
    if (this.closed || this.deaf) return;
    for (const listener of [...this.#listeners]) listener(new MessageEvent('message', { data }));
  }
  addEventListener(_type: 'message', listener: (event: MessageEvent) => void): void {
    this.#listeners.add(listener);
  }
  removeEventListener(_type: 'message', listener: (event: MessageEvent) => void): void {
    this.#listeners.delete(listener);
  }
  close(): void {
    this.closed = true;
    this.#hub.channels.delete(this);
  }
}

function schema(name: string, extra: Partial<PageToolSchema> = {}): PageToolSchema {
  return { name, description: `${name} it.`, parameters: { type: 'object', properties: { title: { type: 'string' } } }, confirm: false, cost: 0, tier3: false, ...extra };
}

async function settle(k = 10): Promise<void> {
  for (let i = 0; i < k; i++) await flushMicrotasks();
}

/**
 * Waits until `ready()`: the validator loads on first use (a lazy chunk from the server), so no
 * count of turns is enough on every machine; see test/helpers/until.ts.
 */
const until = (ready: () => boolean): Promise<unknown> => untilState(ready, 'the state this step waits for');

const routers: TabRouter[] = [];

/** One tab: a router with its own tools and a handler that records what ran here. */
function tab(hub: FakeHub, clock: FakeClock, name: string, tools: string[], runHere?: (call: ToolCall, signal: AbortSignal) => Promise<ToolOutcome>) {
  const ran: ToolCall[] = [];
  let own = tools.map((t) => schema(t));
  const channel = hub.channel();
  const router = new TabRouter({
    channel,
    siteId: SITE,
    clock,
    tabId: name,
    title: () => `Page ${name}`,
    tools: () => own,
    runHere:
      runHere ??
      (async (call) => {
        ran.push(call);
        return { callId: call.id, name: call.name, title: 'Add task', status: 'succeeded', result: { success: true, ranIn: name }, label: `Added in ${name}`, attempts: 1 };
      }),
    warn: () => undefined,
  });
  routers.push(router);
  router.start();
  return {
    router,
    channel,
    ran,
    setTools: (names: string[], announce = true) => {
      own = names.map((t) => schema(t));
      if (announce) router.toolsChanged();
    },
  };
}

/** Routes a model call from `router`, with `hereHas` and a local run that records. */
function routeFrom(router: TabRouter, call: Partial<ToolCall> & { name: string }, options: { hereHas?: boolean; signal?: AbortSignal } = {}) {
  const parts: ToolPart[] = [];
  let ranHere = 0;
  const done = router.route(
    { id: 'call_1', arguments: { title: 'Milk' }, ...call },
    options.signal ?? new AbortController().signal,
    {
      has: options.hereHas ?? false,
      run: async () => {
        ranHere++;
        return { callId: 'call_1', name: call.name, status: 'succeeded', result: { success: true, ranIn: 'here' }, label: '', attempts: 1 };
      },
    },
    (part) => parts.push(part),
  );
  return { done, parts, ranHere: () => ranHere };
}

describe('several tabs: TabRouter', () => {
  afterEach(() => {
    for (const r of routers.splice(0)) r.dispose();
  });

  describe('routing', () => {
    it('a call goes to the most recently active tab that has the tool, and its result comes back', async () => {
      const hub = new FakeHub();
      const clock = new FakeClock();
      const a = tab(hub, clock, 'a', []);
      const b = tab(hub, clock, 'b', ['add_task']);
      const c = tab(hub, clock, 'c', ['add_task']);
      const d = tab(hub, clock, 'd', ['other_tool']);
      clock.tick(5_000);
      b.router.markActive();
      clock.tick(5_000);
      c.router.markActive();
      clock.tick(5_000);
      d.router.markActive(); // the most recent, but without the tool
      await settle();

      const first = routeFrom(a.router, { name: 'add_task' });
      const outcome = await first.done;
      expect(outcome.status).to.equal('succeeded');
      expect(outcome.result).to.deep.equal({ success: true, ranIn: 'c' });
      expect(c.ran.map((x) => x.name)).to.deep.equal(['add_task']);
      expect(b.ran).to.have.length(0);
      // This tab's chip says where it ran, then how it ended (the other tab's words).
      expect(first.parts[0]).to.deep.include({ status: 'requested', elsewhere: { tab: 'Page c' } });
      expect(first.parts.at(-1)).to.deep.include({ status: 'succeeded', label: 'Added in c', elsewhere: { tab: 'Page c' } });

      // The visitor goes back to b: the next call runs there.
      clock.tick(5_000);
      b.router.markActive();
      await settle();
      const second = await routeFrom(a.router, { name: 'add_task' }).done;
      expect(second.result).to.deep.equal({ success: true, ranIn: 'b' });
      expect(b.ran).to.have.length(1);
      expect(c.ran).to.have.length(1);
    });

    it('runs here when this tab is the most recently active one with the tool (a tie counts as here)', async () => {
      const hub = new FakeHub();
      const clock = new FakeClock();
      const a = tab(hub, clock, 'a', ['add_task']);
      const b = tab(hub, clock, 'b', ['add_task']);
      b.router.markActive();
      clock.tick(3_000);
      a.router.markActive();
      await settle();
      const call = routeFrom(a.router, { name: 'add_task' }, { hereHas: true });
      expect((await call.done).result).to.deep.equal({ success: true, ranIn: 'here' });
      expect(call.ranHere()).to.equal(1);
      expect(b.ran).to.have.length(0);
      expect(call.parts).to.have.length(0);
    });

    it('none has it: the model is told it is not available on this page, at once (no wait)', async () => {
      const hub = new FakeHub();
      const clock = new FakeClock();
      const a = tab(hub, clock, 'a', []);
      tab(hub, clock, 'b', ['other_tool']);
      await settle();
      const call = routeFrom(a.router, { name: 'add_task' });
      const outcome = await call.done;
      expect(outcome.status).to.equal('unknown');
      expect(outcome.result).to.deep.equal({ success: false, error: TabText.notAvailable('add_task') });
      expect(String(outcome.result.error)).to.contain('not available on this page');
      expect(call.parts).to.deep.equal([{ kind: 'tool', id: 'call_1', name: 'add_task', title: 'Add task', status: 'failed', failure: 'unknown-tool' }]);
    });

    it('a tab whose tool was unregistered meanwhile declines; the call goes to the next tab with it, else is not available', async () => {
      const hub = new FakeHub();
      const clock = new FakeClock();
      const a = tab(hub, clock, 'a', []);
      const b = tab(hub, clock, 'b', ['add_task']);
      const c = tab(hub, clock, 'c', ['add_task']);
      b.router.markActive();
      clock.tick(2_000);
      c.router.markActive();
      await settle();
      // c dropped the tool, and its announcement has not arrived yet.
      c.setTools([], false);
      const outcome = await routeFrom(a.router, { name: 'add_task' }).done;
      expect(outcome.result).to.deep.equal({ success: true, ranIn: 'b' });
      expect(c.ran).to.have.length(0);
      // Then b drops it too, announced this time: nobody offers it.
      b.setTools([]);
      await settle();
      expect(a.router.remoteSchemas(new Set())).to.deep.equal([]);
      expect((await routeFrom(a.router, { name: 'add_task' }).done).status).to.equal('unknown');
    });
  });

  describe('activity', () => {
    it('coming to a tab from another is told at once; use within the leading tab at most once a second', async () => {
      const hub = new FakeHub();
      const clock = new FakeClock();
      const a = tab(hub, clock, 'a', []);
      const b = tab(hub, clock, 'b', ['add_task']);
      const c = tab(hub, clock, 'c', ['add_task']);
      await settle();
      const states = () => hub.log.filter((m) => m.kind === 'state').length;
      clock.tick(10);
      c.router.markActive();
      clock.tick(10);
      b.router.markActive(); // the visitor went from c to b, 20 ms after both joined
      await settle();
      expect(a.router.peers().map((p) => p.id)).to.deep.equal(['b', 'c']);
      // Typing in b: many keys, one announcement a second at most, the last one not lost.
      const before = states();
      for (let i = 0; i < 20; i++) {
        clock.tick(50);
        b.router.markActive();
      }
      await settle();
      expect(states() - before).to.be.at.most(1);
      clock.tick(TabTimings.activityMs);
      await settle();
      expect(a.router.peers()[0]).to.deep.include({ id: 'b', activeAt: b.router.activeAt });
    });
  });

  describe('a tab that closes or never answers', () => {
    it('closed mid-call while the visitor was asked there: the model is told it did not happen; the chip says the tab closed', async () => {
      const hub = new FakeHub();
      const clock = new FakeClock();
      const a = tab(hub, clock, 'a', []);
      let signalThere: AbortSignal | undefined;
      const b = tab(hub, clock, 'b', ['add_task'], (call, signal) => {
        signalThere = signal;
        queueMicrotask(() => b.router.callProgress(call.id, true));
        return new Promise(() => undefined); // waits on the visitor
      });
      await settle();
      const call = routeFrom(a.router, { name: 'add_task' });
      await settle();
      expect(call.parts.at(-1)).to.deep.include({ status: 'awaiting-confirmation', elsewhere: { tab: 'Page b', waiting: true } });
      b.router.dispose(); // the tab closes (pagehide says goodbye)
      const outcome = await call.done;
      expect(outcome.status).to.equal('failed');
      expect(outcome.failure).to.equal('tab-gone');
      expect(String(outcome.result.error)).to.contain('did not happen');
      expect(call.parts.at(-1)).to.deep.include({ status: 'failed', failure: 'tab-gone', elsewhere: { tab: 'Page b' } });
      expect(signalThere?.aborted).to.equal(true);
    });

    it('stopped answering mid-call (no goodbye): after the silence limit the model is told it may or may not have happened', async () => {
      const hub = new FakeHub();
      const clock = new FakeClock();
      const a = tab(hub, clock, 'a', []);
      const b = tab(hub, clock, 'b', ['add_task'], () => new Promise(() => undefined));
      await settle();
      const call = routeFrom(a.router, { name: 'add_task' });
      let done = false;
      void call.done.then(() => (done = true));
      await settle();
      // While it answers pings, the call waits as long as it takes (a confirmation has no time limit).
      await clock.tickAsync(TabTimings.silenceMs * 3);
      await settle();
      expect(done).to.equal(false);
      b.channel.deaf = true; // crashed or frozen
      await clock.tickAsync(TabTimings.silenceMs + TabTimings.pingMs);
      const outcome = await call.done;
      expect(outcome.failure).to.equal('tab-gone');
      expect(String(outcome.result.error)).to.contain('may or may not have happened');
    });

    it('never accepts (gone without a goodbye): the call is taken back and runs in the next tab, here if need be', async () => {
      const hub = new FakeHub();
      const clock = new FakeClock();
      const a = tab(hub, clock, 'a', ['add_task']);
      const b = tab(hub, clock, 'b', ['add_task']);
      clock.tick(TabTimings.activityMs); // past the announcement throttle
      b.router.markActive();
      await settle();
      expect(a.router.peers()[0]).to.deep.include({ id: 'b', activeAt: clock.now() });
      b.channel.deaf = true;
      const call = routeFrom(a.router, { name: 'add_task' }, { hereHas: true });
      await settle();
      await clock.tickAsync(TabTimings.acceptMs);
      expect((await call.done).result).to.deep.equal({ success: true, ranIn: 'here' });
      expect(b.ran).to.have.length(0);
      expect(a.router.peers().map((p) => p.id)).to.deep.equal([]);
    });

    it('a call read after its deadline is declined (the caller has moved on; it must not run twice)', async () => {
      const hub = new FakeHub();
      const clock = new FakeClock();
      const b = tab(hub, clock, 'b', ['add_task']);
      await settle();
      const spy = hub.channel();
      const replies: unknown[] = [];
      spy.addEventListener('message', (e) => replies.push(e.data));
      spy.postMessage({ v: TAB_PROTOCOL, site: SITE, from: 'x', kind: 'call', to: 'b', id: 'late', name: 'add_task', args: {}, deadline: clock.now() - 1 });
      await settle();
      expect(b.ran).to.have.length(0);
      expect(replies).to.deep.include({ v: TAB_PROTOCOL, site: SITE, from: 'b', kind: 'declined', to: 'x', id: 'late' });
    });

    it('Stop in the asking tab stops the call there; the chip reads cancelled', async () => {
      const hub = new FakeHub();
      const clock = new FakeClock();
      const a = tab(hub, clock, 'a', []);
      let there: AbortSignal | undefined;
      tab(hub, clock, 'b', ['add_task'], (_call, signal) => {
        there = signal;
        return new Promise(() => undefined);
      });
      await settle();
      const stop = new AbortController();
      const call = routeFrom(a.router, { name: 'add_task' }, { signal: stop.signal });
      await settle();
      stop.abort();
      const outcome = await call.done;
      expect(outcome.status).to.equal('cancelled');
      expect(outcome.result.cancelled).to.equal(true);
      await settle();
      expect(there?.aborted).to.equal(true);
      expect(call.parts.at(-1)).to.deep.include({ status: 'cancelled' });
    });

    it('leaves no timer behind once calls are settled and the tabs left', async () => {
      const hub = new FakeHub();
      const clock = new FakeClock();
      const a = tab(hub, clock, 'a', []);
      tab(hub, clock, 'b', ['add_task']);
      await settle();
      await routeFrom(a.router, { name: 'add_task' }).done;
      for (const r of routers.splice(0)) r.dispose();
      expect(clock.pending).to.equal(0);
    });
  });

  describe('what the model is offered', () => {
    it('tools only other live tabs have, most recently active first, within the deferral budget', async () => {
      const hub = new FakeHub();
      const clock = new FakeClock();
      const a = tab(hub, clock, 'a', ['add_task']);
      const b = tab(hub, clock, 'b', ['add_task', 'buy_mug']);
      const many = Array.from({ length: 30 }, (_, i) => `tool_${i}`);
      tab(hub, clock, 'c', many);
      b.router.markActive();
      await settle();
      const names = a.router.remoteSchemas(new Set(['add_task'])).map((s) => s.name);
      expect(names[0]).to.equal('buy_mug');
      expect(names).to.not.include('add_task');
      expect(names).to.have.length(20);
      // A tab gone silent past its lifetime is forgotten.
      clock.tick(TabTimings.peerTtlMs + 1);
      b.channel.deaf = true;
      expect(a.router.peers().map((p) => p.id)).to.not.include('b');
    });
  });

  describe('an untrusted channel', () => {
    it('ignores other sites, other versions and malformed messages', () => {
      const ok = { v: TAB_PROTOCOL, site: SITE, from: 'b', kind: 'bye' };
      expect(parseTabMessage(ok, SITE)).to.deep.equal(ok);
      const call = { ...ok, kind: 'call', to: 'a', id: 'i', name: 'add_task', deadline: 1 };
      expect(parseTabMessage({ ...call, args: { title: 'Milk', tags: ['a'] } }, SITE)).to.deep.include({ args: { title: 'Milk', tags: ['a'] } });
      expect(parseTabMessage({ ...call, args: '{"title":"Milk"}' }, SITE)).to.deep.include({ args: '{"title":"Milk"}' });
      const bad: unknown[] = [
        null,
        'bye',
        [],
        { ...ok, site: 'other' },
        { ...ok, v: 2 },
        { ...ok, from: '../../x' },
        { ...ok, from: 'x'.repeat(65) },
        { ...ok, kind: 'nonsense' },
        { ...ok, kind: 'call', to: 'a', id: 'i', name: 'Bad Name', args: {}, deadline: 1 },
        { ...ok, kind: 'call', to: 'a', id: 'i', name: 'add_task', args: {}, deadline: 'soon' },
        { ...ok, kind: 'call', to: 'a', id: 'i', name: 'add_task', args: new Map([['title', 'x']]), deadline: 1 },
        { ...ok, kind: 'call', to: 'a', id: 'i', name: 'add_task', args: { when: new Date(0) }, deadline: 1 },
        { ...ok, kind: 'call', to: 'a', id: 'i', name: 'add_task', args: { title: 'x'.repeat(70_000) }, deadline: 1 },
        { ...ok, kind: 'call', to: 'a', id: 'i', name: 'add_task', args: [1, 2], deadline: 1 },
        { ...ok, kind: 'state', title: 't', activeAt: Number.NaN, tools: [] },
        { ...ok, kind: 'state', title: 't', activeAt: 1, tools: 'all' },
        { ...ok, kind: 'result', to: 'a', id: 'i', ending: 'exploded', result: {} },
        { ...ok, kind: 'result', to: 'a', id: 'i', ending: 'succeeded', result: 'yes' },
        { ...ok, kind: 'status', to: 'a', id: 'i', waiting: 'yes' },
      ];
      for (const message of bad) expect(parseTabMessage(message, SITE), JSON.stringify(message)).to.equal(null);
      // Announced tools meet the page's own limits: reserved names, bad schemas and oversize parameters are dropped.
      const state = parseTabMessage(
        {
          ...ok,
          kind: 'state',
          title: 'x'.repeat(500),
          activeAt: 1,
          tools: [
            schema('add_task'),
            schema('read_page'),
            schema('Bad'),
            { ...schema('no_object'), parameters: { type: 'string' } },
            { ...schema('huge'), parameters: { type: 'object', description: 'x'.repeat(9000) } },
            { ...schema('negative'), cost: -1 },
            schema('add_task'),
          ],
        },
        SITE,
      );
      expect(state && state.kind === 'state' ? [state.title.length, state.tools.map((t) => t.name)] : null).to.deep.equal([120, ['add_task']]);
      expect(tabChannelName('wave-chat:transcript:demo')).to.equal('wave-chat:tabs:wave-chat:transcript:demo');
    });

    it('a forged message cannot make a tab run a tool it does not offer, settle a call it did not send, or claim activity in the future', async () => {
      const hub = new FakeHub();
      const clock = new FakeClock();
      const a = tab(hub, clock, 'a', []);
      const b = tab(hub, clock, 'b', ['add_task'], (call) => {
        b.ran.push(call);
        return new Promise(() => undefined);
      });
      const hostile = hub.channel();
      const post = (m: Record<string, unknown>) => hostile.postMessage({ v: TAB_PROTOCOL, site: SITE, ...m });
      await settle();
      post({ from: 'evil', kind: 'call', to: 'b', id: 'x1', name: 'delete_everything', args: {}, deadline: clock.now() + 1000 });
      await settle();
      expect(b.ran).to.have.length(0);

      // A call from a to b is out; the forger answers for b (its id is not b's) and for a made-up call.
      const call = routeFrom(a.router, { name: 'add_task' });
      let done = false;
      void call.done.then(() => (done = true));
      await settle();
      const wire = hub.log.find((m) => m.kind === 'call' && m.from === 'a')?.id;
      post({ from: 'evil', kind: 'result', to: 'a', id: wire, ending: 'succeeded', result: { success: true, forged: true } });
      post({ from: 'evil', kind: 'accepted', to: 'a', id: 'made-up' });
      await settle();
      expect(done).to.equal(false);

      // Activity claimed far in the future counts as "now", so the visitor's next real use outranks it.
      post({ from: 'evil', kind: 'state', title: 'Evil', activeAt: clock.now() + 1e12, tools: [schema('add_task')] });
      await settle();
      expect(a.router.peers().find((p) => p.id === 'evil')?.activeAt).to.equal(clock.now());
      b.router.dispose();
      await call.done;
    });

    it('a result from the other tab is sanitized again here before the model reads it', async () => {
      const hub = new FakeHub();
      const clock = new FakeClock();
      const a = tab(hub, clock, 'a', []);
      tab(hub, clock, 'b', ['add_task'], async (call) => ({
        callId: call.id,
        name: call.name,
        status: 'succeeded',
        result: { success: true, notes: 'x'.repeat(50_000) },
        label: '',
        attempts: 1,
      }));
      await settle();
      const outcome = await routeFrom(a.router, { name: 'add_task' }).done;
      expect(JSON.stringify(outcome.result).length).to.be.at.most(4200);
    });
  });
});

describe('several tabs: WaveSession', () => {
  const trusted: VisitorEvidence = { isTrusted: true, source: 'pointer' };
  const untrusted: VisitorEvidence = { isTrusted: false, source: 'pointer' };
  const sessions: WaveSession[] = [];
  // The validator's engine loads on first use: loaded once here, so the calls below wait on nothing real.
  before(() => import('../../src/tools/interpreter-engine.js'));
  afterEach(() => {
    for (const r of routers.splice(0)) r.dispose();
    for (const s of sessions.splice(0)) s.dispose();
  });

  function sessionTab(hub: FakeHub, clock: FakeClock, name: string) {
    let deps: SessionLoopDeps | undefined;
    const session = new WaveSession({
      siteId: SITE,
      clock,
      storage: new MemoryStorage(),
      validatorEngine: 'interpreter',
      warn: () => undefined,
      createLoop: (d): SessionLoop => {
        deps = d;
        return { send: async () => undefined, retry: async () => undefined, reset: () => undefined };
      },
    });
    sessions.push(session);
    const router = new TabRouter({
      channel: hub.channel(),
      siteId: SITE,
      clock,
      tabId: name,
      title: () => `Page ${name}`,
      tools: () => session.ownToolSchemas(),
      runHere: (call, signal, from) => session.runCall(call, { signal, fromTab: from.tab }),
    });
    routers.push(router);
    session.registry.onChange(() => router.toolsChanged());
    session.onEvent((event) => {
      if (event.type === 'confirmation-shown') router.callProgress(event.request.id, true);
      else if (event.type === 'tool-call-started') router.callProgress(event.callId, false);
    });
    router.start();
    session.setToolRouter(router);
    const chips = () => session.state.items.filter((i): i is Extract<TranscriptItem, { kind: 'tool' }> => i.kind === 'tool');
    /** A model call, as the loop makes it. */
    const modelCall = async (call: ToolCall, signal = new AbortController().signal) => {
      await session.send('go');
      return (deps as SessionLoopDeps).runTool(call, signal);
    };
    return { session, router, chips, modelCall, schemas: () => deps?.schemas() ?? session.getHostToolSchemas() };
  }

  it('the consent is asked in the tab the call went to, under its own rules; the answer and result come back to the asking tab', async () => {
    const hub = new FakeHub();
    const clock = new FakeClock();
    const a = sessionTab(hub, clock, 'a');
    const b = sessionTab(hub, clock, 'b');
    const tasks: string[] = [];
    b.session.registerTool('add_task', {
      description: 'Add a task.',
      confirm: true,
      parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
      handler: ({ title }: { title: string }) => {
        tasks.push(title);
        return { added: title };
      },
      summary: (args: { title: string }) => `Added “${args.title}”`,
    });
    b.router.markActive();
    await settle();
    // The asking tab's model is offered b's tool.
    expect(a.session.getHostToolSchemas().map((s) => s.name)).to.deep.equal(['add_task']);

    const pending = a.modelCall({ id: 'm1', name: 'add_task', arguments: { title: 'Milk' } });
    await settle();
    await until(() => b.chips().some((c) => c.status === 'awaiting-confirmation'));
    await settle();
    const waiting = b.chips().find((c) => c.status === 'awaiting-confirmation');
    expect(waiting?.name).to.equal('add_task');
    // The chip there says the conversation in the other tab asked for it.
    expect(waiting?.fromTab).to.equal('Page a');
    // The asking tab has no buttons: its chip says where the visitor is asked.
    expect(a.chips()).to.deep.equal([
      { kind: 'tool', id: 'm1', name: 'add_task', title: 'Add task', subject: 'Milk', status: 'awaiting-confirmation', elsewhere: { tab: 'Page b', waiting: true } },
    ]);
    expect(a.session.answerConfirmation('m1', 'confirm', trusted)).to.equal(false);
    // A script's (untrusted) answer settles nothing there either.
    expect(b.session.answerConfirmation(waiting!.id, 'confirm', untrusted)).to.equal(false);
    expect(tasks).to.deep.equal([]);
    expect(b.session.answerConfirmation(waiting!.id, 'confirm', trusted)).to.equal(true);
    const outcome = await pending;
    expect(tasks).to.deep.equal(['Milk']);
    expect(outcome.status).to.equal('succeeded');
    expect(outcome.result).to.deep.include({ success: true, added: 'Milk' });
    expect(a.chips()[0]).to.deep.include({ status: 'succeeded', label: 'Added “Milk”', elsewhere: { tab: 'Page b' } });
    // b's own conversation record is not written: the call is a page call there (no model step).
    expect(b.chips()[0]?.step).to.equal(undefined);
  });

  it("the visitor's no in the other tab reaches the asking tab as declined; the model is told not to retry", async () => {
    const hub = new FakeHub();
    const clock = new FakeClock();
    const a = sessionTab(hub, clock, 'a');
    const b = sessionTab(hub, clock, 'b');
    let ran = 0;
    b.session.registerTool('delete_task', { description: 'Delete.', confirm: true, handler: () => ran++ });
    await settle();
    const pending = a.modelCall({ id: 'm4', name: 'delete_task', arguments: {} });
    await until(() => b.chips().some((c) => c.status === 'awaiting-confirmation'));
    const waiting = b.chips().find((c) => c.status === 'awaiting-confirmation');
    expect(b.session.answerConfirmation(waiting!.id, 'cancel', trusted)).to.equal(true);
    const outcome = await pending;
    expect(ran).to.equal(0);
    expect(outcome).to.deep.include({ status: 'cancelled', declined: true });
    expect(String(outcome.result.error)).to.contain('Do not retry');
    expect(a.chips()[0]).to.deep.include({ status: 'declined', elsewhere: { tab: 'Page b' } });
  });

  it('a spend grant in the asking tab does not cover a cost-bearing call that runs in another tab', async () => {
    const hub = new FakeHub();
    const clock = new FakeClock();
    const a = sessionTab(hub, clock, 'a');
    const b = sessionTab(hub, clock, 'b');
    a.session.approveSpending(trusted);
    expect(a.session.state.grant.active).to.equal(true);
    b.session.registerTool('buy_mug', { description: 'Buy a mug.', cost: 30, handler: () => ({ bought: true }) });
    await settle();
    void a.modelCall({ id: 'm2', name: 'buy_mug', arguments: {} });
    await until(() => b.chips().length > 0);
    await until(() => b.chips()[0]?.status === 'awaiting-confirmation');
    expect(b.chips().map((c) => c.status)).to.deep.equal(['awaiting-confirmation']);
  });

  it('with nobody offering the tool, the model call resolves at once with "not available on this page"', async () => {
    const hub = new FakeHub();
    const clock = new FakeClock();
    const a = sessionTab(hub, clock, 'a');
    a.session.registerTool('local_tool', { description: 'Here.', handler: () => ({}) });
    const outcome = await a.modelCall({ id: 'm3', name: 'add_task', arguments: {} });
    expect(String(outcome.result.error)).to.contain('not available on this page');
    expect(a.chips().at(-1)).to.deep.include({ name: 'add_task', status: 'failed', failure: 'unknown-tool' });
  });

  it('a tab offers only its own page tools to the others: no built-ins, no load_tools, no tools it sees elsewhere', async () => {
    const hub = new FakeHub();
    const clock = new FakeClock();
    const a = sessionTab(hub, clock, 'a');
    const b = sessionTab(hub, clock, 'b');
    b.session.registerTool('add_task', { description: 'Add.', handler: () => ({}) });
    await settle();
    expect(a.session.ownToolSchemas()).to.deep.equal([]);
    expect(a.router.peers()[0]?.tools).to.deep.equal(['add_task']);
    expect(b.router.peers()[0]?.tools).to.deep.equal([]);
  });
});
