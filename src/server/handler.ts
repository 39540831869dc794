/**
 * The wave server as one standards `fetch` handler (Request → Response): runs unchanged on Node
 * (see node.ts), Deno, Bun, Cloudflare Workers and other edge runtimes. Stateless: the widget
 * sends the whole conversation with every step.
 *
 * Decisions worth knowing (also in the README):
 * - A request without an `Origin` header is accepted only by a site that lists `'*'` or sets
 *   `allowNoOrigin: true`: browsers always send Origin on a POST, so a missing one means a
 *   script, and a site opts in to scripts explicitly.
 * - The body must be `application/json`, which makes every cross-origin browser call preflighted.
 * - A preflight cannot see the site id (it has no body), so it is answered for an origin that any
 *   configured site allows (any origin with a resolver function); the POST is then checked against
 *   its own site and refused with 403.
 * - Invalid tool-call arguments never reach the browser. Within the same request the server makes
 *   at most one repair call to the provider, feeding the validation errors back as tool results;
 *   calls still invalid after it end the step with an `error` event `invalid_tool_arguments`.
 *   Calls to a tool that was not offered get the same repair round; if the model insists they are
 *   dropped and the step ends with a text note that the tool is unavailable.
 */
import { systemClock, type Clock } from '../clock.js';
import { createNonce, envelope } from '../guard/envelope.js';
import type { PageToolSchema } from '../tools/types.js';
import type { WaveMessage, WaveRequest, WaveStreamEvent } from '../transport/protocol.js';
import { buildSystemPrompt, guardMessages, guardPageState, guardTools } from './prompt.js';
import type { ModelProvider, ProviderStepInput } from './providers/types.js';
import { ProviderError } from './providers/types.js';
import { getClientAddress, rateLimitKey } from './client-identity.js';
import { MemoryRateLimitStore, type RateDecision } from './rate-limit.js';
import { CallCheckStatus, ToolCallChecker, type CallCheck } from './tool-call-check.js';
import type { SiteConfig, WaveErrorBody, WaveLogger, WaveServerOptions } from './types.js';
import {
  parseVoiceSessionRequest,
  parseWaveRequest,
  peekSiteId,
  RequestValidationError,
} from './validate-request.js';

export const ServerDefaults = {
  basePath: '/wave',
  maxBodyBytes: 256 * 1024,
  maxResultChars: 8000,
  maxContextChars: 8000,
  rateLimit: { windowMs: 60_000, max: 60 },
  keepAliveMs: 15_000,
} as const;

/** Error codes of the JSON error bodies and of the server's own `error` stream events. */
export const WaveErrorCode = {
  notFound: 'not_found',
  methodNotAllowed: 'method_not_allowed',
  unsupportedMediaType: 'unsupported_media_type',
  tooLarge: 'payload_too_large',
  invalidJson: 'invalid_json',
  unknownSite: 'unknown_site',
  originNotAllowed: 'origin_not_allowed',
  rateLimited: 'rate_limited',
  clientUnidentified: 'client_unidentified',
  rateLimitUnavailable: 'rate_limit_unavailable',
  shuttingDown: 'shutting_down',
  serverShutdown: 'server_shutdown',
  voiceUnavailable: 'voice_unavailable',
  internal: 'internal_error',
  providerError: 'provider_error',
  invalidToolArguments: 'invalid_tool_arguments',
} as const;
export type WaveErrorCode = (typeof WaveErrorCode)[keyof typeof WaveErrorCode];

/** An HTTP failure answered with `{ error: { code, message } }`. */
class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

const consoleLogger: WaveLogger = {
  info: (line) => console.log(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
};

/** The address the runtime entry attached (never a client-written header). */
function defaultClientKey(request: Request): string | undefined {
  const address = getClientAddress(request);
  return address === undefined ? undefined : rateLimitKey(address);
}

function normalizeBasePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** The log record of one request; only metadata, never a body, page state, a header or a key. */
interface RequestLog {
  requestId: string;
  route: string;
  site: string;
  status: number;
  outcome: string;
  usage: TokenUsage;
}

/** Token counts summed over a step's provider calls, where the provider reports them. */
interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
}

/**
 * Creates the wave server's fetch handler.
 *
 * @example
 * const handler = createWaveHandler({
 *   sites: [{ id: 'shop', allowedOrigins: ['https://shop.example'] }],
 *   provider: new OpenAICompatibleProvider({ baseUrl: 'https://api.openai.com/v1', apiKey, model: 'gpt-4o-mini' }),
 * });
 * export default { fetch: handler }; // e.g. a Cloudflare Worker
 */
export function createWaveHandler(options: WaveServerOptions): (request: Request) => Promise<Response> {
  const basePath = normalizeBasePath(options.basePath ?? ServerDefaults.basePath);
  const maxBodyBytes = options.maxBodyBytes ?? ServerDefaults.maxBodyBytes;
  const maxResultChars = options.maxResultChars ?? ServerDefaults.maxResultChars;
  const maxContextChars = options.maxContextChars ?? ServerDefaults.maxContextChars;
  const clock = options.clock ?? systemClock;
  const now = options.now ?? (options.clock ? () => options.clock!.now() : () => Date.now());
  const logger = options.logger ?? consoleLogger;
  const clientKey = options.clientKey ?? defaultClientKey;
  const rateLimit = options.rateLimit === undefined ? ServerDefaults.rateLimit : options.rateLimit;
  const store = rateLimit ? (options.rateLimitStore ?? new MemoryRateLimitStore(now)) : null;
  const keepAliveMs = options.keepAliveMs ?? ServerDefaults.keepAliveMs;
  // One listener for every open stream (not one each: thousands of streams share the signal).
  const shutdowns = new Set<() => void>();
  options.shutdown?.addEventListener('abort', () => [...shutdowns].forEach((stop) => stop()), { once: true });
  const sites = options.sites;
  const siteMap = Array.isArray(sites) ? new Map(sites.map((site) => [site.id, site])) : null;

  const resolveSite = async (id: string): Promise<SiteConfig | undefined> =>
    siteMap ? siteMap.get(id) : await (sites as (id: string) => SiteConfig | undefined | Promise<SiteConfig | undefined>)(id);

  const siteAllowsOrigin = (site: SiteConfig, origin: string | null): boolean =>
    origin === null
      ? site.allowNoOrigin === true || site.allowedOrigins.includes('*')
      : site.allowedOrigins.includes('*') || site.allowedOrigins.includes(origin);

  // Before the site is known (preflight, early errors): any site's origin will do.
  const anySiteAllowsOrigin = (origin: string): boolean =>
    siteMap ? [...siteMap.values()].some((site) => siteAllowsOrigin(site, origin)) : true;

  const providerFor = (site: SiteConfig): ModelProvider =>
    typeof options.provider === 'function' ? options.provider(site) : options.provider;

  const log = (entry: RequestLog, started: number) => {
    const level = entry.status >= 500 || entry.outcome.startsWith('error') ? 'error' : entry.status >= 400 ? 'warn' : 'info';
    // A fixed set of fields, each a string or number the server made itself: never request text.
    const line = JSON.stringify({
      time: new Date(now()).toISOString(),
      level,
      msg: 'wave request',
      requestId: entry.requestId,
      route: entry.route,
      site: entry.site,
      status: entry.status,
      durationMs: Math.round(now() - started),
      outcome: entry.outcome,
      ...(entry.usage.inputTokens !== undefined ? { inputTokens: entry.usage.inputTokens } : {}),
      ...(entry.usage.outputTokens !== undefined ? { outputTokens: entry.usage.outputTokens } : {}),
    });
    logger[level](line);
  };

  const takeRate = async (request: Request): Promise<void> => {
    if (!store || !rateLimit) return;
    const key = clientKey(request);
    if (key === undefined || key === '') {
      // No identity: never pooled with other unknown clients (one abuser would lock out the rest,
      // or everyone would share one allowance). Refused, and the log says why.
      throw new HttpError(
        403,
        WaveErrorCode.clientUnidentified,
        'The server cannot tell which client this request comes from, so it is refused.',
      );
    }
    let decision: RateDecision;
    try {
      decision = await store.take(key, rateLimit);
    } catch {
      // The shared store is down: refuse rather than let every client through unlimited.
      throw new HttpError(503, WaveErrorCode.rateLimitUnavailable, 'The server cannot check its rate limit right now; try again shortly.', {
        'retry-after': '5',
      });
    }
    if (!decision.allowed) {
      throw new HttpError(429, WaveErrorCode.rateLimited, 'Too many requests; try again later.', {
        'retry-after': String(decision.retryAfterSeconds),
      });
    }
  };

  return async function waveHandler(request: Request): Promise<Response> {
    const started = now();
    const origin = request.headers.get('origin');
    const path = new URL(request.url).pathname.replace(/\/+$/, '');
    if (path === `${basePath}/health` && (request.method === 'GET' || request.method === 'HEAD')) {
      // For load balancers and orchestrators: not logged, not limited, no CORS, no state shown.
      const draining = options.draining?.aborted === true || options.shutdown?.aborted === true;
      return jsonResponse(draining ? 503 : 200, { status: draining ? 'draining' : 'ok' }, {});
    }
    const route = path === basePath ? 'step' : path === `${basePath}/voice/session` ? 'voice' : null;
    const requestId = crypto.randomUUID();
    const entry: RequestLog = { requestId, route: route ?? 'none', site: '-', status: 0, outcome: '-', usage: {} };
    let cors: Record<string, string> = origin !== null && anySiteAllowsOrigin(origin) ? corsHeaders(origin) : {};
    try {
      if (!route) throw new HttpError(404, WaveErrorCode.notFound, 'No such endpoint.');
      if (request.method === 'OPTIONS') {
        if (origin === null || !anySiteAllowsOrigin(origin)) {
          throw new HttpError(403, WaveErrorCode.originNotAllowed, 'This origin may not call the wave server.');
        }
        entry.status = 204;
        entry.outcome = 'preflight';
        log(entry, started);
        return new Response(null, {
          status: 204,
          headers: {
            ...cors,
            'x-request-id': requestId,
            'access-control-allow-methods': 'POST, OPTIONS',
            'access-control-allow-headers': 'content-type',
            'access-control-max-age': '600',
          },
        });
      }
      if (request.method === 'GET' && route === 'step') {
        // A cheap read before the first message: the model label and the body limit (no provider call).
        const siteId = new URL(request.url).searchParams.get('site') ?? '';
        const site = siteId ? await resolveSite(siteId) : undefined;
        if (!site) throw new HttpError(404, WaveErrorCode.unknownSite, `Unknown site "${siteId}".`);
        entry.site = site.id;
        // A same-origin GET carries no Origin header; another origin must be one the site allows.
        if (origin !== null && !siteAllowsOrigin(site, origin)) {
          cors = {};
          throw new HttpError(403, WaveErrorCode.originNotAllowed, 'This origin may not use this site.');
        }
        cors = origin === null ? {} : corsHeaders(origin);
        const provider = providerFor(site);
        entry.status = 200;
        entry.outcome = 'info';
        log(entry, started);
        return jsonResponse(
          200,
          { model: provider.offline ? provider.model : (site.model ?? provider.model), offline: provider.offline, maxBodyBytes },
          cors,
        );
      }
      if (request.method !== 'POST') {
        throw new HttpError(405, WaveErrorCode.methodNotAllowed, 'Use POST.', { allow: route === 'step' ? 'GET, POST, OPTIONS' : 'POST, OPTIONS' });
      }
      if (route === 'voice' && !options.voiceBroker) {
        throw new HttpError(404, WaveErrorCode.voiceUnavailable, 'Voice sessions are not configured on this server.');
      }
      if (options.draining?.aborted || options.shutdown?.aborted) {
        throw new HttpError(503, WaveErrorCode.shuttingDown, 'This server is restarting; send the message again.', {
          'retry-after': '1',
          connection: 'close',
        });
      }
      await takeRate(request);
      const contentType = request.headers.get('content-type') ?? '';
      if (!/^application\/json\b/i.test(contentType.trim())) {
        throw new HttpError(415, WaveErrorCode.unsupportedMediaType, 'The body must be application/json.');
      }
      const text = await readBodyText(request, maxBodyBytes);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new HttpError(400, WaveErrorCode.invalidJson, 'The body is not valid JSON.');
      }
      const siteId = peekSiteId(body);
      const site = await resolveSite(siteId);
      if (!site) throw new HttpError(404, WaveErrorCode.unknownSite, `Unknown site "${siteId}".`);
      entry.site = site.id;
      if (!siteAllowsOrigin(site, origin)) {
        cors = {};
        throw new HttpError(
          403,
          WaveErrorCode.originNotAllowed,
          origin === null ? 'This site accepts only browser requests with an allowed Origin.' : 'This origin may not use this site.',
        );
      }
      cors = origin === null ? {} : corsHeaders(origin);

      if (route === 'voice') {
        const voiceRequest = parseVoiceSessionRequest(body);
        const guarded = {
          ...voiceRequest,
          tools: guardTools(voiceRequest.tools, { allowedTools: site.allowedTools }),
          context: guardPageState(voiceRequest.context, maxContextChars),
        };
        try {
          const session = await options.voiceBroker!.createSession(guarded, site, request.signal);
          entry.status = 200;
          entry.outcome = 'voice_session';
          log(entry, started);
          // In voice the browser hands tool results to the provider itself: it caps them at the site's limit.
          return jsonResponse(200, { ...session, maxResultChars: site.maxResultChars ?? maxResultChars }, { ...cors, 'x-request-id': requestId });
        } catch (error) {
          if (error instanceof ProviderError) {
            throw new HttpError(error.retryable ? 503 : 502, error.code, error.message);
          }
          // The broker's own refusals (VoiceBrokerError) carry a status and a key-free message.
          const refusal = error as { status?: unknown; code?: unknown; message?: unknown };
          if (
            error instanceof Error &&
            typeof refusal.status === 'number' &&
            refusal.status >= 400 &&
            refusal.status < 600 &&
            typeof refusal.code === 'string'
          ) {
            throw new HttpError(refusal.status, refusal.code, error.message);
          }
          throw error;
        }
      }

      const waveRequest = parseWaveRequest(body);
      const provider = providerFor(site);
      entry.status = 200;
      return new Response(
        streamStep({
          request: waveRequest,
          site,
          provider,
          signal: request.signal,
          maxResultChars: site.maxResultChars ?? maxResultChars,
          maxContextChars,
          usage: entry.usage,
          clock,
          keepAliveMs,
          shutdowns,
          onDone: (outcome) => {
            entry.outcome = outcome;
            log(entry, started);
          },
        }),
        {
          status: 200,
          headers: {
            ...cors,
            'content-type': 'text/event-stream; charset=utf-8',
            'cache-control': 'no-cache, no-transform',
            'x-accel-buffering': 'no',
            'x-content-type-options': 'nosniff',
            'x-request-id': requestId,
            vary: 'Origin',
          },
        },
      );
    } catch (error) {
      let failure: HttpError;
      if (error instanceof HttpError) failure = error;
      else if (error instanceof RequestValidationError) failure = new HttpError(400, error.code, error.message);
      else failure = new HttpError(500, WaveErrorCode.internal, 'The wave server failed.');
      entry.status = failure.status;
      entry.outcome = error instanceof HttpError || error instanceof RequestValidationError ? failure.code : `${failure.code}:${errorName(error)}`;
      log(entry, started);
      const body: WaveErrorBody = { error: { code: failure.code, message: failure.message } };
      return jsonResponse(failure.status, body, { ...cors, 'x-request-id': requestId, ...failure.headers });
    }
  };
}

function corsHeaders(origin: string): Record<string, string> {
  return { 'access-control-allow-origin': origin, vary: 'Origin' };
}

function jsonResponse(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...headers,
      // Every response varies by Origin because CORS headers depend on it.
      vary: 'Origin',
    },
  });
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

/** Reads the body, refusing it by declared length first and by counted bytes while reading. */
async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const tooLarge = () => new HttpError(413, WaveErrorCode.tooLarge, `The body exceeds ${maxBytes} bytes.`);
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError(400, WaveErrorCode.invalidJson, 'The body is not valid UTF-8.');
  }
}

interface StreamStepOptions {
  request: WaveRequest;
  site: SiteConfig;
  provider: ModelProvider;
  signal: AbortSignal;
  maxResultChars: number;
  maxContextChars: number;
  /** Filled with the token counts the provider reports. */
  usage: TokenUsage;
  clock: Clock;
  /** Comment after this long without an event; 0: never. */
  keepAliveMs: number;
  /** Every open stream's way to end with `server_shutdown`: one listener on the shutdown signal calls them all. */
  shutdowns: Set<() => void>;
  /** Called once with the outcome for the log line. */
  onDone: (outcome: string) => void;
}

const KEEP_ALIVE = new TextEncoder().encode(': keep-alive\n\n');

/**
 * The SSE body: `meta`, the guarded step's events, then `end` or `error`; a comment line whenever
 * the model has been silent for `keepAliveMs` (proxies drop idle streams after 60-100 s).
 */
function streamStep(options: StreamStepOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal.reason);
  if (options.signal.aborted) controller.abort(options.signal.reason);
  else options.signal.addEventListener('abort', onAbort, { once: true });
  let closed = false;
  let timer: unknown;
  const { clock, keepAliveMs, shutdowns } = options;
  const stopTimer = () => {
    clock.clearTimeout(timer);
    timer = undefined;
  };

  return new ReadableStream<Uint8Array>({
    start(sink) {
      const arm = () => {
        stopTimer();
        if (keepAliveMs > 0 && !closed) {
          timer = clock.setTimeout(() => {
            if (closed) return;
            sink.enqueue(KEEP_ALIVE);
            arm();
          }, keepAliveMs);
        }
      };
      const send = (event: WaveStreamEvent) => {
        if (closed) return;
        sink.enqueue(encoder.encode(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`));
        arm();
      };
      let stoppedByShutdown = false;
      const onShutdown = () => {
        // The drain deadline passed: say so plainly, then stop the provider.
        send({
          type: 'error',
          code: WaveErrorCode.serverShutdown,
          message: 'The server restarted before the reply finished; send the message again.',
          retryable: true,
        });
        stoppedByShutdown = true;
        stopTimer();
        if (!closed) {
          closed = true;
          sink.close();
        }
        controller.abort(new Error('server shutdown'));
      };
      shutdowns.add(onShutdown);
      const { provider, site } = options;
      const pump = async (): Promise<string> => {
        send({ type: 'meta', model: provider.offline ? provider.model : (site.model ?? provider.model), offline: provider.offline });
        let last: WaveStreamEvent | undefined;
        try {
          for await (const event of guardedStep(options, controller.signal)) {
            send(event);
            last = event;
          }
        } catch (error) {
          if (stoppedByShutdown) return `error:${WaveErrorCode.serverShutdown}`;
          if (controller.signal.aborted) return 'aborted';
          const event = toErrorEvent(error);
          send(event);
          return `error:${event.code}`;
        }
        if (stoppedByShutdown) return `error:${WaveErrorCode.serverShutdown}`;
        if (controller.signal.aborted) return 'aborted';
        if (last?.type === 'error') return `error:${last.code}`;
        return last?.type === 'end' ? `end:${last.reason}` : 'end';
      };
      void pump().then((outcome) => {
        options.signal.removeEventListener('abort', onAbort);
        shutdowns.delete(onShutdown);
        stopTimer();
        if (!closed) {
          closed = true;
          sink.close();
        }
        options.onDone(outcome);
      });
    },
    cancel(reason) {
      // The client went away: stop the provider (and its upstream request) at once.
      closed = true;
      stopTimer();
      controller.abort(reason);
    },
  });
}

function toErrorEvent(error: unknown): Extract<WaveStreamEvent, { type: 'error' }> {
  if (error instanceof ProviderError) {
    return { type: 'error', code: error.code, message: error.message, retryable: error.retryable };
  }
  // Unknown failures may carry anything (URLs, upstream text): say nothing specific.
  return { type: 'error', code: WaveErrorCode.providerError, message: 'The model provider failed.', retryable: true };
}

/** Sanitises a model-made tool name so it can be echoed back to strict providers. */
function echoName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'unknown_tool';
}

/**
 * One model step with the guards of SPEC §10 and at most one repair round for bad tool calls.
 * Text streams through as it comes; tool calls are held until every one of the step is judged.
 */
async function* guardedStep(options: StreamStepOptions, signal: AbortSignal): AsyncGenerator<WaveStreamEvent> {
  const { request, site, provider } = options;
  const nonce = createNonce();
  const context = guardPageState(request.context, options.maxContextChars);
  const tools: PageToolSchema[] = guardTools(request.tools, { allowedTools: site.allowedTools, nonce });
  const checker = new ToolCallChecker(tools);
  const input: ProviderStepInput = {
    system: buildSystemPrompt({ instructions: site.instructions, context, nonce, locale: request.locale }),
    messages: guardMessages(request.messages, { maxResultChars: options.maxResultChars, nonce }),
    tools,
    context,
    model: site.model ?? provider.model,
  };

  for (let round = 0; round < 2; round++) {
    const checks: CallCheck[] = [];
    let text = '';
    let reason: 'stop' | 'tool_calls' | 'length' = 'stop';
    for await (const event of provider.step(input, signal)) {
      if (event.type === 'text') {
        text += event.delta;
        yield event;
      } else if (event.type === 'tool_call') {
        checks.push(checker.check(event));
      } else if (event.type === 'usage') {
        if (event.inputTokens !== undefined) options.usage.inputTokens = (options.usage.inputTokens ?? 0) + event.inputTokens;
        if (event.outputTokens !== undefined) options.usage.outputTokens = (options.usage.outputTokens ?? 0) + event.outputTokens;
      } else {
        reason = event.reason;
        break;
      }
    }
    const bad = checks.filter((c) => c.status !== CallCheckStatus.ok);
    if (bad.length > 0 && round === 0) {
      // Stateless repair: replay the step with the refusals as tool results, then judge again.
      const feedback: WaveMessage[] = checks.map((c) => ({
        role: 'tool',
        toolCallId: c.call.id,
        name: echoName(c.call.name),
        content: envelope(
          'tool_result',
          JSON.stringify({
            success: false,
            error:
              c.status === CallCheckStatus.ok
                ? 'Not run: another call in this step was refused. Send this call again together with the corrected ones.'
                : c.schemaUnusable
                  ? `${c.reason} Nothing was run.`
                  : `${c.reason} Nothing was run. Correct the call and send it again.`,
          }),
          nonce,
        ),
      }));
      input.messages = [
        ...input.messages,
        { role: 'assistant', content: text, toolCalls: checks.map((c) => ({ ...c.call, name: echoName(c.call.name) })) },
        ...feedback,
      ];
      continue;
    }
    if (bad.some((c) => c.status === CallCheckStatus.invalid)) {
      yield {
        type: 'error',
        code: WaveErrorCode.invalidToolArguments,
        message: 'The model produced tool arguments that do not match the tool schema.',
        retryable: true,
      };
      return;
    }
    const good = checks.filter((c) => c.status === CallCheckStatus.ok);
    for (const c of good) yield { type: 'tool_call', id: c.call.id, name: c.call.name, arguments: c.call.arguments };
    const unknown = bad.filter((c) => c.status === CallCheckStatus.unknown);
    if (unknown.length > 0) {
      // A fact, not a sentence in the model's reply: the widget words it (plain text, its language).
      yield { type: 'notice', code: 'unknown_tools', tools: [...new Set(unknown.map((c) => c.call.name.slice(0, 64)))].slice(0, 8) };
    }
    yield { type: 'end', reason: good.length > 0 ? 'tool_calls' : reason === 'tool_calls' ? 'stop' : reason };
    return;
  }
}
