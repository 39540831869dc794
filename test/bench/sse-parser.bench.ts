// Throughput of the SSE parser on a realistic reply (many small text deltas), fed as bytes in
// chunk sizes a network delivers. Run: node --import tsx test/bench/sse-parser.bench.ts
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

// One very long data line (a big tool result) arriving in tiny chunks must stay linear.
{
  const big = `data: ${'x'.repeat(2_000_000)}\n\n`;
  const bigBytes = new TextEncoder().encode(big);
  let size = 0;
  const parser = new SseParser((e) => {
    size = e.data.length;
  });
  const start = performance.now();
  for (let i = 0; i < bigBytes.length; i += 64) parser.push(bigBytes.subarray(i, i + 64));
  parser.end();
  console.log(`one 2 MB line in 64 B chunks: ${size} chars in ${(performance.now() - start).toFixed(1)} ms`);
}
