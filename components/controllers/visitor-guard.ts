/**
 * The session as the element hands it out (its `session` property and its sub-elements): the
 * same session, except that the three acts only a visitor may perform (answering a
 * confirmation, revoking or granting spending) also require the DOM event behind them: a real,
 * trusted event that is being dispatched right now. A literal `{ isTrusted: true }`, a script's
 * synthetic event, or a trusted event kept and replayed later settles nothing.
 */
import type { WaveSessionApi } from '../../src/agent/types.js';
import type { VisitorEvidence } from '../../src/consent/types.js';

/** Evidence built from a DOM event; the event rides along, not enumerable (it is not data). */
export type EventEvidence = VisitorEvidence & { readonly event?: Event };

/** Builds evidence from the visitor's event (a keyboard-activated click has `detail` 0). */
export function evidenceFrom(event: Event): EventEvidence {
  const source: VisitorEvidence['source'] =
    event instanceof KeyboardEvent ? 'keyboard' : event instanceof MouseEvent && event.detail !== 0 ? 'pointer' : 'keyboard';
  const evidence = { isTrusted: event.isTrusted, source };
  Object.defineProperty(evidence, 'event', { value: event, enumerable: false });
  return evidence;
}

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
