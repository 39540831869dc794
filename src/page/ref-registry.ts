/**
 * Short refs for page elements: the same element keeps the same ref for as long as it exists,
 * so a ref read by the model stays valid while the DOM is unchanged and across reads.
 */
export class RefRegistry {
  #byElement = new WeakMap<Element, string>();
  // Weak so a ref never keeps a removed element alive.
  #byRef = new Map<string, WeakRef<Element>>();
  #counters = new Map<string, number>();
  #frames = new WeakMap<Element, string>();
  #frameCount = 0;

  /**
   * The ref of `el`, minted on first sight as `<prefix>e<n>` (`e12`, `f1e3` inside frame f1).
   *
   * @example
   * const refs = new RefRegistry();
   * refs.refFor(button, ''); // 'e1', and 'e1' again on every later read
   */
  refFor(el: Element, prefix: string): string {
    let ref = this.#byElement.get(el);
    if (ref === undefined) {
      const n = (this.#counters.get(prefix) ?? 0) + 1;
      this.#counters.set(prefix, n);
      ref = `${prefix}e${n}`;
      this.#byElement.set(el, ref);
    }
    if (this.#byRef.get(ref)?.deref() !== el) this.#byRef.set(ref, new WeakRef(el));
    return ref;
  }

  /** The ref prefix of a same-origin frame's content (`f1`, nested `f1f2`). */
  framePrefix(frame: Element, parentPrefix: string): string {
    let id = this.#frames.get(frame);
    if (id === undefined) {
      id = `${parentPrefix}f${++this.#frameCount}`;
      this.#frames.set(frame, id);
    }
    return id;
  }

  /** The element a ref was given to, if it still exists in memory (it may be detached). */
  lookup(ref: string): Element | undefined {
    return this.#byRef.get(ref)?.deref();
  }

  /** Forgets refs whose elements were collected. */
  prune(): void {
    for (const [ref, weak] of this.#byRef) if (weak.deref() === undefined) this.#byRef.delete(ref);
  }
}
