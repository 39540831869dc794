/**
 * Waits for a state, not for a time: resolves with `check()`'s value as soon as it is truthy,
 * checking after every macrotask, so a state reached through promise continuations, a lazy
 * chunk, IndexedDB, a fetch or a frame is seen as soon as it is there, on a fast machine or a
 * loaded one.
 *
 * Unlike "N ticks" loops, nothing here assumes how many turns the work takes. The bound only
 * turns a state that never comes into a failure naming it (rather than the test's timeout);
 * it is never what a passing test waits for.
 *
 * @example await until(() => chips().find((c) => c.status === 'awaiting-confirmation'), 'a confirmation chip');
 */
export async function until<T>(check: () => T, what: string, bound = 8_000): Promise<NonNullable<T>> {
  const start = Date.now();
  for (;;) {
    const value = check();
    if (value) return value as NonNullable<T>;
    if (Date.now() - start > bound) throw new Error(`never: ${what}`);
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
  }
}
