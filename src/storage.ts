/** The slice of the Web Storage API the core uses (sessionStorage in the browser). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** An in-memory storage, for tests and for pages where sessionStorage throws. */
export class MemoryStorage implements KeyValueStorage {
  readonly #items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.#items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.#items.set(key, String(value));
  }
  removeItem(key: string): void {
    this.#items.delete(key);
  }
}

/** sessionStorage when usable (it throws in some sandboxed iframes), else memory. */
export function sessionStorageOrMemory(): KeyValueStorage {
  try {
    const s = globalThis.sessionStorage;
    const probe = '__wave_probe__';
    s.setItem(probe, '1');
    s.removeItem(probe);
    return s;
  } catch {
    return new MemoryStorage();
  }
}

/**
 * sessionStorage (or memory where it throws), probed on the first read or write rather than
 * when made: a widget that never grants spending never touches storage.
 *
 * @example
 * const storage = sessionStorageOnFirstUse(); // nothing read yet
 * storage.removeItem('k'); // probes now, then removes
 */
export function sessionStorageOnFirstUse(): KeyValueStorage {
  let storage: KeyValueStorage | null = null;
  const use = () => (storage ??= sessionStorageOrMemory());
  return {
    getItem: (key) => use().getItem(key),
    setItem: (key, value) => use().setItem(key, value),
    removeItem: (key) => use().removeItem(key),
  };
}
