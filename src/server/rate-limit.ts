/**
 * Rate limits behind one interface, so instances can share them: `MemoryRateLimitStore` (the
 * default: per instance), `RedisRateLimitStore` (one limit across every instance that shares the
 * Redis) and `WorkersRateLimitStore` (Cloudflare's own rate-limiting binding). Standards-only:
 * the Redis store takes a connected client rather than importing one.
 */
import type { RateLimitOptions } from './types.js';

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window resets (for `Retry-After`), when refused. */
  retryAfterSeconds: number;
}

/** Where request counts live. `take` counts one request for `key` and says whether it may pass. */
export interface RateLimitStore {
  take(key: string, limit: RateLimitOptions): Promise<RateDecision>;
}

/** Past this many keys, expired windows are swept before a new one is added. */
const SWEEP_AT = 10_000;

/**
 * A per-instance fixed-window request counter. It holds no conversation: behind several
 * instances each enforces its own share (use the Redis store to share one limit).
 *
 * @example
 * const limiter = new FixedWindowLimiter({ windowMs: 60_000, max: 60 }, Date.now);
 * if (!limiter.take(ip).allowed) return tooMany();
 */
export class FixedWindowLimiter {
  readonly #options: RateLimitOptions;
  readonly #now: () => number;
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(options: RateLimitOptions, now: () => number) {
    this.#options = options;
    this.#now = now;
  }

  take(key: string): RateDecision {
    const now = this.#now();
    const { windowMs, max } = this.#options;
    let window = this.#windows.get(key);
    if (!window || now - window.start >= windowMs) {
      if (!window && this.#windows.size >= SWEEP_AT) this.#sweep(now);
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    if (window.count >= max) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.start + windowMs - now) / 1000)) };
    }
    window.count += 1;
    return { allowed: true, retryAfterSeconds: 0 };
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows) {
      if (now - window.start >= this.#options.windowMs) this.#windows.delete(key);
    }
  }
}

/**
 * The in-memory default: one FixedWindowLimiter per distinct limit.
 *
 * @example
 * createWaveHandler({ ..., rateLimitStore: new MemoryRateLimitStore() });
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #now: () => number;
  readonly #limiters = new Map<string, FixedWindowLimiter>();
  constructor(now: () => number = () => Date.now()) {
    this.#now = now;
  }
  async take(key: string, limit: RateLimitOptions): Promise<RateDecision> {
    const id = `${limit.windowMs}/${limit.max}`;
    let limiter = this.#limiters.get(id);
    if (!limiter) this.#limiters.set(id, (limiter = new FixedWindowLimiter(limit, this.#now)));
    return limiter.take(key);
  }
}

/** What the Redis store needs of a client: `EVAL` as the `redis` package (node-redis) spells it. */
export interface RedisEvalClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/**
 * One fixed window per key, started by Redis itself on the first request, so instances with
 * drifting clocks still share one window: INCR, set the expiry on the first count, read it back.
 */
const TAKE_SCRIPT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`;

export interface RedisRateLimitStoreOptions {
  /** A connected client, e.g. `await createClient({ url }).connect()` from the `redis` package. */
  client: RedisEvalClient;
  /** Key prefix (default `wave:rl:`), so several deployments can share one Redis. */
  prefix?: string;
  /** A Redis that does not answer within this long counts as down (default 1,000 ms). */
  timeoutMs?: number;
}

/**
 * A rate limit shared by every instance that uses the same Redis. A Redis that is down or slow
 * makes `take` reject: the handler then refuses the request (503), it never waves it through.
 *
 * @example
 * const client = await createClient({ url: process.env.WAVE_REDIS_URL }).connect();
 * createWaveHandler({ ..., rateLimitStore: new RedisRateLimitStore({ client }) });
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #client: RedisEvalClient;
  readonly #prefix: string;
  readonly #timeoutMs: number;
  constructor(options: RedisRateLimitStoreOptions) {
    this.#client = options.client;
    this.#prefix = options.prefix ?? 'wave:rl:';
    this.#timeoutMs = options.timeoutMs ?? 1000;
  }
  async take(key: string, limit: RateLimitOptions): Promise<RateDecision> {
    const redisKey = `${this.#prefix}${limit.windowMs}:${limit.max}:${key}`;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('redis did not answer in time')), this.#timeoutMs);
    });
    try {
      const reply = await Promise.race([this.#client.eval(TAKE_SCRIPT, { keys: [redisKey], arguments: [String(limit.windowMs)] }), timeout]);
      if (!Array.isArray(reply) || reply.length !== 2) throw new Error('unexpected redis reply');
      const count = Number(reply[0]);
      const ttl = Number(reply[1]);
      if (!Number.isFinite(count) || !Number.isFinite(ttl)) throw new Error('unexpected redis reply');
      if (count <= limit.max) return { allowed: true, retryAfterSeconds: 0 };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)) };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Cloudflare's rate-limiting binding (`[[ratelimits]]` in wrangler.toml). */
export interface WorkersRateLimitBinding {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

/**
 * Cloudflare Workers: the platform's own rate limiter, shared across its locations. The limit
 * and period are the binding's (set in wrangler.toml); the handler's `rateLimit` numbers only
 * give the `Retry-After` a period.
 *
 * @example
 * createWaveHandler({ ..., rateLimitStore: new WorkersRateLimitStore(env.WAVE_RATE_LIMITER) });
 */
export class WorkersRateLimitStore implements RateLimitStore {
  readonly #binding: WorkersRateLimitBinding;
  constructor(binding: WorkersRateLimitBinding) {
    this.#binding = binding;
  }
  async take(key: string, limit: RateLimitOptions): Promise<RateDecision> {
    const { success } = await this.#binding.limit({ key });
    return success ? { allowed: true, retryAfterSeconds: 0 } : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(limit.windowMs / 1000)) };
  }
}
