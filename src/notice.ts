/**
 * Notices (SPEC §10): things the visitor should know that are not a reply or a chip, as facts
 * the elements put into words from their labels. Shared by the runner, the loop and voice.
 */

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
      source: 'model' | 'page';
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
