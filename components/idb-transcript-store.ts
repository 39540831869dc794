/**
 * The IndexedDB transcript store (idb-keyval), in its own chunk: `transcript-store.ts` imports
 * it on first use, so only pages with `persist-transcript` load it.
 */
import { del, get, update } from 'idb-keyval';
import { keptAfterSave, persistableItems, type TranscriptStore } from './transcript-store.js';

function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason;
}

/** One key per site id, in the page's origin; rows are re-checked on load, never trusted. */
export const idbStore: TranscriptStore = {
  async load(key, signal) {
    checkAborted(signal);
    const value: unknown = await get(key);
    checkAborted(signal);
    return Array.isArray(value) ? persistableItems(value) : [];
  },
  /** Read, merge and write in one readwrite transaction: two tabs saving at once both keep their rows. */
  async save(key, items, signal) {
    checkAborted(signal);
    let changed = false;
    await update(key, (stored: unknown) => {
      const next = keptAfterSave(stored, items);
      changed = next.changed;
      return next.changed ? next.rows : stored;
    });
    return changed;
  },
  async clear(key, signal) {
    checkAborted(signal);
    await del(key);
  },
};
