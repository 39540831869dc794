/**
 * The IndexedDB transcript store (idb-keyval), in its own chunk: `transcript-store.ts` imports
 * it on first use, so only pages with `persist-transcript` load it.
 */
import { del, get, set } from 'idb-keyval';
import { persistableItems, type TranscriptStore } from './transcript-store.js';

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
  async save(key, items, signal) {
    checkAborted(signal);
    await set(key, persistableItems(items));
  },
  async clear(key, signal) {
    checkAborted(signal);
    await del(key);
  },
};
