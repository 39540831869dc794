import { expect } from '@open-wc/testing';
import { SseFormatError, SseParser, type SseEvent } from '../../src/transport/sse-parser.js';
import { ssePropertyFailure, sseMismatches } from './sse-cases.js';

function parseChunks(chunks: ReadonlyArray<string | Uint8Array>, end = true): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = new SseParser((e) => events.push(e));
  for (const chunk of chunks) parser.push(chunk);
  if (end) parser.end();
  return events;
}

const SAMPLE =
  '\uFEFF: keep-alive comment\r\n' +
  'event: meta\r\n' +
  'data: {"type":"meta","model":"offline","offline":true}\r\n' +
  '\r\n' +
  'event: text\n' +
  'data: {"type":"text",\n' +
  'data: "delta":"Hé 👋 ✓"}\n' +
  '\n' +
  'id: 7\r' +
  'event: tool_call\r' +
  'data:{"id":"c1"}\r' +
  '\r' +
  'retry: 1500\n' +
  'data\n' +
  '\n' +
  'event: end\n' +
  'data: {"reason":"stop"}\n' +
  '\n';

const EXPECTED: SseEvent[] = [
  { event: 'meta', data: '{"type":"meta","model":"offline","offline":true}' },
  { event: 'text', data: '{"type":"text",\n"delta":"Hé 👋 ✓"}' },
  { event: 'tool_call', data: '{"id":"c1"}', id: '7' },
  { event: 'message', data: '', id: '7' },
  { event: 'end', data: '{"reason":"stop"}', id: '7' },
];

describe('SseParser', () => {
  it('passes the shared SSE suite (the same cases the server passes reading an upstream)', async () => {
    expect(await sseMismatches((chunks) => parseChunks(chunks))).to.deep.equal([]);
  });

  it('reads generated streams (random events, line ends, BOM, cuts, an unterminated tail) as the server does', async () => {
    expect(await ssePropertyFailure((chunks) => parseChunks(chunks))).to.equal(null);
  });

  it('refuses a line over its limit, also when it arrives in small pieces, and then stays ended', () => {
    const events: SseEvent[] = [];
    const parser = new SseParser((e) => events.push(e), { maxLineChars: 100 });
    parser.push('data: ok\n\n');
    expect(() => {
      for (let i = 0; i < 20; i++) parser.push('data-data-');
    }).to.throw(SseFormatError);
    parser.push('\n\ndata: later\n\n');
    expect(events).to.deep.equal([{ event: 'message', data: 'ok' }]);
    // The default limit (16 Mi characters) is far above any real line.
    expect(parseChunks([`data: ${'y'.repeat(200_000)}\n\n`])).to.deep.equal([{ event: 'message', data: 'y'.repeat(200_000) }]);
  });

  describe('fields', () => {
    it('parses event, data, id, comments, BOM and mixed line ends in one chunk', () => {
      expect(parseChunks([SAMPLE])).to.deep.equal(EXPECTED);
    });

    it('joins multi-line data with LF and strips only one leading space', () => {
      expect(parseChunks(['data:  two spaces\ndata:none\ndata: \n\n'])).to.deep.equal([
        { event: 'message', data: ' two spaces\nnone\n' },
      ]);
    });

    it('does not dispatch an event without data, and resets the event name after a blank line', () => {
      expect(parseChunks(['event: ghost\n\ndata: x\n\n'])).to.deep.equal([{ event: 'message', data: 'x' }]);
    });

    it('ignores unknown fields and an id containing NUL', () => {
      expect(parseChunks(['id: a\nfoo: bar\nid: b\0c\ndata: y\n\n'])).to.deep.equal([
        { event: 'message', data: 'y', id: 'a' },
      ]);
    });

    it('records a numeric retry and ignores a non-numeric one', () => {
      const parser = new SseParser(() => undefined);
      parser.push('retry: 2500\n');
      parser.push('retry: soon\n');
      expect(parser.retryMs).to.equal(2500);
    });

    it('strips a BOM only at the start of the stream', () => {
      expect(parseChunks(['\uFEFF', 'data: a\n\n', '\uFEFFdata: b\n\n'])).to.deep.equal([
        { event: 'message', data: 'a' },
      ]);
    });

    it('discards an event the stream did not terminate with a blank line', () => {
      expect(parseChunks(['data: complete\n\ndata: cut off\n'])).to.deep.equal([
        { event: 'message', data: 'complete' },
      ]);
    });

    it('dispatches nothing after end()', () => {
      const events: SseEvent[] = [];
      const parser = new SseParser((e) => events.push(e));
      parser.end();
      parser.push('data: late\n\n');
      expect(events).to.deep.equal([]);
    });
  });

  describe('chunk boundaries', () => {
    it('gives the same events for every single split point of the sample', () => {
      for (let i = 0; i <= SAMPLE.length; i++) {
        const events = parseChunks([SAMPLE.slice(0, i), SAMPLE.slice(i)]);
        expect(events, `split at ${i}`).to.deep.equal(EXPECTED);
      }
    });

    it('gives the same events for every pair of split points', () => {
      for (let i = 0; i <= SAMPLE.length; i += 3) {
        for (let j = i; j <= SAMPLE.length; j += 2) {
          const events = parseChunks([SAMPLE.slice(0, i), SAMPLE.slice(i, j), SAMPLE.slice(j)]);
          expect(events, `split at ${i}, ${j}`).to.deep.equal(EXPECTED);
        }
      }
    });

    it('gives the same events fed one character at a time', () => {
      expect(parseChunks([...SAMPLE.split('')])).to.deep.equal(EXPECTED);
    });

    it('treats a CRLF split across chunks as one line end, not two', () => {
      // Were the CR and LF two line ends, the blank line would dispatch "a" before "b" joined it.
      expect(parseChunks(['data: a\r', '\ndata: b\r', '\n\r', '\n'])).to.deep.equal([
        { event: 'message', data: 'a\nb' },
      ]);
    });

    it('treats CR then an empty chunk then LF as one line end', () => {
      expect(parseChunks(['data: a\r', '', '\ndata: b\n\n'])).to.deep.equal([{ event: 'message', data: 'a\nb' }]);
    });
  });

  describe('bytes', () => {
    const bytes = new TextEncoder().encode(SAMPLE);

    it('decodes UTF-8 split inside every multi-byte sequence (emoji included)', () => {
      for (let i = 0; i <= bytes.length; i++) {
        const events = parseChunks([bytes.subarray(0, i), bytes.subarray(i)]);
        expect(events, `byte split at ${i}`).to.deep.equal(EXPECTED);
      }
    });

    it('decodes a stream fed one byte at a time', () => {
      const chunks = Array.from(bytes, (b) => Uint8Array.of(b));
      expect(parseChunks(chunks)).to.deep.equal(EXPECTED);
    });

    it('strips a UTF-8 encoded BOM', () => {
      const withBom = Uint8Array.of(0xef, 0xbb, 0xbf, ...new TextEncoder().encode('data: x\n\n'));
      expect(parseChunks([withBom.subarray(0, 2), withBom.subarray(2)])).to.deep.equal([
        { event: 'message', data: 'x' },
      ]);
    });
  });
});
