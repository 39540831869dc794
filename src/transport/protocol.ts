/**
 * The wire protocol between the widget and a wave server (documented in README.md).
 * One POST per model step; the reply is a `text/event-stream` of `WaveStreamEvent`s.
 */
import type { PageToolSchema } from '../tools/types.js';

export const PROTOCOL_VERSION = 1;

/** One message of the conversation the widget sends (the server keeps no state). */
export type WaveMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: WaveToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

export interface WaveToolCall {
  id: string;
  name: string;
  /** Parsed arguments object. */
  arguments: Record<string, unknown>;
}

/** Body of `POST {endpoint}`. */
export interface WaveRequest {
  v: typeof PROTOCOL_VERSION;
  siteId: string;
  conversationId: string;
  messages: WaveMessage[];
  tools: PageToolSchema[];
  /** Serialized page state (client-capped at 12,000 chars), or null. */
  context: string | null;
  /** Optional locale hint, e.g. "en-GB". */
  locale?: string;
}

/** Server-sent events: the `event:` name is `type`, the `data:` line is the JSON object. */
export type WaveStreamEvent =
  | { type: 'meta'; model: string; offline: boolean }
  | { type: 'text'; delta: string }
  | { type: 'tool_call'; id: string; name: string; arguments: Record<string, unknown> }
  | { type: 'end'; reason: 'stop' | 'tool_calls' | 'length' }
  | { type: 'error'; code: string; message: string; retryable: boolean }
  /**
   * Something the visitor should know that is not the model's text, as data the widget words
   * in its own language. `unknown_tools`: the model asked for tools the page does not offer
   * (`tools` names them); they were not run. Clients ignore codes they do not know.
   */
  | { type: 'notice'; code: string; tools?: string[] };

/** Body of `POST {endpoint}/voice/session`: mint a realtime session (SPEC §9). */
export interface VoiceSessionRequest {
  v: typeof PROTOCOL_VERSION;
  siteId: string;
  conversationId: string;
  tools: PageToolSchema[];
  context: string | null;
}

export interface VoiceSessionResponse {
  /** Short-lived client secret for the realtime provider; never the provider key. */
  clientSecret: string;
  expiresAt: number;
  /** WebSocket or WebRTC URL the browser connects to. */
  url: string;
  transport: 'websocket' | 'webrtc';
  model: string;
  /** The opening context frame the engine sends first (instructions, page state, tools). */
  sessionConfig: Record<string, unknown>;
  /** The site's cap on each tool result the browser sends to the provider (default 8,000 chars). */
  maxResultChars?: number;
}
