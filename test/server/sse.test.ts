import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SseFormatError, readSse, type SseMessage } from '../../src/server/providers/sse.js';
import { SseParser } from '../../src/transport/sse-parser.js';
import { ssePropertyFailure, sseMismatches } from '../transport/sse-cases.js';

function streamOf(parts: ReadonlyArray<string | Uint8Array>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(typeof part === 'string' ? encoder.encode(part) : part);
      controller.close();
    },
  });
}

async function read(parts: ReadonlyArray<string | Uint8Array>, options = {}): Promise<SseMessage[]> {
  const out: SseMessage[] = [];
  for await (const message of readSse(streamOf(parts), options)) out.push(message);
  return out;
}

describe('readSse (the server reading an upstream)', () => {
  it('passes the shared SSE suite (the same cases the widget transport passes in Chromium)', async () => {
    assert.deepEqual(await sseMismatches((chunks) => read(chunks)), []);
  });

  it('reads generated streams (random events, line ends, BOM, cuts, an unterminated tail) as the widget does', async () => {
    assert.equal(await ssePropertyFailure((chunks) => read(chunks)), null);
  });

  it('the widget parser passes the same suite in Node too', async () => {
    const mismatches = await sseMismatches((chunks) => {
      const events: SseMessage[] = [];
      const parser = new SseParser((e) => events.push(e));
      for (const chunk of chunks) parser.push(chunk);
      parser.end();
      return events;
    });
    assert.deepEqual(mismatches, []);
  });

  it('refuses a line over the limit with SseFormatError, also when it arrives in small pieces', async () => {
    const line = `data: ${'x'.repeat(2000)}`;
    const pieces = line.match(/.{1,64}/g) ?? [];
    await assert.rejects(read(pieces, { maxLineChars: 1000 }), SseFormatError);
    await assert.rejects(read([`${line}\n\n`], { maxLineChars: 1000 }), SseFormatError);
    assert.deepEqual(await read([`${line}\n\n`], { maxLineChars: 4000 }), [{ event: 'message', data: 'x'.repeat(2000) }]);
  });

  it('cancels the upstream when the consumer stops early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('data: tick\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const message of readSse(body)) {
      assert.equal(message.data, 'tick');
      break;
    }
    assert.equal(cancelled, true);
  });
});
