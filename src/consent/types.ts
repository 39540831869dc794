/** Consent types: what a confirmation asks and how the visitor answered. */

/** How the visitor answered a confirmation chip. */
export const ConfirmDecision = {
  confirm: 'confirm',
  /** "Approve for this session": runs this call and starts (or raises) the spend grant. */
  approveSession: 'approve-session',
  cancel: 'cancel',
} as const;
export type ConfirmDecision = (typeof ConfirmDecision)[keyof typeof ConfirmDecision];

/**
 * Proof that a visitor, not a script or the model, answered. The element builds it from a
 * DOM event (`isTrusted` must be true); voice builds it from a recognised utterance.
 */
export interface VisitorEvidence {
  readonly isTrusted: boolean;
  readonly source: 'pointer' | 'keyboard' | 'voice';
}

/** Why an outstanding confirmation was cancelled without a visitor's "Cancel". */
export const CancelReason = {
  visitor: 'visitor',
  closed: 'closed',
  restarted: 'restarted',
  voiceEnded: 'voice-ended',
  stopped: 'stopped',
} as const;
export type CancelReason = (typeof CancelReason)[keyof typeof CancelReason];

/** One confirmation on screen (a chip with buttons). */
export interface ConfirmationRequest {
  /** Same as the tool call id. */
  id: string;
  toolName: string;
  /** The tool's readable title (its `title`, or the name as words), for the default question. */
  title?: string;
  /** The call's key argument (a name, a title), for the default question. */
  subject?: string;
  /** The page's `confirmLabel`, read fresh when shown; absent when the page set none. */
  label?: string;
  /** `cost` read fresh when shown (0 for free tools). */
  cost: number;
  tier3: boolean;
  /** Whether the chip offers "Approve for this session" (cost > 0, not tier3, no grant re-ask). */
  offersSessionApproval: boolean;
  /** Set when this is the grant's cap re-ask: credits spent so far under the grant. */
  grantRunningTotal?: number;
  /** The grant's cap at the time of the re-ask. */
  grantCap?: number;
  args: unknown;
}

/** Public snapshot of the spend grant, for the header pill. */
export interface SpendGrantState {
  active: boolean;
  spent: number;
  cap: number;
  grantedAt: number;
  expiresAt: number;
}

export { INACTIVE_GRANT } from './inactive-grant.js';
