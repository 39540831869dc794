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
import type { HostToolSchema, SanitizedResult, ToolDefinition, ToolOutcome } from '../tools/types.js';
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

/** One row of the transcript. */
export type TranscriptItem =
  | {
      kind: 'message';
      id: string;
      role: 'user' | 'assistant';
      /** Markdown for the assistant, plain text for the visitor. */
      text: string;
      streaming: boolean;
    }
  | {
      kind: 'tool';
      /** The tool call id. */
      id: string;
      name: string;
      status: ChipStatus;
      /** runningLabel, summary, error, "Cancelled", or the confirmation question. */
      label: string;
      /** Present while status is awaiting-confirmation. */
      confirmation?: ConfirmationRequest;
      /** Credits spent by this call, for the receipt `· −40 cr`. */
      spent?: number;
    }
  | {
      kind: 'notice';
      id: string;
      level: 'info' | 'error';
      text: string;
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
  /** The voice session, while one is connecting or on (SPEC §9); absent or null otherwise. */
  voice?: { state: VoiceState; engine: string } | null;
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
  callTool(name: string, args?: unknown): Promise<SanitizedResult>;
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
  /** Send a visitor message (runs the conversation loop). */
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
