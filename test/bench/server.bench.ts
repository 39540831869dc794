/**
 * Wave server bench (not a test): prints figures.
 *   node --import tsx test/bench/server.bench.ts
 * 1. latency the server adds to one model step over loopback, vs calling the fake upstream directly;
 * 2. requests per second for a 10-message conversation (bounded loop);
 * 3. request bytes with 20 and 128 tools, with and without deferral (ToolRegistry + ToolDeferral).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWaveHandler } from '../../src/server/handler.js';
import { toNodeListener } from '../../src/server/node-adapter.js';
import { OpenAICompatibleProvider } from '../../src/server/providers/openai.js';
import { ToolDeferral } from '../../src/tools/deferral.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { PageToolSchema } from '../../src/tools/types.js';
import type { WaveMessage, WaveRequest } from '../../src/transport/protocol.js';

const ORIGIN = 'https://bench.example';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** A fake OpenAI-compatible upstream answering every step with a short streamed reply at once. */
function fakeUpstream(): Server {
  const reply =
    ['Sure', ', I', ' moved', ' the', ' task', '.'].map((t) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: t } }] })}\n\n`).join('') +
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;
  return createServer({ noDelay: true }, (req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(reply);
    });
  });
}

function registryWith(count: number): ToolRegistry {
  const registry = new ToolRegistry({ warn: () => undefined });
  for (let i = 0; i < count; i++) {
    registry.register(`tool_${String(i).padStart(3, '0')}`, {
      description: `Updates record kind ${i} on the board. Use it when the visitor asks to change kind ${i}; it returns the new value.`,
      parameters: {
        type: 'object',
        properties: {
          record_id: { type: 'string', description: 'Record id from the page state' },
          value: { type: 'string', enum: ['todo', 'doing', 'done'] },
          note: { type: 'string', maxLength: 200, description: 'Optional note shown on the record' },
        },
        required: ['record_id', 'value'],
      },
      handler: () => ({ success: true }),
    });
  }
  return registry;
}

function conversation(): WaveMessage[] {
  const messages: WaveMessage[] = [];
  for (let i = 0; i < 3; i++) {
    messages.push({ role: 'user', content: `Please move task ${i} to done.` });
    messages.push({ role: 'assistant', content: '', toolCalls: [{ id: `c${i}`, name: 'tool_001', arguments: { record_id: `t${i}`, value: 'done' } }] });
    messages.push({ role: 'tool', toolCallId: `c${i}`, name: 'tool_001', content: JSON.stringify({ success: true, record_id: `t${i}`, value: 'done' }) });
  }
  messages.push({ role: 'user', content: 'Thanks, anything else left?' });
  return messages; // 10 messages
}

function body(tools: PageToolSchema[]): WaveRequest {
  return {
    v: 1,
    siteId: 'bench',
    conversationId: 'bench-1',
    messages: conversation(),
    tools,
    context: JSON.stringify({ board: 'Launch', tasks: Array.from({ length: 30 }, (_, i) => ({ id: `t${i}`, title: `Task ${i}`, status: 'todo' })) }),
  };
}

async function timeStep(url: string, payload: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: payload });
  await res.text();
  return performance.now() - started;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const upstream = fakeUpstream();
  const upstreamUrl = await listen(upstream);
  const handler = createWaveHandler({
    sites: [{ id: 'bench', allowedOrigins: [ORIGIN] }],
    provider: new OpenAICompatibleProvider({ baseUrl: upstreamUrl, model: 'bench-model' }),
    rateLimit: false,
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  const wave = createServer({ noDelay: true }, toNodeListener(handler));
  const waveUrl = await listen(wave);

  const tools20 = new ToolDeferral().schemas(registryWith(20));
  const payload = JSON.stringify(body(tools20));
  // What the upstream receives directly: a chat request of about the same size.
  const direct = JSON.stringify({ model: 'bench-model', stream: true, messages: conversation(), tools: tools20 });

  const rounds = 400;
  for (let i = 0; i < 50; i++) {
    await timeStep(`${upstreamUrl}/chat/completions`, direct, {});
    await timeStep(`${waveUrl}/wave`, payload, { origin: ORIGIN });
  }
  const directTimes: number[] = [];
  const waveTimes: number[] = [];
  // Interleaved so both sides see the same machine load.
  for (let i = 0; i < rounds; i++) {
    directTimes.push(await timeStep(`${upstreamUrl}/chat/completions`, direct, {}));
    waveTimes.push(await timeStep(`${waveUrl}/wave`, payload, { origin: ORIGIN }));
  }
  directTimes.sort((a, b) => a - b);
  waveTimes.sort((a, b) => a - b);
  const added = (p: number) => (percentile(waveTimes, p) - percentile(directTimes, p)).toFixed(2);
  console.log(`step latency, 10 messages + 20 tools, ${rounds} sequential steps on loopback:`);
  console.log(`  fake upstream alone     p50 ${percentile(directTimes, 50).toFixed(2)} ms  p95 ${percentile(directTimes, 95).toFixed(2)} ms`);
  console.log(`  through the wave server p50 ${percentile(waveTimes, 50).toFixed(2)} ms  p95 ${percentile(waveTimes, 95).toFixed(2)} ms`);
  console.log(`  added by the server     p50 ${added(50)} ms  p95 ${added(95)} ms  (target ≤ 5 ms p50)`);

  const total = 1000;
  const concurrency = 8;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        await timeStep(`${waveUrl}/wave`, payload, { origin: ORIGIN });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(`throughput: ${total} steps of a 10-message conversation, ${concurrency} in flight: ${(total / seconds).toFixed(0)} requests/s`);

  console.log('request bytes (10 messages + 30-task page state):');
  for (const count of [20, 128]) {
    const registry = registryWith(count);
    const all = new ToolDeferral({ maxActiveTools: 1000, maxActiveBytes: Number.MAX_SAFE_INTEGER }).schemas(registry);
    const deferred = new ToolDeferral().schemas(registry);
    const allBytes = new TextEncoder().encode(JSON.stringify(body(all))).length;
    const deferredBytes = new TextEncoder().encode(JSON.stringify(body(deferred))).length;
    console.log(
      `  ${String(count).padStart(3)} tools: every schema ${allBytes} B; with deferral ${deferredBytes} B ` +
        (deferred.some((t) => t.name === 'load_tools')
          ? `(${deferred.length} schemas incl. load_tools, saves ${(100 * (1 - deferredBytes / allBytes)).toFixed(0)}%)`
          : '(within the limits: nothing deferred)'),
    );
  }

  await close(wave);
  await close(upstream);
}

await main();
