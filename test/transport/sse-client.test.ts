import { expect } from '@open-wc/testing';
import type { Clock } from '../../src/clock.js';
import type { WaveRequest, WaveStreamEvent } from '../../src/transport/protocol.js';
import { TransportError, createSseTransport } from '../../src/transport/sse-client.js';
import { until } from '../helpers/until.js';

const REQUEST: WaveRequest = {
  v: 1,
  siteId: 'site-1',
  conversationId: 'conv-1',
  messages: [{ role: 'user', content: 'hello' }],
  tools: [],
  context: '{"cart":[]}',
};

function sse(type: string, data: unknown): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A real ReadableStream the test feeds chunk by chunk, recording whether it was cancelled. */
function controlledBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const state = { cancelled: false, cancelReason: undefined as unknown };
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel(reason) {
      state.cancelled = true;
      state.cancelReason = reason;
    },
  });
  return {
    stream,
    state,
    push: (text: string | Uint8Array) => controller.enqueue(typeof text === 'string' ? encoder.encode(text) : text),
    close: () => controller.close(),
    error: (e: unknown) => controller.error(e),
  };
}

/** A stream that hands out its chunks one per pull, each on a later macrotask (real streaming). */
function streamingBody(chunks: ReadonlyArray<string | Uint8Array>) {
  const encoder = new TextEncoder();
  let i = 0;
  const state = { cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((r) => setTimeout(r, 0));
      if (i >= chunks.length) {
        controller.close();
        return;
      }
      const chunk = chunks[i++] as string | Uint8Array;
      controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

interface FetchCall {
  url: string;
  init: RequestInit;
}

function stubFetch(respond: (call: FetchCall) => Response | Promise<Response>) {
  const calls: FetchCall[] = [];
  const fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const call = { url: String(input), init: init ?? {} };
    calls.push(call);
    return Promise.resolve().then(() => respond(call));
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

function sseResponse(body: ReadableStream<Uint8Array>, status = 200): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/event-stream' } });
}

async function collect(iterable: AsyncIterable<WaveStreamEvent>): Promise<WaveStreamEvent[]> {
  const events: WaveStreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** A clock whose timers fire only when the test says so. */
function manualClock() {
  let nextId = 1;
  const timers = new Map<number, { fn: () => void; ms: number }>();
  const clock: Clock = {
    now: () => 0,
    setTimeout: (fn, ms) => {
      const id = nextId++;
      timers.set(id, { fn, ms });
      return id;
    },
    clearTimeout: (handle) => {
      timers.delete(handle as number);
    },
  };
  return {
    clock,
    pending: () => [...timers.values()].map((t) => t.ms),
    fireAll: () => {
      const due = [...timers.values()];
      timers.clear();
      for (const t of due) t.fn();
    },
  };
}

describe('createSseTransport', () => {
  describe('request', () => {
    it('POSTs the request as JSON asking for an event stream, with extra headers', async () => {
      const { fetch, calls } = stubFetch(() => sseResponse(streamingBody([sse('end', { reason: 'stop' })]).stream));
      const transport = createSseTransport({ endpoint: 'https://wave.test/wave', fetch, headers: { 'x-k': 'v' } });
      await collect(transport.step(REQUEST, new AbortController().signal));
      expect(calls).to.have.length(1);
      const call = calls[0] as FetchCall;
      expect(call.url).to.equal('https://wave.test/wave');
      expect(call.init.method).to.equal('POST');
      const headers = call.init.headers as Record<string, string>;
      expect(headers['accept']).to.equal('text/event-stream');
      expect(headers['content-type']).to.equal('application/json');
      expect(headers['x-k']).to.equal('v');
      expect(JSON.parse(call.init.body as string)).to.deep.equal(REQUEST);
      expect(call.init.signal).to.be.instanceOf(AbortSignal);
    });
  });

  describe('streaming', () => {
    it('yields meta and text deltas in order, then end, split across chunks', async () => {
      const raw =
        sse('meta', { type: 'meta', model: 'offline demo', offline: true }) +
        sse('text', { type: 'text', delta: 'Hel' }) +
        sse('text', { type: 'text', delta: 'lo 👋' }) +
        sse('end', { type: 'end', reason: 'stop' });
      const bytes = new TextEncoder().encode(raw);
      const chunks = [bytes.subarray(0, 17), bytes.subarray(17, 101), bytes.subarray(101, bytes.length - 3), bytes.subarray(bytes.length - 3)];
      const { fetch } = stubFetch(() => sseResponse(streamingBody(chunks).stream));
      const events = await collect(createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, new AbortController().signal));
      expect(events).to.deep.equal([
        { type: 'meta', model: 'offline demo', offline: true },
        { type: 'text', delta: 'Hel' },
        { type: 'text', delta: 'lo 👋' },
        { type: 'end', reason: 'stop' },
      ]);
    });

    it('yields several tool calls of one step', async () => {
      const body = streamingBody([
        sse('tool_call', { type: 'tool_call', id: 'c1', name: 'add_item', arguments: { sku: 'A' } }),
        sse('tool_call', { type: 'tool_call', id: 'c2', name: 'add_item', arguments: { sku: 'B' } }) +
          sse('end', { type: 'end', reason: 'tool_calls' }),
      ]);
      const { fetch } = stubFetch(() => sseResponse(body.stream));
      const events = await collect(createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, new AbortController().signal));
      expect(events).to.deep.equal([
        { type: 'tool_call', id: 'c1', name: 'add_item', arguments: { sku: 'A' } },
        { type: 'tool_call', id: 'c2', name: 'add_item', arguments: { sku: 'B' } },
        { type: 'end', reason: 'tool_calls' },
      ]);
    });

    it('takes the type from the data when the event has no name, and ignores unknown types', async () => {
      const raw =
        `data: ${JSON.stringify({ type: 'text', delta: 'a' })}\n\n` +
        `event: ping\ndata: not json at all\n\n` +
        `data: ${JSON.stringify({ type: 'usage', tokens: 4 })}\n\n` +
        ': comment\n\n' +
        sse('end', { reason: 'stop' });
      const { fetch } = stubFetch(() => sseResponse(streamingBody([raw]).stream));
      const events = await collect(createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, new AbortController().signal));
      expect(events).to.deep.equal([
        { type: 'text', delta: 'a' },
        { type: 'end', reason: 'stop' },
      ]);
    });

    it('yields a notice as data (bounded tool names); a malformed notice is dropped, not a failure', async () => {
      const raw =
        sse('notice', { type: 'notice', code: 'unknown_tools', tools: ['delete_all', 7, 'x'.repeat(100)] }) +
        sse('notice', { type: 'notice', tools: ['a'] }) +
        sse('notice', { type: 'notice', code: 'something_new' }) +
        sse('end', { reason: 'stop' });
      const { fetch } = stubFetch(() => sseResponse(streamingBody([raw]).stream));
      const events = await collect(createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, new AbortController().signal));
      expect(events).to.deep.equal([
        { type: 'notice', code: 'unknown_tools', tools: ['delete_all', 'x'.repeat(64)] },
        { type: 'notice', code: 'something_new', tools: [] },
        { type: 'end', reason: 'stop' },
      ]);
    });

    it('passes non-object tool-call arguments through unchanged', async () => {
      const raw = sse('tool_call', { id: 'c1', name: 'x', arguments: '{"a":1}' }) + sse('end', { reason: 'tool_calls' });
      const { fetch } = stubFetch(() => sseResponse(streamingBody([raw]).stream));
      const events = await collect(createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, new AbortController().signal));
      expect(events[0]).to.deep.equal({ type: 'tool_call', id: 'c1', name: 'x', arguments: '{"a":1}' });
    });

    it('stops reading after end and releases the body', async () => {
      const body = controlledBody();
      const { fetch } = stubFetch(() => sseResponse(body.stream));
      const iterating = collect(createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, new AbortController().signal));
      body.push(sse('end', { reason: 'stop' }) + sse('text', { delta: 'after end' }));
      expect(await iterating).to.deep.equal([{ type: 'end', reason: 'stop' }]);
      expect(body.state.cancelled).to.equal(true);
    });
  });

  describe('errors', () => {
    it('turns an error event into a TransportError with its code and retryability', async () => {
      const raw = sse('text', { delta: 'Hi' }) + sse('error', { code: 'provider_down', message: 'The model is down.', retryable: true });
      const { fetch } = stubFetch(() => sseResponse(streamingBody([raw]).stream));
      const seen: WaveStreamEvent[] = [];
      const error = await rejection(
        (async () => {
          for await (const e of createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, new AbortController().signal)) seen.push(e);
        })(),
      );
      expect(seen).to.deep.equal([{ type: 'text', delta: 'Hi' }]);
      expect(error).to.be.instanceOf(TransportError);
      expect(error).to.include({ code: 'provider_down', message: 'The model is down.', retryable: true });
    });

    it('reports a 4xx JSON error body with its code and message, not retryable', async () => {
      const { fetch } = stubFetch(
        () =>
          new Response(JSON.stringify({ error: { code: 'origin_not_allowed', message: 'This site may not use the assistant.' } }), {
            status: 403,
            headers: { 'content-type': 'application/json' },
          }),
      );
      const error = await rejection(collect(createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, new AbortController().signal)));
      expect(error).to.be.instanceOf(TransportError);
      expect(error).to.include({ code: 'origin_not_allowed', message: 'This site may not use the assistant.', retryable: false, status: 403 });
    });

    it('reports a 5xx JSON error body as retryable', async () => {
      const { fetch } = stubFetch(
        () => new Response(JSON.stringify({ error: { code: 'provider_error', message: 'Upstream failed.' } }), { status: 502 }),
      );
      const error = await rejection(collect(createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, new AbortController().signal)));
      expect(error).to.include({ code: 'provider_error', message: 'Upstream failed.', retryable: true, status: 502 });
    });

    it('falls back to the status when the error body is not JSON', async () => {
      const { fetch } = stubFetch(() => new Response('<html>Bad gateway</html>', { status: 503 }));
      const error = await rejection(collect(createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, new AbortController().signal)));
      expect(error).to.include({ code: 'http_503', retryable: true, status: 503 });
      expect((error as TransportError).message).to.contain('503');
    });

    it('treats 429 as retryable and 400 as not', async () => {
      for (const [status, retryable] of [[429, true], [400, false]] as const) {
        const { fetch } = stubFetch(() => new Response('{}', { status }));
        const error = await rejection(collect(createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, new AbortController().signal)));
        expect(error, String(status)).to.include({ retryable, status });
      }
    });

    it('reports a network failure (fetch TypeError) as code network, retryable, with a clear message', async () => {
      const fetch = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof globalThis.fetch;
      const error = await rejection(collect(createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, new AbortController().signal)));
      expect(error).to.be.instanceOf(TransportError);
      expect(error).to.include({ code: 'network', retryable: true });
      expect((error as TransportError).message).to.equal("Can't reach the assistant. Check your connection.");
    });

    it('reports a body that errors mid-stream as a network failure', async () => {
      const body = controlledBody();
      const { fetch } = stubFetch(() => sseResponse(body.stream));
      const iterating = rejection(collect(createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, new AbortController().signal)));
      body.push(sse('text', { delta: 'a' }));
      body.error(new TypeError('network error'));
      expect(await iterating).to.include({ code: 'network', retryable: true });
    });

    it('reports a stream that ends without an end event as incomplete_stream, retryable', async () => {
      const raw = sse('text', { delta: 'Half a sen' }) + 'event: end\ndata: {"reason":"stop"}\n'; // no blank line: never dispatched
      const { fetch } = stubFetch(() => sseResponse(streamingBody([raw]).stream));
      const seen: WaveStreamEvent[] = [];
      const error = await rejection(
        (async () => {
          for await (const e of createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, new AbortController().signal)) seen.push(e);
        })(),
      );
      expect(seen).to.deep.equal([{ type: 'text', delta: 'Half a sen' }]);
      expect(error).to.include({ code: 'incomplete_stream', retryable: true });
    });

    it('reports malformed JSON in a known event as bad_stream', async () => {
      const raw = 'event: text\ndata: {"delta": "unterminated\n\n' + sse('end', { reason: 'stop' });
      const { fetch } = stubFetch(() => sseResponse(streamingBody([raw]).stream));
      const error = await rejection(collect(createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, new AbortController().signal)));
      expect(error).to.include({ code: 'bad_stream', retryable: false });
    });

    it('reports a known event with the wrong shape as bad_stream', async () => {
      const raw = sse('text', { delta: 42 }) + sse('end', { reason: 'stop' });
      const { fetch } = stubFetch(() => sseResponse(streamingBody([raw]).stream));
      const error = await rejection(collect(createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, new AbortController().signal)));
      expect(error).to.include({ code: 'bad_stream' });
    });

    it('reports a tool call without an id as bad_stream', async () => {
      const raw = sse('tool_call', { name: 'x', arguments: {} }) + sse('end', { reason: 'tool_calls' });
      const { fetch } = stubFetch(() => sseResponse(streamingBody([raw]).stream));
      const error = await rejection(collect(createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, new AbortController().signal)));
      expect(error).to.include({ code: 'bad_stream' });
    });
  });

  describe('abort and timeouts', () => {
    it('aborts mid-stream: rejects with the signal reason and cancels the body stream', async () => {
      const body = controlledBody();
      const { fetch, calls } = stubFetch(() => sseResponse(body.stream));
      const controller = new AbortController();
      const seen: WaveStreamEvent[] = [];
      let firstEvent!: () => void;
      const gotFirst = new Promise<void>((r) => (firstEvent = r));
      const iterating = rejection(
        (async () => {
          for await (const e of createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, controller.signal)) {
            seen.push(e);
            firstEvent();
          }
        })(),
      );
      body.push(sse('text', { delta: 'Working on' }));
      await gotFirst;
      controller.abort(new DOMException('Stopped', 'AbortError'));
      const error = await iterating;
      expect(seen).to.deep.equal([{ type: 'text', delta: 'Working on' }]);
      expect(error).to.be.instanceOf(DOMException);
      expect((error as DOMException).name).to.equal('AbortError');
      expect(body.state.cancelled).to.equal(true);
      expect((calls[0] as FetchCall).init.signal?.aborted).to.equal(true);
    });

    it('aborts while waiting for the response even when fetch ignores its signal', async () => {
      let release!: (r: Response) => void;
      const late = streamingBody([sse('end', { reason: 'stop' })]);
      const fetch = (() => new Promise<Response>((r) => (release = r))) as typeof globalThis.fetch;
      const controller = new AbortController();
      const iterating = rejection(collect(createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, controller.signal)));
      await Promise.resolve();
      controller.abort(new DOMException('Stopped', 'AbortError'));
      expect((await iterating as DOMException).name).to.equal('AbortError');
      release(sseResponse(late.stream));
      // The cancel reaches the stream's source through the Response body, in tasks the engine picks.
      await until(() => late.state.cancelled, 'late body released');
    });

    it('rejects at once for an already-aborted signal without fetching', async () => {
      const { fetch, calls } = stubFetch(() => sseResponse(streamingBody([]).stream));
      const controller = new AbortController();
      controller.abort(new DOMException('Stopped', 'AbortError'));
      await rejection(collect(createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, controller.signal)));
      expect(calls).to.have.length(0);
    });

    it('cancels the body when the consumer stops iterating early', async () => {
      const body = controlledBody();
      const { fetch } = stubFetch(() => sseResponse(body.stream));
      const iterating = (async () => {
        for await (const e of createSseTransport({ endpoint: '/wave', fetch }).step(REQUEST, new AbortController().signal)) {
          if (e.type === 'text') break;
        }
      })();
      body.push(sse('text', { delta: 'x' }));
      await iterating;
      expect(body.state.cancelled).to.equal(true);
    });

    it('times out a connection that never answers (fake clock), retryable', async () => {
      const fake = manualClock();
      const fetch = (() => new Promise<Response>(() => undefined)) as typeof globalThis.fetch;
      const iterating = rejection(
        collect(createSseTransport({ endpoint: '/wave', fetch, clock: fake.clock, connectTimeoutMs: 5000 }).step(REQUEST, new AbortController().signal)),
      );
      await Promise.resolve();
      expect(fake.pending()).to.deep.equal([5000]);
      fake.fireAll();
      expect(await iterating).to.include({ code: 'timeout', retryable: true });
    });

    it('times out a stream that goes silent (fake clock) and cancels the body', async () => {
      const fake = manualClock();
      const body = controlledBody();
      const { fetch } = stubFetch(() => sseResponse(body.stream));
      const seen: WaveStreamEvent[] = [];
      let firstEvent!: () => void;
      const gotFirst = new Promise<void>((r) => (firstEvent = r));
      const iterating = rejection(
        (async () => {
          const transport = createSseTransport({ endpoint: '/wave', fetch, clock: fake.clock, idleTimeoutMs: 9000 });
          for await (const e of transport.step(REQUEST, new AbortController().signal)) {
            seen.push(e);
            firstEvent();
          }
        })(),
      );
      body.push(sse('text', { delta: 'a' }));
      await gotFirst;
      // The generator re-arms its idle timer when it waits for the next chunk.
      await until(() => fake.pending().length > 0, 'the idle timer re-armed');
      expect(fake.pending()).to.deep.equal([9000]);
      fake.fireAll();
      expect(await iterating).to.include({ code: 'timeout', retryable: true });
      expect(body.state.cancelled).to.equal(true);
    });
  });
});
