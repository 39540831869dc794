/**
 * Server-sent-event reading for the provider adapters: bytes in, `{ event, data }` out.
 * The parsing is the widget's own (transport/sse-parser.ts): one parser for both sides, with
 * one rule for an unterminated last event (discarded) and linear time on long lines.
 */
import { SseFormatError, SseParser } from '../../transport/sse-parser.js';

export { SseFormatError };

export interface SseMessage {
  /** The `event:` field, or `'message'` when absent. */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
}

/** Options for {@link readSse}. */
export interface ReadSseOptions {
  /** The longest line accepted (default 4 Mi characters); longer throws SseFormatError. */
  maxLineChars?: number;
}

/** A line longer than this is not a model stream; refuse rather than buffer without bound. */
const MAX_LINE_CHARS = 4 * 1024 * 1024;

/**
 * Reads an SSE byte stream. The reader is cancelled if the consumer stops early. An event the
 * stream did not close with a blank line before it ended is discarded (the adapters then see
 * no `[DONE]` / `message_stop` and report an incomplete stream).
 *
 * @example
 * for await (const { event, data } of readSse(response.body!)) console.log(event, data);
 */
export async function* readSse(body: ReadableStream<Uint8Array>, options: ReadSseOptions = {}): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  let queue: SseMessage[] = [];
  const parser = new SseParser((e) => queue.push({ event: e.event, data: e.data }), {
    maxLineChars: options.maxLineChars ?? MAX_LINE_CHARS,
  });
  let done = false;
  try {
    while (!done) {
      const chunk = await reader.read();
      done = chunk.done;
      if (chunk.done) parser.end();
      else parser.push(chunk.value);
      const ready = queue;
      queue = [];
      for (const message of ready) yield message;
    }
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
