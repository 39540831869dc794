/**
 * Ambient page state (SPEC §6): the snapshot a page hands over with `setContext`, kept as the
 * serialized text a request carries.
 */
import { capText } from '../guard/cap.js';
import { describeError } from '../util/describe-error.js';

/** Client-side cap on the serialized snapshot (the server re-caps at 8,000). */
export const CONTEXT_CLIENT_CAP = 12_000;

/** Options for {@link PageContext}. */
export interface PageContextOptions {
  /** Where the "ignored" warning goes (default `console.warn`). */
  warn?: (message: string) => void;
}

/**
 * Holds the page's current state snapshot.
 *
 * @example
 * const context = new PageContext();
 * context.set({ board: 'Launch', selected_task_id: 't2' });
 * context.get(); // '{"board":"Launch","selected_task_id":"t2"}'
 * context.set(null); // cleared
 */
export class PageContext {
  readonly #warn: (message: string) => void;
  #value: string | null = null;

  constructor(options: PageContextOptions = {}) {
    this.#warn = options.warn ?? ((message) => console.warn(message));
  }

  /**
   * Replaces the snapshot. An object is JSON-serialized, a string kept as is; `null`,
   * `undefined` or `''` clear it. A value that cannot be serialized is ignored with one
   * warning and the previous snapshot stays. The text is capped at 12,000 characters.
   *
   * @example
   * context.set('Cart: 2 items, total 40 EUR');
   */
  set(value: unknown): void {
    if (value === null || value === undefined || value === '') {
      this.#value = null;
      return;
    }
    let text: string | undefined;
    if (typeof value === 'string') text = value;
    else if (typeof value === 'function' || typeof value === 'symbol') {
      this.#ignore(`a ${typeof value} cannot be serialized`);
      return;
    } else {
      try {
        text = JSON.stringify(value);
      } catch (error) {
        this.#ignore(describeError(error, { subject: 'Serializing it', maxChars: 200 }));
        return;
      }
      if (typeof text !== 'string') {
        this.#ignore('it serializes to nothing');
        return;
      }
    }
    this.#value = cap(text);
  }

  /** The serialized snapshot, or null when there is none. */
  get(): string | null {
    return this.#value;
  }

  #ignore(reason: string): void {
    this.#warn(`[wave-chat] setContext(value) ignored: ${reason}; the previous page state is kept`);
  }
}

function cap(text: string): string {
  return capText(text, CONTEXT_CLIENT_CAP, { within: true });
}

