/**
 * A per-instance fixed-window request counter. It is the only memory the server keeps, and it holds
 * no conversation: behind several instances each enforces its own share.
 */
import type { RateLimitOptions } from './types.js';

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window resets (for `Retry-After`), when refused. */
  retryAfterSeconds: number;
}

/** Past this many keys, expired windows are swept before a new one is added. */
const SWEEP_AT = 10_000;

/**
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
