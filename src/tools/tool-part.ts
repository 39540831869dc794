/**
 * A tool call as the transcript records it: data with a status and facts, never a sentence.
 * The runner writes it; the conversation loop files it under its model step; the elements word it.
 */
import type { ConfirmationRequest } from '../consent/types.js';
import type { ToolFailure } from './types.js';

/**
 * A tool part's status (SPEC §4.5, §5). The machine:
 *
 * ```
 * requested ──► awaiting-confirmation ──► running ──► succeeded | failed | cancelled
 *     │                 │
 *     │                 ├──► declined   (the visitor said no)
 *     │                 └──► cancelled | failed
 *     └──► running | failed | cancelled
 * ```
 *
 * - `requested`: the model (or the page's `callTool`) asked; the call is not resolved or
 *   validated yet. A call refused at this point (invalid arguments) ends `failed` and silent.
 * - `declined`: the visitor said no to the confirmation (Cancel, Escape, a spoken no, or Cancel
 *   on the grant's cap re-ask). The handler never ran.
 * - `cancelled`: the system ended the call (Stop, closing, restarting, voice ending) while it
 *   waited for consent or ran; a running handler's signal was aborted.
 * - `failed`: it could not run or did not succeed (unknown tool, invalid arguments, an
 *   unreadable cost, a handler error or timeout).
 *
 * `succeeded`, `failed`, `cancelled` and `declined` are final: nothing moves a part out of them.
 */
export const ChipStatus = {
  requested: 'requested',
  running: 'running',
  awaitingConfirmation: 'awaiting-confirmation',
  succeeded: 'succeeded',
  failed: 'failed',
  cancelled: 'cancelled',
  declined: 'declined',
} as const;
export type ChipStatus = (typeof ChipStatus)[keyof typeof ChipStatus];

const NEXT: Readonly<Record<ChipStatus, readonly ChipStatus[]>> = {
  [ChipStatus.requested]: [ChipStatus.requested, ChipStatus.awaitingConfirmation, ChipStatus.running, ChipStatus.failed, ChipStatus.cancelled],
  [ChipStatus.awaitingConfirmation]: [
    ChipStatus.awaitingConfirmation,
    ChipStatus.running,
    ChipStatus.declined,
    ChipStatus.cancelled,
    ChipStatus.failed,
  ],
  [ChipStatus.running]: [ChipStatus.running, ChipStatus.succeeded, ChipStatus.failed, ChipStatus.cancelled],
  [ChipStatus.succeeded]: [],
  [ChipStatus.failed]: [],
  [ChipStatus.cancelled]: [],
  [ChipStatus.declined]: [],
};

/**
 * True when a part may move from `from` to `to`. A non-final status may repeat (new facts:
 * another attempt, a fresh label); a final one never changes; an unknown status moves nowhere.
 *
 * @example
 * canMove('awaiting-confirmation', 'declined'); // true
 * canMove('succeeded', 'running');              // false
 */
export function canMove(from: unknown, to: unknown): boolean {
  const next = typeof from === 'string' && Object.hasOwn(NEXT, from) ? NEXT[from as ChipStatus] : undefined;
  return next !== undefined && next.includes(to as ChipStatus);
}

/** True for a status nothing moves out of (`succeeded`, `failed`, `cancelled`, `declined`). */
export function isSettled(status: unknown): boolean {
  return typeof status === 'string' && Object.hasOwn(NEXT, status) && NEXT[status as ChipStatus].length === 0;
}

/** One tool call as the transcript shows it: facts only; the chip words them from its labels. */
export interface ToolPart {
  kind: 'tool';
  /** The tool call id. */
  id: string;
  /** The tool name, as called. */
  name: string;
  /** Readable title: the definition's `title`, or the name as words ("Buy wave sticker pack"). */
  title?: string;
  /** One of our built-in tools (`read_page`, `load_tools`…): the elements have labels for their titles. */
  builtin?: boolean;
  /** The call's key argument (first required string argument that is not an id). */
  subject?: string;
  /** The validated arguments (absent before validation, and on restored chips). */
  args?: Readonly<Record<string, unknown>>;
  status: ChipStatus;
  /**
   * The page's own words for this state, when it gave some: `runningLabel` while running,
   * `summary(args, result)` when done. Never a sentence of ours.
   */
  label?: string;
  /** Credits the call costs (read when it ran or was confirmed), when > 0. */
  cost?: number;
  /** Credits spent by this call, for the receipt `· −40 cr`. */
  spent?: number;
  /** Handler runs so far. */
  attempts?: number;
  /** Why it failed, when status is failed. */
  failure?: ToolFailure;
  /** The handler's own error message, when `failure` is `handler`. */
  error?: string;
  /** Present while status is awaiting-confirmation. */
  confirmation?: ConfirmationRequest;
  /**
   * The model step this call belongs to (the id of that step's assistant message, which may have
   * no text). Absent for a page's own `callTool` and for voice calls: those never reach the text
   * model's record.
   */
  step?: string;
  /** The arguments exactly as the model sent them (what the request repeats back to it). */
  input?: Readonly<Record<string, unknown>>;
  /** What the model received for this call (a JSON object, sanitized and capped), once settled. */
  output?: string;
  /**
   * No chip: the call was refused before it reached the visitor (its arguments were invalid and
   * a notice said so, it named a tool the step did not offer, or the reply stopped before it
   * ran). Kept because the model made the call and must see its result.
   */
  silent?: boolean;
  /**
   * The call was routed to another tab of the site (several tabs, SPEC §13): that tab's title,
   * and `waiting` while it waits there on the visitor's confirmation. The consent is asked there.
   */
  elsewhere?: { tab: string; waiting?: boolean };
  /**
   * The call came from the conversation in another tab of the site (SPEC §13): that tab's title.
   * It runs, and asks, here; the chip says where it was asked from.
   */
  fromTab?: string;
}
