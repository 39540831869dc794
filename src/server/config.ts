/**
 * Wave server configuration from environment variables (SPEC §10). Standards-only: reading a
 * `WAVE_SITES` file is delegated to an injected `readFile`, so this module also loads on edge runtimes.
 *
 * | variable | meaning |
 * |---|---|
 * | `WAVE_PROVIDER` | `offline` (default), `openai` (any OpenAI-compatible endpoint) or `anthropic` |
 * | `WAVE_BASE_URL` | provider base URL (`https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`, …) |
 * | `WAVE_API_KEY` | provider key; required for OpenAI's and Anthropic's own endpoints |
 * | `WAVE_API_KEY_HEADER` | `authorization` (default) or `api-key` (Azure OpenAI) |
 * | `WAVE_API_VERSION` | adds `?api-version=` (Azure OpenAI) |
 * | `WAVE_MODEL` | model name (default `gpt-4o-mini` / `claude-3-5-haiku-latest`) |
 * | `WAVE_VOICE_MODEL` | realtime model for voice sessions (OpenAI only), e.g. `gpt-realtime`; off when unset |
 * | `WAVE_SITES` | JSON array of SiteConfig, or a path to a JSON file holding one |
 * | `WAVE_ALLOWED_ORIGINS` | comma-separated origins added to every site |
 * | `WAVE_OFFLINE_DELAY_MS` | the offline model's pause between streamed words (default 12) |
 * | `WAVE_STREAM_USAGE` | `0`: do not ask an OpenAI-compatible server for token counts (`stream_options`), for old servers that refuse it |
 * | `WAVE_TRUST_PROXY` | proxies in front that append to `X-Forwarded-For` (default 0: the header is ignored) |
 * | `WAVE_REDIS_URL` | `redis://…`: rate limits shared by every instance using this Redis (default: in memory) |
 * | `WAVE_RATE_LIMIT` | requests a minute per client (default 60; 0 turns the limit off) |
 * | `WAVE_DRAIN_MS` | on SIGTERM, how long open streams may finish before they are ended (default 25000) |
 * | `PORT` | listening port (default 8787) |
 */
import { OfflineModel } from './offline-model.js';
import { AnthropicProvider } from './providers/anthropic.js';
import { OpenAICompatibleProvider } from './providers/openai.js';
import type { ModelProvider } from './providers/types.js';
import type { FetchLike } from './providers/upstream.js';
import type { RateLimitOptions, SiteConfig, VoiceBroker } from './types.js';
import { createRealtimeBroker } from './voice-broker.js';

export const DEFAULT_PORT = 8787;
/** Default drain deadline: inside the 30 s a container orchestrator usually allows after SIGTERM. */
export const DEFAULT_DRAIN_MS = 25_000;

export const ProviderKind = {
  offline: 'offline',
  openai: 'openai',
  anthropic: 'anthropic',
} as const;
export type ProviderKind = (typeof ProviderKind)[keyof typeof ProviderKind];

/** A configuration mistake; `variable` names the environment variable to fix. Never quotes a key. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly variable: string;
  constructor(variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.variable = variable;
  }
}

export interface WaveConfig {
  port: number;
  providerKind: ProviderKind;
  provider: ModelProvider;
  sites: SiteConfig[];
  voiceBroker?: VoiceBroker;
  /** A line safe to print, e.g. `openai-compatible gpt-4o-mini at https://api.openai.com/v1`: never the key. */
  providerLabel: string;
  /** Trusted proxy hops for `X-Forwarded-For` (0: the header is ignored). */
  trustProxy: number;
  /** Shared rate-limit store; in memory when absent. */
  redisUrl?: string;
  /** Per-client limit, or false when WAVE_RATE_LIMIT=0. */
  rateLimit: RateLimitOptions | false;
  /** Drain deadline after SIGTERM, in ms. */
  drainMs: number;
}

export interface LoadConfigOptions {
  /** Reads a `WAVE_SITES` file (the Node entry passes `fs.readFileSync(path, 'utf8')`). */
  readFile?: (path: string) => string;
  /** Overrides PORT (e.g. the CLI's `--port`). */
  port?: number;
  /** Passed to the providers, for tests. */
  fetch?: FetchLike;
}

type Env = Record<string, string | undefined>;

const value = (env: Env, name: string): string | undefined => {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
};

/** The `demo` site every default install serves: the demo pages on this very server. */
export function defaultSites(port: number): SiteConfig[] {
  return [{ id: 'demo', allowedOrigins: [`http://localhost:${port}`, `http://127.0.0.1:${port}`] }];
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_PORT;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) throw new ConfigError('PORT', `expected a port number 0-65535, got "${raw}"`);
  return port;
}

function parseUrl(raw: string, variable: string): string {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
    return raw.replace(/\/+$/, '');
  } catch {
    throw new ConfigError(variable, `expected an http(s) URL, got "${raw}"`);
  }
}

function parseOrigin(raw: string, variable: string): string {
  if (raw === '*') return raw;
  try {
    const url = new URL(raw);
    if (url.origin === 'null' || url.origin !== raw.replace(/\/+$/, '')) throw new Error('not an origin');
    return url.origin;
  } catch {
    throw new ConfigError(variable, `"${raw}" is not an origin like https://shop.example (scheme, host, optional port; no path)`);
  }
}

function parseStringList(value: unknown, at: string, variable: string): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new ConfigError(variable, `${at} must be an array of strings`);
  }
  return value as string[];
}

/** Checks one site object from WAVE_SITES. */
export function parseSiteConfig(raw: unknown, at: string, variable = 'WAVE_SITES'): SiteConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError(variable, `${at} must be an object`);
  const o = raw as Record<string, unknown>;
  if (typeof o.id !== 'string' || !/^[A-Za-z0-9_.-]{1,128}$/.test(o.id)) {
    throw new ConfigError(variable, `${at}.id must be 1-128 letters, digits, '_', '.' or '-'`);
  }
  const site: SiteConfig = {
    id: o.id,
    allowedOrigins: parseStringList(o.allowedOrigins, `${at}.allowedOrigins`, variable).map((origin) => parseOrigin(origin, variable)),
  };
  if (o.allowNoOrigin !== undefined) {
    if (typeof o.allowNoOrigin !== 'boolean') throw new ConfigError(variable, `${at}.allowNoOrigin must be a boolean`);
    site.allowNoOrigin = o.allowNoOrigin;
  }
  for (const key of ['model', 'instructions'] as const) {
    if (o[key] === undefined) continue;
    if (typeof o[key] !== 'string') throw new ConfigError(variable, `${at}.${key} must be a string`);
    site[key] = o[key] as string;
  }
  if (o.allowedTools !== undefined) site.allowedTools = parseStringList(o.allowedTools, `${at}.allowedTools`, variable);
  if (o.maxResultChars !== undefined) {
    if (typeof o.maxResultChars !== 'number' || !Number.isInteger(o.maxResultChars) || o.maxResultChars < 1) {
      throw new ConfigError(variable, `${at}.maxResultChars must be a positive integer`);
    }
    site.maxResultChars = o.maxResultChars;
  }
  return site;
}

function parseSites(raw: string, options: LoadConfigOptions): SiteConfig[] {
  let text = raw;
  if (!raw.startsWith('[')) {
    if (!options.readFile) throw new ConfigError('WAVE_SITES', 'expected a JSON array (file paths are read only by the Node server)');
    try {
      text = options.readFile(raw);
    } catch {
      throw new ConfigError('WAVE_SITES', `cannot read the file "${raw}"`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigError('WAVE_SITES', 'is not valid JSON');
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw new ConfigError('WAVE_SITES', 'must be a non-empty JSON array of sites');
  const sites = parsed.map((site, i) => parseSiteConfig(site, `[${i}]`));
  const ids = new Set<string>();
  for (const site of sites) {
    if (ids.has(site.id)) throw new ConfigError('WAVE_SITES', `the site id "${site.id}" appears twice`);
    ids.add(site.id);
  }
  return sites;
}

function parseWhole(env: Env, variable: string, fallback: number, max: number, what: string): number {
  const raw = value(env, variable);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n > max) throw new ConfigError(variable, `expected ${what} (a whole number 0-${max}), got "${raw}"`);
  return n;
}

function parseRedisUrl(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('WAVE_REDIS_URL', 'expected a URL like redis://host:6379 or rediss://host:6380');
  }
  // Never echo the URL: it may hold a password.
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new ConfigError('WAVE_REDIS_URL', 'expected a redis:// or rediss:// URL');
  return raw;
}

/** The settings every provider shares: client identity, shared limits, drain. */
function operations(env: Env): Pick<WaveConfig, 'trustProxy' | 'redisUrl' | 'rateLimit' | 'drainMs'> {
  const trustProxy = parseWhole(env, 'WAVE_TRUST_PROXY', 0, 32, 'the number of trusted proxy hops');
  const perMinute = parseWhole(env, 'WAVE_RATE_LIMIT', 60, 1_000_000, 'requests a minute per client');
  const drainMs = parseWhole(env, 'WAVE_DRAIN_MS', DEFAULT_DRAIN_MS, 600_000, 'milliseconds');
  const redisUrl = parseRedisUrl(value(env, 'WAVE_REDIS_URL'));
  return {
    trustProxy,
    rateLimit: perMinute === 0 ? false : { windowMs: 60_000, max: perMinute },
    drainMs,
    ...(redisUrl ? { redisUrl } : {}),
  };
}

/**
 * Reads the configuration; throws ConfigError naming the variable at fault.
 *
 * @example
 * const config = loadConfig(process.env, { readFile: (p) => readFileSync(p, 'utf8') });
 * const handler = createWaveHandler({ sites: config.sites, provider: config.provider });
 */
export function loadConfig(env: Env, options: LoadConfigOptions = {}): WaveConfig {
  const port = options.port ?? parsePort(value(env, 'PORT'));
  const kind = (value(env, 'WAVE_PROVIDER') ?? 'offline').toLowerCase();
  if (kind !== 'offline' && kind !== 'openai' && kind !== 'anthropic') {
    throw new ConfigError('WAVE_PROVIDER', `expected offline, openai or anthropic, got "${kind}"`);
  }
  const sitesRaw = value(env, 'WAVE_SITES');
  const sites = sitesRaw ? parseSites(sitesRaw, options) : defaultSites(port);
  const extra = (value(env, 'WAVE_ALLOWED_ORIGINS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((origin) => parseOrigin(origin, 'WAVE_ALLOWED_ORIGINS'));
  for (const site of sites) site.allowedOrigins = [...new Set([...site.allowedOrigins, ...extra])];

  const ops = operations(env);
  const apiKey = value(env, 'WAVE_API_KEY');
  const fetchOption = options.fetch ? { fetch: options.fetch } : {};
  if (kind === 'offline') {
    const delay = value(env, 'WAVE_OFFLINE_DELAY_MS');
    const delayMs = delay === undefined ? undefined : Number(delay);
    if (delayMs !== undefined && !(Number.isInteger(delayMs) && delayMs >= 0 && delayMs <= 10_000)) {
      throw new ConfigError('WAVE_OFFLINE_DELAY_MS', 'expected a whole number of milliseconds between 0 and 10000');
    }
    const provider = new OfflineModel(delayMs === undefined ? {} : { delayMs });
    return { port, providerKind: kind, provider, sites, providerLabel: 'offline demo model (no key, no network)', ...ops };
  }
  if (kind === 'openai') {
    const baseUrl = parseUrl(value(env, 'WAVE_BASE_URL') ?? 'https://api.openai.com/v1', 'WAVE_BASE_URL');
    const host = new URL(baseUrl).hostname;
    if (!apiKey && (host === 'api.openai.com' || host.endsWith('.openai.azure.com'))) {
      throw new ConfigError('WAVE_API_KEY', `is required for ${host}`);
    }
    const header = value(env, 'WAVE_API_KEY_HEADER') ?? 'authorization';
    if (header !== 'authorization' && header !== 'api-key') {
      throw new ConfigError('WAVE_API_KEY_HEADER', `expected authorization or api-key, got "${header}"`);
    }
    const apiVersion = value(env, 'WAVE_API_VERSION');
    const model = value(env, 'WAVE_MODEL') ?? 'gpt-4o-mini';
    const streamUsage = value(env, 'WAVE_STREAM_USAGE');
    if (streamUsage !== undefined && streamUsage !== '0' && streamUsage !== '1') {
      throw new ConfigError('WAVE_STREAM_USAGE', `expected 0 or 1, got "${streamUsage}"`);
    }
    const provider = new OpenAICompatibleProvider({
      streamUsage: streamUsage !== '0',
      baseUrl,
      model,
      apiKeyHeader: header,
      ...(apiKey ? { apiKey } : {}),
      ...(apiVersion ? { query: { 'api-version': apiVersion } } : {}),
      ...fetchOption,
    });
    const voiceModel = value(env, 'WAVE_VOICE_MODEL');
    const config: WaveConfig = {
      port,
      providerKind: kind,
      provider,
      sites,
      providerLabel: `openai-compatible ${model} at ${baseUrl}${voiceModel ? `, voice ${voiceModel}` : ''}`,
      ...ops,
    };
    if (voiceModel) {
      if (!apiKey) throw new ConfigError('WAVE_API_KEY', 'is required for voice sessions (WAVE_VOICE_MODEL)');
      // The broker only ever calls fetch(url, init) with a string URL, so a FetchLike serves.
      const brokerFetch = options.fetch ? { fetch: options.fetch as unknown as typeof fetch } : {};
      config.voiceBroker = createRealtimeBroker({ baseUrl, apiKey, model: voiceModel, ...brokerFetch });
    }
    return config;
  }
  if (!apiKey) throw new ConfigError('WAVE_API_KEY', 'is required for the anthropic provider');
  const baseUrl = parseUrl(value(env, 'WAVE_BASE_URL') ?? 'https://api.anthropic.com', 'WAVE_BASE_URL');
  const model = value(env, 'WAVE_MODEL') ?? 'claude-3-5-haiku-latest';
  return {
    port,
    providerKind: kind,
    provider: new AnthropicProvider({ baseUrl, apiKey, model, ...fetchOption }),
    sites,
    providerLabel: `anthropic ${model} at ${baseUrl}`,
    ...ops,
  };
}
