/**
 * Several tabs (SPEC §13): when the kept conversation is open in several tabs of one site, a
 * tool call goes to the most recently active tab that has the tool; if none has it, the model
 * is told it is not available on this page.
 *
 * Each tab announces on a shared channel the page tools it offers and when the visitor last
 * used it. A call from this tab's model runs here when this tab is the most recently active one
 * with the tool; otherwise it is sent to that tab, which runs it through its own `callTool`
 * path (validation, its consent chip with its panel opening, its own grant, tier3,
 * sanitization) and sends back what its model would receive.
 *
 * The channel is untrusted (any same-origin document can post to it). What a forged message
 * can do is bounded: it can make a tab run a tool only as the page's own `callTool` would, so
 * under that tab's consent rules (only a genuine visitor action there settles a chip); it can
 * claim tools or recent activity to receive calls and answer them with made-up results, which
 * are sanitized like any handler's result and reach the model as untrusted data. It cannot
 * answer a confirmation, start a grant, or run a tool without its tab's own rules.
 */
import { systemClock, type Clock } from '../clock.js';
import type { ToolPart } from '../tools/tool-part.js';
import { sanitizeResult } from '../tools/sanitize.js';
import { keyArgument, readableToolName } from '../tools/tool-title.js';
import { ToolFailure, ToolLimits, ToolOutcomeStatus, type PageToolSchema, type SanitizedResult, type ToolCall, type ToolOutcome } from '../tools/types.js';
import { randomId } from '../util/ids.js';
import { parseTabMessage, RemoteEnding, TAB_PROTOCOL, TabLimits, type CallMessage, type ResultMessage, type StateMessage, type TabMessage } from './tab-protocol.js';

/** What the router needs of a BroadcastChannel (tests pass a fake). */
export interface TabChannel {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  close(): void;
}

/** The session's side of routing: the tools other tabs offer, and where a model call runs. */
export interface ToolRouter {
  /** Tools live tabs offer that `local` lacks, most recently active tab first, within the budget. */
  remoteSchemas(local: ReadonlySet<string>): PageToolSchema[];
  /**
   * Runs the model's `call` in the most recently active tab that has its tool: here (`here.run`)
   * or in another tab. `onPart` receives this tab's chip for a call that runs elsewhere. Never rejects.
   */
  route(call: ToolCall, signal: AbortSignal, here: { has: boolean; run: () => Promise<ToolOutcome> }, onPart: (part: ToolPart) => void): Promise<ToolOutcome>;
}

/** Timings (ms). Liveness is checked by the caller while a call is out, not by timers elsewhere. */
export const TabTimings = {
  /** A tab re-announces itself this often (background tabs' timers may run once a minute). */
  announceMs: 30_000,
  /** A tab not heard from for this long is gone (it may have crashed without saying goodbye). */
  peerTtlMs: 130_000,
  /** A routed call not accepted within this long is taken back (it never started there). */
  acceptMs: 2_000,
  /** While a call runs elsewhere, the caller asks that tab this often whether it is still there… */
  pingMs: 2_000,
  /** …and gives up on it after this long without a word. */
  silenceMs: 6_000,
  /** A tab running a call for a caller it has not heard from for this long stops it. */
  callerSilenceMs: 10_000,
  /** Activity is announced at most this often (the first at once, the last at the end). */
  activityMs: 1_000,
} as const;

/** What the model receives; nothing here reaches the visitor (chips carry facts). */
export const TabText = {
  notAvailable: (name: string) =>
    `The tool "${name}" is not available on this page: no open tab of this site offers it now. Tell the visitor; do not retry unless they open the page that has it.`,
  gone: (tab: string, started: boolean) =>
    started
      ? `The tab "${tab}" running this action closed or stopped answering before it finished. It may or may not have happened; check before retrying.`
      : `The tab "${tab}" closed or stopped answering while it waited for the visitor's confirmation, so the action did not happen.`,
  stopped: 'The action was stopped before it finished. Do not retry it unless the visitor asks.',
} as const;

export interface TabRouterOptions {
  channel: TabChannel;
  /** Only messages of this site are read. */
  siteId: string;
  clock?: Clock;
  /** This tab's id on the channel (default: a random id). */
  tabId?: string;
  /** This tab's title, shown on the other tabs' chips ("in “Task board”"). */
  title?: () => string;
  /** The page tools this tab offers other tabs: its own, never those it sees elsewhere. */
  tools: () => PageToolSchema[];
  /**
   * Runs a call from another tab here, exactly as the page's own `callTool` would (its consent,
   * grant, tier3, sanitization), under `call.id`; `from.tab` is the asking tab's title. Never rejects.
   */
  runHere: (call: ToolCall, signal: AbortSignal, from: { tab: string }) => Promise<ToolOutcome>;
  warn?: (message: string) => void;
}

interface Peer {
  id: string;
  title: string;
  activeAt: number;
  tools: Map<string, PageToolSchema>;
  heard: number;
}

/** A call of ours out in another tab. */
interface Outgoing {
  peer: string;
  sentAt: number;
  accepted: boolean;
  /** It waits there on the visitor's confirmation (so its handler has not run yet). */
  waiting: boolean;
  /** Its handler started there. */
  running: boolean;
  heard: number;
  onStatus: (waiting: boolean) => void;
  settle: (ending: OutgoingEnding) => void;
}

type OutgoingEnding = { kind: 'declined' } | { kind: 'gone' } | { kind: 'stopped' } | { kind: 'result'; message: ResultMessage };

/** A call from another tab running here. */
interface Incoming {
  from: string;
  /** The id it runs under here (its chip's, its confirmation's). */
  localId: string;
  controller: AbortController;
  heard: number;
}

/**
 * @example
 * const router = new TabRouter({ channel: new BroadcastChannel(tabChannelName(key)), siteId: 'demo',
 *   tools: () => session.ownToolSchemas(), runHere: (call, signal) => session.runCall(call, { signal }) });
 * router.start();
 * session.setToolRouter(router);
 */
export class TabRouter implements ToolRouter {
  readonly id: string;
  readonly #channel: TabChannel;
  readonly #site: string;
  readonly #clock: Clock;
  readonly #title: () => string;
  readonly #tools: () => PageToolSchema[];
  readonly #runHere: TabRouterOptions['runHere'];
  readonly #warn: (message: string) => void;
  readonly #peers = new Map<string, Peer>();
  readonly #outgoing = new Map<string, Outgoing>();
  readonly #incoming = new Map<string, Incoming>();
  readonly #warned = new Set<string>();
  #activeAt = 0;
  #running = false;
  #announceTimer: unknown = null;
  #activityTimer: unknown = null;
  #watchTimer: unknown = null;
  #lastAnnounce = -Infinity;
  /** The activity time the other tabs were last told. */
  #announcedActiveAt = 0;

  constructor(options: TabRouterOptions) {
    this.id = options.tabId ?? randomId();
    this.#channel = options.channel;
    this.#site = options.siteId;
    this.#clock = options.clock ?? systemClock;
    this.#title = options.title ?? (() => '');
    this.#tools = options.tools;
    this.#runHere = options.runHere;
    this.#warn = options.warn ?? ((m) => console.warn(m));
  }

  /** Joins: listens, and says hello (the other tabs answer with their state). Idempotent. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#channel.addEventListener('message', this.#onMessage);
    this.#announce(true);
  }

  /**
   * Leaves: says goodbye and settles everything in flight (calls out are told their tab is gone
   * to us; calls from other tabs are stopped). Idempotent; `start` joins again (a page back
   * from the back/forward cache, or unfrozen).
   */
  stop(): void {
    if (!this.#running) return;
    this.#running = false;
    this.#post({ kind: 'bye' });
    this.#channel.removeEventListener('message', this.#onMessage);
    for (const handle of [this.#announceTimer, this.#activityTimer, this.#watchTimer]) if (handle !== null) this.#clock.clearTimeout(handle);
    this.#announceTimer = this.#activityTimer = this.#watchTimer = null;
    for (const out of [...this.#outgoing.values()]) out.settle({ kind: 'gone' });
    for (const incoming of [...this.#incoming.values()]) incoming.controller.abort(new DOMException('This tab left.', 'AbortError'));
    this.#incoming.clear();
    this.#peers.clear();
  }

  /** Stops and closes the channel; the router is not used after this. */
  dispose(): void {
    this.stop();
    try {
      this.#channel.close();
    } catch {
      /* already closed */
    }
  }

  /** When the visitor last used this tab (epoch ms; 0 before any use). */
  get activeAt(): number {
    return this.#activeAt;
  }

  /**
   * The visitor used this tab (focus, shown, a pointer or key). The others learn at once when
   * the visitor comes here from another tab; use within the tab they were told of is announced
   * at most once a second (typing is many keys).
   */
  markActive(at: number = this.#clock.now()): void {
    this.#activeAt = Math.max(this.#activeAt, at);
    if (!this.#running) return;
    const known = this.#announcedActiveAt;
    const switched = [...this.#peers.values()].some((peer) => peer.activeAt >= known);
    if (switched && this.#activityTimer !== null) {
      this.#clock.clearTimeout(this.#activityTimer);
      this.#activityTimer = null;
    }
    if (this.#activityTimer !== null) return;
    const wait = switched ? 0 : this.#lastAnnounce + TabTimings.activityMs - this.#clock.now();
    if (wait <= 0) {
      this.#announce(false);
      return;
    }
    this.#activityTimer = this.#clock.setTimeout(() => {
      this.#activityTimer = null;
      this.#announce(false);
    }, wait);
  }

  /** This tab's tools changed: the others learn at once. */
  toolsChanged(): void {
    if (this.#running) this.#announce(false);
  }

  /**
   * A call from another tab now waits on the visitor's confirmation here (`waiting`), or its
   * handler started (`false`): its caller's chip says so.
   */
  callProgress(localId: string, waiting: boolean): void {
    for (const [wire, incoming] of this.#incoming) {
      if (incoming.localId === localId) this.#post({ kind: 'status', to: incoming.from, id: wire, waiting });
    }
  }

  /** The live tabs other than this one, most recently active first (for tests and diagnostics). */
  peers(): Array<{ id: string; title: string; activeAt: number; tools: string[] }> {
    return this.#livePeers().map((p) => ({ id: p.id, title: p.title, activeAt: p.activeAt, tools: [...p.tools.keys()] }));
  }

  remoteSchemas(local: ReadonlySet<string>): PageToolSchema[] {
    const out: PageToolSchema[] = [];
    const names = new Set(local);
    let bytes = 0;
    for (const peer of this.#livePeers()) {
      for (const tool of peer.tools.values()) {
        if (names.has(tool.name)) continue;
        names.add(tool.name);
        // Other tabs' tools are offered within the deferral budget, the most recent tab's first.
        const size = JSON.stringify(tool).length;
        if (out.length >= ToolLimits.deferralToolCount || bytes + size > ToolLimits.deferralSchemaBytes) {
          this.#warnOnce(
            `budget:${tool.name}`,
            `[wave-chat] "${tool.name}" from another tab is not offered: other tabs' tools are limited to ${ToolLimits.deferralToolCount} tools and ${ToolLimits.deferralSchemaBytes} bytes`,
          );
          continue;
        }
        bytes += size;
        out.push(tool);
      }
    }
    return out;
  }

  async route(call: ToolCall, signal: AbortSignal, here: { has: boolean; run: () => Promise<ToolOutcome> }, onPart: (part: ToolPart) => void): Promise<ToolOutcome> {
    const tried = new Set<string>();
    for (;;) {
      const target = this.#pick(call.name, here.has, tried);
      if (target === 'here') return here.run();
      if (target === null) return this.#notAvailable(call, onPart);
      tried.add(target.id);
      const outcome = await this.#callPeer(target, call, signal, onPart);
      // null: that tab declined or never accepted, so nothing ran there and the next one may run it.
      if (outcome) return outcome;
    }
  }

  // ── choosing ──────────────────────────────────────────────────────────────────

  #livePeers(): Peer[] {
    const now = this.#clock.now();
    const live: Peer[] = [];
    for (const peer of [...this.#peers.values()]) {
      if (now - peer.heard > TabTimings.peerTtlMs) this.#peers.delete(peer.id);
      else live.push(peer);
    }
    return live.sort((a, b) => b.activeAt - a.activeAt);
  }

  /** The most recently active tab with the tool; this tab wins a tie. */
  #pick(name: string, hereHas: boolean, tried: ReadonlySet<string>): Peer | 'here' | null {
    const best = this.#livePeers().find((peer) => !tried.has(peer.id) && peer.tools.has(name)) ?? null;
    if (hereHas && (best === null || best.activeAt <= this.#activeAt)) return 'here';
    return best;
  }

  #notAvailable(call: ToolCall, onPart: (part: ToolPart) => void): ToolOutcome {
    const title = readableToolName(call.name);
    const error = TabText.notAvailable(call.name);
    safePart(onPart, { kind: 'tool', id: call.id, name: call.name, title, status: 'failed', failure: ToolFailure.unknownTool });
    return { callId: call.id, name: call.name, title, status: ToolOutcomeStatus.unknown, result: { success: false, error }, label: '', failure: ToolFailure.unknownTool, attempts: 0 };
  }

  // ── a call out to another tab ─────────────────────────────────────────────────

  /** The outcome, or null when that tab declined or never accepted (nothing ran there). */
  async #callPeer(peer: Peer, call: ToolCall, signal: AbortSignal, onPart: (part: ToolPart) => void): Promise<ToolOutcome | null> {
    const tab = peer.title;
    // The chip here names its key argument, read with the schema that tab announced.
    const subject = keyArgument(peer.tools.get(call.name)?.parameters, argumentsObject(call.arguments));
    const base: PartBase = { kind: 'tool', id: call.id, name: call.name, title: readableToolName(call.name), ...(subject !== undefined ? { subject } : {}) };
    if (signal.aborted) return stoppedOutcome(base, tab, onPart);
    const wire = randomId();
    const now = this.#clock.now();
    let settle!: (ending: OutgoingEnding) => void;
    const ended = new Promise<OutgoingEnding>((resolve) => (settle = resolve));
    const out: Outgoing = {
      peer: peer.id,
      sentAt: now,
      accepted: false,
      waiting: false,
      running: false,
      heard: now,
      // Sent: `requested`; asked there: `awaiting-confirmation` (no buttons here); its handler started there: `running`.
      onStatus: (waiting) => {
        out.running = !waiting;
        safePart(onPart, { ...base, status: waiting ? 'awaiting-confirmation' : 'running', elsewhere: waiting ? { tab, waiting: true } : { tab } });
      },
      settle: (ending) => {
        if (this.#outgoing.get(wire) !== out) return;
        this.#outgoing.delete(wire);
        settle(ending);
      },
    };
    this.#outgoing.set(wire, out);
    const sent = this.#post({ kind: 'call', to: peer.id, id: wire, name: call.name, args: call.arguments, deadline: now + TabTimings.acceptMs });
    if (!sent) {
      this.#outgoing.delete(wire);
      return null;
    }
    safePart(onPart, { ...base, status: 'requested', elsewhere: { tab } });
    const onAbort = () => out.settle({ kind: 'stopped' });
    signal.addEventListener('abort', onAbort, { once: true });
    this.#watch();
    const ending = await ended;
    signal.removeEventListener('abort', onAbort);
    switch (ending.kind) {
      case 'declined':
        // It does not have the tool (any more), or never answered: not offered from it again.
        this.#peers.get(peer.id)?.tools.delete(call.name);
        return null;
      case 'stopped':
        this.#post({ kind: 'abort', to: peer.id, id: wire });
        return stoppedOutcome(base, tab, onPart);
      case 'gone': {
        if (!out.accepted) return null;
        const error = TabText.gone(tab || 'other', !out.waiting);
        safePart(onPart, { ...base, status: 'failed', failure: ToolFailure.tabGone, elsewhere: { tab } });
        return { callId: call.id, name: call.name, title: base.title, status: ToolOutcomeStatus.failed, result: { success: false, error }, label: '', failure: ToolFailure.tabGone, attempts: 1 };
      }
      case 'result':
        // A handler that ran there passes through running on this tab's chip too.
        if (!out.running && (ending.message.ending === RemoteEnding.succeeded || ending.message.ending === RemoteEnding.failed)) {
          safePart(onPart, { ...base, status: 'running', elsewhere: { tab } });
        }
        return resultOutcome(base, tab, ending.message, onPart);
    }
  }

  /** One timer while calls are out or in: accept deadlines, pings, and silence on either side. */
  #watch(): void {
    if (this.#watchTimer !== null || !this.#running) return;
    if (this.#outgoing.size === 0 && this.#incoming.size === 0) return;
    const period = Math.min(TabTimings.pingMs, TabTimings.acceptMs);
    this.#watchTimer = this.#clock.setTimeout(() => {
      this.#watchTimer = null;
      const now = this.#clock.now();
      for (const [wire, out] of [...this.#outgoing]) {
        if (!out.accepted) {
          if (now - out.sentAt >= TabTimings.acceptMs) {
            // It did not answer: most likely gone without a goodbye (crashed, frozen).
            this.#peers.delete(out.peer);
            out.settle({ kind: 'declined' });
          }
        } else if (now - out.heard >= TabTimings.silenceMs) {
          out.settle({ kind: 'gone' });
        } else {
          this.#post({ kind: 'ping', to: out.peer, id: wire });
        }
      }
      for (const incoming of [...this.#incoming.values()]) {
        if (now - incoming.heard >= TabTimings.callerSilenceMs) incoming.controller.abort(new DOMException('The tab that asked is gone.', 'AbortError'));
      }
      this.#watch();
    }, period);
  }

  // ── the channel ───────────────────────────────────────────────────────────────

  readonly #onMessage = (event: MessageEvent): void => {
    if (!this.#running) return;
    let data: unknown;
    try {
      data = event.data;
    } catch {
      return;
    }
    const message = parseTabMessage(data, this.#site);
    if (!message || message.from === this.id) return;
    this.#heard(message.from);
    switch (message.kind) {
      case 'state':
        this.#onState(message);
        return;
      case 'bye':
        this.#onBye(message.from);
        return;
      case 'call':
        if (message.to === this.id) this.#onCall(message);
        return;
      default:
        if (message.to === this.id) this.#onReply(message);
    }
  };

  /** Any word from a tab shows it is alive, for its entry and the calls between us. */
  #heard(from: string): void {
    const now = this.#clock.now();
    const peer = this.#peers.get(from);
    if (peer) peer.heard = now;
    for (const out of this.#outgoing.values()) if (out.peer === from) out.heard = now;
    for (const incoming of this.#incoming.values()) if (incoming.from === from) incoming.heard = now;
  }

  #onState(message: StateMessage): void {
    const now = this.#clock.now();
    if (!this.#peers.has(message.from) && this.#livePeers().length >= TabLimits.maxPeers) return;
    const tools = new Map(message.tools.map((tool) => [tool.name, tool]));
    // A claim of activity in the future counts as now: it cannot outrank later real activity for long.
    this.#peers.set(message.from, { id: message.from, title: message.title, activeAt: Math.min(message.activeAt, now), tools, heard: now });
    if (message.hello) this.#announce(false);
  }

  #onBye(from: string): void {
    this.#peers.delete(from);
    for (const out of [...this.#outgoing.values()]) if (out.peer === from) out.settle({ kind: 'gone' });
    for (const incoming of [...this.#incoming.values()]) {
      if (incoming.from === from) incoming.controller.abort(new DOMException('The tab that asked is gone.', 'AbortError'));
    }
  }

  #onReply(message: Exclude<TabMessage, StateMessage | CallMessage | { kind: 'bye' }>): void {
    if (message.kind === 'abort') {
      const incoming = this.#incoming.get(message.id);
      if (incoming && incoming.from === message.from) incoming.controller.abort(new DOMException('The tab that asked stopped it.', 'AbortError'));
      return;
    }
    if (message.kind === 'ping') {
      const incoming = this.#incoming.get(message.id);
      if (incoming && incoming.from === message.from) this.#post({ kind: 'pong', to: message.from, id: message.id });
      return;
    }
    const out = this.#outgoing.get(message.id);
    if (!out || out.peer !== message.from) return;
    switch (message.kind) {
      case 'accepted':
        out.accepted = true;
        return;
      case 'declined':
        if (!out.accepted) out.settle({ kind: 'declined' });
        return;
      case 'status':
        if (!out.accepted) return;
        out.waiting = message.waiting;
        out.onStatus(message.waiting);
        return;
      case 'result':
        out.settle({ kind: 'result', message });
        return;
      default:
        return;
    }
  }

  // ── a call in from another tab ────────────────────────────────────────────────

  #onCall(message: CallMessage): void {
    if (this.#incoming.has(message.id)) return;
    const decline = (): void => void this.#post({ kind: 'declined', to: message.from, id: message.id });
    // Past its deadline the caller has moved on (maybe to another tab): running it now could do it twice.
    if (this.#clock.now() > message.deadline) return decline();
    if (this.#incoming.size >= TabLimits.maxIncoming) return decline();
    if (!this.#ownTools().some((tool) => tool.name === message.name)) return decline();
    const incoming: Incoming = { from: message.from, localId: `tab_${randomId()}`, controller: new AbortController(), heard: this.#clock.now() };
    this.#incoming.set(message.id, incoming);
    this.#post({ kind: 'accepted', to: message.from, id: message.id });
    this.#watch();
    void this.#runIncoming(message, incoming);
  }

  async #runIncoming(message: CallMessage, incoming: Incoming): Promise<void> {
    let outcome: ToolOutcome;
    try {
      const tab = this.#peers.get(message.from)?.title ?? '';
      outcome = await this.#runHere({ id: incoming.localId, name: message.name, arguments: message.args }, incoming.controller.signal, { tab });
    } catch {
      outcome = { callId: incoming.localId, name: message.name, status: ToolOutcomeStatus.failed, result: { success: false, error: 'The action failed.' }, label: '', attempts: 0 };
    }
    if (this.#incoming.get(message.id) !== incoming) return;
    this.#incoming.delete(message.id);
    const ending: RemoteEnding =
      outcome.status === ToolOutcomeStatus.succeeded
        ? RemoteEnding.succeeded
        : outcome.status === ToolOutcomeStatus.cancelled
          ? outcome.declined === true
            ? RemoteEnding.declined
            : RemoteEnding.cancelled
          : RemoteEnding.failed;
    this.#post({
      kind: 'result',
      to: message.from,
      id: message.id,
      ending,
      result: outcome.result,
      ...(outcome.title ? { title: outcome.title } : {}),
      ...(outcome.label ? { label: outcome.label } : {}),
      ...(outcome.spent ? { spent: outcome.spent } : {}),
    });
  }

  // ── sending ───────────────────────────────────────────────────────────────────

  #ownTools(): PageToolSchema[] {
    try {
      const tools = this.#tools();
      return Array.isArray(tools) ? tools.slice(0, ToolLimits.maxTools) : [];
    } catch {
      return [];
    }
  }

  #announce(hello: boolean): void {
    let title = '';
    try {
      title = String(this.#title() ?? '').slice(0, TabLimits.maxTitleChars);
    } catch {
      /* untitled */
    }
    this.#lastAnnounce = this.#clock.now();
    this.#announcedActiveAt = this.#activeAt;
    this.#post({ kind: 'state', title, activeAt: this.#activeAt, tools: this.#ownTools(), ...(hello ? { hello: true } : {}) });
    if (this.#announceTimer !== null) this.#clock.clearTimeout(this.#announceTimer);
    this.#announceTimer = this.#clock.setTimeout(() => {
      this.#announceTimer = null;
      if (!this.#running) return;
      this.#livePeers(); // forget tabs gone silent
      this.#announce(false);
    }, TabTimings.announceMs);
  }

  /** Posts one message; false when it could not be sent (a closed channel, arguments that cannot be copied). */
  #post(message: Record<string, unknown> & { kind: string }): boolean {
    try {
      this.#channel.postMessage({ v: TAB_PROTOCOL, site: this.#site, from: this.id, ...message });
      return true;
    } catch {
      return false;
    }
  }

  #warnOnce(key: string, message: string): void {
    if (this.#warned.has(key)) return;
    this.#warned.add(key);
    this.#warn(message);
  }
}

type PartBase = { kind: 'tool'; id: string; name: string; title: string; subject?: string };

/** The model's arguments as an object (they may come as JSON text), or an empty one. */
function argumentsObject(raw: unknown): Record<string, unknown> {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      return {};
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function stoppedOutcome(base: PartBase, tab: string, onPart: (part: ToolPart) => void): ToolOutcome {
  safePart(onPart, { ...base, status: 'cancelled', elsewhere: { tab } });
  return { callId: base.id, name: base.name, title: base.title, status: ToolOutcomeStatus.cancelled, result: { success: false, cancelled: true, error: TabText.stopped }, label: '', attempts: 0 };
}

/** The other tab's result, re-sanitized here (the channel is untrusted), as outcome and chip. */
function resultOutcome(base: PartBase, tab: string, message: ResultMessage, onPart: (part: ToolPart) => void): ToolOutcome {
  const result: SanitizedResult = sanitizeResult(message.result);
  const title = message.title ?? base.title;
  const status =
    message.ending === RemoteEnding.succeeded
      ? ToolOutcomeStatus.succeeded
      : message.ending === RemoteEnding.failed
        ? ToolOutcomeStatus.failed
        : ToolOutcomeStatus.cancelled;
  const part: ToolPart = { ...base, title, status: message.ending, elsewhere: { tab } };
  if (status === ToolOutcomeStatus.succeeded) {
    if (message.label) part.label = message.label;
    if (message.spent) part.spent = message.spent;
  } else if (status === ToolOutcomeStatus.failed) {
    part.failure = ToolFailure.handler;
    if (message.label) part.error = message.label;
  }
  safePart(onPart, part);
  const outcome: ToolOutcome = { callId: base.id, name: base.name, title, status, result, label: message.label ?? '', attempts: 1 };
  if (message.ending === RemoteEnding.declined) outcome.declined = true;
  if (status === ToolOutcomeStatus.succeeded && message.spent) outcome.spent = message.spent;
  if (status === ToolOutcomeStatus.failed) outcome.failure = ToolFailure.handler;
  return outcome;
}

function safePart(onPart: (part: ToolPart) => void, part: ToolPart): void {
  try {
    onPart(part);
  } catch {
    /* an observer cannot break a call */
  }
}

export { tabChannelName } from './tab-protocol.js';
