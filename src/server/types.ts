/**
 * Configuration types of the wave server (SPEC §10). Standards-only: no `node:` imports here.
 */
import type { VoiceSessionRequest, VoiceSessionResponse } from '../transport/protocol.js';
import type { Clock } from '../clock.js';
import type { ModelProvider } from './providers/types.js';
import type { RateLimitStore } from './rate-limit.js';

/** One embedding site: who may call, which model, which instructions, which tools. */
export interface SiteConfig {
  id: string;
  /** Exact origins (`https://shop.example`) allowed to call; `'*'` must be listed explicitly to allow any. */
  allowedOrigins: string[];
  /**
   * Accept requests that carry no `Origin` header (server-to-server, curl). Default false; a site that
   * lists `'*'` accepts them too. An Origin check only stops other sites' browsers, never a scripted client.
   */
  allowNoOrigin?: boolean;
  /** Provider model name for this site; defaults to the provider's own. */
  model?: string;
  /** The site's system instructions; default: a helpful assistant on this website. */
  instructions?: string;
  /** Tool names this site may offer the model; undefined = every page tool. `load_tools` always passes. */
  allowedTools?: string[];
  /** Cap on each tool result in the prompt, in chars (default: the server's `maxResultChars`). */
  maxResultChars?: number;
}

/** Looks a site up by id (e.g. from a database); undefined when unknown. */
export type SiteConfigResolver = (siteId: string) => SiteConfig | undefined | Promise<SiteConfig | undefined>;

/**
 * Logging sink. Each call passes one JSON line (`{"time","level","msg","requestId","route","site",
 * "status","durationMs","outcome","inputTokens"?,"outputTokens"?}`): only request metadata, never
 * bodies, page state, tool results, headers or keys.
 */
export interface WaveLogger {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

/** Mints realtime voice sessions (see voice-broker.ts); optional. */
export interface VoiceBroker {
  createSession(request: VoiceSessionRequest, site: SiteConfig, signal: AbortSignal): Promise<VoiceSessionResponse>;
}

export interface RateLimitOptions {
  windowMs: number;
  /** Requests allowed per client key in one window. */
  max: number;
}

export interface WaveServerOptions {
  sites: SiteConfig[] | SiteConfigResolver;
  provider: ModelProvider | ((site: SiteConfig) => ModelProvider);
  /** URL path of the endpoint (default `/wave`); the voice route is `{basePath}/voice/session`. */
  basePath?: string;
  /** Largest accepted request body (default 256 KB). */
  maxBodyBytes?: number;
  /** Default cap on each tool result (default 8,000 chars). */
  maxResultChars?: number;
  /** Cap on the page state (default 8,000 chars). */
  maxContextChars?: number;
  /** Per-client fixed-window limit (default 60 requests a minute); `false` disables it. */
  rateLimit?: RateLimitOptions | false;
  /** Where the counts live (default: in memory, per instance; `RedisRateLimitStore` shares them). */
  rateLimitStore?: RateLimitStore;
  /**
   * Who a request comes from, for the rate limit; undefined when unknown. Default: the address the
   * runtime entry attached (`setClientAddress`: the Node socket, Deno/Bun connection info, Workers'
   * `CF-Connecting-IP`). With a limit on, a request with no identity is refused (403
   * `client_unidentified`): it is never counted in a bucket shared with other unknown clients.
   */
  clientKey?: (request: Request) => string | undefined;
  logger?: WaveLogger;
  /** Milliseconds clock (default `Date.now`), for the rate limit and the log timings. */
  now?: () => number;
  /** Timers for the SSE keep-alive (default the real clock). */
  clock?: Clock;
  /** An SSE comment is sent after this long without an event (default 15,000 ms; 0 turns it off). */
  keepAliveMs?: number;
  /** Once aborted the server takes no new work: requests get 503 `shutting_down`, `/health` 503; open streams go on. */
  draining?: AbortSignal;
  /** Once aborted every open stream ends with the error event `server_shutdown` (the drain deadline passed). */
  shutdown?: AbortSignal;
  voiceBroker?: VoiceBroker;
}

/** JSON body of every error response. */
export interface WaveErrorBody {
  error: { code: string; message: string };
}
