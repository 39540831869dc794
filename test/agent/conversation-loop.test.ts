import { expect } from '@open-wc/testing';
import { ConversationLoop, type LoopUpdate } from '../../src/agent/conversation-loop.js';
import type { PageToolSchema, ToolCall, ToolOutcome } from '../../src/tools/types.js';
import type { WaveMessage, WaveRequest, WaveStreamEvent } from '../../src/transport/protocol.js';
import { TransportError, type ModelTransport } from '../../src/transport/sse-client.js';

type Script = (request: WaveRequest, signal: AbortSignal) => AsyncIterable<WaveStreamEvent>;

/** A transport that plays one script per model step and records every request. */
function scriptedTransport(scripts: Script[]) {
  const requests: WaveRequest[] = [];
  const transport: ModelTransport = {
    step(request, signal) {
      requests.push(structuredClone(request));
      const script = scripts.shift();
      if (!script) throw new Error(`no script for step ${requests.length}`);
      return script(request, signal);
    },
  };
  return { transport, requests };
}

/** A step that replies with these events. */
function reply(...events: WaveStreamEvent[]): Script {
  return async function* () {
    for (const event of events) {
      await Promise.resolve();
      yield event;
    }
  };
}

const text = (delta: string): WaveStreamEvent => ({ type: 'text', delta });
const call = (id: string, name: string, args: unknown = {}): WaveStreamEvent => ({
  type: 'tool_call',
  id,
  name,
  arguments: args as Record<string, unknown>,
});
const end = (reason: 'stop' | 'tool_calls' | 'length' = 'stop'): WaveStreamEvent => ({ type: 'end', reason });

/** A step that yields `first`, then waits (honouring the signal) until the test releases it. */
function heldStep(first: WaveStreamEvent[]) {
  let release!: (events: WaveStreamEvent[]) => void;
  let reached!: () => void;
  const atHold = new Promise<void>((r) => (reached = r));
  const state = { returned: false };
  const script: Script = async function* (_request, signal) {
    try {
      for (const event of first) yield event;
      reached();
      const rest = await new Promise<WaveStreamEvent[]>((resolve, reject) => {
        release = resolve;
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
      for (const event of rest) yield event;
    } finally {
      state.returned = true;
    }
  };
  return { script, atHold, release: (events: WaveStreamEvent[]) => release(events), state };
}

function schema(name: string): PageToolSchema {
  return { name, description: `${name} tool`, parameters: { type: 'object' }, confirm: false, cost: 0, tier3: false };
}

function outcome(c: ToolCall, result: Record<string, unknown>, status: ToolOutcome['status'] = 'succeeded'): ToolOutcome {
  return { callId: c.id, name: c.name, status, result, label: 'done', attempts: 1 };
}

interface Setup {
  scripts: Script[];
  runTool?: (call: ToolCall, signal: AbortSignal) => Promise<ToolOutcome>;
  tools?: string[];
  schemas?: () => PageToolSchema[];
  context?: () => string | null;
  maxSteps?: number;
}

function setup(options: Setup) {
  const { transport, requests } = scriptedTransport(options.scripts);
  const updates: LoopUpdate[] = [];
  const toolRuns: ToolCall[] = [];
  let id = 0;
  const tools = (options.tools ?? ['add_item', 'get_cart', 'checkout']).map(schema);
  const loop = new ConversationLoop({
    transport,
    runTool: async (c, signal) => {
      toolRuns.push(c);
      return options.runTool ? options.runTool(c, signal) : outcome(c, { success: true, ran: c.name });
    },
    schemas: options.schemas ?? (() => tools),
    context: options.context ?? (() => null),
    siteId: 'site-1',
    conversationId: () => 'conv-1',
    ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
    onUpdate: (u) => updates.push(u),
    createId: () => `id${++id}`,
  });
  const notices = () => updates.filter((u): u is Extract<LoopUpdate, { type: 'notice' }> => u.type === 'notice');
  const statuses = () => updates.filter((u) => u.type === 'status').map((u) => (u as { status: string }).status);
  return { loop, requests, updates, toolRuns, notices, statuses };
}

const toolMessages = (history: readonly WaveMessage[]) =>
  history.filter((m): m is Extract<WaveMessage, { role: 'tool' }> => m.role === 'tool');

describe('ConversationLoop', () => {
  describe('a simple answer', () => {
    it('sends the message with history, schemas and context, streams the reply, then goes idle', async () => {
      const t = setup({ scripts: [reply({ type: 'meta', model: 'offline demo', offline: true }, text('Hel'), text('lo!'), end())], context: () => '{"page":"cart"}' });
      await t.loop.send('Hi there', new AbortController().signal);
      expect(t.requests).to.have.length(1);
      expect(t.requests[0]).to.deep.equal({
        v: 1,
        siteId: 'site-1',
        conversationId: 'conv-1',
        messages: [{ role: 'user', content: 'Hi there' }],
        tools: ['add_item', 'get_cart', 'checkout'].map(schema),
        context: '{"page":"cart"}',
      });
      expect(t.updates).to.deep.equal([
        { type: 'user-message', id: 'id1', text: 'Hi there' },
        { type: 'status', status: 'streaming' },
        { type: 'meta', model: 'offline demo', offline: true },
        { type: 'assistant-delta', id: 'id2', delta: 'Hel' },
        { type: 'assistant-delta', id: 'id2', delta: 'lo!' },
        { type: 'assistant-done', id: 'id2', text: 'Hello!' },
        { type: 'status', status: 'idle' },
      ]);
      expect(t.loop.history).to.deep.equal([
        { role: 'user', content: 'Hi there' },
        { role: 'assistant', content: 'Hello!' },
      ]);
    });

    it('does not record an empty model turn in the history', async () => {
      const t = setup({ scripts: [reply(end())] });
      await t.loop.send('Hi', new AbortController().signal);
      expect(t.loop.history).to.deep.equal([{ role: 'user', content: 'Hi' }]);
      expect(t.statuses().at(-1)).to.equal('idle');
    });

    it('ignores an empty message', async () => {
      const t = setup({ scripts: [] });
      await t.loop.send('   ', new AbortController().signal);
      expect(t.requests).to.have.length(0);
      expect(t.updates).to.deep.equal([]);
    });

    it('passes the server\'s unknown-tools notice on as a fact; other notice codes are ignored', async () => {
      const t = setup({
        scripts: [reply(text('Done.'), { type: 'notice', code: 'unknown_tools', tools: ['delete_all'] }, { type: 'notice', code: 'later_code' }, end())],
      });
      await t.loop.send('Delete everything', new AbortController().signal);
      expect(t.notices()).to.deep.equal([{ type: 'notice', level: 'info', notice: { kind: 'tools-unavailable', tools: ['delete_all'] }, retryable: false }]);
      expect(t.loop.history.at(-1)).to.deep.equal({ role: 'assistant', content: 'Done.' });
    });

    it('tells the visitor when a reply was cut at its length limit', async () => {
      const t = setup({ scripts: [reply(text('Long…'), end('length'))] });
      await t.loop.send('Tell me everything', new AbortController().signal);
      expect(t.notices()).to.have.length(1);
      expect(t.notices()[0]).to.deep.include({ level: 'info', notice: { kind: 'reply-truncated' } });
    });
  });

  describe('tool chains', () => {
    it('runs a multi-step chain: two tools in two steps, then an answer', async () => {
      const t = setup({
        scripts: [
          reply(text('Let me look.'), call('c1', 'get_cart'), end('tool_calls')),
          reply(call('c2', 'add_item', { sku: 'milk' }), end('tool_calls')),
          reply(text('Added milk.'), end()),
        ],
      });
      await t.loop.send('Add milk', new AbortController().signal);
      expect(t.toolRuns.map((c) => [c.id, c.name, c.arguments])).to.deep.equal([
        ['c1', 'get_cart', {}],
        ['c2', 'add_item', { sku: 'milk' }],
      ]);
      expect(t.requests).to.have.length(3);
      expect(t.requests[1]?.messages).to.deep.equal([
        { role: 'user', content: 'Add milk' },
        { role: 'assistant', content: 'Let me look.', toolCalls: [{ id: 'c1', name: 'get_cart', arguments: {} }] },
        { role: 'tool', toolCallId: 'c1', name: 'get_cart', content: '{"success":true,"ran":"get_cart"}' },
      ]);
      expect(t.requests[2]?.messages).to.have.length(5);
      expect(t.loop.history.at(-1)).to.deep.equal({ role: 'assistant', content: 'Added milk.' });
      expect(t.statuses()).to.deep.equal(['streaming', 'running-tools', 'streaming', 'running-tools', 'streaming', 'idle']);
    });

    it('a call id the conversation already used (models that number calls per request) gets a fresh one: two calls, two results', async () => {
      const t = setup({
        scripts: [
          reply(call('call_1', 'get_cart'), end('tool_calls')),
          reply(call('call_1', 'add_item', { sku: 'milk' }), end('tool_calls')),
          reply(text('Done.'), end()),
        ],
      });
      await t.loop.send('Go', new AbortController().signal);
      const [first, second] = t.toolRuns;
      expect(first?.id).to.equal('call_1');
      expect(second?.id).to.not.equal('call_1');
      const history = t.loop.history;
      const calls = history.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : []));
      const results = toolMessages(history).map((m) => m.toolCallId);
      expect(calls).to.deep.equal(['call_1', second!.id]);
      expect(results).to.deep.equal(calls);
    });

    it('runs several tool calls of one step in order, one after the other', async () => {
      const log: string[] = [];
      const t = setup({
        scripts: [reply(call('a', 'add_item', { n: 1 }), call('b', 'add_item', { n: 2 }), call('c', 'checkout'), end('tool_calls')), reply(text('Done.'), end())],
        runTool: async (c) => {
          log.push(`start ${c.id}`);
          await new Promise((r) => setTimeout(r, 0));
          log.push(`end ${c.id}`);
          return outcome(c, { success: true, id: c.id });
        },
      });
      await t.loop.send('Buy two things', new AbortController().signal);
      expect(log).to.deep.equal(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
      expect(toolMessages(t.requests[1]?.messages ?? []).map((m) => m.toolCallId)).to.deep.equal(['a', 'b', 'c']);
    });

    it('re-reads schemas and context at every step', async () => {
      let tools = [schema('load_tools')];
      let context = 'v1';
      const t = setup({
        scripts: [reply(call('c1', 'load_tools', { names: ['checkout'] }), end('tool_calls')), reply(call('c2', 'checkout'), end('tool_calls')), reply(text('Paid.'), end())],
        schemas: () => tools,
        context: () => context,
        runTool: async (c) => {
          // A handler that registers a tool and updates the page state mid-chain.
          if (c.name === 'load_tools') tools = [schema('load_tools'), schema('checkout')];
          if (c.name === 'checkout') context = 'v2';
          return outcome(c, { success: true });
        },
      });
      await t.loop.send('Pay', new AbortController().signal);
      expect(t.requests.map((r) => r.tools.map((s) => s.name))).to.deep.equal([['load_tools'], ['load_tools', 'checkout'], ['load_tools', 'checkout']]);
      expect(t.requests.map((r) => r.context)).to.deep.equal(['v1', 'v1', 'v2']);
      expect(t.toolRuns.map((c) => c.name)).to.deep.equal(['load_tools', 'checkout']);
    });

    it('runs a duplicated call id only once', async () => {
      const t = setup({ scripts: [reply(call('c1', 'add_item'), call('c1', 'add_item'), end('tool_calls')), reply(text('ok'), end())] });
      await t.loop.send('Add', new AbortController().signal);
      expect(t.toolRuns).to.have.length(1);
      expect(toolMessages(t.loop.history)).to.have.length(1);
    });

    it('passes non-object arguments to runTool as they came', async () => {
      const t = setup({ scripts: [reply(call('c1', 'add_item', '{"sku":"A"}'), end('tool_calls')), reply(text('ok'), end())] });
      await t.loop.send('Add', new AbortController().signal);
      expect(t.toolRuns[0]?.arguments).to.equal('{"sku":"A"}');
    });

    it("passes the runner's unknown-tool result through as the tool message", async () => {
      const unknown = { success: false, error: 'Unknown tool "add_item". Available: get_cart.' };
      const t = setup({
        scripts: [reply(call('c1', 'add_item'), end('tool_calls')), reply(text('Sorry.'), end())],
        runTool: async (c) => outcome(c, unknown, 'unknown'),
      });
      await t.loop.send('Add', new AbortController().signal);
      expect(toolMessages(t.requests[1]?.messages ?? [])).to.deep.equal([
        { role: 'tool', toolCallId: 'c1', name: 'add_item', content: JSON.stringify(unknown) },
      ]);
    });

    it('answers a call to a tool this step did not offer with a clear error, without running anything', async () => {
      const t = setup({ scripts: [reply(call('c1', 'delete_everything'), end('tool_calls')), reply(text('Sorry.'), end())], tools: ['get_cart'] });
      await t.loop.send('Do it', new AbortController().signal);
      expect(t.toolRuns).to.have.length(0);
      const result = JSON.parse(toolMessages(t.loop.history)[0]?.content ?? '{}') as { success: boolean; error: string };
      expect(result.success).to.equal(false);
      expect(result.error).to.contain('Unknown tool "delete_everything"');
      expect(result.error).to.contain('get_cart');
    });

    it('records a runTool that throws as a failed result and carries on', async () => {
      const t = setup({
        scripts: [reply(call('c1', 'add_item'), end('tool_calls')), reply(text('It failed.'), end())],
        runTool: async () => {
          throw new Error('boom');
        },
      });
      await t.loop.send('Add', new AbortController().signal);
      expect(JSON.parse(toolMessages(t.loop.history)[0]?.content ?? '{}')).to.deep.equal({ success: false, error: 'boom' });
      expect(t.loop.history.at(-1)).to.deep.equal({ role: 'assistant', content: 'It failed.' });
    });
  });

  describe('stop', () => {
    it('mid-stream: aborts the stream, keeps the partial text, and closes unrun calls as stopped', async () => {
      const held = heldStep([text('Adding'), call('c1', 'add_item')]);
      const t = setup({ scripts: [held.script] });
      const stop = new AbortController();
      const sending = t.loop.send('Add milk', stop.signal);
      await held.atHold;
      stop.abort();
      await sending;
      expect(held.state.returned, 'stream closed').to.equal(true);
      expect(t.toolRuns).to.have.length(0);
      expect(t.loop.history).to.deep.equal([
        { role: 'user', content: 'Add milk' },
        { role: 'assistant', content: 'Adding', toolCalls: [{ id: 'c1', name: 'add_item', arguments: {} }] },
        {
          role: 'tool',
          toolCallId: 'c1',
          name: 'add_item',
          content: JSON.stringify({ success: false, cancelled: true, error: 'Stopped by the visitor.' }),
        },
      ]);
      expect(t.updates).to.deep.include({ type: 'assistant-done', id: 'id2', text: 'Adding' });
      expect(t.statuses().at(-1)).to.equal('idle');
      expect(t.notices()).to.deep.equal([]);
    });

    it('during a running handler: aborts its signal and closes the remaining calls as stopped', async () => {
      const stop = new AbortController();
      let handlerSignal: AbortSignal | undefined;
      let started!: () => void;
      const running = new Promise<void>((r) => (started = r));
      const t = setup({
        scripts: [reply(call('c1', 'add_item'), call('c2', 'checkout'), end('tool_calls'))],
        runTool: (c, signal) =>
          new Promise((resolve) => {
            handlerSignal = signal;
            started();
            signal.addEventListener('abort', () => resolve(outcome(c, { success: false, cancelled: true, error: 'Aborted.' }, 'cancelled')));
          }),
      });
      const sending = t.loop.send('Buy', stop.signal);
      await running;
      expect(handlerSignal?.aborted).to.equal(false);
      stop.abort();
      await sending;
      expect(handlerSignal?.aborted).to.equal(true);
      expect(t.toolRuns.map((c) => c.id)).to.deep.equal(['c1']);
      expect(toolMessages(t.loop.history).map((m) => [m.toolCallId, JSON.parse(m.content)])).to.deep.equal([
        ['c1', { success: false, cancelled: true, error: 'Aborted.' }],
        ['c2', { success: false, cancelled: true, error: 'Stopped by the visitor.' }],
      ]);
      expect(t.requests).to.have.length(1);
      expect(t.statuses().at(-1)).to.equal('idle');
    });

    it('stops even when the transport ignores its signal', async () => {
      const ignoring: Script = async function* () {
        yield text('Hmm');
        await new Promise(() => undefined);
      };
      const t = setup({ scripts: [ignoring] });
      const stop = new AbortController();
      const sending = t.loop.send('Hi', stop.signal);
      await new Promise((r) => setTimeout(r, 0));
      stop.abort();
      await sending;
      expect(t.loop.history).to.deep.equal([
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hmm' },
      ]);
    });
  });

  describe('errors and retry', () => {
    it('shows a clear retryable notice when the network fails', async () => {
      const failing: Script = async function* () {
        yield* [];
        throw new TransportError({ code: 'network', message: "Can't reach the assistant. Check your connection.", retryable: true });
      };
      const t = setup({ scripts: [failing] });
      await t.loop.send('Hi', new AbortController().signal);
      expect(t.notices()).to.deep.equal([
        // A fact (the code, and the transport's message for developers); the element words it.
        { type: 'notice', level: 'error', notice: { kind: 'step-failed', code: 'network', message: "Can't reach the assistant. Check your connection." }, retryable: true },
      ]);
      expect(t.statuses().at(-1)).to.equal('error');
      expect(t.loop.canRetry).to.equal(true);
    });

    it("reports the server's code for a non-retryable error, and retry does nothing", async () => {
      const failing: Script = async function* () {
        yield* [];
        throw new TransportError({ code: 'origin_not_allowed', message: 'This site may not use the assistant.', retryable: false, status: 403 });
      };
      const t = setup({ scripts: [failing] });
      await t.loop.send('Hi', new AbortController().signal);
      expect(t.notices()[0]).to.deep.include({ notice: { kind: 'step-failed', code: 'origin_not_allowed', message: 'This site may not use the assistant.' }, retryable: false });
      await t.loop.retry(new AbortController().signal);
      expect(t.requests).to.have.length(1);
    });

    it('server error after a completed tool, then retry: the tool does not run again', async () => {
      let handlerRuns = 0;
      const t = setup({
        scripts: [
          reply(call('c1', 'checkout'), end('tool_calls')),
          reply(text('Your ord'), { type: 'error', code: 'provider_error', message: 'The model failed.', retryable: true }),
          reply(text('Your order is placed.'), end()),
        ],
        runTool: async (c) => {
          handlerRuns += 1;
          return outcome(c, { success: true, orderId: 7 });
        },
      });
      await t.loop.send('Check out', new AbortController().signal);
      expect(handlerRuns).to.equal(1);
      expect(t.notices()).to.deep.equal([{ type: 'notice', level: 'error', notice: { kind: 'step-failed', code: 'provider_error', message: 'The model failed.' }, retryable: true }]);
      // The failed partial reply is closed on screen but not kept in the history.
      expect(t.loop.history.at(-1)).to.deep.include({ role: 'tool', toolCallId: 'c1' });

      await t.loop.retry(new AbortController().signal);
      expect(handlerRuns, 'checkout ran once').to.equal(1);
      expect(t.requests).to.have.length(3);
      expect(t.requests[2]?.messages).to.deep.equal(t.requests[1]?.messages);
      expect(t.loop.history.at(-1)).to.deep.equal({ role: 'assistant', content: 'Your order is placed.' });
      expect(t.loop.canRetry).to.equal(false);
    });

    it('treats a stream that ends without end as an interrupted, retryable step', async () => {
      const t = setup({ scripts: [reply(text('Half')), reply(text('Whole.'), end())] });
      await t.loop.send('Hi', new AbortController().signal);
      expect(t.notices()[0]).to.include({ level: 'error', retryable: true });
      expect(t.loop.history).to.deep.equal([{ role: 'user', content: 'Hi' }]);
      await t.loop.retry(new AbortController().signal);
      expect(t.loop.history.at(-1)).to.deep.equal({ role: 'assistant', content: 'Whole.' });
    });

    it('survives callbacks that throw', async () => {
      const t = setup({
        scripts: [reply(text('x'), end())],
        context: () => {
          throw new Error('context exploded');
        },
      });
      await t.loop.send('Hi', new AbortController().signal);
      expect(t.notices()[0]).to.include({ level: 'error' });
      expect(t.requests).to.have.length(0);
    });
  });

  describe('step limit', () => {
    it('stops a runaway chain after maxSteps model steps with a notice, and retry continues it', async () => {
      const loopingStep = (n: number) => reply(call(`c${n}`, 'get_cart'), end('tool_calls'));
      const t = setup({ scripts: [loopingStep(1), loopingStep(2), loopingStep(3), reply(text('Finally.'), end())], maxSteps: 3 });
      await t.loop.send('Check', new AbortController().signal);
      expect(t.requests).to.have.length(3);
      expect(t.toolRuns).to.have.length(3);
      expect(t.notices()).to.have.length(1);
      expect(t.notices()[0]).to.deep.include({ notice: { kind: 'step-limit', steps: 3 }, retryable: true });
      expect(t.statuses().at(-1)).to.equal('idle');

      await t.loop.retry(new AbortController().signal);
      expect(t.requests).to.have.length(4);
      expect(t.loop.history.at(-1)).to.deep.equal({ role: 'assistant', content: 'Finally.' });
    });

    it('defaults to 8 steps per visitor message', async () => {
      const scripts = Array.from({ length: 20 }, (_, i) => reply(call(`c${i}`, 'get_cart'), end('tool_calls')));
      const t = setup({ scripts });
      await t.loop.send('Loop', new AbortController().signal);
      expect(t.requests).to.have.length(8);
    });
  });

  describe('concurrency and reset', () => {
    it('rejects a message sent while a reply is in flight, with an info notice', async () => {
      const held = heldStep([text('Thinking')]);
      const t = setup({ scripts: [held.script] });
      const first = t.loop.send('First', new AbortController().signal);
      await held.atHold;
      await t.loop.send('Second', new AbortController().signal);
      expect(t.notices()).to.have.length(1);
      expect(t.notices()[0]).to.include({ level: 'info', retryable: false });
      held.release([end()]);
      await first;
      expect(t.loop.history.filter((m) => m.role === 'user')).to.deep.equal([{ role: 'user', content: 'First' }]);
    });

    it('reset forgets the history and an in-flight chain never writes into the new one', async () => {
      let handlerSignal: AbortSignal | undefined;
      let started!: () => void;
      const running = new Promise<void>((r) => (started = r));
      const t = setup({
        scripts: [reply(call('c1', 'add_item'), end('tool_calls')), reply(text('New chat.'), end())],
        runTool: (c, signal) =>
          new Promise((resolve) => {
            handlerSignal = signal;
            started();
            signal.addEventListener('abort', () => resolve(outcome(c, { success: false, cancelled: true }, 'cancelled')));
          }),
      });
      const first = t.loop.send('Old', new AbortController().signal);
      await running;
      t.loop.reset();
      expect(handlerSignal?.aborted, 'handler aborted by reset').to.equal(true);
      expect(t.loop.history).to.deep.equal([]);
      await first;
      await t.loop.send('New', new AbortController().signal);
      expect(t.loop.history).to.deep.equal([
        { role: 'user', content: 'New' },
        { role: 'assistant', content: 'New chat.' },
      ]);
    });
  });
});
