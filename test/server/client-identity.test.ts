import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { clientAddress, normalizeIp, rateLimitKey, setClientAddress } from '../../src/server/client-identity.js';
import { createWaveHandler } from '../../src/server/handler.js';
import { startServer, type RunningServer } from '../../src/server/node.js';
import { captureLogger, ORIGIN, ScriptedProvider, waveBody } from './helpers.js';

const xff = (value: string) => new Headers({ 'x-forwarded-for': value });

describe('client identity: the runtime peer, X-Forwarded-For only through trusted hops', () => {
  it('with no trusted proxy (the default) the header is ignored, whatever it says', () => {
    assert.equal(clientAddress('10.1.2.3', xff('203.0.113.7'), 0), '10.1.2.3');
    assert.equal(clientAddress('10.1.2.3', new Headers(), 0), '10.1.2.3');
    assert.equal(clientAddress('::ffff:10.1.2.3', xff('1.1.1.1, 2.2.2.2'), 0), '10.1.2.3');
  });

  it('with N trusted hops it takes the Nth address from the right', () => {
    // One load balancer appends what it saw; the client wrote the rest.
    assert.equal(clientAddress('10.0.0.1', xff('6.6.6.6, 203.0.113.7'), 1), '203.0.113.7');
    // CDN → load balancer: two appended entries, the client is the second from the right.
    assert.equal(clientAddress('10.0.0.1', xff('6.6.6.6, 198.51.100.4, 10.0.0.9'), 2), '198.51.100.4');
    // Separate headers are one list, joined in order.
    const split = new Headers();
    split.append('x-forwarded-for', '6.6.6.6');
    split.append('x-forwarded-for', '203.0.113.8');
    assert.equal(clientAddress('10.0.0.1', split, 1), '203.0.113.8');
  });

  it('a header shorter than the trusted hops, or an entry that is not an address, falls back to the peer', () => {
    assert.equal(clientAddress('10.0.0.1', xff('203.0.113.7'), 2), '10.0.0.1');
    assert.equal(clientAddress('10.0.0.1', xff('6.6.6.6, unknown'), 1), '10.0.0.1');
    assert.equal(clientAddress('10.0.0.1', xff('6.6.6.6, 999.1.1.1'), 1), '10.0.0.1');
    assert.equal(clientAddress('10.0.0.1', xff(''), 1), '10.0.0.1');
    assert.equal(clientAddress(undefined, xff('203.0.113.7'), 0), undefined);
  });

  it('no client-written prefix can choose the key when hops are trusted', () => {
    const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.'));
    fc.assert(
      fc.property(fc.array(fc.oneof(ipv4, fc.string()), { maxLength: 6 }), fc.array(ipv4, { minLength: 1, maxLength: 3 }), (spoofed, appended) => {
        const header = [...spoofed, ...appended].join(', ');
        const key = clientAddress('10.9.9.9', xff(header), appended.length);
        assert.equal(key, normalizeIp(appended[0]!));
      }),
    );
  });

  it('normalises addresses and keys IPv6 clients by their /64', () => {
    assert.equal(normalizeIp('[2001:db8::1]:443'), '2001:db8:0:0:0:0:0:1');
    assert.equal(normalizeIp('203.0.113.7:8080'), '203.0.113.7');
    assert.equal(normalizeIp('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(normalizeIp('fe80::1%eth0'), 'fe80:0:0:0:0:0:0:1');
    assert.equal(normalizeIp('not an ip'), undefined);
    assert.equal(normalizeIp('1:2:3:4:5:6:7:8:9'), undefined);
    assert.equal(rateLimitKey('2001:db8:1:2:aaaa::1'), rateLimitKey('2001:db8:1:2:bbbb::2'));
    assert.notEqual(rateLimitKey('2001:db8:1:2::1'), rateLimitKey('2001:db8:1:3::1'));
    assert.equal(rateLimitKey('203.0.113.7'), '203.0.113.7');
  });
});

describe('rate limits by client identity', () => {
  const endStop = [{ type: 'text' as const, delta: 'ok' }, { type: 'end' as const, reason: 'stop' as const }];

  it('a request no runtime identified is refused on its own (403 client_unidentified), never pooled', async () => {
    const logger = captureLogger();
    const handler = createWaveHandler({
      sites: [{ id: 'shop', allowedOrigins: [ORIGIN] }],
      provider: new ScriptedProvider([endStop, endStop]),
      rateLimit: { windowMs: 60_000, max: 100 },
      logger,
    });
    const request = () =>
      new Request('http://localhost/wave', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-forwarded-for': '203.0.113.7', 'cf-connecting-ip': '203.0.113.7' },
        body: JSON.stringify(waveBody()),
      });
    for (let i = 0; i < 2; i++) {
      const res = await handler(request());
      assert.equal(res.status, 403);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'client_unidentified');
    }
    // The same request with an address the runtime attached goes through.
    const identified = request();
    setClientAddress(identified, '198.51.100.1');
    const ok = await handler(identified);
    assert.equal(ok.status, 200);
    await ok.text();
    assert.ok(logger.lines.some((l) => l.includes('"outcome":"client_unidentified"')));
  });

  async function node(env: Record<string, string>): Promise<RunningServer> {
    return startServer({
      port: 0,
      env,
      overrides: { logger: captureLogger(), provider: new ScriptedProvider(Array.from({ length: 20 }, () => endStop)), rateLimit: { windowMs: 60_000, max: 2 } },
    });
  }
  const send = async (server: RunningServer, forwardedFor?: string) => {
    const res = await fetch(new URL('/wave', server.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: server.url.replace(/\/$/, ''),
        ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
      },
      body: JSON.stringify({ ...waveBody(), siteId: 'demo' }),
    });
    await res.text();
    return res.status;
  };

  it('Node, WAVE_TRUST_PROXY unset: a client cannot escape its limit by inventing X-Forwarded-For', async () => {
    const server = await node({});
    try {
      assert.deepEqual([await send(server, '1.1.1.1'), await send(server, '2.2.2.2'), await send(server, '3.3.3.3'), await send(server)], [200, 200, 429, 429]);
    } finally {
      await server.close();
    }
  });

  it('Node, WAVE_TRUST_PROXY=1: clients behind the proxy are told apart by the entry the proxy appended', async () => {
    const server = await node({ WAVE_TRUST_PROXY: '1' });
    try {
      assert.equal(await send(server, '203.0.113.1'), 200);
      assert.equal(await send(server, '9.9.9.9, 203.0.113.1'), 200);
      // A spoofed left part does not make a new client.
      assert.equal(await send(server, '8.8.8.8, 203.0.113.1'), 429);
      // Another client behind the same proxy has its own allowance.
      assert.equal(await send(server, '203.0.113.2'), 200);
      // No header through the trusted proxy: the peer (the proxy) is the client.
      assert.equal(await send(server), 200);
    } finally {
      await server.close();
    }
  });
});
