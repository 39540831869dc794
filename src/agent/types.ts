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
import type { ToolPart } from '../tools/tool-part.js';
import type { PageToolSchema, SanitizedResult, ToolDefinition, ToolRunEvent } from '../tools/types.js';
import type { NoticeFact } from '../notice.js';

import type { VoiceEngine, VoiceState } from '../voice/types.js';

export { ChipStatus, canMove, isSettled, type ToolPart } from '../tools/tool-part.js';
export { NoticeKind, type NoticeFact } from '../notice.js';

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
  | ToolRunEvent
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
  getHostToolSchemas(): PageToolSchema[];
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
   * Aborting `options.signal` stops just this message's reply (a spoken turn that was cut off).
   */
  send(text: string, options?: { signal?: AbortSignal }): Promise<void>;
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
