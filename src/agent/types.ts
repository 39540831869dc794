/**
 * The seam between the core and the elements: the session's observable state, the events
 * it emits, and the API the `<wave-chat>` element exposes unchanged.
 */
import type {
  ConfirmDecision,
  ConfirmationRequest,
  SpendGrantState,
  VisitorEvidence,
} from '../consent/types.js';
import type { HostToolSchema, SanitizedResult, ToolDefinition, ToolFailure, ToolOutcome } from '../tools/types.js';
import type { VoiceEngine, VoiceState } from '../voice/types.js';

/** Chip states (SPEC §4.5, §5). */
export const ChipStatus = {
  running: 'running',
  awaitingConfirmation: 'awaiting-confirmation',
  succeeded: 'succeeded',
  failed: 'failed',
  cancelled: 'cancelled',
} as const;
export type ChipStatus = (typeof ChipStatus)[keyof typeof ChipStatus];

/** Kinds of notice (SPEC §10): facts the elements put into words from their labels. */
export const NoticeKind = {
  /** A message sent while a reply was in flight. */
  busy: 'busy',
  /** The reply stopped at its length limit. */
  replyTruncated: 'reply-truncated',
  /** The chain stopped after `steps` model steps (retry continues it). */
  stepLimit: 'step-limit',
  /** A model step failed: `code` is the transport's or server's (`network`, `timeout`, `rate_limited`…). */
  stepFailed: 'step-failed',
  /** No conversation loop could be made, so the message was not sent. */
  notConnected: 'not-connected',
  /** A tool call's arguments were invalid; the model got the validator's reason and may try again. */
  invalidArguments: 'invalid-arguments',
  /** The model asked for tools the page does not offer (`tools`); nothing was run. */
  toolsUnavailable: 'tools-unavailable',
  /** Voice could not start or ended on a failure: `reason` as in `VoiceEndReason`, or `unsupported`, `no-microphone`. */
  voiceFailed: 'voice-failed',
} as const;
export type NoticeKind = (typeof NoticeKind)[keyof typeof NoticeKind];

/** What a notice says, as data (never a sentence). */
export type NoticeFact =
  | { kind: typeof NoticeKind.busy }
  | { kind: typeof NoticeKind.replyTruncated }
  | { kind: typeof NoticeKind.stepLimit; steps: number }
  | {
      kind: typeof NoticeKind.stepFailed;
      code: string;
      /** The transport's or server's own message (English, for developers and logs). */
      message: string;
    }
  | { kind: typeof NoticeKind.notConnected }
  | {
      kind: typeof NoticeKind.invalidArguments;
      /** The tool name, as called. */
      name: string;
      /** Its readable title. */
      title: string;
      /** Who sent the call: the model retries on its own; a page's `callTool` does not. */
      source: 'model' | 'host';
      /** The validator's reason, as the model received it. */
      reason: string;
    }
  | { kind: typeof NoticeKind.toolsUnavailable; tools: string[] }
  | {
      kind: typeof NoticeKind.voiceFailed;
      reason: string;
      /** The engine's own message, when it gave one. */
      message?: string;
    };

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
}

/** One row of the transcript. */
export type TranscriptItem =
  | {
      kind: 'message';
      id: string;
      role: 'user' | 'assistant';
      /** Markdown for the assistant, plain text for the visitor. */
      text: string;
      streaming: boolean;
      /** The visitor stopped this answer (it may be empty: stopped before any text came). */
      stopped?: boolean;
      /**
       * A partial reply whose step failed: shown, but not part of what the model said (the
       * retried step answers afresh).
       */
      discarded?: boolean;
    }
  | ToolPart
  | {
      kind: 'notice';
      id: string;
      level: 'info' | 'error';
      /** What happened, as data; the transcript words it (plain text, never Markdown). */
      notice: NoticeFact;
      /** A failed step the visitor can retry (completed tools are never re-run). */
      retryable?: boolean;
    };

/** Conversation status, the Lit `TaskStatus` pattern. */
export const ConversationStatus = {
  idle: 'idle',
  /** A model step is streaming. */
  streaming: 'streaming',
  /** Tool calls are running or waiting on a confirmation. */
  runningTools: 'running-tools',
  error: 'error',
} as const;
export type ConversationStatus = (typeof ConversationStatus)[keyof typeof ConversationStatus];

/** Everything the elements render; replaced (never mutated) on each change. */
export interface SessionState {
  conversationId: string;
  status: ConversationStatus;
  items: readonly TranscriptItem[];
  grant: SpendGrantState;
  /** Model label from the server's `meta` event, e.g. "offline demo model". */
  model: { name: string; offline: boolean } | null;
  /**
   * Visitor messages waiting for the current answer to end, oldest first; each is sent on its
   * own, in order, when the one before it has been answered. Absent means none.
   */
  queue?: readonly QueuedMessage[];
  /**
   * Turns restored from an earlier page (`persist-transcript`), before `items`: shown read-only,
   * and carried (within a budget) by the next request like any other turn.
   */
  earlier?: readonly TranscriptItem[];
  /** The voice session, while one is connecting or on (SPEC §9); absent or null otherwise. */
  voice?: { state: VoiceState; engine: string; asking?: string | null } | null;
}

/** A visitor message typed while an answer was still coming (see `SessionState.queue`). */
export interface QueuedMessage {
  id: string;
  text: string;
}

/** Events of SPEC §11 as the core emits them; the element re-dispatches each as a DOM event. */
export type WaveCoreEvent =
  | { type: 'tool-call-requested'; callId: string; name: string; args: unknown }
  | { type: 'tool-call-started'; callId: string; name: string; attempt: number }
  | { type: 'tool-call-succeeded'; outcome: ToolOutcome }
  | { type: 'tool-call-failed'; outcome: ToolOutcome }
  | { type: 'tool-call-cancelled'; outcome: ToolOutcome }
  | { type: 'confirmation-shown'; request: ConfirmationRequest }
  | { type: 'confirmation-answered'; id: string; decision: ConfirmDecision; source: VisitorEvidence['source'] | 'system' }
  | { type: 'grant-started'; grant: SpendGrantState }
  | { type: 'grant-raised'; grant: SpendGrantState }
  | { type: 'grant-revoked'; grant: SpendGrantState }
  | { type: 'grant-expired'; grant: SpendGrantState }
  | { type: 'message-sent'; text: string }
  | { type: 'message-received'; text: string }
  | { type: 'voice-started'; engine: string }
  | { type: 'voice-ended'; engine: string; reason: string };

export type WaveCoreEventType = WaveCoreEvent['type'];

/** The page-tools API (SPEC §3, §6): the element's methods are these, unchanged. */
export interface PageToolsApi {
  registerTool(name: string, definition: ToolDefinition): boolean;
  registerTools(map: Record<string, ToolDefinition>): number;
  unregisterTool(name: string): boolean;
  getHostToolSchemas(): HostToolSchema[];
  /** `options.signal` aborts the call (its confirmation is cancelled, its handler's signal aborts). */
  callTool(name: string, args?: unknown, options?: { signal?: AbortSignal }): Promise<SanitizedResult>;
  setContext(value: unknown): void;
}

/** A listener for state changes or events; the returned function unsubscribes. */
export type Unsubscribe = () => void;

/**
 * The whole session as the elements see it (implemented by `WaveSession` in
 * `src/agent/wave-session.ts`). The elements hold no business rules: they render `state`,
 * forward the visitor's actions here, and re-dispatch `WaveCoreEvent`s as DOM events.
 */
export interface WaveSessionApi extends PageToolsApi {
  readonly state: SessionState;
  subscribe(listener: (state: SessionState) => void): Unsubscribe;
  onEvent(listener: (event: WaveCoreEvent) => void): Unsubscribe;
  /**
   * Send a visitor message (runs the conversation loop). While an answer is still coming the
   * message waits in `state.queue` and is sent when that answer ends; resolves once answered.
   */
  send(text: string): Promise<void>;
  /** Retry the last failed model step; never re-runs a completed tool. */
  retry(): Promise<void>;
  /** Stop the reply: aborts the stream and in-flight handlers, cancels confirmations. */
  stop(): void;
  /** New conversation: cancels everything outstanding, clears the grant and transcript. */
  restart(): void;
  /** The chat closed: cancels outstanding confirmations, aborts handlers. */
  close(): void;
  /** Settle a confirmation; ignored (returns false) unless `evidence.isTrusted`. */
  answerConfirmation(id: string, decision: ConfirmDecision, evidence: VisitorEvidence): boolean;
  /**
   * Continue an earlier conversation: `items` (as `persist-transcript` kept them) become the
   * start of the record, so the next request carries them. Optional for scripted sessions.
   */
  restore?(items: readonly TranscriptItem[]): void;
  /** Revoke the spend grant (the header pill); ignored unless `evidence.isTrusted`. */
  revokeGrant(evidence: VisitorEvidence): boolean;
  /**
   * Opens a voice session on `engine` with the tools and context of this moment (SPEC §9).
   * Optional so scripted sessions need not implement voice.
   */
  startVoice?(engine: VoiceEngine, options?: { instructions?: string }): Promise<void>;
  /** Ends the voice session, cancelling its outstanding confirmations. */
  endVoice?(reason?: string): void;
}
