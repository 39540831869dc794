import { recapOutput } from '../src/agent/record.js';
import { isSettled, type ToolPart, type TranscriptItem } from '../src/agent/types.js';
import { ToolFailure } from '../src/tools/types.js';

/**
 * Where `persist-transcript` keeps finished transcript rows across same-site navigations.
 * The default is IndexedDB (idb-keyval); tests and pages may swap it.
 */
export interface TranscriptStore {
  load(key: string, signal?: AbortSignal): Promise<TranscriptItem[]>;
  save(key: string, items: readonly TranscriptItem[], signal?: AbortSignal): Promise<void>;
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
    } else if (r.kind === 'tool' && isSettled(r.status)) {
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

export { transcriptKey } from './transcript-key.js';

let idb: Promise<TranscriptStore> | undefined;
/** idb-keyval loads with the first use, so a page without `persist-transcript` never fetches it. */
const loadIdb = (): Promise<TranscriptStore> => (idb ??= import('./idb-transcript-store.js').then((m) => m.idbStore));

/** The IndexedDB store (one key per site id, in the page's origin), loaded on first use. */
export const idbTranscriptStore: TranscriptStore = {
  load: async (key, signal) => (await loadIdb()).load(key, signal),
  save: async (key, items, signal) => (await loadIdb()).save(key, items, signal),
  clear: async (key, signal) => (await loadIdb()).clear(key, signal),
};
