import { expect } from '@open-wc/testing';
import { ConversationLoop, type LoopUpdate } from '../../src/agent/conversation-loop.js';
import { RunnerText } from '../../src/tools/runner.js';
import { persistableItems } from '../../components/transcript-store.js';
import type { SessionState, TranscriptItem, WaveCoreEvent } from '../../src/agent/types.js';
import { WaveSession, type SessionLoop, type SessionLoopDeps, type WaveSessionOptions } from '../../src/agent/wave-session.js';
import { spendGrantKey } from '../../src/consent/spend-grant.js';
import type { VisitorEvidence } from '../../src/consent/types.js';
import { MemoryStorage } from '../../src/storage.js';
import type { HandlerContext } from '../../src/tools/types.js';
import type { WaveRequest, WaveStreamEvent } from '../../src/transport/protocol.js';
import { TransportError, type ModelTransport } from '../../src/transport/sse-client.js';
import { FakeClock, flushMicrotasks } from '../helpers/fake-clock.js';
import { ArgumentValidator } from '../../src/tools/validator.js';
import { until } from '../helpers/until.js';

const trusted: VisitorEvidence = { isTrusted: true, source: 'pointer' };
const untrusted: VisitorEvidence = { isTrusted: false, source: 'pointer' };

const sessions: WaveSession[] = [];

function setup(options: WaveSessionOptions = {}) {
  const clock = new FakeClock();
  const storage = new MemoryStorage();
  const warnings: string[] = [];
  const session = new WaveSession({
    siteId: 'demo',
    clock,
    storage,
    warn: (m) => warnings.push(m),
    validatorEngine: 'interpreter',
    ...options,
  });
  sessions.push(session);
  const events: WaveCoreEvent[] = [];
  session.onEvent((e) => events.push(e));
  const chips = () => session.state.items.filter((i): i is Extract<TranscriptItem, { kind: 'tool' }> => i.kind === 'tool');
  // After the lazy validator chunk, however long it takes to come.
  const waitingChip = () => until(() => chips().find((c) => c.status === 'awaiting-confirmation')?.confirmation, 'a confirmation chip');
  return { session, clock, storage, events, warnings, chips, waitingChip };
}

async function turns(k = 10): Promise<void> {
  for (let i = 0; i < k; i++) await flushMicrotasks();
}

/** A loop that records what the session gives it and lets the test drive updates. */
function fakeLoop() {
  const calls: Array<{ kind: 'send' | 'retry'; text?: string; signal: AbortSignal }> = [];
  let deps: SessionLoopDeps | undefined;
  let resets = 0;
  const create = (d: SessionLoopDeps): SessionLoop => {
    deps = d;
    return {
      send: (text, signal) => {
        calls.push({ kind: 'send', text, signal });
        return new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      },
      retry: async (signal) => {
        calls.push({ kind: 'retry', signal });
      },
      reset: () => {
        resets++;
      },
    };
  };
  return { create, calls, deps: () => deps as SessionLoopDeps, resets: () => resets };
}

// The validator's engine is a lazy chunk: loaded once before the tests, so those that count
// turns (not time) after a tool call never race its arrival from the server.
before(() => new ArgumentValidator({ engine: 'interpreter' }).compile({ type: 'object' }));

describe('WaveSession', () => {
  afterEach(() => {
    for (const s of sessions.splice(0)) s.dispose();
  });

  describe('page tools API', () => {
    it('callTool resolves with what the model would receive; unknown names resolve with an error', async () => {
      const { session } = setup();
      session.registerTool('add_task', {
        description: 'Add a task.',
        parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
        handler: ({ title }: { title: string }) => ({ title, el: () => 1 }),
      });
      expect(await session.callTool('add_task', { title: 'Milk' })).to.deep.equal({ success: true, title: 'Milk' });
      const invalid = await session.callTool('add_task', {});
      expect(invalid.success).to.equal(false);
      expect(String(invalid.error)).to.match(/^Invalid arguments:/);
      const unknown = await session.callTool('nope');
      expect(unknown.success).to.equal(false);
      expect(unknown.error).to.be.a('string');
    });

    it('getHostToolSchemas carries the built-ins only while no page tool is registered, never handlers', () => {
      const { session } = setup({
        builtinTools: { read_page: { description: 'Read the page.', handler: () => ({}) }, navigate: { description: 'Go.', handler: () => ({}), confirm: true } },
      });
      expect(session.getHostToolSchemas().map((s) => s.name)).to.deep.equal(['read_page', 'navigate']);
      expect(session.getHostToolSchemas()[1]).to.deep.equal({
        name: 'navigate',
        description: 'Go.',
        parameters: { type: 'object', properties: {} },
        confirm: true,
        cost: 0,
        tier3: false,
      });
      session.registerTool('add_scene', { description: 'Add a scene.', cost: 40, handler: () => ({}) });
      const schemas = session.getHostToolSchemas();
      expect(schemas.map((s) => s.name)).to.deep.equal(['add_scene']);
      expect(schemas[0]).to.include({ confirm: true, cost: 40, tier3: false });
      expect(JSON.stringify(schemas)).to.not.contain('handler');
      expect(session.unregisterTool('add_scene')).to.equal(true);
      expect(session.getHostToolSchemas().map((s) => s.name)).to.deep.equal(['read_page', 'navigate']);
    });

    it('getHostToolSchemas defers a large catalogue behind load_tools', () => {
      const { session } = setup();
      const map: Record<string, { description: string; handler: () => object }> = {};
      for (let i = 0; i < 25; i++) map[`tool_${i}`] = { description: `Tool ${i}.`, handler: () => ({}) };
      expect(session.registerTools(map)).to.equal(25);
      const names = session.getHostToolSchemas().map((s) => s.name);
      expect(names).to.include('load_tools');
      expect(names.length).to.be.lessThan(26);
    });

    it('chips are transcript items updated in place by id; every change is a new state object', async () => {
      const { session, chips } = setup();
      session.registerTool('first', { handler: () => ({}) });
      session.registerTool('second', { runningLabel: 'Working…', handler: () => ({}), summary: () => 'Second done' });
      const states: SessionState[] = [];
      session.subscribe((s) => states.push(s));
      await session.callTool('first');
      await session.callTool('second');
      expect(chips().map((c) => [c.name, c.title, c.status, c.label])).to.deep.equal([
        ['first', 'First', 'succeeded', undefined],
        ['second', 'Second', 'succeeded', 'Second done'],
      ]);
      expect(states.length).to.be.greaterThan(3);
      for (let i = 1; i < states.length; i++) {
        expect(states[i]).to.not.equal(states[i - 1]);
        expect(states[i]?.items).to.not.equal(states[i - 1]?.items);
      }
      // The first snapshots still show the requested, then the running chip: nothing was mutated afterwards.
      expect(states[0]?.items[0]).to.include({ status: 'requested' });
      expect(states[1]?.items[0]).to.include({ status: 'running' });
    });

    it('setContext feeds the loop context', async () => {
      const loop = fakeLoop();
      const { session } = setup({ createLoop: loop.create });
      session.setContext({ cart: 2 });
      void session.send('hi');
      await turns(2);
      expect(loop.deps().context()).to.equal('{"cart":2}');
      session.setContext(null);
      expect(loop.deps().context()).to.equal(null);
    });
  });

  describe('consent', () => {
    it('answerConfirmation ignores untrusted evidence and settles with trusted evidence', async () => {
      const { session, waitingChip, events } = setup();
      let calls = 0;
      session.registerTool('delete_task', { confirm: true, confirmLabel: 'Delete?', handler: () => ({ n: ++calls }) });
      const result = session.callTool('delete_task');
      const req = await waitingChip();
      expect(session.answerConfirmation(req.id, 'confirm', untrusted)).to.equal(false);
      await turns();
      expect(calls).to.equal(0);
      expect(session.answerConfirmation(req.id, 'confirm', trusted)).to.equal(true);
      expect(await result).to.deep.equal({ success: true, n: 1 });
      expect(events.filter((e) => e.type.startsWith('confirmation')).map((e) => e.type)).to.deep.equal(['confirmation-shown', 'confirmation-answered']);
    });

    it('approve-session starts the grant (state and event); revokeGrant needs trusted evidence', async () => {
      const { session, waitingChip, events } = setup();
      session.registerTool('add_scene', { cost: 40, handler: () => ({}) });
      const first = session.callTool('add_scene');
      session.answerConfirmation((await waitingChip()).id, 'approve-session', trusted);
      await first;
      expect(session.state.grant).to.include({ active: true, spent: 40, cap: 200 });
      await session.callTool('add_scene');
      expect(session.state.grant.spent).to.equal(80);
      expect(session.revokeGrant(untrusted)).to.equal(false);
      expect(session.state.grant.active).to.equal(true);
      expect(session.revokeGrant(trusted)).to.equal(true);
      expect(session.state.grant.active).to.equal(false);
      expect(events.filter((e) => e.type.startsWith('grant')).map((e) => e.type)).to.deep.equal(['grant-started', 'grant-revoked']);
    });

    it('the grant expires 30 minutes after it was granted (event and state)', async () => {
      const { session, clock, events } = setup();
      expect(session.approveSpending(untrusted)).to.equal(false);
      expect(session.approveSpending(trusted)).to.equal(true);
      clock.tick(30 * 60_000);
      expect(session.state.grant.active).to.equal(false);
      expect(events.filter((e) => e.type === 'grant-expired')).to.have.length(1);
    });

    it('close cancels outstanding confirmations and aborts in-flight handlers', async () => {
      const { session, waitingChip, events } = setup();
      let signal: AbortSignal | undefined;
      session.registerTool('hang', { handler: (_a: unknown, ctx: HandlerContext) => { signal = ctx.signal; return new Promise(() => undefined); } });
      session.registerTool('delete_task', { confirm: true, handler: () => ({}) });
      const hanging = session.callTool('hang');
      const confirming = session.callTool('delete_task');
      await waitingChip();
      session.close();
      expect(signal?.aborted).to.equal(true);
      expect((await hanging).cancelled).to.equal(true);
      // Withdrawn, not declined: the model is told it did not run and not to retry it; no visitor said no.
      expect(await confirming).to.deep.equal({ success: false, cancelled: true, error: RunnerText.withdrawn });
      expect(session.state.items.find((i) => i.kind === 'tool' && i.name === 'delete_task')).to.deep.include({ status: 'cancelled' });
      const answered = events.find((e) => e.type === 'confirmation-answered');
      expect(answered).to.include({ decision: 'cancel', source: 'system' });
    });

    it('pagehide clears the grant and its stored copy', async () => {
      const { session, storage } = setup();
      session.approveSpending(trusted);
      expect(storage.getItem(spendGrantKey('demo'))).to.be.a('string');
      window.dispatchEvent(new Event('pagehide'));
      expect(session.state.grant.active).to.equal(false);
      expect(storage.getItem(spendGrantKey('demo'))).to.equal(null);
    });

    it('restart clears the grant, transcript and deferral, and makes a new conversation id', async () => {
      const loop = fakeLoop();
      const { session } = setup({ createLoop: loop.create });
      const id = session.state.conversationId;
      for (let i = 0; i < 25; i++) session.registerTool(`t_${i}`, { description: `Tool ${i}.`, handler: () => ({}) });
      const deferred = session.getHostToolSchemas().find((s) => s.name === 'load_tools')!;
      const hidden = session.registry.list().map((t) => t.name).find((n) => !session.getHostToolSchemas().some((s) => s.name === n))!;
      expect(deferred).to.not.equal(undefined);
      await session.callTool('load_tools', { names: [hidden] });
      expect(session.getHostToolSchemas().map((s) => s.name)).to.include(hidden);
      session.approveSpending(trusted);
      void session.send('hello');
      await turns(2);
      session.restart();
      expect(session.state.items).to.deep.equal([]);
      expect(session.state.grant.active).to.equal(false);
      expect(session.getHostToolSchemas().map((s) => s.name), 'loaded tools are forgotten').to.not.include(hidden);
      expect(session.state.conversationId).to.not.equal(id);
      expect(session.state.conversationId).to.match(/^[0-9a-f-]{36}$/);
      expect(loop.deps().conversationId()).to.equal(session.state.conversationId);
      expect(loop.calls[0]?.signal.aborted).to.equal(true);
      expect(loop.resets()).to.equal(1);
    });

    it('restart cancels an outstanding confirmation: the call resolves cancelled and the handler never runs', async () => {
      const { session, waitingChip } = setup();
      let runs = 0;
      session.registerTool('wipe', { confirm: true, handler: () => ++runs });
      const call = session.callTool('wipe', {});
      await waitingChip();
      session.restart();
      const result = await call;
      expect(result['cancelled']).to.equal(true);
      expect(runs).to.equal(0);
    });
  });

  describe('conversation', () => {
    it('send without a loop adds the message and an error notice instead of throwing', async () => {
      const { session, events } = setup();
      await session.send('hello');
      expect(session.state.items.map((i) => i.kind)).to.deep.equal(['message', 'notice']);
      expect(session.state.items[1]).to.deep.include({ level: 'error', notice: { kind: 'not-connected' } });
      expect(events.map((e) => e.type)).to.deep.equal(['message-sent']);
      await session.retry();
      expect(session.state.items.at(-1)?.kind).to.equal('notice');
    });

    it('creates the loop lazily, folds its updates into the state, and stop aborts the reply', async () => {
      const loop = fakeLoop();
      const { session, events } = setup({ createLoop: loop.create, transport: 'T' });
      expect(loop.calls).to.have.length(0);
      const sending = session.send('hello');
      await turns(2);
      const deps = loop.deps();
      expect(deps.transport).to.equal('T');
      expect(deps.siteId).to.equal('demo');
      expect(loop.calls[0]?.text).to.equal('hello');
      const updates: LoopUpdate[] = [
        { type: 'user-message', id: 'u1', text: 'hello' },
        { type: 'status', status: 'streaming' },
        { type: 'meta', model: 'offline demo model', offline: true },
        { type: 'assistant-delta', id: 'a1', delta: 'Hi ' },
        { type: 'assistant-delta', id: 'a1', delta: 'there' },
      ];
      for (const u of updates) deps.onUpdate(u);
      expect(session.state.status).to.equal('streaming');
      expect(session.state.model).to.deep.equal({ name: 'offline demo model', offline: true });
      expect(session.state.items[1]).to.deep.equal({ kind: 'message', id: 'a1', role: 'assistant', text: 'Hi there', streaming: true });
      deps.onUpdate({ type: 'assistant-done', id: 'a1', text: 'Hi there!' });
      deps.onUpdate({ type: 'notice', level: 'info', notice: { kind: 'busy' }, retryable: false });
      expect(session.state.items.map((i) => i.kind)).to.deep.equal(['message', 'message', 'notice']);
      expect(session.state.items[2]).to.deep.include({ level: 'info', notice: { kind: 'busy' } });
      expect(session.state.items[1]).to.include({ streaming: false, text: 'Hi there!' });
      expect(events.map((e) => e.type)).to.deep.equal(['message-sent', 'message-received']);
      session.stop();
      await sending;
      expect(loop.calls[0]?.signal.aborted).to.equal(true);
    });

    it('runTool given to the loop runs model calls through the same consent gate', async () => {
      const loop = fakeLoop();
      const { session, waitingChip } = setup({ createLoop: loop.create });
      let calls = 0;
      session.registerTool('delete_task', { confirm: true, handler: () => ({ n: ++calls }) });
      void session.send('delete it');
      await turns(2);
      const reply = loop.calls[0]?.signal as AbortSignal;
      const outcome = loop.deps().runTool({ id: 'm1', name: 'delete_task', arguments: '{}' }, reply);
      const req = await waitingChip();
      expect(req.id).to.equal('m1');
      session.stop();
      expect((await outcome).status).to.equal('cancelled');
      expect(calls).to.equal(0);
    });
  });

  describe('the transcript is the one record', () => {
    /** A real loop on a scripted transport: each step answers with the next script, requests are kept. */
    function realLoop(scripts: WaveStreamEvent[][]) {
      const requests: WaveRequest[] = [];
      const transport: ModelTransport = {
        async *step(request) {
          requests.push(JSON.parse(JSON.stringify(request)) as WaveRequest);
          for (const event of scripts.shift() ?? [{ type: 'end', reason: 'stop' }]) yield event;
        },
      } as ModelTransport;
      const createLoop = (deps: SessionLoopDeps) => new ConversationLoop({ ...deps, transport });
      return { requests, createLoop };
    }

    it("the request is derived from the session's transcript: text, tool calls with results, no display-only rows", async () => {
      const { requests, createLoop } = realLoop([
        [{ type: 'text', delta: 'Adding.' }, { type: 'tool_call', id: 'c1', name: 'add_task', arguments: { title: 'Milk' } }, { type: 'end', reason: 'tool_calls' }],
        [{ type: 'text', delta: 'Added milk.' }, { type: 'end', reason: 'stop' }],
        [{ type: 'text', delta: 'Sure.' }, { type: 'end', reason: 'stop' }],
      ]);
      const { session } = setup({ createLoop });
      session.registerTool('add_task', {
        description: 'Add a task.',
        parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
        handler: ({ title }: { title: string }) => ({ title }),
      });
      await session.send('Add milk');
      // A page's own callTool shows a chip but is not part of the model's conversation.
      await session.callTool('add_task', { title: 'Eggs' });
      await session.send('Thanks');
      expect(requests).to.have.length(3);
      expect(requests[2]!.messages).to.deep.equal([
        { role: 'user', content: 'Add milk' },
        { role: 'assistant', content: 'Adding.', toolCalls: [{ id: 'c1', name: 'add_task', arguments: { title: 'Milk' } }] },
        { role: 'tool', toolCallId: 'c1', name: 'add_task', content: '{"success":true,"title":"Milk"}' },
        { role: 'assistant', content: 'Added milk.' },
        { role: 'user', content: 'Thanks' },
      ]);
      // The model's chip is filed under its step; the page's own call is not.
      const parts = session.state.items.filter((i): i is Extract<TranscriptItem, { kind: 'tool' }> => i.kind === 'tool');
      expect(parts.map((p) => [p.name, p.status, typeof p.step])).to.deep.equal([
        ['add_task', 'succeeded', 'string'],
        ['add_task', 'succeeded', 'undefined'],
      ]);
    });

    it('restored turns (persist-transcript) start the record: the next request carries them, results re-capped', async () => {
      const { requests, createLoop } = realLoop([[{ type: 'text', delta: 'Welcome back.' }, { type: 'end', reason: 'stop' }]]);
      const { session } = setup({ createLoop });
      const kept = persistableItems([
        { kind: 'message', id: 'u0', role: 'user', text: 'Add milk', streaming: false },
        { kind: 'tool', id: 'call_1', name: 'add_task', status: 'succeeded', step: 's0', input: { title: 'Milk' }, output: JSON.stringify({ success: true, note: 'n'.repeat(20_000) }) },
        { kind: 'message', id: 's1', role: 'assistant', text: 'Added milk.', streaming: false },
      ]);
      session.restore(kept);
      expect(session.state.earlier).to.have.length(3);
      expect(session.state.items).to.deep.equal([]);
      await session.send('And eggs?');
      const messages = requests[0]!.messages;
      expect(messages.map((m) => m.role)).to.deep.equal(['user', 'assistant', 'tool', 'assistant', 'user']);
      expect(messages[0]).to.deep.equal({ role: 'user', content: 'Add milk' });
      const tool = messages[2] as { content: string };
      expect(tool.content.length).to.be.below(5000);
      expect(messages[4]).to.deep.equal({ role: 'user', content: 'And eggs?' });
      // A new conversation forgets them.
      session.restart();
      expect(session.state.earlier).to.deep.equal([]);
    });

    it('restore with the kept record of several tabs: this page\'s rows it holds move into it, in its order, never twice', async () => {
      const { requests, createLoop } = realLoop([
        [{ type: 'text', delta: 'Hi from A.' }, { type: 'end', reason: 'stop' }],
        [{ type: 'text', delta: 'Again.' }, { type: 'end', reason: 'stop' }],
      ]);
      const { session } = setup({ createLoop });
      await session.send('Hello from A');
      const own = persistableItems(session.state.items);
      expect(own).to.have.length(2);
      // Another tab kept a turn before this page's, and one after it.
      const before = [
        { kind: 'message', id: 'b1', role: 'user', text: 'From B', streaming: false },
        { kind: 'message', id: 'b2', role: 'assistant', text: 'B answered', streaming: false },
      ] as TranscriptItem[];
      const later = [{ kind: 'message', id: 'b3', role: 'user', text: 'B again', streaming: false }] as TranscriptItem[];
      session.restore([...before, ...own, ...later]);
      expect(session.state.earlier!.map((i) => i.id)).to.deep.equal(['b1', 'b2', ...own.map((i) => i.id), 'b3']);
      expect(session.state.items, "this page's rows are not shown twice").to.deep.equal([]);
      await session.send('More');
      expect(requests[1]!.messages.map((m) => m.content)).to.deep.equal(['From B', 'B answered', 'Hello from A', 'Hi from A.', 'B again', 'More']);
    });

    it('restore keeps a call run here for another tab\'s turn once, at that turn\'s filed row, with its origin', async () => {
      const { session } = setup();
      session.registerTool('add_task', { description: 'Add.', handler: () => ({ ok: true }) });
      await session.runCall({ id: 'call_2', name: 'add_task', arguments: {} }, { fromTab: 'Shop' });
      const routed = session.state.items.find((i) => i.kind === 'tool');
      expect(routed).to.deep.include({ id: 'call_2', status: 'succeeded', fromTab: 'Shop' });
      expect(persistableItems(session.state.items), 'not kept by the tab that ran it').to.deep.equal([]);
      const asking = [
        { kind: 'message', id: 'u1', role: 'user', text: 'add milk', streaming: false },
        // An older turn reused the call id; the newest filed row is this call.
        { kind: 'tool', id: 'call_2', name: 'add_task', status: 'succeeded', step: 's0', input: {}, output: '{"success":true}' },
        { kind: 'tool', id: 'call_2', name: 'add_task', status: 'succeeded', step: 's1', input: { title: 'Milk' }, output: '{"success":true}' },
        { kind: 'message', id: 's2', role: 'assistant', text: 'Added milk.', streaming: false },
      ] as TranscriptItem[];
      session.restore(asking);
      const earlier = session.state.earlier!;
      expect(earlier.map((i) => [i.id, i.kind === 'tool' ? i.step : '', i.kind === 'tool' ? i.fromTab : ''])).to.deep.equal([
        ['u1', '', ''],
        ['call_2', 's0', undefined],
        ['call_2', 's1', 'Shop'],
        ['s2', '', ''],
      ]);
      expect(session.state.items).to.deep.equal([]);
    });

    it('restore takes finished rows only and never a pending confirmation', () => {
      const { session } = setup();
      session.restore([
        { kind: 'message', id: 'a', role: 'assistant', text: 'stre', streaming: true },
        { kind: 'tool', id: 'c1', name: 'x', status: 'awaiting-confirmation' },
        { kind: 'tool', id: 'c2', name: 'x', status: 'running' },
        { kind: 'message', id: 'u', role: 'user', text: 'ok', streaming: false },
      ] as TranscriptItem[]);
      expect(session.state.earlier!.map((i) => i.id)).to.deep.equal(['u']);
    });

    it('retry after a failed step re-sends only that step: the partial reply is not sent, the completed tool never re-runs', async () => {
      const { requests, createLoop } = realLoop([
        [{ type: 'tool_call', id: 'c1', name: 'add_task', arguments: { title: 'Milk' } }, { type: 'end', reason: 'tool_calls' }],
        [{ type: 'text', delta: 'Half' }, { type: 'error', code: 'upstream', message: 'down', retryable: true }],
        [{ type: 'text', delta: 'Done.' }, { type: 'end', reason: 'stop' }],
      ]);
      const { session } = setup({ createLoop });
      let runs = 0;
      session.registerTool('add_task', { description: 'Add.', handler: () => ({ n: ++runs }) });
      await session.send('Add milk');
      expect(session.state.items.find((i) => i.kind === 'message' && i.text === 'Half')).to.deep.include({ discarded: true });
      await session.retry();
      expect(runs).to.equal(1);
      expect(requests[2]!.messages).to.deep.equal(requests[1]!.messages);
      expect(requests[2]!.messages.at(-1)).to.deep.include({ role: 'tool', toolCallId: 'c1' });
    });
  });
});

describe('WaveSession: messages while an answer comes, Retry and Stop (with the real loop)', () => {
  type Script = (request: WaveRequest, signal: AbortSignal) => AsyncIterable<WaveStreamEvent>;
  const live: WaveSession[] = [];
  afterEach(() => {
    for (const s of live.splice(0)) s.dispose();
  });

  /** A server that answers each step with the next script (or fails while `down`), recording requests. */
  function server() {
    const requests: WaveRequest[] = [];
    const scripts: Script[] = [];
    let down = false;
    const transport: ModelTransport = {
      step(request, signal) {
        requests.push(structuredClone(request));
        if (down) throw new TransportError({ code: 'network', message: 'The wave server could not be reached.', retryable: true });
        const script = scripts.shift();
        if (!script) throw new Error(`no script for step ${requests.length}`);
        return script(request, signal);
      },
    };
    return {
      transport,
      requests,
      answer: (...texts: string[]) => {
        for (const t of texts) scripts.push(reply({ type: 'text', delta: t }, { type: 'end', reason: 'stop' }));
      },
      hold: () => {
        const h = held();
        scripts.push(h.script);
        return h;
      },
      /** A step that sends nothing until stopped. */
      silent: () => {
        let reached!: () => void;
        const atHold = new Promise<void>((r) => (reached = r));
        scripts.push(async function* (_request, signal) {
          reached();
          await new Promise<void>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
          yield { type: 'end', reason: 'stop' };
        });
        return { atHold };
      },
      setDown: (v: boolean) => {
        down = v;
      },
      userTexts: (i: number) => (requests[i]?.messages ?? []).filter((m) => m.role === 'user').map((m) => m.content),
    };
  }

  function reply(...events: WaveStreamEvent[]): Script {
    return async function* () {
      for (const event of events) {
        await Promise.resolve();
        yield event;
      }
    };
  }

  /** A step that streams `Partial` and then waits (honouring the signal) until released. */
  function held() {
    let release!: () => void;
    let reached!: () => void;
    const atHold = new Promise<void>((r) => (reached = r));
    const script: Script = async function* (_request, signal) {
      yield { type: 'text', delta: 'Partial' };
      reached();
      await new Promise<void>((resolve, reject) => {
        release = resolve;
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
      yield { type: 'end', reason: 'stop' };
    };
    return { script, atHold, release: () => release() };
  }

  function setupReal() {
    const s = server();
    const session = new WaveSession({
      siteId: 'demo',
      clock: new FakeClock(),
      storage: new MemoryStorage(),
      validatorEngine: 'interpreter',
      transport: s.transport,
      createLoop: (deps) => new ConversationLoop({ ...deps, transport: deps.transport as ModelTransport }),
    });
    live.push(session);
    const messages = (role: 'user' | 'assistant') =>
      session.state.items.filter((i): i is Extract<TranscriptItem, { kind: 'message' }> => i.kind === 'message' && i.role === role);
    const retryable = () => session.state.items.filter((i) => i.kind === 'notice' && i.retryable);
    return { session, s, messages, retryable };
  }

  it('a message sent while an answer streams is queued visibly, then sent on its own when the answer ends', async () => {
    const { session, s, messages } = setupReal();
    const first = s.hold();
    s.answer('Second answer');
    const one = session.send('first');
    await first.atHold;
    const two = session.send('second');
    expect(session.state.queue?.map((q) => q.text)).to.deep.equal(['second']);
    expect(s.requests).to.have.length(1);
    expect(messages('user').map((m) => m.text), 'not in the conversation yet').to.deep.equal(['first']);
    expect(session.state.items.some((i) => i.kind === 'notice'), 'no "wait" notice: the message is kept').to.equal(false);
    first.release();
    await one;
    await two;
    expect(session.state.queue).to.deep.equal([]);
    expect(s.userTexts(1)).to.deep.equal(['first', 'second']);
    expect(messages('user').map((m) => m.text)).to.deep.equal(['first', 'second']);
    expect(messages('assistant').map((m) => m.text)).to.deep.equal(['Partial', 'Second answer']);
  });

  it('five quick sends stay five messages, each sent on its own, in order', async () => {
    const { session, s, messages } = setupReal();
    const first = s.hold();
    s.answer('a2', 'a3', 'a4', 'a5');
    const sends = [session.send('m1')];
    await first.atHold;
    for (const m of ['m2', 'm3', 'm4', 'm5']) sends.push(session.send(m));
    expect(session.state.queue?.map((q) => q.text)).to.deep.equal(['m2', 'm3', 'm4', 'm5']);
    first.release();
    await Promise.all(sends);
    expect(s.requests).to.have.length(5);
    expect(s.requests.map((r) => r.messages.at(-1)?.content)).to.deep.equal(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(messages('user').map((m) => m.text)).to.deep.equal(['m1', 'm2', 'm3', 'm4', 'm5']);
  });

  it('Stop marks the stopped answer; the queue then goes on', async () => {
    const { session, s, messages } = setupReal();
    const first = s.hold();
    s.answer('Next');
    const one = session.send('first');
    await first.atHold;
    const two = session.send('then this');
    session.stop();
    await one;
    await two;
    const answers = messages('assistant');
    expect(answers[0]).to.include({ text: 'Partial', stopped: true });
    expect(answers[1]!.text).to.equal('Next');
    expect(answers[1]!.stopped, 'only the stopped answer is marked').to.equal(undefined);
  });

  it('Stop before any text came leaves a stopped marker of its own', async () => {
    const { session, s, messages } = setupReal();
    const silent = s.silent();
    const one = session.send('hello');
    await silent.atHold;
    session.stop();
    await one;
    const answers = messages('assistant');
    expect(answers).to.have.length(1);
    expect(answers[0]).to.include({ text: '', stopped: true });
  });

  it('two messages sent while the server was down: one live Retry, for the failed step; it sends both and then goes away', async () => {
    const { session, s, retryable } = setupReal();
    s.setDown(true);
    await session.send('first');
    expect(retryable()).to.have.length(1);
    await session.send('second');
    expect(retryable(), 'the first failure is superseded: one live Retry').to.have.length(1);
    const notices = session.state.items.filter((i) => i.kind === 'notice');
    expect(notices).to.have.length(2);
    expect((notices.at(-1) as { retryable?: boolean }).retryable).to.equal(true);
    s.setDown(false);
    s.answer('Both answered');
    await session.retry();
    expect(s.userTexts(s.requests.length - 1), 'both messages reach the model').to.deep.equal(['first', 'second']);
    expect(retryable(), 'a Retry that succeeded disappears').to.have.length(0);
    await session.retry();
    expect(s.requests, 'nothing left to retry').to.have.length(3);
  });

  it('a Retry that fails again leaves exactly one live Retry', async () => {
    const { session, s, retryable } = setupReal();
    s.setDown(true);
    await session.send('first');
    await session.retry();
    await session.retry();
    expect(s.requests).to.have.length(3);
    expect(retryable()).to.have.length(1);
  });

  it('closing drops the queue (its sends resolve); a restart starts empty', async () => {
    const { session, s } = setupReal();
    const first = s.hold();
    const one = session.send('first');
    await first.atHold;
    const two = session.send('queued');
    session.close();
    await one;
    await two;
    expect(session.state.queue).to.deep.equal([]);
    expect(s.requests).to.have.length(1);
  });
});
