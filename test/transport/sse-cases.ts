/**
 * The one conformance suite for the one SSE parser, run by both sides: the widget's transport
 * in Chromium (test/transport/sse-parser.test.ts) and the server's upstream reader in Node
 * (test/server/sse.test.ts). Each side hands over how it parses a list of chunks; the suite
 * feeds every case whole, split at every point, one character and one byte at a time.
 */
import fc from 'fast-check';

export interface SseCaseEvent {
  event: string;
  data: string;
}

export interface SseCase {
  name: string;
  input: string;
  expected: SseCaseEvent[];
}

export const SSE_CASES: readonly SseCase[] = [
  {
    name: 'fields, comments, multi-line data and \\n, \\r\\n, \\r line ends',
    input: 'event: a\ndata: héllo 😀\n\n: comment\r\ndata: line1\r\ndata: line2\r\n\r\ndata:no-space\rdata: [DONE]\r\r',
    expected: [
      { event: 'a', data: 'héllo 😀' },
      { event: 'message', data: 'line1\nline2' },
      { event: 'message', data: 'no-space\n[DONE]' },
    ],
  },
  {
    name: 'a BOM at the start is dropped; only one leading space of a value is',
    input: '\uFEFFdata:  two spaces\ndata:none\ndata: \n\n',
    expected: [{ event: 'message', data: ' two spaces\nnone\n' }],
  },
  {
    name: 'an event without data is not dispatched, and its name does not leak into the next',
    input: 'event: ghost\n\ndata: x\n\n',
    expected: [{ event: 'message', data: 'x' }],
  },
  {
    name: 'a field name alone is a field with an empty value; unknown fields are ignored',
    input: 'data\nfoo: bar\n\nid: 1\nretry: 10\nevent: named\ndata: y\n\n',
    expected: [
      { event: 'message', data: '' },
      { event: 'named', data: 'y' },
    ],
  },
  {
    name: 'unterminated last event: discarded when the stream ends without its blank line',
    input: 'data: {"a":1}\n\nevent: end\ndata: {"reason":"stop"}\n',
    expected: [{ event: 'message', data: '{"a":1}' }],
  },
  {
    name: 'unterminated last line: discarded (it may have been cut)',
    input: 'data: complete\n\ndata: cut of',
    expected: [{ event: 'message', data: 'complete' }],
  },
  {
    name: 'a lone CR at the end of the stream ends the line but not the event',
    input: 'data: a\n\ndata: b\r',
    expected: [{ event: 'message', data: 'a' }],
  },
  {
    name: 'CR then LF is one line end; CR then CR is two',
    input: 'data: a\r\ndata: b\r\rdata: c\n\n',
    expected: [
      { event: 'message', data: 'a\nb' },
      { event: 'message', data: 'c' },
    ],
  },
  {
    name: 'a long line among short ones',
    input: `data: ${'x'.repeat(5000)}\ndata: tail\n\ndata: next\n\n`,
    expected: [
      { event: 'message', data: `${'x'.repeat(5000)}\ntail` },
      { event: 'message', data: 'next' },
    ],
  },
];

export type ParseChunks = (chunks: ReadonlyArray<string | Uint8Array>) => SseCaseEvent[] | Promise<SseCaseEvent[]>;

/** Every way the suite cuts `input`: whole, each split point (short inputs), characters, bytes. */
function* cuttings(input: string): Generator<[string, Array<string | Uint8Array>]> {
  yield ['whole', [input]];
  const bytes = new TextEncoder().encode(input);
  yield ['bytes whole', [bytes]];
  if (input.length <= 200) {
    for (let i = 1; i < input.length; i++) {
      // Not inside a surrogate pair: a side that reads bytes would encode each half alone.
      const low = input.charCodeAt(i);
      if (low >= 0xdc00 && low <= 0xdfff) continue;
      yield [`split at char ${i}`, [input.slice(0, i), input.slice(i)]];
    }
    for (let i = 1; i < bytes.length; i++) yield [`split at byte ${i}`, [bytes.subarray(0, i), bytes.subarray(i)]];
  }
  yield ['one character at a time', Array.from(input)];
  yield ['one byte at a time', Array.from(bytes, (b) => Uint8Array.of(b))];
}

/** Runs the whole suite through `parse`; returns one line per mismatch (empty when all agree). */
export async function sseMismatches(parse: ParseChunks): Promise<string[]> {
  const wrong: string[] = [];
  for (const c of SSE_CASES) {
    for (const [how, chunks] of cuttings(c.input)) {
      const got = (await parse(chunks)).map((e) => ({ event: e.event, data: e.data }));
      if (JSON.stringify(got) !== JSON.stringify(c.expected)) {
        wrong.push(`${c.name} (${how}): got ${JSON.stringify(got).slice(0, 200)}`);
      }
    }
  }
  return wrong;
}

/**
 * Generated streams: random events (names, multi-line data with any characters but line ends,
 * comments, ids), written with random line ends (LF, CRLF, CR), a BOM or not, cut into random
 * chunks of text or bytes, with or without a last event that the stream never terminated.
 * Returns the first counterexample fast-check found, or null.
 */
export async function ssePropertyFailure(parse: ParseChunks, runs = 150): Promise<string | null> {
  const lineText = fc.string({ unit: 'grapheme', maxLength: 12 }).map((s) => s.replace(/[\r\n]/g, ' '));
  const event = fc.record({
    name: fc.option(fc.stringMatching(/^[a-z_]{1,8}$/), { nil: undefined }),
    data: fc.array(lineText, { minLength: 1, maxLength: 3 }),
    comment: fc.boolean(),
  });
  const scenario = fc.record({
    events: fc.array(event, { maxLength: 5 }),
    eol: fc.constantFrom('\n', '\r\n', '\r'),
    bom: fc.boolean(),
    unterminated: fc.option(event, { nil: undefined }),
    cuts: fc.array(fc.nat(), { maxLength: 6 }),
    bytes: fc.boolean(),
  });
  const result = await fc.check(
    fc.asyncProperty(scenario, async (s) => {
      const write = (e: { name: string | undefined; data: string[]; comment: boolean }) =>
        (e.comment ? `: keep-alive${s.eol}` : '') + (e.name ? `event: ${e.name}${s.eol}` : '') + e.data.map((d) => `data: ${d}${s.eol}`).join('');
      let text = (s.bom ? '\uFEFF' : '') + s.events.map((e) => write(e) + s.eol).join('');
      if (s.unterminated) text += write(s.unterminated).slice(0, -s.eol.length);
      const whole: string | Uint8Array = s.bytes ? new TextEncoder().encode(text) : text;
      const at = [...new Set(s.cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
      const chunks: Array<string | Uint8Array> = [];
      let from = 0;
      for (const cut of [...at, whole.length]) {
        // Text is cut between code points (a side reading bytes would encode each half alone).
        let to = cut;
        if (typeof whole === 'string' && to > 0 && to < whole.length && /[\uDC00-\uDFFF]/.test(whole[to]!)) to -= 1;
        if (to < from) continue;
        chunks.push(whole.slice(from, to));
        from = to;
      }
      const got = (await parse(chunks)).map((e) => ({ event: e.event, data: e.data }));
      const expected = s.events.map((e) => ({ event: e.name ?? 'message', data: e.data.join('\n') }));
      return JSON.stringify(got) === JSON.stringify(expected);
    }),
    { numRuns: runs },
  );
  return result.failed ? `${JSON.stringify(result.counterexample)} (seed ${result.seed})` : null;
}
