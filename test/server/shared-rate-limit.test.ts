import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createClient } from 'redis';
import { startServer, type RunningServer } from '../../src/server/node.js';
import { MemoryRateLimitStore, RedisRateLimitStore, WorkersRateLimitStore } from '../../src/server/rate-limit.js';
import { captureLogger } from './helpers.js';
import { startRedis, type RedisProcess } from './redis-server.js';

/** POSTs an unparsable body: an allowed request costs the server nothing more than a 400. */
function hit(server: RunningServer, agent: Agent): Promise<number> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path: '/wave', method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end('{');
  });
}

/** Sends `total` requests alternating between the servers, `concurrency` at a time; counts statuses. */
async function hammer(servers: RunningServer[], total: number, concurrency = 32): Promise<Map<number, number>> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const counts = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const status = await hit(servers[i % servers.length]!, agent);
      counts.set(status, (counts.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return counts;
}

describe('rate-limit stores', () => {
  let redis: RedisProcess;
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis.stop();
  });

  it('memory: a fixed window per key and per limit', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore(() => now);
    const limit = { windowMs: 10_000, max: 2 };
    assert.equal((await store.take('a', limit)).allowed, true);
    assert.equal((await store.take('a', limit)).allowed, true);
    now = 4_000;
    assert.deepEqual(await store.take('a', limit), { allowed: false, retryAfterSeconds: 6 });
    assert.equal((await store.take('b', limit)).allowed, true);
    now = 10_000;
    assert.equal((await store.take('a', limit)).allowed, true);
  });

  it('Redis: counts in Redis, refuses past the limit with the window left as Retry-After, per key', async () => {
    const client = await createClient({ url: redis.url }).connect();
    try {
      const store = new RedisRateLimitStore({ client, prefix: 'test:a:' });
      const limit = { windowMs: 30_000, max: 3 };
      const decisions = [];
      for (let i = 0; i < 4; i++) decisions.push(await store.take('203.0.113.7', limit));
      assert.deepEqual(decisions.map((d) => d.allowed), [true, true, true, false]);
      assert.equal(decisions[3]!.retryAfterSeconds, 30);
      assert.equal((await store.take('203.0.113.8', limit)).allowed, true);
      // Another store (another instance) on the same Redis sees the same count.
      const other = new RedisRateLimitStore({ client, prefix: 'test:a:' });
      assert.equal((await other.take('203.0.113.7', limit)).allowed, false);
      const ttl = await client.pTTL('test:a:30000:3:203.0.113.7');
      assert.ok(ttl > 0 && ttl <= 30_000, String(ttl));
    } finally {
      await client.close();
    }
  });

  it('Redis: the window ends when Redis expires it', async () => {
    const client = await createClient({ url: redis.url }).connect();
    try {
      const store = new RedisRateLimitStore({ client, prefix: 'test:b:' });
      const limit = { windowMs: 50, max: 1 };
      assert.equal((await store.take('k', limit)).allowed, true);
      assert.equal((await store.take('k', limit)).allowed, false);
      while ((await client.exists('test:b:50:1:k')) === 1) await new Promise((r) => setTimeout(r, 10));
      assert.equal((await store.take('k', limit)).allowed, true);
    } finally {
      await client.close();
    }
  });

  it('Workers binding: the platform decides; a refusal gets the window as Retry-After', async () => {
    const keys: string[] = [];
    let left = 1;
    const store = new WorkersRateLimitStore({ limit: async ({ key }) => (keys.push(key), { success: left-- > 0 }) });
    assert.deepEqual(await store.take('203.0.113.7', { windowMs: 60_000, max: 60 }), { allowed: true, retryAfterSeconds: 0 });
    assert.deepEqual(await store.take('203.0.113.7', { windowMs: 60_000, max: 60 }), { allowed: false, retryAfterSeconds: 60 });
    assert.deepEqual(keys, ['203.0.113.7', '203.0.113.7']);
  });

  it('two Node instances sharing one Redis (WAVE_REDIS_URL) hold one limit over 10,000 requests', { timeout: 120_000 }, async () => {
    const limit = { windowMs: 600_000, max: 5_000 };
    const start = () => startServer({ port: 0, env: { WAVE_REDIS_URL: redis.url }, overrides: { logger: captureLogger(), rateLimit: limit } });
    const servers = [await start(), await start()];
    try {
      const counts = await hammer(servers, 10_000);
      const allowed = counts.get(400) ?? 0;
      const refused = counts.get(429) ?? 0;
      assert.equal(allowed + refused, 10_000, JSON.stringify([...counts]));
      assert.ok(Math.abs(allowed - limit.max) <= limit.max * 0.01, `allowed ${allowed} of a limit of ${limit.max}`);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });

  it('without Redis each instance keeps its own count (the reason for the shared store)', async () => {
    const limit = { windowMs: 600_000, max: 50 };
    const start = () => startServer({ port: 0, env: {}, overrides: { logger: captureLogger(), rateLimit: limit } });
    const servers = [await start(), await start()];
    try {
      const counts = await hammer(servers, 200, 8);
      assert.equal(counts.get(400), 100);
      assert.equal(counts.get(429), 100);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });

  it('Redis down: requests are refused with 503 rate_limit_unavailable, never let through unlimited', async () => {
    const own = await startRedis();
    const logger = captureLogger();
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: unknown) => errors.push(String(line));
    const server = await startServer({ port: 0, env: { WAVE_REDIS_URL: own.url }, overrides: { logger } });
    try {
      const agent = new Agent({ keepAlive: false });
      assert.equal(await hit(server, agent), 400);
      await own.stop();
      const res = await fetch(new URL('/wave', server.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
      assert.equal(res.status, 503);
      assert.equal(res.headers.get('retry-after'), '5');
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'rate_limit_unavailable');
      assert.ok(logger.lines.some((l) => l.includes('"outcome":"rate_limit_unavailable"')));
    } finally {
      await server.close();
      console.error = original;
    }
    // The outage was reported once, without the URL.
    assert.ok(errors.some((l) => l.includes('redis unavailable')), errors.join('\n'));
    assert.ok(!errors.join('\n').includes(own.url));
  });

  it('a bad WAVE_REDIS_URL or an unreachable Redis stops the start with the variable named', async () => {
    await assert.rejects(startServer({ port: 0, env: { WAVE_REDIS_URL: 'http://x' } }), /WAVE_REDIS_URL/);
    const gone = await startRedis();
    await gone.stop();
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: unknown) => errors.push(String(line));
    try {
      await assert.rejects(startServer({ port: 0, env: { WAVE_REDIS_URL: gone.url } }), /WAVE_REDIS_URL: cannot connect/);
    } finally {
      console.error = original;
    }
  });
});
