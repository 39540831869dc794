/**
 * The evidence a visitor's act carries: built from the DOM event behind it, which rides along
 * so visitor-guard.ts can check it is live and trusted.
 */
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

