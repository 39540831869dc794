/**
 * Spoken consent (SPEC §9), the same for every engine: one confirmation is asked aloud at a
 * time, the others wait their turn, and a spoken answer counts only if the visitor began
 * speaking after that confirmation was asked. Engines report when speech began from their own
 * timing (the realtime API's speech-start audio offsets, the recogniser's session start); the
 * order in which transcripts arrive never matters.
 */
import type { ConfirmDecision, ConfirmationRequest, VisitorEvidence } from '../consent/types.js';
import type { UtteranceHandling, VoiceHeard, VoiceQuestion } from './types.js';
import { handleVoiceAnswer, classifyVoiceAnswer, VoiceAnswerKind, VOICE_EVIDENCE } from './voice-answer.js';

/** What the desk needs from the session. */
export interface VoiceConsentDeps {
  /** The session's clock: the same one the engines time speech with. */
  now(): number;
  answerConfirmation(id: string, decision: ConfirmDecision, evidence: VisitorEvidence): boolean;
  revokeGrant(evidence: VisitorEvidence): boolean;
  grantActive(): boolean;
  /** Starts the grant from a blanket phrase said with no confirmation waiting. */
  approveSpending(evidence: VisitorEvidence): boolean;
  /** Puts `question` to the visitor aloud (or clears it with null); resolves once it has been asked. */
  ask(question: VoiceQuestion | null): void | Promise<void>;
  /** The confirmation now asked aloud changed (the voice bubble shows this one). */
  onAsking?(id: string | null): void;
}

interface Asking {
  request: ConfirmationRequest;
  /** When it was put to the visitor; null while it is still being asked. */
  since: number | null;
  token: number;
}

/**
 * @example
 * const desk = new VoiceConsentDesk(deps);
 * session.subscribe(() => desk.update(waitingConfirmations(session.state.items)));
 * engine.onUserUtterance = (text, heard) => desk.hear(text, heard);
 */
export class VoiceConsentDesk {
  readonly #deps: VoiceConsentDeps;
  #waiting: ConfirmationRequest[] = [];
  #asking: Asking | null = null;
  #token = 0;
  #updating = false;
  #again: readonly ConfirmationRequest[] | null = null;
  #closed = false;
  #carried = false;

  constructor(deps: VoiceConsentDeps) {
    this.#deps = deps;
  }

  /** The confirmation being asked aloud, or null. */
  get asking(): ConfirmationRequest | null {
    return this.#asking?.request ?? null;
  }

  /** When the confirmation being asked was put to the visitor (null while being asked, or none). */
  get askedAt(): number | null {
    return this.#asking?.since ?? null;
  }

  /** Like {@link update}, for the confirmations already waiting when voice starts: each is asked aloud. */
  begin(waiting: readonly ConfirmationRequest[]): void {
    this.#carried = true;
    this.update(waiting);
    this.#carried = false;
  }

  /**
   * The confirmations waiting, oldest first (the order they were shown). Keeps asking the one
   * it asks until it is settled, then asks the oldest still waiting.
   */
  update(waiting: readonly ConfirmationRequest[]): void {
    if (this.#closed) return;
    if (this.#updating) {
      // Called again from inside one of its own callbacks: apply once the current pass ends.
      this.#again = waiting;
      return;
    }
    this.#updating = true;
    try {
      let next: readonly ConfirmationRequest[] | null = waiting;
      while (next) {
        this.#again = null;
        this.#apply(next);
        next = this.#again;
      }
    } finally {
      this.#updating = false;
    }
  }

  /**
   * What the visitor said, with when they began saying it. Returns 'consumed' when it settled a
   * confirmation or the grant (it must not reach the model), else 'pass'.
   */
  hear(text: string, heard: VoiceHeard | undefined): UtteranceHandling {
    if (this.#closed) return 'pass';
    const deps = this.#deps;
    const { kind } = classifyVoiceAnswer(text);
    if (kind === VoiceAnswerKind.message) return 'pass';
    // Taking back a grant needs no question: it only ever removes permission.
    if (kind === VoiceAnswerKind.revoke) return handleVoiceAnswer(text, this.#target(null)) === 'consumed' ? 'consumed' : 'pass';
    const asking = this.#asking;
    if (!asking) {
      // A blanket phrase with nothing waiting starts the grant for cost-bearing tools to come.
      if (kind === VoiceAnswerKind.grant && this.#waiting.length === 0) {
        if (deps.grantActive()) return 'consumed';
        return deps.approveSpending(VOICE_EVIDENCE) ? 'consumed' : 'pass';
      }
      return 'pass';
    }
    // The answer counts only if the visitor began speaking once this one had been asked.
    const startedAt = heard?.speechStartedAt;
    if (asking.since === null || typeof startedAt !== 'number' || !Number.isFinite(startedAt) || startedAt < asking.since) return 'pass';
    const handled = handleVoiceAnswer(text, this.#target(asking.request));
    if (handled === 'ask-again') {
      // A blanket phrase on a chip that cannot take a session grant (free, tier3): ask again.
      this.#put(asking, 'again');
      return 'consumed';
    }
    return handled;
  }

  /** Voice ended: nothing is asked any more. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#asking = null;
    this.#waiting = [];
  }

  #target(request: ConfirmationRequest | null) {
    const deps = this.#deps;
    return {
      pendingConfirmation: () => request,
      answerConfirmation: (id: string, decision: ConfirmDecision, evidence: VisitorEvidence) => deps.answerConfirmation(id, decision, evidence),
      revokeGrant: (evidence: VisitorEvidence) => deps.revokeGrant(evidence),
      grantActive: () => deps.grantActive(),
    };
  }

  #apply(waiting: readonly ConfirmationRequest[]): void {
    const hadWaiting = this.#waiting.length > 0;
    this.#waiting = [...waiting];
    const current = this.#asking;
    if (current && waiting.some((r) => r.id === current.request.id)) return;
    const next = waiting[0] ?? null;
    if (!next) {
      if (!current) return;
      this.#asking = null;
      this.#deps.onAsking?.(null);
      this.#callAsk(null);
      return;
    }
    const asking: Asking = { request: next, since: null, token: 0 };
    this.#asking = asking;
    this.#deps.onAsking?.(next.id);
    // The first of a batch is shown as the model asks; one that waited its turn is asked now.
    this.#put(asking, current || hadWaiting || this.#carried ? 'turn' : 'shown');
  }

  #put(asking: Asking, reason: VoiceQuestion['reason']): void {
    const token = ++this.#token;
    asking.token = token;
    asking.since = null;
    const request = asking.request;
    const done = () => {
      if (this.#asking === asking && asking.token === token && !this.#closed) asking.since = this.#deps.now();
    };
    const result = this.#callAsk({ id: request.id, label: spokenLabel(request), cost: request.cost, tier3: request.tier3, reason });
    if (result && typeof (result as Promise<void>).then === 'function') (result as Promise<void>).then(done, done);
    else done();
  }

  #callAsk(question: VoiceQuestion | null): void | Promise<void> {
    try {
      return this.#deps.ask(question);
    } catch {
      // An engine that cannot ask aloud still shows the chip: the question counts as asked.
      return undefined;
    }
  }
}

/** The question as said aloud: the page's `confirmLabel`, else the tool's title and key argument. */
function spokenLabel(request: ConfirmationRequest): string {
  const label = typeof request.label === 'string' ? request.label.trim() : '';
  if (label) return label;
  const title = (typeof request.title === 'string' && request.title.trim()) || request.toolName.replace(/_/g, ' ');
  const subject = typeof request.subject === 'string' && request.subject.trim() ? `: ${request.subject.trim()}` : '';
  return `${title}${subject}?`;
}
