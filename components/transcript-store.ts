import { keptKey, recapOutput } from '../src/agent/record.js';
import { isSettled, type ToolPart, type TranscriptItem } from '../src/agent/types.js';
import { ToolFailure } from '../src/tools/types.js';

/**
 * Where `persist-transcript` keeps finished transcript rows across same-site navigations.
 * The default is IndexedDB (idb-keyval); tests and pages may swap it.
 */
export interface TranscriptStore {
  load(key: string, signal?: AbortSignal): Promise<TranscriptItem[]>;
  /**
   * Keeps `items` for `key`. The element passes the stored rows merged with its own
   * (`mergeKept`); a store shared by several tabs should merge again as it writes (the
   * IndexedDB store does, in one transaction) so two tabs saving at once both keep their rows,
   * and may resolve whether the kept record changed (`false`: nothing new, the other tabs are
   * not told).
   */
  save(key: string, items: readonly TranscriptItem[], signal?: AbortSignal): Promise<void | boolean>;
  clear(key: string, signal?: AbortSignal): Promise<void>;
}

const FAILURES: ReadonlySet<string> = new Set(Object.values(ToolFailure));
/** Bounds what a page reload re-renders, whatever the store holds. */
const MAX_ROWS = 500;
const MAX_TEXT = 20_000;
/** A kept call's arguments, serialized: bigger ones are dropped (the call is still kept). */
const MAX_INPUT_CHARS = 8 * 1024;

function str(v: unknown, max = MAX_TEXT): string | null {
  return typeof v === 'string' ? v.slice(0, max) : null;
}

/**
 * Keeps only rows worth restoring (finished messages and chips, as plain data) and drops
 * anything malformed: stored data is re-checked on load, never trusted.
 *
 * @example
 * persistableItems(state.items); // no streaming text, no pending confirmations
 */
export function persistableItems(items: readonly unknown[]): TranscriptItem[] {
  const out: TranscriptItem[] = [];
  for (const raw of items.slice(-MAX_ROWS)) {
    if (!raw || typeof raw !== 'object') continue;
    const r = raw as Record<string, unknown>;
    const id = str(r.id, 200);
    if (!id) continue;
    if (r.kind === 'message' && (r.role === 'user' || r.role === 'assistant') && r.streaming !== true) {
      const text = str(r.text);
      if (text !== null) out.push({ kind: 'message', id, role: r.role, text, streaming: false, ...(r.discarded === true ? { discarded: true } : {}) });
    } else if (r.kind === 'tool' && isSettled(r.status) && typeof r.fromTab !== 'string') {
      // A call run here for another tab's turn ("Asked from the tab …") is not kept here: the
      // asking tab keeps that call, filed under its step with what the model read, in its turn.
      const name = str(r.name, 100) ?? '';
      const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);
      const facts: Partial<ToolPart> = {};
      for (const key of ['title', 'subject', 'label', 'error'] as const) {
        const text = str(r[key], 2000);
        if (text) facts[key] = text;
      }
      const spent = num(r.spent);
      if (spent) facts.spent = spent;
      const cost = num(r.cost);
      if (cost) facts.cost = cost;
      const attempts = num(r.attempts);
      if (attempts) facts.attempts = attempts;
      if (r.builtin === true) facts.builtin = true;
      if (typeof r.failure === 'string' && FAILURES.has(r.failure)) facts.failure = r.failure as ToolFailure;
      // What the model needs to continue: the step, its arguments and what it received (re-capped).
      const step = str(r.step, 200);
      if (step && typeof r.output === 'string') {
        facts.step = step;
        facts.output = recapOutput(r.output);
        const input = plainObject(r.input);
        if (input) facts.input = input;
      }
      if (r.silent === true) facts.silent = true;
      out.push({ ...facts, kind: 'tool', id, name, status: r.status as ToolPart['status'] });
    }
  }
  return out;
}

/**
 * One conversation across the tabs of a site: `mine` (this tab's kept rows, oldest first) saved
 * over `stored` (what the tabs kept so far) without dropping a row. Rows are matched by
 * `keptKey`; a tool part kept before it was filed under its model step is replaced by the filed
 * one; otherwise the stored row stands (kept rows never change). A new row goes after the row before it in `mine` (a turn stays together), except that a
 * visitor message starts a turn and goes at the end; rows of `mine` older than anything stored
 * (trimmed by the budget) go first, so the budget trims them again. At most `MAX_ROWS` newest.
 *
 * @example
 * mergeKept([u1, r1, u2b, r2b], [u1, r1, u3, r3]); // [u1, r1, u2b, r2b, u3, r3]
 */
export function mergeKept(stored: readonly TranscriptItem[], mine: readonly TranscriptItem[]): TranscriptItem[] {
  const out = stored.slice();
  const keys = out.map(keptKey);
  const find = (item: TranscriptItem): number => {
    const at = keys.indexOf(keptKey(item));
    return at === -1 && item.kind === 'tool' && item.step !== undefined ? keys.indexOf(keptKey({ ...item, step: undefined })) : at;
  };
  const shared = mine.findIndex((item) => find(item) !== -1);
  let anchor = -1;
  for (const [i, item] of mine.entries()) {
    const at = find(item);
    if (at !== -1) {
      // Kept rows never change: the stored one stands, unless this is its filing under a step.
      if (keys[at] !== keptKey(item)) {
        out[at] = item;
        keys[at] = keptKey(item);
      }
      anchor = at;
      continue;
    }
    const startsTurn = item.kind === 'message' && item.role === 'user';
    const pos = shared !== -1 && i < shared ? anchor + 1 : startsTurn || anchor === -1 ? out.length : anchor + 1;
    out.splice(pos, 0, item);
    keys.splice(pos, 0, keptKey(item));
    anchor = pos;
  }
  return out.slice(-MAX_ROWS);
}

/** Rows as compared between saves (key order and values). */
const same = (a: readonly TranscriptItem[], b: readonly TranscriptItem[]): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * What a save does to the kept record: `items` merged over `stored` (see `mergeKept`), and whether it changed.
 *
 * @example
 * const { rows, changed } = keptAfterSave(await get(key), state.items);
 */
export function keptAfterSave(stored: unknown, items: readonly TranscriptItem[]): { rows: TranscriptItem[]; changed: boolean } {
  const before = Array.isArray(stored) ? persistableItems(stored) : [];
  const rows = mergeKept(before, persistableItems(items));
  return { rows, changed: !same(rows, Array.isArray(stored) ? (stored as TranscriptItem[]) : []) };
}

/** A JSON object of at most `MAX_INPUT_CHARS`, as a fresh copy; anything else is null. */
function plainObject(value: unknown): Record<string, unknown> | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  try {
    const json = JSON.stringify(value);
    if (typeof json !== 'string' || json.length > MAX_INPUT_CHARS) return null;
    return JSON.parse(json) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/**
 * A turn is under way (a reply streaming, tools running or asking, messages queued): a tab
 * adopts the other tabs' kept record only after it, so nothing moves under a running turn.
 */
export function keptBusy(state: { status: string; items: readonly TranscriptItem[]; queue?: readonly unknown[] }): boolean {
  if (state.status === 'streaming' || state.status === 'running-tools' || (state.queue?.length ?? 0) > 0) return true;
  return state.items.some((i) => (i.kind === 'message' && i.streaming) || (i.kind === 'tool' && !isSettled(i.status)));
}


let idb: Promise<TranscriptStore> | undefined;
/** idb-keyval loads with the first use, so a page without `persist-transcript` never fetches it. */
const loadIdb = (): Promise<TranscriptStore> => (idb ??= import('./idb-transcript-store.js').then((m) => m.idbStore));

/** The IndexedDB store (one key per site id, in the page's origin), loaded on first use. */
export const idbTranscriptStore: TranscriptStore = {
  load: async (key, signal) => (await loadIdb()).load(key, signal),
  save: async (key, items, signal) => (await loadIdb()).save(key, items, signal),
  clear: async (key, signal) => (await loadIdb()).clear(key, signal),
};
