// Throughput of the SSE parser on a realistic reply (many small text deltas), fed as bytes in
// chunk sizes a network delivers. Run: npm run bench -- sse-parser
import { SseParser } from '../../src/transport/sse-parser.js';

const delta = (i: number) => `event: text\ndata: ${JSON.stringify({ type: 'text', delta: `word${i} é👋 ` })}\n\n`;
const raw = Array.from({ length: 20_000 }, (_, i) => delta(i)).join('') + 'event: end\ndata: {"reason":"stop"}\n\n';
const bytes = new TextEncoder().encode(raw);

for (const chunkSize of [16, 256, 4096, 65536]) {
  const runs = 5;
  let best = Infinity;
  let events = 0;
  for (let r = 0; r < runs; r++) {
    events = 0;
    const parser = new SseParser(() => {
      events += 1;
    });
    const start = performance.now();
    for (let i = 0; i < bytes.length; i += chunkSize) parser.push(bytes.subarray(i, i + chunkSize));
    parser.end();
    best = Math.min(best, performance.now() - start);
  }
  const mbPerS = bytes.length / 1e6 / (best / 1000);
  console.log(`chunk ${String(chunkSize).padStart(5)} B: ${events} events, ${(bytes.length / 1e6).toFixed(2)} MB in ${best.toFixed(1)} ms (${mbPerS.toFixed(0)} MB/s)`);
}

// One very long data line (a big tool result) arriving in chunks must stay linear: the same
// parser on both sides, the widget's SseParser and the server's readSse over a byte stream.
// Linear means 10 MB costs about ten times 1 MB, whatever the chunk size.
const { readSse } = await import('../../src/server/providers/sse.js');

function bigLine(chars: number): Uint8Array {
  return new TextEncoder().encode(`data: ${'x'.repeat(chars)}\n\n`);
}

function parserMs(bytes: Uint8Array, chunk: number): { ms: number; size: number } {
  let size = 0;
  const parser = new SseParser((e) => {
    size = e.data.length;
  });
  const start = performance.now();
  for (let i = 0; i < bytes.length; i += chunk) parser.push(bytes.subarray(i, i + chunk));
  parser.end();
  return { ms: performance.now() - start, size };
}

async function readSseMs(bytes: Uint8Array, chunk: number): Promise<{ ms: number; size: number }> {
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) controller.close();
      else {
        controller.enqueue(bytes.subarray(offset, offset + chunk));
        offset += chunk;
      }
    },
  });
  let size = 0;
  const start = performance.now();
  for await (const message of readSse(body, { maxLineChars: 32 * 1024 * 1024 })) size = message.data.length;
  return { ms: performance.now() - start, size };
}

async function bestOf(runs: number, f: () => Promise<{ ms: number; size: number }> | { ms: number; size: number }) {
  let out = await f();
  for (let r = 1; r < runs; r++) {
    const next = await f();
    if (next.ms < out.ms) out = next;
  }
  return out;
}

// Before the shared parser, the server's reader rescanned its buffer per chunk: 1 MB took
// 0.8 s, 2 MB 3.4 s, 4 MB 17 s in 1 KiB chunks (quadratic); 10 MB was out of reach.
for (const chunk of [1024, 65536]) {
  for (const [label, run] of [
    ['SseParser (widget)', (bytes: Uint8Array) => parserMs(bytes, chunk)],
    ['readSse (server)', (bytes: Uint8Array) => readSseMs(bytes, chunk)],
  ] as const) {
    const figures: string[] = [];
    let tenMb = { ms: 0, size: 0 };
    for (const mb of [1, 5, 10]) {
      const bytes = bigLine(mb * 1_000_000);
      const result = await bestOf(3, () => run(bytes));
      if (mb === 10) tenMb = result;
      figures.push(`${mb} MB ${result.ms.toFixed(0)} ms (${(result.ms / mb).toFixed(1)} ms/MB)`);
    }
    console.log(`${label}, one line in ${chunk} B chunks: ${figures.join(', ')}; 10 MB line read whole: ${tenMb.size === 10_000_000}`);
  }
}
