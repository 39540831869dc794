/**
 * A manual clock for tests: time moves only when the test says so, so timing rules (retry
 * delays, timeouts, grant expiry) are asserted on exact numbers instead of waits.
 */
import type { Clock } from '../../src/clock.js';

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

/**
 * @example
 * const clock = new FakeClock();
 * clock.setTimeout(() => fired = true, 100);
 * clock.tick(100); // fired === true
 */
export class FakeClock implements Clock {
  #now: number;
  #nextId = 1;
  readonly #timers = new Map<number, Timer>();
  /** Every delay ever scheduled, in order (lets tests assert what was asked for). */
  readonly scheduled: number[] = [];

  constructor(start = 1_700_000_000_000) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.#nextId++;
    const delay = Math.max(0, Number.isFinite(ms) ? ms : 0);
    this.scheduled.push(delay);
    this.#timers.set(id, { id, at: this.#now + delay, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    if (typeof handle === 'number') this.#timers.delete(handle);
  }

  /** Number of timers still waiting. */
  get pending(): number {
    return this.#timers.size;
  }

  /** Moves time forward by `ms`, firing due timers in time order (including ones they schedule). */
  tick(ms: number): void {
    const target = this.#now + ms;
    for (;;) {
      const next = this.#earliest();
      if (!next || next.at > target) break;
      this.#timers.delete(next.id);
      this.#now = Math.max(this.#now, next.at);
      next.fn();
    }
    this.#now = target;
  }

  /**
   * Like `tick`, but lets promise continuations run between timers, so code that awaits
   * `sleep(clock, …)` and then schedules the next timer is followed through.
   */
  async tickAsync(ms: number): Promise<void> {
    const target = this.#now + ms;
    await flushMicrotasks();
    for (;;) {
      const next = this.#earliest();
      if (!next || next.at > target) break;
      this.#timers.delete(next.id);
      this.#now = Math.max(this.#now, next.at);
      next.fn();
      await flushMicrotasks();
    }
    this.#now = target;
    await flushMicrotasks();
  }

  /** Fires every timer (and the ones they schedule) until none is left; returns how many fired. */
  runAll(limit = 10_000): number {
    let fired = 0;
    for (;;) {
      const next = this.#earliest();
      if (!next) return fired;
      if (++fired > limit) throw new Error(`FakeClock.runAll: more than ${limit} timers (a timer loop?)`);
      this.#timers.delete(next.id);
      this.#now = Math.max(this.#now, next.at);
      next.fn();
    }
  }

  #earliest(): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.#timers.values()) if (!best || t.at < best.at || (t.at === best.at && t.id < best.id)) best = t;
    return best;
  }
}

/** Lets queued promise continuations run (a macrotask turn, not a timed wait). */
export function flushMicrotasks(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof MessageChannel === 'function') {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(0);
    } else {
      setTimeout(resolve, 0);
    }
  });
}

/** A manual `performance.now()` (see {@link fakePerformanceNow}). */
export interface FakePerformanceNow {
  /** Moves the faked `performance.now()` forward by `ms`. */
  advance(ms: number): void;
  /** Puts the real `performance.now()` back. */
  restore(): void;
}

/**
 * Browser tests: replaces `performance.now()` with a clock that moves only on `advance`, for
 * code that measures real time since an event (a chip's settle delay before Enter confirms).
 * A press "just as focus arrives" or "after the delay" then holds on any machine, however long
 * the key press takes to arrive. Call `restore()` in a `finally`.
 */
export function fakePerformanceNow(): FakePerformanceNow {
  let now = performance.now();
  const own = Object.getOwnPropertyDescriptor(performance, 'now');
  Object.defineProperty(performance, 'now', { configurable: true, writable: true, value: () => now });
  return {
    advance: (ms) => void (now += ms),
    restore: () => {
      if (own) Object.defineProperty(performance, 'now', own);
      else delete (performance as { now?: unknown }).now;
    },
  };
}
