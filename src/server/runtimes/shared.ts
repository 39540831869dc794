/**
 * What the Deno, Bun and Workers entries share: the standards handler built from environment
 * variables (the same ones as the Node server). Standards-only.
 */
import { loadConfig, type LoadConfigOptions } from '../config.js';
import { createWaveHandler } from '../handler.js';
import type { RateLimitStore } from '../rate-limit.js';
import type { WaveServerOptions } from '../types.js';

export interface EntryOptions extends LoadConfigOptions {
  /** Rate-limit counts (default in memory, per instance). */
  rateLimitStore?: RateLimitStore;
  draining?: AbortSignal;
  shutdown?: AbortSignal;
}

/**
 * The wave handler and its settings, from `env`.
 *
 * @example
 * const { handler, trustProxy } = handlerFromEnv(Deno.env.toObject());
 */
export function handlerFromEnv(env: Record<string, string | undefined>, options: EntryOptions = {}) {
  const config = loadConfig(env, options);
  const handlerOptions: WaveServerOptions = {
    sites: config.sites,
    provider: config.provider,
    basePath: '/wave',
    rateLimit: config.rateLimit,
    ...(options.rateLimitStore ? { rateLimitStore: options.rateLimitStore } : {}),
    ...(options.draining ? { draining: options.draining } : {}),
    ...(options.shutdown ? { shutdown: options.shutdown } : {}),
    ...(config.voiceBroker ? { voiceBroker: config.voiceBroker } : {}),
  };
  return { handler: createWaveHandler(handlerOptions), config };
}
