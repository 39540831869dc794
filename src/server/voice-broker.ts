/**
 * The realtime voice broker (SPEC §9): mints a short-lived client secret with the provider key,
 * so the browser connects to the speech-to-speech session without ever seeing the key.
 * Web standards only (fetch), so it runs unchanged on Node and edge runtimes.
 */
import type { PageToolSchema } from '../tools/types.js';
import type { VoiceSessionRequest, VoiceSessionResponse } from '../transport/protocol.js';
import { buildRealtimeSessionConfig } from '../voice/session-config.js';

export interface RealtimeBrokerOptions {
  /** Provider API base, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey: string;
  model: string;
  voice?: string;
  fetch?: typeof fetch;
  /** WebSocket URL the browser connects to; default derived from `baseUrl` (`wss://…/realtime?model=…`). */
  wsUrl?: string;
  /** `client_secrets` (GA, default) or `sessions` (beta) minting endpoint. */
  endpoint?: 'client_secrets' | 'sessions';
  /** Lifetime requested for the secret. */
  ttlSeconds?: number;
  /** Marks untrusted text as data (plug the guard module here); a nonce-delimited envelope by default. */
  frameData?: (label: string, text: string) => string;
  /** Filters or neutralises tool schemas before they reach the provider (site allow-list, guards). */
  prepareTools?: (tools: PageToolSchema[], site: { id: string }) => PageToolSchema[];
}

/** A refusal with an HTTP status for the handler to turn into a JSON error; never carries the key. */
export class VoiceBrokerError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
    this.name = 'VoiceBrokerError';
  }
}

export interface RealtimeBroker {
  createSession(req: VoiceSessionRequest, site: { id: string; instructions?: string }, signal: AbortSignal): Promise<VoiceSessionResponse>;
}

function isToolSchema(value: unknown): value is PageToolSchema {
  if (!value || typeof value !== 'object') return false;
  const t = value as Record<string, unknown>;
  return (
    typeof t['name'] === 'string' &&
    /^[a-z0-9_]{1,48}$/.test(t['name']) &&
    typeof t['description'] === 'string' &&
    !!t['parameters'] &&
    typeof t['parameters'] === 'object' &&
    !Array.isArray(t['parameters'])
  );
}

function defaultWsUrl(baseUrl: string, model: string): string {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/realtime`);
  url.protocol = url.protocol === 'http:' ? 'ws:' : 'wss:';
  url.searchParams.set('model', model);
  return url.toString();
}

/** Reads `{ value, expires_at }` (GA) or `{ client_secret: { value, expires_at } }` (beta). */
function readSecret(body: unknown): { value: string; expiresAt: number } | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  const holder = b['client_secret'] && typeof b['client_secret'] === 'object' ? (b['client_secret'] as Record<string, unknown>) : b;
  const value = holder['value'];
  const expires = holder['expires_at'];
  if (typeof value !== 'string' || !value) return null;
  // The provider speaks Unix seconds; the protocol speaks milliseconds.
  const expiresAt = typeof expires === 'number' ? (expires < 1e12 ? expires * 1000 : expires) : Date.now() + 60_000;
  return { value, expiresAt };
}

/**
 * Creates the broker the wave server's handler calls on `POST /wave/voice/session`.
 *
 * @example
 * const broker = createRealtimeBroker({ baseUrl: 'https://api.openai.com/v1', apiKey: env.OPENAI_API_KEY, model: 'gpt-realtime' });
 * const session = await broker.createSession(body, { id: 'demo', instructions: site.instructions }, request.signal);
 * return Response.json(session);
 */
export function createRealtimeBroker(options: RealtimeBrokerOptions): RealtimeBroker {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const base = options.baseUrl.replace(/\/+$/, '');
  const endpoint = options.endpoint ?? 'client_secrets';
  const ttl = options.ttlSeconds ?? 600;
  return {
    async createSession(req, site, signal) {
      if (!req || typeof req !== 'object' || !Array.isArray(req.tools)) {
        throw new VoiceBrokerError('tools must be an array', 400, 'bad_request');
      }
      if (req.context !== null && typeof req.context !== 'string') {
        throw new VoiceBrokerError('context must be a string or null', 400, 'bad_request');
      }
      const valid = req.tools.filter(isToolSchema);
      if (valid.length !== req.tools.length) throw new VoiceBrokerError('invalid tool schema', 400, 'bad_tools');
      const tools = options.prepareTools ? options.prepareTools(valid, site) : valid;
      const sessionConfig = buildRealtimeSessionConfig({
        model: options.model,
        tools,
        context: req.context,
        ...(site.instructions ? { instructions: site.instructions } : {}),
        ...(options.voice ? { voice: options.voice } : {}),
        ...(options.frameData ? { frameData: options.frameData } : {}),
      });
      // The secret carries the same config, so the session is right even before the opening frame.
      const body =
        endpoint === 'client_secrets'
          ? { expires_after: { anchor: 'created_at', seconds: ttl }, session: sessionConfig }
          : { model: options.model, ...(options.voice ? { voice: options.voice } : {}) };
      let res: Response;
      try {
        res = await doFetch(`${base}/realtime/${endpoint}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal,
        });
      } catch (error) {
        if (signal.aborted) throw error;
        throw new VoiceBrokerError('voice provider unreachable', 502, 'upstream_unreachable');
      }
      if (!res.ok) {
        // The provider's error text is not echoed: it could quote request details.
        throw new VoiceBrokerError(`voice provider refused the session (${res.status})`, 502, 'upstream_error');
      }
      const secret = readSecret(await res.json().catch(() => null));
      if (!secret) throw new VoiceBrokerError('voice provider returned no client secret', 502, 'upstream_bad_response');
      return {
        clientSecret: secret.value,
        expiresAt: secret.expiresAt,
        url: options.wsUrl ?? defaultWsUrl(base, options.model),
        transport: 'websocket',
        model: options.model,
        sessionConfig,
      };
    },
  };
}
