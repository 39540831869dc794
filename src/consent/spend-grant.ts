/**
 * The session spend grant (SPEC §5 "Session approval"): after "Approve for this session",
 * cost-bearing tools run without asking until the cap, the 30-minute expiry, a revocation,
 * the end of the conversation or the page unloading.
 */
import { systemClock, type Clock } from '../clock.js';
import type { KeyValueStorage } from '../storage.js';
import { INACTIVE_GRANT, type SpendGrantState } from './types.js';

/** The grant's numbers, one place. */
export const SpendGrantLimits = {
  /** Cap when granted, and the step of each raise, in the site's cost units. */
  capStep: 200,
  /** A grant lasts this long after it was granted (never extended by a raise). */
  ttlMs: 30 * 60 * 1000,
} as const;

/** Grant events, the Lit `TaskStatus` pattern. */
export const SpendGrantEvent = {
  started: 'started',
  raised: 'raised',
  revoked: 'revoked',
  expired: 'expired',
} as const;
export type SpendGrantEvent = (typeof SpendGrantEvent)[keyof typeof SpendGrantEvent];

/** Whether the grant covers a cost: `would-exceed` means the cap re-ask is due. */
export type GrantCoverage = 'yes' | 'no-grant' | 'would-exceed';

/** Credits set aside for a covered call while its handler runs; commit on success, release otherwise. */
export interface SpendHold {
  readonly cost: number;
  commit(): void;
  release(): void;
}

export interface SpendGrantOptions {
  siteId?: string;
  clock?: Clock;
  /** Tab-scoped mirror (sessionStorage in the browser). Omit for memory only. */
  storage?: KeyValueStorage;
  onEvent?: (event: SpendGrantEvent, state: SpendGrantState) => void;
  /** Any change of the public state (including spent). */
  onChange?: (state: SpendGrantState) => void;
}

/** The live grant numbers (what the storage mirror holds). */
export interface GrantRecord {
  spent: number;
  cap: number;
  grantedAt: number;
  expiresAt: number;
}


/** Storage key of a site's grant. */
export function spendGrantKey(siteId: string): string {
  return `wave-chat:grant:${siteId}`;
}

/**
 * The spend grant.
 *
 * Storage and tampering. The authoritative grant lives in memory; sessionStorage is a
 * tab-scoped mirror (SPEC §2: the grant is the one thing stored), written on every change and
 * removed when the grant ends. Storage is never read back:
 * - while the page lives, a value written by another script has no effect at all;
 * - on first use any record found is discarded, not restored: the grant is cleared on
 *   `pagehide` (SPEC §5), so a record left at load time can only be forged, stale (a crash), or
 *   another element's, and none of those is something this visitor granted here.
 * An HMAC would add nothing: any key the widget holds is readable by the scripts that can write
 * the storage.
 *
 * @example
 * const grant = new SpendGrant({ siteId: 'shop', storage: sessionStorage, onEvent: console.log });
 * grant.start();
 * grant.covers(40); // 'yes'
 * grant.record(40);
 * grant.state(); // { active: true, spent: 40, cap: 200, … }
 */
export class SpendGrant {
  readonly #clock: Clock;
  readonly #storage: KeyValueStorage | undefined;
  readonly #key: string;
  readonly #options: SpendGrantOptions;
  #live: GrantRecord | null = null;
  #held = 0;
  #expiryTimer: unknown = undefined;

  constructor(options: SpendGrantOptions = {}) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#storage = options.storage;
    this.#key = spendGrantKey(options.siteId ?? 'default');
  }

  /**
   * A record present before this grant's first use was not granted by this visitor on this page:
   * discarded on that first use (any read of the state, a coverage check, a start, a clear), so
   * making a grant touches no storage.
   */
  #swept = false;

  #sweep(): void {
    if (this.#swept) return;
    this.#swept = true;
    this.#removeStored();
  }

  /** Starts a grant: cap 200, expiring 30 minutes from now. An active grant is kept as it is. */
  start(): SpendGrantState {
    if (this.#current()) return this.state();
    const now = this.#clock.now();
    this.#live = { spent: 0, cap: SpendGrantLimits.capStep, grantedAt: now, expiresAt: now + SpendGrantLimits.ttlMs };
    this.#held = 0;
    this.#armExpiry();
    this.#changed(SpendGrantEvent.started);
    return this.state();
  }

  /** Public snapshot; an expired grant ends here (and emits `expired` once). */
  state(): SpendGrantState {
    const live = this.#current();
    return live ? { active: true, spent: live.spent, cap: live.cap, grantedAt: live.grantedAt, expiresAt: live.expiresAt } : INACTIVE_GRANT;
  }

  /**
   * Whether the grant covers `cost` (> 0) on top of what is spent and held. A tier-3 tool is
   * never covered (`no-grant`), whatever the grant.
   */
  covers(cost: number, options: { tier3?: boolean } = {}): GrantCoverage {
    const live = this.#current();
    if (options.tier3 === true) return 'no-grant';
    if (!live || !(typeof cost === 'number' && Number.isFinite(cost) && cost > 0)) return 'no-grant';
    return live.spent + this.#held + cost <= live.cap ? 'yes' : 'would-exceed';
  }

  /** Sets `cost` aside if covered, or returns null. The hold counts toward `covers` until settled. */
  hold(cost: number): SpendHold | null {
    if (this.covers(cost) !== 'yes') return null;
    const live = this.#live;
    this.#held += cost;
    let settled = false;
    const settle = (commit: boolean) => {
      if (settled) return;
      settled = true;
      // A hold outliving its grant (revoked, expired, restarted) releases into nothing.
      if (this.#live !== live) return;
      this.#held = Math.max(0, this.#held - cost);
      if (commit) this.record(cost);
    };
    return { cost, commit: () => settle(true), release: () => settle(false) };
  }

  /** Adds `cost` to what was spent under the grant. */
  record(cost: number): void {
    const live = this.#current();
    if (!live || !(typeof cost === 'number' && Number.isFinite(cost) && cost > 0)) return;
    live.spent += cost;
    this.#changed(null);
  }

  /** The visitor confirmed the cap re-ask: the cap grows by 200. The expiry does not move. */
  raise(): SpendGrantState {
    const live = this.#current();
    if (!live) return INACTIVE_GRANT;
    live.cap += SpendGrantLimits.capStep;
    this.#changed(SpendGrantEvent.raised);
    return this.state();
  }

  /** Ends the grant (the pill was tapped, the re-ask cancelled, "ask me every time"). */
  revoke(_reason?: string): void {
    if (!this.#current()) return;
    this.#end(SpendGrantEvent.revoked);
  }

  /** Ends the grant without a revoke event: the conversation ended or restarted, the page unloads. */
  clear(): void {
    this.#swept = true;
    const wasActive = this.#live !== null;
    this.#live = null;
    this.#held = 0;
    this.#disarmExpiry();
    this.#removeStored();
    if (wasActive) this.#notifyChange();
  }

  #current(): GrantRecord | null {
    this.#sweep();
    const live = this.#live;
    if (live && this.#clock.now() >= live.expiresAt) {
      this.#end(SpendGrantEvent.expired);
      return null;
    }
    return live;
  }

  #end(event: SpendGrantEvent): void {
    const live = this.#live;
    if (!live) return;
    const last: SpendGrantState = { active: false, spent: live.spent, cap: live.cap, grantedAt: live.grantedAt, expiresAt: live.expiresAt };
    this.#live = null;
    this.#held = 0;
    this.#disarmExpiry();
    this.#removeStored();
    this.#safe(() => this.#options.onEvent?.(event, last));
    this.#notifyChange();
  }

  #changed(event: SpendGrantEvent | null): void {
    this.#persist();
    if (event) this.#safe(() => this.#options.onEvent?.(event, this.state()));
    this.#notifyChange();
  }

  #notifyChange(): void {
    const live = this.#live;
    const snapshot = live ? { active: true, ...live } : INACTIVE_GRANT;
    this.#safe(() => this.#options.onChange?.(snapshot));
  }

  // The UI learns of expiry without polling; `state()` would also expire it lazily.
  #armExpiry(): void {
    this.#disarmExpiry();
    const live = this.#live;
    if (!live) return;
    this.#expiryTimer = this.#clock.setTimeout(() => {
      this.#expiryTimer = undefined;
      this.#current();
    }, Math.max(0, live.expiresAt - this.#clock.now()));
  }

  #disarmExpiry(): void {
    if (this.#expiryTimer !== undefined) this.#clock.clearTimeout(this.#expiryTimer);
    this.#expiryTimer = undefined;
  }

  #persist(): void {
    const live = this.#live;
    if (!live || !this.#storage) return;
    try {
      this.#storage.setItem(this.#key, JSON.stringify({ v: 1, spent: live.spent, cap: live.cap, grantedAt: live.grantedAt }));
    } catch {
      /* a full or blocked storage only loses the mirror */
    }
  }

  #removeStored(): void {
    try {
      this.#storage?.removeItem(this.#key);
    } catch {
      /* nothing to clean */
    }
  }

  #safe(fn: () => void): void {
    try {
      fn();
    } catch {
      /* observers cannot break the grant */
    }
  }
}
