/**
 * What the wave server asks of a model provider: one model step, streamed.
 * Implemented by the OpenAI-compatible and Anthropic adapters and by the offline model.
 */
import type { PageToolSchema } from '../../tools/types.js';
import type { WaveMessage } from '../../transport/protocol.js';

export interface ProviderStepInput {
  /** The guarded system prompt: site instructions plus page state and tool notes as enveloped data. */
  system: string;
  /** Conversation with tool results already guarded (neutralised, enveloped, capped). */
  messages: WaveMessage[];
  /** Tool schemas with guarded descriptions, filtered by the site's allow-list. */
  tools: PageToolSchema[];
  /** The page state after the server's 8,000-char re-cap (raw, un-enveloped), for the offline model. */
  context: string | null;
  /** Provider model name from the site config or WAVE_MODEL. */
  model: string;
}

/** One streamed piece of a step. Tool-call arguments arrive as the provider's raw JSON text. */
export type ProviderEvent =
  | { type: 'text'; delta: string }
  | { type: 'tool_call'; id: string; name: string; arguments: string }
  | { type: 'end'; reason: 'stop' | 'tool_calls' | 'length' }
  /** Token counts for the log, when the provider reports them; comes before `end`. */
  | { type: 'usage'; inputTokens?: number; outputTokens?: number };

export interface ModelProvider {
  readonly name: string;
  /** The label the UI shows, e.g. "gpt-4o-mini" or "offline demo model". */
  readonly model: string;
  readonly offline: boolean;
  step(input: ProviderStepInput, signal: AbortSignal): AsyncIterable<ProviderEvent>;
}

/** A provider failure the handler turns into an `error` stream event. */
export class ProviderError extends Error {
  readonly code: string;
  readonly retryable: boolean;
  readonly status: number | undefined;
  constructor(message: string, options: { code: string; retryable: boolean; status?: number; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = 'ProviderError';
    this.code = options.code;
    this.retryable = options.retryable;
    this.status = options.status;
  }
}
