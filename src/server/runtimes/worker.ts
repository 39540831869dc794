/**
 * The wave server on Cloudflare Workers (workerd). Configure with `[vars]` (the same names as the
 * Node server's environment variables) and a secret WAVE_API_KEY. The client is
 * `CF-Connecting-IP`, which Cloudflare sets itself. Rate limits use the platform's binding
 * `WAVE_RATE_LIMITER` when present (`[[ratelimits]]` in wrangler.toml), else memory per isolate.
 */
import { setClientAddress } from '../client-identity.js';
import { WorkersRateLimitStore, type WorkersRateLimitBinding } from '../rate-limit.js';
import { handlerFromEnv } from './shared.js';

interface WorkerEnv {
  WAVE_RATE_LIMITER?: WorkersRateLimitBinding;
  [name: string]: unknown;
}

let cached: { env: WorkerEnv; handler: (request: Request) => Promise<Response> } | null = null;

export default {
  async fetch(request: Request, env: WorkerEnv): Promise<Response> {
    if (cached?.env !== env) {
      const vars = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
      const store = env.WAVE_RATE_LIMITER ? { rateLimitStore: new WorkersRateLimitStore(env.WAVE_RATE_LIMITER) } : {};
      cached = { env, handler: handlerFromEnv(vars, store).handler };
    }
    setClientAddress(request, request.headers.get('cf-connecting-ip') ?? undefined);
    return cached.handler(request);
  },
};
