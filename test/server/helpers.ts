/**
 * Shared fixtures of the server tests: loopback HTTP servers on ephemeral ports, fake upstreams
 * that speak the OpenAI and Anthropic SSE formats byte by byte, and a scripted ModelProvider.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWaveHandler } from '../../src/server/handler.js';
import { toNodeListener } from '../../src/server/node-adapter.js';
import type { ModelProvider, ProviderEvent, ProviderStepInput } from '../../src/server/providers/types.js';
import type { WaveLogger, WaveServerOptions } from '../../src/server/types.js';
import type { PageToolSchema } from '../../src/tools/types.js';
import type { WaveRequest, WaveStreamEvent } from '../../src/transport/protocol.js';

export interface Listening {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function listen(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<Listening> {
  const server = createServer({ noDelay: true }, listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface UpstreamRequest {
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export type Scenario = (res: ServerResponse, req: UpstreamRequest, raw: IncomingMessage) => void | Promise<void>;

/** A fake provider endpoint: records each request, then lets the scenario answer it. */
export async function fakeUpstream(scenario: Scenario): Promise<Listening & { requests: UpstreamRequest[]; closed: Promise<void> }> {
  const requests: UpstreamRequest[] = [];
  let markClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const listening = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const record = { url: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> };
      requests.push(record);
      // "closed" resolves when the caller hangs up before the scenario finished its reply.
      res.on('close', () => {
        if (!res.writableFinished) markClosed();
      });
      void scenario(res, record, req);
    });
  });
  return { ...listening, requests, closed };
}

export const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 2));

/** Writes `text` in pieces cut at the given byte sizes (cycling), pausing so each is its own TCP write. */
export async function writeSplit(res: ServerResponse, text: string, sizes: number[] = [7]): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  let i = 0;
  while (offset < bytes.length) {
    const size = sizes[i++ % sizes.length]!;
    res.write(bytes.subarray(offset, offset + size));
    offset += size;
    await tick();
  }
}

export function sseHead(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.flushHeaders();
}

/** OpenAI chunk lines. */
export const oa = {
  text: (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`,
  toolStart: (index: number, id: string, name: string, args = '') =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index, id, type: 'function', function: { name, arguments: args } }] } }] })}\n\n`,
  toolArgs: (index: number, args: string) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: args } }] } }] })}\n\n`,
  finish: (reason: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: reason }] })}\n\n`,
  done: 'data: [DONE]\n\n',
};

/** Anthropic event lines. */
export const an = {
  event: (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`,
  start: () => an.event('message_start', { message: { id: 'msg_1', role: 'assistant', content: [] } }),
  textBlock: (index: number) => an.event('content_block_start', { index, content_block: { type: 'text', text: '' } }),
  text: (index: number, text: string) => an.event('content_block_delta', { index, delta: { type: 'text_delta', text } }),
  toolBlock: (index: number, id: string, name: string) =>
    an.event('content_block_start', { index, content_block: { type: 'tool_use', id, name, input: {} } }),
  json: (index: number, partial_json: string) => an.event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }),
  stop: (index: number) => an.event('content_block_stop', { index }),
  delta: (stop_reason: string) => an.event('message_delta', { delta: { stop_reason } }),
  end: () => an.event('message_stop', {}),
};

/** Everything a provider step yields, or the error it threw. */
export async function collect(iterable: AsyncIterable<ProviderEvent>): Promise<{ events: ProviderEvent[]; error?: unknown }> {
  const events: ProviderEvent[] = [];
  try {
    for await (const event of iterable) events.push(event);
    return { events };
  } catch (error) {
    return { events, error };
  }
}

export function stepInput(overrides: Partial<ProviderStepInput> = {}): ProviderStepInput {
  return { system: 'SYSTEM', messages: [{ role: 'user', content: 'hi' }], tools: [], context: null, model: 'test-model', ...overrides };
}

/** A provider that plays one scripted list of events per call and records every input. */
export class ScriptedProvider implements ModelProvider {
  readonly name = 'scripted';
  readonly model = 'scripted-model';
  readonly offline = false;
  readonly inputs: ProviderStepInput[] = [];
  readonly #steps: (ProviderEvent[] | Error)[];
  constructor(steps: (ProviderEvent[] | Error)[]) {
    this.#steps = steps;
  }
  async *step(input: ProviderStepInput): AsyncGenerator<ProviderEvent> {
    this.inputs.push(structuredClone(input));
    const step = this.#steps[this.inputs.length - 1];
    if (!step) throw new Error('no scripted step left');
    if (step instanceof Error) throw step;
    for (const event of step) yield event;
  }
}

export function captureLogger(): WaveLogger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (l) => lines.push(`info ${l}`), warn: (l) => lines.push(`warn ${l}`), error: (l) => lines.push(`error ${l}`) };
}

export const ORIGIN = 'https://shop.example';

export function tool(name: string, overrides: Partial<PageToolSchema> = {}): PageToolSchema {
  return {
    name,
    description: `Does ${name}.`,
    parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
    confirm: false,
    cost: 0,
    tier3: false,
    ...overrides,
  };
}

export function waveBody(overrides: Partial<WaveRequest> = {}): WaveRequest {
  return {
    v: 1,
    siteId: 'shop',
    conversationId: 'c1',
    messages: [{ role: 'user', content: 'hello' }],
    tools: [],
    context: null,
    ...overrides,
  };
}

/** The wave handler behind real node:http on an ephemeral port. */
export async function waveServer(options: Partial<WaveServerOptions> & Pick<WaveServerOptions, 'provider'>): Promise<Listening & { logger: ReturnType<typeof captureLogger> }> {
  const logger = captureLogger();
  const handler = createWaveHandler({
    sites: [{ id: 'shop', allowedOrigins: [ORIGIN] }],
    logger,
    rateLimit: false,
    ...options,
  });
  const listening = await listen(toNodeListener(handler));
  return { ...listening, logger };
}

export async function post(url: string, body: unknown, headers: Record<string, string> = { origin: ORIGIN }): Promise<Response> {
  return fetch(`${url}/wave`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Parses a wave SSE body into events, checking the `event:` name matches `type`. */
export function parseWaveEvents(text: string): WaveStreamEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const name = lines.find((l) => l.startsWith('event: '))!.slice(7);
      const event = JSON.parse(lines.find((l) => l.startsWith('data: '))!.slice(6)) as WaveStreamEvent;
      if (event.type !== name) throw new Error(`event name ${name} does not match type ${event.type}`);
      return event;
    });
}
