import { del, get, set } from 'idb-keyval';
import type { ToolPart, TranscriptItem } from '../src/agent/types.js';
import { ToolFailure } from '../src/tools/types.js';

/**
 * Where `persist-transcript` keeps finished transcript rows across same-site navigations.
 * The default is IndexedDB (idb-keyval); tests and hosts may swap it.
 */
export interface TranscriptStore {
  load(key: string, signal?: AbortSignal): Promise<TranscriptItem[]>;
  save(key: string, items: readonly TranscriptItem[], signal?: AbortSignal): Promise<void>;
  clear(key: string, signal?: AbortSignal): Promise<void>;
}

const FINAL_CHIP = new Set(['succeeded', 'failed', 'cancelled']);
const FAILURES: ReadonlySet<string> = new Set(Object.values(ToolFailure));
/** Bounds what a page reload re-renders, whatever the store holds. */
const MAX_ROWS = 500;
const MAX_TEXT = 20_000;

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
      if (text !== null) out.push({ kind: 'message', id, role: r.role, text, streaming: false });
    } else if (r.kind === 'tool' && typeof r.status === 'string' && FINAL_CHIP.has(r.status)) {
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
      out.push({ ...facts, kind: 'tool', id, name, status: r.status as 'succeeded' | 'failed' | 'cancelled' });
    }
  }
  return out;
}

function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason;
}

/** The IndexedDB store (one key per site id, in the page's origin). */
export const idbTranscriptStore: TranscriptStore = {
  async load(key, signal) {
    checkAborted(signal);
    const value: unknown = await get(key);
    checkAborted(signal);
    return Array.isArray(value) ? persistableItems(value) : [];
  },
  async save(key, items, signal) {
    checkAborted(signal);
    await set(key, persistableItems(items));
  },
  async clear(key, signal) {
    checkAborted(signal);
    await del(key);
  },
};
