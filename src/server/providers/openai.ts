/**
 * OpenAI-compatible Chat Completions over fetch with `stream: true` (no SDK). Works with OpenAI,
 * Azure OpenAI (`apiKeyHeader: 'api-key'` + `query: { 'api-version': … }`), Ollama, vLLM and llama.cpp.
 */
import type { Clock } from '../../clock.js';
import type { PageToolSchema } from '../../tools/types.js';
import type { WaveMessage } from '../../transport/protocol.js';
import { readSse } from './sse.js';
import type { ModelProvider, ProviderEvent, ProviderStepInput } from './types.js';
import { ProviderError } from './types.js';
import { badStream, joinUrl, ProviderErrorCode, randomCallId, UpstreamCall, type FetchLike } from './upstream.js';

export interface OpenAICompatibleProviderOptions {
  /** e.g. `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  /** Omit for local servers that need none. */
  apiKey?: string;
  /** Default model; a site's `model` overrides it per request. */
  model: string;
  /** `authorization` sends `Bearer <key>` (default); `api-key` is Azure's header. */
  apiKeyHeader?: 'authorization' | 'api-key';
  /** Path under baseUrl (default `/chat/completions`). */
  path?: string;
  /** Extra query parameters, e.g. Azure's `api-version`. */
  query?: Record<string, string>;
  fetch?: FetchLike;
  /** Idle timeout before the headers and between chunks (default 60 s). */
  timeoutMs?: number;
  clock?: Clock;
  /** Upper bound on the reply length, when set. */
  maxTokens?: number;
  /**
   * Ask for token counts at the end of the stream (`stream_options.include_usage`, default true),
   * for the log. Turn off for an older server that refuses unknown request fields.
   */
  streamUsage?: boolean;
}

type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** WaveMessages as Chat Completions messages, system first. */
export function toChatMessages(system: string, messages: WaveMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [{ role: 'system', content: system }];
  for (const message of messages) {
    if (message.role === 'user') out.push({ role: 'user', content: message.content });
    else if (message.role === 'tool') out.push({ role: 'tool', tool_call_id: message.toolCallId, content: message.content });
    else {
      const calls = message.toolCalls ?? [];
      out.push({
        role: 'assistant',
        content: message.content === '' && calls.length > 0 ? null : message.content,
        ...(calls.length > 0
          ? {
              tool_calls: calls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: JSON.stringify(call.arguments) },
              })),
            }
          : {}),
      });
    }
  }
  return out;
}

/** Tool schemas as Chat Completions `tools`. */
export function toChatTools(tools: PageToolSchema[]) {
  return tools.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
}

const LABEL = 'OpenAI-compatible';

/**
 * A `ModelProvider` for any Chat Completions endpoint.
 *
 * @example
 * const provider = new OpenAICompatibleProvider({ baseUrl: 'https://api.openai.com/v1', apiKey: key, model: 'gpt-4o-mini' });
 * for await (const event of provider.step(input, signal)) console.log(event);
 */
export class OpenAICompatibleProvider implements ModelProvider {
  readonly name = 'openai';
  readonly model: string;
  readonly offline = false;
  readonly #options: OpenAICompatibleProviderOptions;

  constructor(options: OpenAICompatibleProviderOptions) {
    this.#options = options;
    this.model = options.model;
  }

  async *step(input: ProviderStepInput, signal: AbortSignal): AsyncGenerator<ProviderEvent> {
    const o = this.#options;
    const headers: Record<string, string> = {};
    if (o.apiKey) {
      if (o.apiKeyHeader === 'api-key') headers['api-key'] = o.apiKey;
      else headers.authorization = `Bearer ${o.apiKey}`;
    }
    const body: Record<string, unknown> = {
      model: input.model || this.model,
      messages: toChatMessages(input.system, input.messages),
      stream: true,
    };
    if (o.streamUsage !== false) body.stream_options = { include_usage: true };
    if (input.tools.length > 0) body.tools = toChatTools(input.tools);
    if (o.maxTokens !== undefined) body.max_tokens = o.maxTokens;
    const call = new UpstreamCall(
      {
        fetch: o.fetch ?? ((url, init) => globalThis.fetch(url, init)),
        url: joinUrl(o.baseUrl, o.path ?? '/chat/completions', o.query),
        headers,
        body,
        timeoutMs: o.timeoutMs ?? 60_000,
        ...(o.clock ? { clock: o.clock } : {}),
        label: LABEL,
      },
      signal,
    );
    try {
      const stream = await call.open();
      // Tool calls arrive as deltas keyed by index: id and name first, arguments in many pieces.
      const calls: PendingCall[] = [];
      let finish: string | null = null;
      let sawDone = false;
      const usage: { inputTokens?: number; outputTokens?: number } = {};
      for await (const message of readSse(stream)) {
        call.touch();
        if (message.data === '[DONE]') {
          sawDone = true;
          break;
        }
        let chunk: unknown;
        try {
          chunk = JSON.parse(message.data);
        } catch (error) {
          throw badStream(LABEL, 'a data line is not JSON', error);
        }
        if (!isRecord(chunk)) throw badStream(LABEL, 'a chunk is not an object');
        if (isRecord(chunk.error)) {
          throw new ProviderError(`${LABEL} provider reported an error mid-stream`, {
            code: ProviderErrorCode.error,
            retryable: true,
          });
        }
        // The usage chunk (choices: []) comes last; some servers put usage on every chunk.
        if (isRecord(chunk.usage)) {
          if (isCount(chunk.usage.prompt_tokens)) usage.inputTokens = chunk.usage.prompt_tokens;
          if (isCount(chunk.usage.completion_tokens)) usage.outputTokens = chunk.usage.completion_tokens;
        }
        const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
        const choice: unknown = choices[0];
        if (!isRecord(choice)) continue;
        const delta = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : {};
        if (typeof delta.content === 'string' && delta.content !== '') yield { type: 'text', delta: delta.content };
        if (Array.isArray(delta.tool_calls)) {
          delta.tool_calls.forEach((raw: unknown, position: number) => accumulate(calls, raw, position));
        }
        if (typeof choice.finish_reason === 'string') finish = choice.finish_reason;
      }
      if (!sawDone && finish === null) throw badStream(LABEL, 'the stream ended before it finished');
      for (const pending of calls) {
        if (!pending.name) throw badStream(LABEL, 'a tool call has no name');
        yield { type: 'tool_call', id: pending.id || randomCallId('call_'), name: pending.name, arguments: pending.arguments };
      }
      const reason =
        calls.length > 0 || finish === 'tool_calls' || finish === 'function_call'
          ? 'tool_calls'
          : finish === 'length'
            ? 'length'
            : 'stop';
      if (usage.inputTokens !== undefined || usage.outputTokens !== undefined) yield { type: 'usage', ...usage };
      yield { type: 'end', reason };
    } catch (error) {
      throw call.fail(error);
    } finally {
      call.dispose();
    }
  }
}

function accumulate(calls: PendingCall[], raw: unknown, position: number): void {
  if (!isRecord(raw)) return;
  const fn = isRecord(raw.function) ? raw.function : {};
  const id = typeof raw.id === 'string' ? raw.id : '';
  let index: number;
  if (typeof raw.index === 'number' && Number.isInteger(raw.index) && raw.index >= 0 && raw.index < 128) index = raw.index;
  // Servers that omit `index` (some Ollama versions) send each call whole: a new id is a new call.
  else if (id && !calls.some((c) => c.id === id)) index = calls.length;
  else index = id ? calls.findIndex((c) => c.id === id) : Math.min(position, Math.max(calls.length - 1, 0));
  while (calls.length <= index) calls.push({ id: '', name: '', arguments: '' });
  const pending = calls[index]!;
  if (id && !pending.id) pending.id = id;
  if (typeof fn.name === 'string' && fn.name) pending.name = pending.name ? pending.name : fn.name;
  if (typeof fn.arguments === 'string') pending.arguments += fn.arguments;
  // Some servers send arguments as an already-parsed object.
  else if (isRecord(fn.arguments)) pending.arguments += JSON.stringify(fn.arguments);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
