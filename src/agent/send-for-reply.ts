/**
 * A spoken turn sent through the text loop, answered with the reply's text: the one
 * implementation, for any session (the real one or a scripted one).
 */
import type { TranscriptItem } from './types.js';

/** What `sendForReply` needs of a session: its record and `send` with a stop signal. */
export interface ReplySession {
  readonly state: { readonly items: readonly TranscriptItem[] };
  /** Sends a visitor message; aborting `options.signal` stops that reply (or drops it from the queue). */
  send(text: string, options?: { signal?: AbortSignal }): Promise<void>;
}

/**
 * Sends `text` as a visitor turn and resolves with the last assistant message that turn added
 * ('' if none, or when `signal` was aborted). Never rejects on an aborted turn.
 *
 * @example
 * const reply = await sendForReply(session, 'add a scene', signal);
 */
export async function sendForReply(session: ReplySession, text: string, signal: AbortSignal): Promise<string> {
  if (signal.aborted) return '';
  const before = new Set(session.state.items.map((i) => i.id));
  await session.send(text, { signal });
  if (signal.aborted) return '';
  let answer = '';
  for (const item of session.state.items) {
    if (item.kind === 'message' && item.role === 'assistant' && !before.has(item.id) && item.text.trim()) answer = item.text;
  }
  return answer;
}
