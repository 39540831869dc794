/**
 * The one incremental `text/event-stream` parser, used on both sides: the widget reading the
 * wave server (sse-client.ts) and the wave server reading an upstream model
 * (server/providers/sse.ts). It follows the WHATWG "event stream interpretation" algorithm:
 * `event`, `data`, `id` and `retry` fields, multi-line data, comments, CRLF / CR / LF line
 * ends, a leading BOM, and input split at any point (also inside a CRLF pair or, when fed
 * bytes, inside a UTF-8 sequence).
 *
 * Unterminated last event: when the stream ends, an event not yet closed by a blank line is
 * discarded, as the standard (and every browser's EventSource) does. A cut stream may have cut
 * that event's data too, so it is never acted on; callers notice the missing terminal event
 * (`end`, `[DONE]`, `message_stop`) and report an incomplete stream.
 *
 * Linear time: each character is scanned once; a long line arriving in many chunks is
 * collected in parts and joined once, when its line end arrives.
 */

/** One dispatched server-sent event. `event` is `"message"` when the stream named none. */
export interface SseEvent {
  event: string;
  data: string;
  /** The last event id seen so far in the stream, when one was set. */
  id?: string;
}

/** Options for {@link SseParser}. */
export interface SseParserOptions {
  /**
   * The longest line accepted, in characters (default 16 Mi). A longer line is not an event
   * stream: `push` throws {@link SseFormatError} rather than buffer without bound.
   */
  maxLineChars?: number;
}

/** Thrown by {@link SseParser.push} for input that cannot be an event stream (an unbounded line). */
export class SseFormatError extends Error {
  override name = 'SseFormatError';
}

/** The default line limit: far above any real event, far below what exhausts memory. */
export const SSE_MAX_LINE_CHARS = 16 * 1024 * 1024;

const BOM = '\uFEFF';

/**
 * Feed it chunks as they arrive; it calls `onEvent` once per complete event.
 *
 * @example
 * const parser = new SseParser((e) => console.log(e.event, JSON.parse(e.data)));
 * parser.push('event: text\ndata: {"type":"te');
 * parser.push('xt","delta":"Hi"}\n\n'); // logs: text { type: 'text', delta: 'Hi' }
 * parser.end();
 */
export class SseParser {
  readonly #onEvent: (e: SseEvent) => void;
  readonly #maxLineChars: number;
  // Per parser: a callback that feeds another parser must not move this one's scan position.
  readonly #lineEnd = /[\r\n]/g;
  // Bytes are decoded here so a UTF-8 sequence split across chunks survives; the BOM is kept
  // by the decoder and stripped once below, so strings and bytes behave the same.
  readonly #decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** The start of the current line, in the parts it arrived in (joined once, at its end). */
  #parts: string[] = [];
  #partsLength = 0;
  #started = false;
  // A chunk that ended in CR may be the first half of a CRLF pair.
  #skipLeadingLf = false;
  #eventType = '';
  #data = '';
  #hasData = false;
  #lastEventId: string | undefined;
  #retryMs: number | undefined;
  #ended = false;

  constructor(onEvent: (e: SseEvent) => void, options: SseParserOptions = {}) {
    this.#onEvent = onEvent;
    const max = options.maxLineChars;
    this.#maxLineChars = typeof max === 'number' && max > 0 ? max : SSE_MAX_LINE_CHARS;
  }

  /** The reconnection time the stream last asked for with a `retry:` field, in ms. */
  get retryMs(): number | undefined {
    return this.#retryMs;
  }

  /** The last event id the stream set (`id:` field), if any. */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  /**
   * Feed the next chunk: text, or raw bytes (decoded as streaming UTF-8). Throws
   * {@link SseFormatError} for a line over the limit; the parser then stays ended.
   */
  push(chunk: string | Uint8Array): void {
    if (this.#ended) return;
    const text = typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk, { stream: true });
    this.#consume(text);
  }

  /**
   * The stream is over: flushes the byte decoder. An event that was not terminated by a blank
   * line is discarded (see the module comment).
   */
  end(): void {
    if (this.#ended) return;
    this.#consume(this.#decoder.decode());
    this.#finish();
  }

  #finish(): void {
    this.#ended = true;
    this.#parts = [];
    this.#partsLength = 0;
    this.#data = '';
    this.#hasData = false;
  }

  #consume(input: string): void {
    let text = input;
    if (text === '') return;
    if (this.#skipLeadingLf) {
      this.#skipLeadingLf = false;
      if (text.charCodeAt(0) === 0x0a) text = text.slice(1);
    }
    if (!this.#started && text !== '') {
      // Only a BOM at the very start of the stream is special.
      this.#started = true;
      if (text.startsWith(BOM)) text = text.slice(1);
    }
    let from = 0;
    const lineEnd = this.#lineEnd;
    for (;;) {
      lineEnd.lastIndex = from;
      const match = lineEnd.exec(text);
      if (match === null) break;
      const end = match.index;
      let next = end + 1;
      if (text.charCodeAt(end) === 0x0d) {
        if (end + 1 === text.length) this.#skipLeadingLf = true; // the LF may come next chunk
        else if (text.charCodeAt(end + 1) === 0x0a) next = end + 2;
      }
      const piece = text.slice(from, end);
      let line = piece;
      if (this.#parts.length > 0) {
        this.#parts.push(piece);
        line = this.#parts.join('');
        this.#parts = [];
        this.#partsLength = 0;
      }
      this.#checkLength(line.length);
      from = next;
      this.#line(line);
      if (this.#ended) return;
    }
    if (from < text.length) {
      const rest = from === 0 ? text : text.slice(from);
      this.#parts.push(rest);
      this.#partsLength += rest.length;
      this.#checkLength(this.#partsLength);
    }
  }

  #checkLength(length: number): void {
    if (length <= this.#maxLineChars) return;
    this.#finish();
    throw new SseFormatError(`an event-stream line is longer than ${this.#maxLineChars} characters`);
  }

  #line(line: string): void {
    if (line === '') {
      this.#dispatch();
      return;
    }
    if (line.charCodeAt(0) === 0x3a /* ':' */) return; // a comment (often a keep-alive)
    const colon = line.indexOf(':');
    let field: string;
    let value: string;
    if (colon === -1) {
      field = line;
      value = '';
    } else {
      field = line.slice(0, colon);
      value = line.slice(colon + 1);
      if (value.charCodeAt(0) === 0x20 /* ' ' */) value = value.slice(1);
    }
    switch (field) {
      case 'event':
        this.#eventType = value;
        break;
      case 'data':
        this.#data += this.#hasData ? `\n${value}` : value;
        this.#hasData = true;
        break;
      case 'id':
        if (!value.includes('\0')) this.#lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.#retryMs = Number(value);
        break;
      default:
        break; // unknown fields are ignored by the standard
    }
  }

  #dispatch(): void {
    const hasData = this.#hasData;
    const event: SseEvent = { event: this.#eventType || 'message', data: this.#data };
    if (this.#lastEventId !== undefined) event.id = this.#lastEventId;
    this.#eventType = '';
    this.#data = '';
    this.#hasData = false;
    // An event with no data field is not dispatched (the standard's rule).
    if (hasData) this.#onEvent(event);
  }
}
