/**
 * An incremental `text/event-stream` parser following the WHATWG "event stream interpretation"
 * algorithm: `event`, `data`, `id` and `retry` fields, multi-line data, comments, CRLF / CR / LF
 * line ends, a leading BOM, and input split at any point (also inside a CRLF pair or, when fed
 * bytes, inside a UTF-8 sequence).
 */

/** One dispatched server-sent event. `event` is `"message"` when the stream named none. */
export interface SseEvent {
  event: string;
  data: string;
  /** The last event id seen so far in the stream, when one was set. */
  id?: string;
}

const BOM = '\uFEFF';
const LINE_END = /\r\n|\r|\n/g;

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
  // Bytes are decoded here so a UTF-8 sequence split across chunks survives; the BOM is kept
  // by the decoder and stripped once below, so strings and bytes behave the same.
  readonly #decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  #pending = '';
  #pendingParts: string[] = [];
  #started = false;
  // A chunk that ended in CR may be the first half of a CRLF pair.
  #skipLeadingLf = false;
  #eventType = '';
  #data = '';
  #hasData = false;
  #lastEventId: string | undefined;
  #retryMs: number | undefined;
  #ended = false;

  constructor(onEvent: (e: SseEvent) => void) {
    this.#onEvent = onEvent;
  }

  /** The reconnection time the stream last asked for with a `retry:` field, in ms. */
  get retryMs(): number | undefined {
    return this.#retryMs;
  }

  /** The last event id the stream set (`id:` field), if any. */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  /** Feed the next chunk: text, or raw bytes (decoded as streaming UTF-8). */
  push(chunk: string | Uint8Array): void {
    if (this.#ended) return;
    const text = typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk, { stream: true });
    this.#consume(text);
  }

  /**
   * The stream is over: flushes the byte decoder. Per the standard, an event that was not
   * terminated by a blank line is discarded.
   */
  end(): void {
    if (this.#ended) return;
    this.#consume(this.#decoder.decode());
    this.#ended = true;
    this.#pending = '';
    this.#pendingParts = [];
    this.#data = '';
    this.#hasData = false;
  }

  #consume(input: string): void {
    let text = input;
    if (text === '') return;
    if (this.#skipLeadingLf) {
      this.#skipLeadingLf = false;
      if (text.startsWith('\n')) text = text.slice(1);
    }
    if (!this.#started) {
      // Only a BOM at the very start of the stream is special.
      this.#started = true;
      if (text.startsWith(BOM)) text = text.slice(1);
    }
    // A long line arriving in many small chunks is collected, not re-scanned (no quadratic cost).
    if (text.indexOf('\n') === -1 && text.indexOf('\r') === -1) {
      this.#pendingParts.push(text);
      return;
    }
    if (this.#pendingParts.length > 0) {
      this.#pending += this.#pendingParts.join('');
      this.#pendingParts = [];
    }
    const buffer = this.#pending + text;
    let start = 0;
    // The pending part holds no line end: start scanning where the new text begins.
    LINE_END.lastIndex = this.#pending.length;
    let match: RegExpExecArray | null;
    while ((match = LINE_END.exec(buffer)) !== null) {
      const end = match.index;
      // A CR at the very end might be followed by the LF of the next chunk.
      if (match[0] === '\r' && end === buffer.length - 1) this.#skipLeadingLf = true;
      this.#line(buffer.slice(start, end));
      start = end + match[0].length;
    }
    this.#pending = buffer.slice(start);
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
