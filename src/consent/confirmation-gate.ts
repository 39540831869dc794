/**
 * The confirmation gate: a confirming tool call waits here until a visitor answers.
 * There is deliberately no API that lets the model or a timer settle a confirmation:
 * only `answer` with trusted evidence, or a cancellation (abort, `cancelAll`).
 */
import { ConfirmDecision, type CancelReason, type ConfirmationRequest, type VisitorEvidence } from './types.js';

/** Who settled a confirmation: the visitor (by pointer, keyboard or voice) or the system (cancel). */
export type ConfirmationSource = VisitorEvidence['source'] | 'system';

/** A settled confirmation, with who settled it and, for system cancels, why. */
export interface ConfirmationOutcome {
  decision: ConfirmDecision;
  source: ConfirmationSource;
  /** Set when the system cancelled it (abort signal or `cancelAll`). */
  reason?: CancelReason;
}

export interface ConfirmationGateOptions {
  /** Called when a request starts waiting (the chip appears). */
  onShown?: (request: ConfirmationRequest) => void;
  /** Called once per request when it settles. */
  onAnswered?: (request: ConfirmationRequest, outcome: ConfirmationOutcome) => void;
}

interface Waiting {
  request: ConfirmationRequest;
  settle: (outcome: ConfirmationOutcome) => void;
}

const DECISIONS: ReadonlySet<unknown> = new Set(Object.values(ConfirmDecision));

/**
 * True only for evidence whose `isTrusted` is exactly `true`; anything odd (a throwing Proxy…) is untrusted.
 *
 * @example
 * isTrustedEvidence({ isTrusted: event.isTrusted, source: 'pointer' });
 */
export function isTrustedEvidence(evidence: unknown): evidence is VisitorEvidence {
  try {
    return typeof evidence === 'object' && evidence !== null && (evidence as { isTrusted?: unknown }).isTrusted === true;
  } catch {
    return false;
  }
}

function evidenceSource(evidence: VisitorEvidence): VisitorEvidence['source'] {
  try {
    const s = evidence.source;
    return s === 'keyboard' || s === 'voice' ? s : 'pointer';
  } catch {
    return 'pointer';
  }
}

/**
 * Holds outstanding confirmations until a visitor answers them.
 *
 * @example
 * const gate = new ConfirmationGate();
 * const decision = gate.request({ id: 'c1', toolName: 'delete_task', label: 'Delete?', cost: 0,
 *   tier3: false, offersSessionApproval: false, args: {} });
 * button.addEventListener('click', (e) => gate.answer('c1', 'confirm', { isTrusted: e.isTrusted, source: 'pointer' }));
 * if ((await decision) === 'confirm') runIt();
 */
export class ConfirmationGate {
  readonly #waiting = new Map<string, Waiting>();
  readonly #options: ConfirmationGateOptions;

  constructor(options: ConfirmationGateOptions = {}) {
    this.#options = options;
  }

  /** Waits for the visitor's decision; resolves `cancel` when `signal` aborts or `cancelAll` runs. */
  request(request: ConfirmationRequest, signal?: AbortSignal): Promise<ConfirmDecision> {
    return this.requestOutcome(request, signal).then((o) => o.decision);
  }

  /** Like `request`, but also says who settled it (the runner ends a grant only on a visitor's cancel). */
  requestOutcome(request: ConfirmationRequest, signal?: AbortSignal): Promise<ConfirmationOutcome> {
    const snapshot: ConfirmationRequest = { ...request };
    if (signal?.aborted) return Promise.resolve({ decision: ConfirmDecision.cancel, source: 'system', reason: 'stopped' });
    // A second request with the same id would make the first unanswerable: cancel the older one.
    this.#waiting.get(snapshot.id)?.settle({ decision: ConfirmDecision.cancel, source: 'system', reason: 'stopped' });
    return new Promise<ConfirmationOutcome>((resolve) => {
      const onAbort = () => entry.settle({ decision: ConfirmDecision.cancel, source: 'system', reason: 'stopped' });
      const entry: Waiting = {
        request: snapshot,
        settle: (outcome) => {
          if (this.#waiting.get(snapshot.id) !== entry) return;
          this.#waiting.delete(snapshot.id);
          signal?.removeEventListener('abort', onAbort);
          resolve(outcome);
          this.#notify(() => this.#options.onAnswered?.(snapshot, outcome));
        },
      };
      this.#waiting.set(snapshot.id, entry);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#notify(() => this.#options.onShown?.(snapshot));
    });
  }

  /**
   * Settles an outstanding confirmation with the visitor's decision. Returns false, and does
   * nothing, unless `evidence.isTrusted === true`, the id is outstanding and the decision is
   * allowed (`approve-session` only where the chip offers it). A second answer is ignored.
   */
  answer(id: string, decision: ConfirmDecision, evidence: VisitorEvidence): boolean {
    if (!isTrustedEvidence(evidence)) return false;
    const entry = this.#waiting.get(id);
    if (!entry || !DECISIONS.has(decision)) return false;
    if (decision === ConfirmDecision.approveSession && !entry.request.offersSessionApproval) return false;
    entry.settle({ decision, source: evidenceSource(evidence) });
    return true;
  }

  /** Cancels every outstanding confirmation (the chat closed, restarted, voice ended, reply stopped). */
  cancelAll(reason: CancelReason): void {
    for (const entry of [...this.#waiting.values()]) entry.settle({ decision: ConfirmDecision.cancel, source: 'system', reason });
  }

  /** The confirmations currently on screen, oldest first (copies). */
  pending(): ConfirmationRequest[] {
    return [...this.#waiting.values()].map((w) => ({ ...w.request }));
  }

  /** Whether `id` is waiting for an answer. */
  has(id: string): boolean {
    return this.#waiting.has(id);
  }

  // A listener's exception must not leave the gate half-settled.
  #notify(fn: () => void): void {
    try {
      fn();
    } catch {
      /* listeners are observers only */
    }
  }
}
