/**
 * The wave server's public surface, standards-only (no `node:` imports): import the Node entry
 * from `./node.js` separately.
 */
export { createWaveHandler, ServerDefaults, WaveErrorCode } from './handler.js';
export type { SiteConfig, SiteConfigResolver, WaveServerOptions, WaveLogger, VoiceBroker, RateLimitOptions, WaveErrorBody } from './types.js';
export { loadConfig, defaultSites, parseSiteConfig, ConfigError, ProviderKind, DEFAULT_PORT, DEFAULT_DRAIN_MS } from './config.js';
export type { WaveConfig, LoadConfigOptions } from './config.js';
export { OpenAICompatibleProvider, toChatMessages, toChatTools } from './providers/openai.js';
export type { OpenAICompatibleProviderOptions } from './providers/openai.js';
export { AnthropicProvider, toAnthropicMessages, toAnthropicTools } from './providers/anthropic.js';
export type { AnthropicProviderOptions } from './providers/anthropic.js';
export { OfflineModel } from './offline-model.js';
export { ProviderError } from './providers/types.js';
export type { ModelProvider, ProviderEvent, ProviderStepInput } from './providers/types.js';
export { ProviderErrorCode } from './providers/upstream.js';
export type { FetchLike } from './providers/upstream.js';
export { readSse } from './providers/sse.js';
export type { SseMessage } from './providers/sse.js';
export { buildSystemPrompt, guardTools, guardMessages, capText, filterTools, TRUNCATION_SUFFIX, DEFAULT_INSTRUCTIONS } from './prompt.js';
export { parseWaveRequest, parseVoiceSessionRequest, RequestValidationError, RequestLimits } from './validate-request.js';
export { FixedWindowLimiter, MemoryRateLimitStore, RedisRateLimitStore, WorkersRateLimitStore } from './rate-limit.js';
export type { RateLimitStore, RateDecision, RedisEvalClient, RedisRateLimitStoreOptions, WorkersRateLimitBinding } from './rate-limit.js';
export { clientAddress, setClientAddress, getClientAddress, normalizeIp, rateLimitKey } from './client-identity.js';
export { handlerFromEnv } from './runtimes/shared.js';
export type { EntryOptions } from './runtimes/shared.js';
export { ToolCallChecker, CallCheckStatus } from './tool-call-check.js';
export { createRealtimeBroker, VoiceBrokerError } from './voice-broker.js';
export type { RealtimeBroker, RealtimeBrokerOptions } from './voice-broker.js';
