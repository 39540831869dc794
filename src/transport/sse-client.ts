/**
 * How a model step reaches the wave server: one `POST` per step, the reply streamed back as
 * server-sent events (SPEC §10, `src/transport/protocol.ts`).
 */
import { systemClock, type Clock } from '../clock.js';
import type { WaveRequest, WaveStreamEvent } from './protocol.js';
import { SseParser, type SseEvent } from './sse-parser.js';
import { describeError } from '../util/describe-error.js';

/** Anything that can run one model step; the conversation loop only knows this. */
export interface ModelTransport {
  /**
   * Streams the reply to `request`. Completes after the `end` event; throws `TransportError`
   * on failure and the signal's reason when aborted.
   */
  step(request: WaveRequest, signal: AbortSignal): AsyncIterable<WaveStreamEvent>;
}

/** Codes the client itself produces (a server may send any other code). */
export const TransportErrorCode = {
  network: 'network',
  timeout: 'timeout',
  badStream: 'bad_stream',
  incompleteStream: 'incomplete_stream',
  http: 'http_error',
} as const;
export type TransportErrorCode = (typeof TransportErrorCode)[keyof typeof TransportErrorCode];

/**
 * A failed model step. `message` is written for the visitor (or is the server's own message);
 * `retryable` says whether sending the same step again may succeed.
 *
 * @example
 * try { for await (const e of transport.step(request, signal)) render(e); }
 * catch (error) { if (error instanceof TransportError && error.retryable) showRetry(error.message); }
 */
export class TransportError extends Error {
  readonly code: string;
  readonly retryable: boolean;
  readonly status?: number;

  constructor(options: { code: string; message: string; retryable: boolean; status?: number; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TransportError';
    this.code = options.code;
    this.retryable = options.retryable;
    if (options.status !== undefined) this.status = options.status;
  }
}

export interface SseTransportOptions {
  /** The wave server URL, e.g. `https://example.com/wave`. */
  endpoint: string;
  /** Injected for tests and edge runtimes; defaults to the global `fetch`. */
  fetch?: typeof fetch;
  /** Extra request headers (e.g. an auth token). */
  headers?: Record<string, string>;
  /** Time allowed until the response headers arrive (default 20 s; 0 disables). */
  connectTimeoutMs?: number;
  /** Longest silence allowed between two chunks of the stream (default 60 s; 0 disables). */
  idleTimeoutMs?: number;
  clock?: Clock;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 20_000;
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

const MESSAGES = {
  network: "Can't reach the assistant. Check your connection.",
  timeout: 'The assistant took too long to answer. Try again.',
  badStream: "The assistant sent a reply this page can't read.",
  incomplete: 'The reply was interrupted before it finished. Try again.',
} as const;

/**
 * Creates the standard transport: `POST` JSON to `endpoint`, read `text/event-stream`.
 *
 * @example
 * const transport = createSseTransport({ endpoint: 'https://example.com/wave' });
 * for await (const event of transport.step(request, controller.signal)) {
 *   if (event.type === 'text') append(event.delta);
 * }
 */
export function createSseTransport(options: SseTransportOptions): ModelTransport {
  const clock = options.clock ?? systemClock;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  return {
    step: (request, signal) =>
      streamStep({
        endpoint: options.endpoint,
        // Bound lazily so a page that patches fetch after the widget loads is still honoured.
        fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
        headers: options.headers ?? {},
        connectTimeoutMs,
        idleTimeoutMs,
        clock,
        request,
        signal,
      }),
  };
}

interface StepOptions {
  endpoint: string;
  fetch: typeof fetch;
  headers: Record<string, string>;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  clock: Clock;
  request: WaveRequest;
  signal: AbortSignal;
}

async function* streamStep(options: StepOptions): AsyncGenerator<WaveStreamEvent, void, undefined> {
  const { clock, signal } = options;
  if (signal.aborted) throw signal.reason;

  // One internal controller carries the caller's abort and our own timeouts to fetch and the body.
  const controller = new AbortController();
  let timedOut = false;
  let timer: unknown;
  const clearTimer = () => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
  };
  const armTimer = (ms: number) => {
    clearTimer();
    if (ms <= 0) return;
    timer = clock.setTimeout(() => {
      timedOut = true;
      controller.abort(new TransportError({ code: TransportErrorCode.timeout, message: MESSAGES.timeout, retryable: true }));
    }, ms);
  };
  const onCallerAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onCallerAbort, { once: true });
  const failure = (): unknown => (timedOut ? controller.signal.reason : signal.reason);

  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  try {
    armTimer(options.connectTimeoutMs);
    const response = await fetchResponse(options, controller.signal, failure);
    clearTimer();
    if (!response.ok) throw await httpError(response);
    const type = response.headers.get('content-type') ?? '';
    // A proxy or framework may answer a 2xx with a JSON error instead of a stream.
    if (/json/i.test(type)) throw await httpError(response);
    if (!response.body) throw badStream('The response has no body.');

    const body = response.body;
    reader = body.getReader();
    const activeReader = reader;
    // Cancelling resolves a pending read even when the body ignores the fetch signal.
    const onAbort = () => void activeReader.cancel(controller.signal.reason).catch(() => undefined);
    if (controller.signal.aborted) onAbort();
    else controller.signal.addEventListener('abort', onAbort, { once: true });

    const queue: WaveStreamEvent[] = [];
    let streamError: TransportError | undefined;
    const parser = new SseParser((e) => {
      if (streamError) return;
      try {
        const event = toStreamEvent(e);
        if (event) queue.push(event);
      } catch (error) {
        streamError = error instanceof TransportError ? error : badStream(describeError(error, { subject: 'Reading the stream' }));
      }
    });

    armTimer(options.idleTimeoutMs);
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await activeReader.read();
      } catch (error) {
        if (controller.signal.aborted) throw failure();
        throw new TransportError({ code: TransportErrorCode.network, message: MESSAGES.network, retryable: true, cause: error });
      }
      if (controller.signal.aborted) throw failure();
      try {
        if (chunk.done) parser.end();
        else {
          armTimer(options.idleTimeoutMs);
          parser.push(chunk.value);
        }
      } catch (error) {
        // A line over the parser's limit: not an event stream.
        throw error instanceof TransportError ? error : badStream(describeError(error, { subject: 'Reading the stream' }));
      }
      while (queue.length > 0) {
        const event = queue.shift() as WaveStreamEvent;
        if (event.type === 'error') {
          throw new TransportError({ code: event.code, message: event.message, retryable: event.retryable });
        }
        clearTimer(); // the consumer may take its time with an event
        yield event;
        if (controller.signal.aborted) throw failure();
        if (event.type === 'end') return;
        armTimer(options.idleTimeoutMs);
      }
      if (streamError) throw streamError;
      if (chunk.done) {
        throw new TransportError({
          code: TransportErrorCode.incompleteStream,
          message: MESSAGES.incomplete,
          retryable: true,
        });
      }
    }
  } finally {
    clearTimer();
    signal.removeEventListener('abort', onCallerAbort);
    // Release the connection: after `end`, on error, on abort, or when the consumer stops early.
    if (reader) void reader.cancel().catch(() => undefined);
  }
}

/** `fetch`, raced against the abort so a fetch that ignores its signal cannot hang the step. */
async function fetchResponse(options: StepOptions, signal: AbortSignal, failure: () => unknown): Promise<Response> {
  const pending = options.fetch(options.endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...options.headers },
    body: JSON.stringify(options.request),
    signal,
    cache: 'no-store',
    credentials: 'omit',
  });
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(failure());
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([pending, aborted]);
  } catch (error) {
    // A late response to an abandoned request still holds a connection: release it.
    pending.then((late) => late.body?.cancel().catch(() => undefined)).catch(() => undefined);
    if (signal.aborted) throw failure();
    throw new TransportError({ code: TransportErrorCode.network, message: MESSAGES.network, retryable: true, cause: error });
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
    aborted.catch(() => undefined);
  }
}

/** Turns a non-2xx (or a JSON) response into an error, preferring the server's `{ error: { code, message } }`. */
async function httpError(response: Response): Promise<TransportError> {
  const status = response.status;
  // Overload, timeouts and server faults may pass; a rejected request will be rejected again.
  const retryable = status >= 500 || status === 408 || status === 429 || response.ok;
  let code: string = status >= 400 ? `http_${status}` : TransportErrorCode.badStream;
  let message =
    status >= 500
      ? `The assistant is unavailable right now (HTTP ${status}). Try again.`
      : status >= 400
        ? `The assistant refused the request (HTTP ${status}).`
        : MESSAGES.badStream;
  try {
    const body: unknown = JSON.parse(await response.text());
    const error = isRecord(body) ? body['error'] : undefined;
    if (isRecord(error)) {
      if (typeof error['code'] === 'string' && error['code'] !== '') code = error['code'];
      if (typeof error['message'] === 'string' && error['message'] !== '') message = error['message'];
    } else if (typeof error === 'string' && error !== '') {
      message = error;
    }
  } catch {
    // Not JSON (a proxy's HTML page, say): the status speaks for itself.
  }
  return new TransportError({ code, message, retryable: response.ok ? false : retryable, status });
}

function badStream(detail: string): TransportError {
  return new TransportError({
    code: TransportErrorCode.badStream,
    message: MESSAGES.badStream,
    retryable: false,
    cause: detail,
  });
}

const KNOWN_TYPES: ReadonlySet<string> = new Set(['meta', 'text', 'tool_call', 'end', 'error', 'notice']);
const END_REASONS: ReadonlySet<string> = new Set(['stop', 'tool_calls', 'length']);

/**
 * Checks one SSE event against the protocol. Returns undefined for event types this client
 * does not know (forward compatibility); throws `bad_stream` for a known type with a bad shape.
 */
function toStreamEvent(e: SseEvent): WaveStreamEvent | undefined {
  const named = e.event !== 'message' ? e.event : undefined;
  if (named !== undefined && !KNOWN_TYPES.has(named)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(e.data);
  } catch (error) {
    throw badStream(`Malformed JSON in a "${e.event}" event: ${describeError(error, { subject: 'JSON.parse' })}`);
  }
  if (!isRecord(data)) throw badStream(`The "${e.event}" event's data is not an object.`);
  const type = named ?? data['type'];
  if (typeof type !== 'string' || !KNOWN_TYPES.has(type)) return undefined;
  switch (type) {
    case 'meta':
      if (typeof data['model'] !== 'string') throw badStream('meta.model is not a string.');
      return { type, model: data['model'], offline: data['offline'] === true };
    case 'text':
      if (typeof data['delta'] !== 'string') throw badStream('text.delta is not a string.');
      return { type, delta: data['delta'] };
    case 'tool_call': {
      const id = data['id'];
      const name = data['name'];
      if (typeof id !== 'string' || id === '') throw badStream('tool_call.id is missing.');
      if (typeof name !== 'string' || name === '') throw badStream('tool_call.name is missing.');
      // Arguments that aren't an object still pass: the tool runner validates and explains.
      const args = 'arguments' in data ? data['arguments'] : {};
      return { type, id, name, arguments: args as Record<string, unknown> };
    }
    case 'end': {
      const reason = data['reason'] ?? 'stop';
      if (typeof reason !== 'string' || !END_REASONS.has(reason)) throw badStream('end.reason is not known.');
      return { type, reason: reason as 'stop' | 'tool_calls' | 'length' };
    }
    case 'error': {
      const code = typeof data['code'] === 'string' && data['code'] !== '' ? data['code'] : 'server_error';
      const message =
        typeof data['message'] === 'string' && data['message'] !== ''
          ? data['message']
          : 'The assistant ran into a problem.';
      return { type, code, message, retryable: data['retryable'] === true };
    }
    case 'notice': {
      // Data only; a malformed notice is dropped rather than failing the reply.
      const code = data['code'];
      if (typeof code !== 'string' || code === '') return undefined;
      const raw = data['tools'];
      const tools = Array.isArray(raw) ? raw.filter((t): t is string => typeof t === 'string').slice(0, 8).map((t) => t.slice(0, 64)) : [];
      return { type, code, tools };
    }
    default:
      return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
