/**
 * The session as the element hands it out (its `session` property and its sub-elements): the
 * same session, except that the three acts only a visitor may perform (answering a
 * confirmation, revoking or granting spending) also require the DOM event behind them: a real,
 * trusted event that is being dispatched right now. A literal `{ isTrusted: true }`, a script's
 * synthetic event, or a trusted event kept and replayed later settles nothing. The evidence the
 * panel's buttons build is visitor-evidence.ts's (it comes with the panel's code).
 */
import type { WaveSessionApi } from '../../src/agent/types.js';

/** True only for a genuine event of the browser's, in the middle of its dispatch. */
export function isLiveVisitorEvent(evidence: unknown): boolean {
  try {
    const event = (evidence as { event?: unknown } | null)?.event;
    // Reading `isTrusted` on a look-alike (Object.create(Event.prototype)) throws: caught, refused.
    return event instanceof Event && event.isTrusted === true && event.eventPhase !== Event.NONE;
  } catch {
    return false;
  }
}

const GUARDED = new Set<PropertyKey>(['answerConfirmation', 'revokeGrant', 'approveSpending']);

/**
 * @example
 * chip.session = guardVisitorActions(session);
 * chip.session.answerConfirmation(id, 'confirm', { isTrusted: true, source: 'pointer' }); // false
 */
export function guardVisitorActions<T extends WaveSessionApi>(session: T): T {
  return new Proxy(session, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (!GUARDED.has(property)) return value.bind(target);
      return (...args: unknown[]) => {
        const evidence = property === 'answerConfirmation' ? args[2] : args[0];
        return isLiveVisitorEvent(evidence) ? (value as (...a: unknown[]) => unknown).apply(target, args) : false;
      };
    },
  });
}
