/**
 * Server-sent-event reading for the provider adapters: bytes in, `{ event, data }` out.
 * Robust to chunks that split lines or UTF-8 sequences anywhere (TCP writes do both).
 */

export interface SseMessage {
  /** The `event:` field, or `'message'` when absent. */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
}

/** A line longer than this is not a model stream; refuse rather than buffer without bound. */
const MAX_LINE_CHARS = 4 * 1024 * 1024;

/** Thrown when the byte stream cannot be SSE (an unbounded line). */
export class SseFormatError extends Error {
  override name = 'SseFormatError';
}

/**
 * Reads an SSE byte stream. The reader is cancelled if the consumer stops early.
 *
 * @example
 * for await (const { event, data } of readSse(response.body!)) console.log(event, data);
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  // stream: true keeps a partial multi-byte sequence until its last byte arrives.
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let done = false;
  try {
    while (!done) {
      const chunk = await reader.read();
      done = chunk.done;
      buffer += done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
      let start = 0;
      for (;;) {
        const lf = buffer.indexOf('\n', start);
        const cr = buffer.indexOf('\r', start);
        let end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
        if (end === -1) break;
        // A trailing \r may be the first half of \r\n: wait for the next byte unless the stream ended.
        if (end === cr && cr === buffer.length - 1 && !done) break;
        const line = buffer.slice(start, end);
        start = end + (buffer[end] === '\r' && buffer[end + 1] === '\n' ? 2 : 1);
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'data') data.push(value);
        else if (field === 'event') event = value;
      }
      buffer = buffer.slice(start);
      if (buffer.length > MAX_LINE_CHARS) throw new SseFormatError('SSE line exceeds the size limit');
    }
    // Servers that omit the final blank line still meant their last event.
    if (buffer !== '' && buffer.startsWith('data')) {
      const colon = buffer.indexOf(':');
      data.push(colon === -1 ? '' : buffer.slice(colon + 1).replace(/^ /, ''));
    }
    if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
