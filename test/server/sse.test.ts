import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSse, type SseMessage } from '../../src/server/providers/sse.js';

function streamOf(parts: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

async function read(parts: Uint8Array[]): Promise<SseMessage[]> {
  const out: SseMessage[] = [];
  for await (const message of readSse(streamOf(parts))) out.push(message);
  return out;
}

describe('readSse', () => {
  const text = 'event: a\ndata: héllo 😀\n\n: comment\r\ndata: line1\r\ndata: line2\r\n\r\ndata:no-space\rdata: [DONE]\n\n';
  const expected: SseMessage[] = [
    { event: 'a', data: 'héllo 😀' },
    { event: 'message', data: 'line1\nline2' },
    { event: 'message', data: 'no-space\n[DONE]' },
  ];

  it('parses events, comments, multi-line data and \\n, \\r\\n, \\r line ends', async () => {
    assert.deepEqual(await read([new TextEncoder().encode(text)]), expected);
  });

  it('gives the same events however the bytes are cut, including inside UTF-8 sequences and CRLF', async () => {
    const bytes = new TextEncoder().encode(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      assert.deepEqual(await read([bytes.subarray(0, cut), bytes.subarray(cut)]), expected, `cut at ${cut}`);
    }
    assert.deepEqual(await read(Array.from(bytes, (b) => Uint8Array.of(b))), expected);
  });

  it('keeps a final event that lacks its blank line', async () => {
    assert.deepEqual(await read([new TextEncoder().encode('data: {"a":1}\n\ndata: last')]), [
      { event: 'message', data: '{"a":1}' },
      { event: 'message', data: 'last' },
    ]);
  });
});
