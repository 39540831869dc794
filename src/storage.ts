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
