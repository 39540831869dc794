/**
 * What the OpenAI-compatible and Anthropic adapters share: one streamed POST with an idle timeout,
 * and the mapping of every failure to a `ProviderError` whose message never carries upstream text
 * (upstream error bodies can echo part of the key).
 */
import { systemClock, type Clock } from '../../clock.js';
import { ProviderError } from './types.js';
import { SseFormatError } from './sse.js';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface UpstreamOptions {
  fetch: FetchLike;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** Abort when nothing arrives for this long: before the headers and between chunks. */
  timeoutMs: number;
  clock?: Clock;
  /** Provider name for messages, e.g. "OpenAI-compatible". */
  label: string;
}

/** Error codes the adapters emit; the handler passes them to the widget unchanged. */
export const ProviderErrorCode = {
  auth: 'provider_auth',
  rateLimited: 'provider_rate_limited',
  unavailable: 'provider_unavailable',
  rejected: 'provider_rejected',
  timeout: 'provider_timeout',
  unreachable: 'provider_unreachable',
  badStream: 'provider_bad_stream',
  error: 'provider_error',
} as const;
export type ProviderErrorCode = (typeof ProviderErrorCode)[keyof typeof ProviderErrorCode];

/** Maps an upstream HTTP status to a ProviderError. */
export function httpStatusError(label: string, status: number): ProviderError {
  if (status === 401 || status === 403) {
    return new ProviderError(`${label} provider refused the credentials (HTTP ${status})`, {
      code: ProviderErrorCode.auth,
      retryable: false,
      status,
    });
  }
  if (status === 429) {
    return new ProviderError(`${label} provider is rate limiting (HTTP 429)`, {
      code: ProviderErrorCode.rateLimited,
      retryable: true,
      status,
    });
  }
  if (status >= 500) {
    return new ProviderError(`${label} provider is unavailable (HTTP ${status})`, {
      code: ProviderErrorCode.unavailable,
      retryable: true,
      status,
    });
  }
  return new ProviderError(`${label} provider rejected the request (HTTP ${status})`, {
    code: ProviderErrorCode.rejected,
    retryable: false,
    status,
  });
}

export function badStream(label: string, what: string, cause?: unknown): ProviderError {
  return new ProviderError(`${label} provider sent a malformed stream: ${what}`, {
    code: ProviderErrorCode.badStream,
    retryable: true,
    cause,
  });
}

/**
 * One upstream call. `touch()` after every chunk re-arms the idle timer; `fail(e)` turns whatever
 * was thrown into a ProviderError, or rethrows the caller's own abort untouched.
 */
export class UpstreamCall {
  readonly signal: AbortSignal;
  readonly #controller = new AbortController();
  readonly #outer: AbortSignal;
  readonly #clock: Clock;
  readonly #options: UpstreamOptions;
  #timer: unknown;
  #timedOut = false;
  readonly #onOuterAbort = () => this.#controller.abort(this.#outer.reason);

  constructor(options: UpstreamOptions, signal: AbortSignal) {
    this.#options = options;
    this.#outer = signal;
    this.#clock = options.clock ?? systemClock;
    this.signal = this.#controller.signal;
    if (signal.aborted) this.#controller.abort(signal.reason);
    else signal.addEventListener('abort', this.#onOuterAbort, { once: true });
  }

  /** Sends the request; resolves with the streaming body once the status is 2xx. */
  async open(): Promise<ReadableStream<Uint8Array>> {
    const { fetch, url, headers, body, label } = this.#options;
    this.touch();
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
        body: JSON.stringify(body),
        signal: this.signal,
      });
    } catch (error) {
      throw this.fail(error);
    }
    this.touch();
    if (!response.ok) {
      // Drain nothing: the body may echo the key; just release the connection.
      await response.body?.cancel().catch(() => undefined);
      throw httpStatusError(label, response.status);
    }
    if (!response.body) throw badStream(label, 'no body');
    return response.body;
  }

  /** Re-arms the idle timeout. */
  touch(): void {
    this.#clock.clearTimeout(this.#timer);
    this.#timer = this.#clock.setTimeout(() => {
      this.#timedOut = true;
      this.#controller.abort(new Error('upstream idle timeout'));
    }, this.#options.timeoutMs);
  }

  /** The error to throw for `error`; the caller's own abort reason passes through unchanged. */
  fail(error: unknown): unknown {
    const { label, timeoutMs } = this.#options;
    if (this.#outer.aborted) return this.#outer.reason ?? error;
    if (this.#timedOut) {
      return new ProviderError(`${label} provider did not answer within ${timeoutMs} ms`, {
        code: ProviderErrorCode.timeout,
        retryable: true,
      });
    }
    if (error instanceof ProviderError) return error;
    if (error instanceof SseFormatError) return badStream(label, error.message, error);
    if (error instanceof TypeError) {
      // fetch() rejects with TypeError for refused connections, DNS failures and reset sockets.
      return new ProviderError(`${label} provider could not be reached`, {
        code: ProviderErrorCode.unreachable,
        retryable: true,
        cause: error,
      });
    }
    return new ProviderError(`${label} provider failed`, { code: ProviderErrorCode.error, retryable: true, cause: error });
  }

  /** Stops the timer and the upstream request (a no-op once the body was fully read). */
  dispose(): void {
    this.#clock.clearTimeout(this.#timer);
    this.#outer.removeEventListener('abort', this.#onOuterAbort);
    if (!this.#controller.signal.aborted) this.#controller.abort(new Error('step finished'));
  }
}

/** Joins a base URL and a path without doubling or dropping the slash. */
export function joinUrl(baseUrl: string, path: string, query?: Record<string, string>): string {
  const url = baseUrl.replace(/\/+$/, '') + '/' + path.replace(/^\/+/, '');
  if (!query || Object.keys(query).length === 0) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${new URLSearchParams(query).toString()}`;
}

/** A short random id for tool calls a provider sent without one. */
export function randomCallId(prefix: string): string {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return prefix + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
