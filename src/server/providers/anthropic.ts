/**
 * Anthropic Messages API streaming over fetch (no SDK): system separate, tool_use / tool_result blocks.
 */
import type { Clock } from '../../clock.js';
import type { PageToolSchema } from '../../tools/types.js';
import type { WaveMessage } from '../../transport/protocol.js';
import { readSse } from './sse.js';
import type { ModelProvider, ProviderEvent, ProviderStepInput } from './types.js';
import { ProviderError } from './types.js';
import { badStream, joinUrl, ProviderErrorCode, UpstreamCall, type FetchLike } from './upstream.js';

export interface AnthropicProviderOptions {
  /** Default `https://api.anthropic.com`. */
  baseUrl?: string;
  apiKey: string;
  model: string;
  /** Default 1024. */
  maxTokens?: number;
  /** `anthropic-version` header (default `2023-06-01`). */
  version?: string;
  fetch?: FetchLike;
  /** Idle timeout before the headers and between chunks (default 60 s). */
  timeoutMs?: number;
  clock?: Clock;
}

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string };

interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

/**
 * WaveMessages as Messages API turns: tool results become `tool_result` blocks of a user turn, and
 * consecutive turns of one role merge (the API wants them alternating, starting with the user).
 */
export function toAnthropicMessages(messages: WaveMessage[]): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  const push = (role: 'user' | 'assistant', blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.role === role) {
      // tool_result blocks must open a user turn: put them before any text already there.
      if (role === 'user' && blocks[0]?.type === 'tool_result') {
        const results = last.content.filter((b) => b.type === 'tool_result');
        const rest = last.content.filter((b) => b.type !== 'tool_result');
        last.content = [...results, ...blocks, ...rest];
      } else last.content.push(...blocks);
    } else out.push({ role, content: blocks });
  };
  for (const message of messages) {
    if (message.role === 'user') push('user', message.content ? [{ type: 'text', text: message.content }] : []);
    else if (message.role === 'tool') push('user', [{ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content }]);
    else {
      const blocks: Block[] = message.content ? [{ type: 'text', text: message.content }] : [];
      for (const call of message.toolCalls ?? []) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
      push('assistant', blocks);
    }
  }
  while (out[0]?.role === 'assistant') out.shift();
  return out;
}

export function toAnthropicTools(tools: PageToolSchema[]) {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
}

const LABEL = 'Anthropic';

/**
 * A `ModelProvider` for Anthropic's Messages API.
 *
 * @example
 * const provider = new AnthropicProvider({ apiKey: key, model: 'claude-3-5-haiku-latest' });
 */
export class AnthropicProvider implements ModelProvider {
  readonly name = 'anthropic';
  readonly model: string;
  readonly offline = false;
  readonly #options: AnthropicProviderOptions;

  constructor(options: AnthropicProviderOptions) {
    this.#options = options;
    this.model = options.model;
  }

  async *step(input: ProviderStepInput, signal: AbortSignal): AsyncGenerator<ProviderEvent> {
    const o = this.#options;
    const body: Record<string, unknown> = {
      model: input.model || this.model,
      system: input.system,
      messages: toAnthropicMessages(input.messages),
      max_tokens: o.maxTokens ?? 1024,
      stream: true,
    };
    if (input.tools.length > 0) body.tools = toAnthropicTools(input.tools);
    const call = new UpstreamCall(
      {
        fetch: o.fetch ?? ((url, init) => globalThis.fetch(url, init)),
        url: joinUrl(o.baseUrl ?? 'https://api.anthropic.com', '/v1/messages'),
        headers: { 'x-api-key': o.apiKey, 'anthropic-version': o.version ?? '2023-06-01' },
        body,
        timeoutMs: o.timeoutMs ?? 60_000,
        ...(o.clock ? { clock: o.clock } : {}),
        label: LABEL,
      },
      signal,
    );
    try {
      const stream = await call.open();
      const tools = new Map<number, { id: string; name: string; json: string }>();
      let stopReason: string | null = null;
      let stopped = false;
      let pendingCalls = 0;
      const usage: { inputTokens?: number; outputTokens?: number } = {};
      for await (const message of readSse(stream)) {
        call.touch();
        let data: unknown;
        try {
          data = JSON.parse(message.data);
        } catch (error) {
          throw badStream(LABEL, 'a data line is not JSON', error);
        }
        if (!isRecord(data)) throw badStream(LABEL, 'an event is not an object');
        const type = typeof data.type === 'string' ? data.type : message.event;
        if (type === 'content_block_start') {
          const block = isRecord(data.content_block) ? data.content_block : {};
          const index = blockIndex(data);
          if (block.type === 'tool_use') {
            if (typeof block.name !== 'string' || typeof block.id !== 'string') throw badStream(LABEL, 'a tool_use block has no id or name');
            tools.set(index, { id: block.id, name: block.name, json: '' });
          } else if (block.type === 'text' && typeof block.text === 'string' && block.text) {
            yield { type: 'text', delta: block.text };
          }
        } else if (type === 'content_block_delta') {
          const delta = isRecord(data.delta) ? data.delta : {};
          if (delta.type === 'text_delta' && typeof delta.text === 'string') {
            if (delta.text) yield { type: 'text', delta: delta.text };
          } else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
            const tool = tools.get(blockIndex(data));
            if (!tool) throw badStream(LABEL, 'input_json_delta for an unknown block');
            tool.json += delta.partial_json;
          }
        } else if (type === 'content_block_stop') {
          const index = blockIndex(data);
          const tool = tools.get(index);
          if (tool) {
            tools.delete(index);
            pendingCalls += 1;
            // A tool with no parameters streams no JSON at all.
            yield { type: 'tool_call', id: tool.id, name: tool.name, arguments: tool.json.trim() === '' ? '{}' : tool.json };
          }
        } else if (type === 'message_start') {
          const usageIn = isRecord(data.message) && isRecord(data.message.usage) ? data.message.usage : {};
          if (isCount(usageIn.input_tokens)) usage.inputTokens = usageIn.input_tokens;
          if (isCount(usageIn.output_tokens)) usage.outputTokens = usageIn.output_tokens;
        } else if (type === 'message_delta') {
          const delta = isRecord(data.delta) ? data.delta : {};
          if (typeof delta.stop_reason === 'string') stopReason = delta.stop_reason;
          // message_delta's usage.output_tokens is the running total for the message.
          if (isRecord(data.usage) && isCount(data.usage.output_tokens)) usage.outputTokens = data.usage.output_tokens;
        } else if (type === 'message_stop') {
          stopped = true;
          break;
        } else if (type === 'error') {
          const error = isRecord(data.error) ? data.error : {};
          const kind = typeof error.type === 'string' ? error.type : '';
          if (kind === 'overloaded_error' || kind === 'api_error') {
            throw new ProviderError(`${LABEL} provider is overloaded`, { code: ProviderErrorCode.unavailable, retryable: true });
          }
          if (kind === 'rate_limit_error') {
            throw new ProviderError(`${LABEL} provider is rate limiting`, { code: ProviderErrorCode.rateLimited, retryable: true });
          }
          if (kind === 'authentication_error' || kind === 'permission_error') {
            throw new ProviderError(`${LABEL} provider refused the credentials`, { code: ProviderErrorCode.auth, retryable: false });
          }
          throw new ProviderError(`${LABEL} provider reported an error mid-stream`, { code: ProviderErrorCode.error, retryable: false });
        }
        // ping carries nothing a step needs.
      }
      if (!stopped) throw badStream(LABEL, 'the stream ended before message_stop');
      if (tools.size > 0) throw badStream(LABEL, 'a tool_use block never stopped');
      const reason = stopReason === 'tool_use' || pendingCalls > 0 ? 'tool_calls' : stopReason === 'max_tokens' ? 'length' : 'stop';
      if (usage.inputTokens !== undefined || usage.outputTokens !== undefined) yield { type: 'usage', ...usage };
      yield { type: 'end', reason };
    } catch (error) {
      throw call.fail(error);
    } finally {
      call.dispose();
    }
  }
}

function blockIndex(data: Record<string, unknown>): number {
  return typeof data.index === 'number' ? data.index : 0;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
