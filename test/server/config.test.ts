import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/server/config.js';
import { AnthropicProvider } from '../../src/server/providers/anthropic.js';
import { OpenAICompatibleProvider } from '../../src/server/providers/openai.js';
import { collect, fakeUpstream, oa, sseHead, stepInput } from './helpers.js';

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error;
  }
  assert.fail('expected a ConfigError');
}

describe('loadConfig', () => {
  it('defaults to the offline model, port 8787 and a demo site allowing this server on localhost', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8787);
    assert.equal(config.providerKind, 'offline');
    assert.equal(config.provider.offline, true);
    assert.equal(config.provider.model, 'offline demo model');
    assert.match(config.providerLabel, /offline demo model/);
    assert.deepEqual(config.sites, [{ id: 'demo', allowedOrigins: ['http://localhost:8787', 'http://127.0.0.1:8787'] }]);
  });

  it('sets the offline model\'s streaming pace from WAVE_OFFLINE_DELAY_MS and refuses a bad value by name', () => {
    assert.equal(loadConfig({ WAVE_OFFLINE_DELAY_MS: '0' }).provider.offline, true);
    for (const bad of ['-1', 'fast', '1.5', '20000']) {
      assert.equal(configError(() => loadConfig({ WAVE_OFFLINE_DELAY_MS: bad })).variable, 'WAVE_OFFLINE_DELAY_MS');
    }
  });

  it('follows PORT and adds WAVE_ALLOWED_ORIGINS to every site', () => {
    const config = loadConfig({ PORT: '9000', WAVE_ALLOWED_ORIGINS: 'https://a.example, https://b.example:8443' });
    assert.deepEqual(config.sites[0]!.allowedOrigins, [
      'http://localhost:9000',
      'http://127.0.0.1:9000',
      'https://a.example',
      'https://b.example:8443',
    ]);
  });

  it('reads WAVE_SITES as inline JSON or as a file through the injected reader', () => {
    const sites = [{ id: 'shop', allowedOrigins: ['https://shop.example'], allowedTools: ['add_item'], model: 'gpt-x', maxResultChars: 500 }];
    assert.deepEqual(loadConfig({ WAVE_SITES: JSON.stringify(sites) }).sites, sites);
    const read: string[] = [];
    const fromFile = loadConfig({ WAVE_SITES: '/etc/wave/sites.json' }, { readFile: (p) => (read.push(p), JSON.stringify(sites)) });
    assert.deepEqual(fromFile.sites, sites);
    assert.deepEqual(read, ['/etc/wave/sites.json']);
  });

  it('builds an OpenAI-compatible provider that talks to WAVE_BASE_URL with WAVE_API_KEY', async () => {
    const up = await fakeUpstream((res) => {
      sseHead(res);
      res.end(oa.text('hi') + oa.finish('stop') + oa.done);
    });
    try {
      const config = loadConfig({ WAVE_PROVIDER: 'openai', WAVE_BASE_URL: `${up.url}/v1`, WAVE_API_KEY: 'sk-1', WAVE_MODEL: 'llama3' });
      assert.ok(config.provider instanceof OpenAICompatibleProvider);
      assert.equal(config.provider.model, 'llama3');
      assert.ok(!config.providerLabel.includes('sk-1'));
      const { events } = await collect(config.provider.step(stepInput({ model: 'llama3' }), new AbortController().signal));
      assert.deepEqual(events.at(-1), { type: 'end', reason: 'stop' });
      assert.equal(up.requests[0]!.headers.authorization, 'Bearer sk-1');
    } finally {
      await up.close();
    }
  });

  it('lets a local OpenAI-compatible server (Ollama) run without a key, and wires a voice broker only on request', () => {
    const local = loadConfig({ WAVE_PROVIDER: 'openai', WAVE_BASE_URL: 'http://127.0.0.1:11434/v1', WAVE_MODEL: 'qwen2.5' });
    assert.equal(local.voiceBroker, undefined);
    const voice = loadConfig({ WAVE_PROVIDER: 'openai', WAVE_API_KEY: 'sk-1', WAVE_VOICE_MODEL: 'gpt-realtime' });
    assert.equal(typeof voice.voiceBroker?.createSession, 'function');
  });

  it('builds an Anthropic provider', () => {
    const config = loadConfig({ WAVE_PROVIDER: 'anthropic', WAVE_API_KEY: 'sk-ant' });
    assert.ok(config.provider instanceof AnthropicProvider);
    assert.equal(config.providerKind, 'anthropic');
  });

  it('names the variable at fault and never quotes the key', () => {
    const key = 'sk-DO-NOT-PRINT';
    const cases: [Record<string, string>, string][] = [
      [{ WAVE_PROVIDER: 'gemini' }, 'WAVE_PROVIDER'],
      [{ WAVE_PROVIDER: 'openai' }, 'WAVE_API_KEY'],
      [{ WAVE_PROVIDER: 'anthropic' }, 'WAVE_API_KEY'],
      [{ WAVE_PROVIDER: 'openai', WAVE_API_KEY: key, WAVE_BASE_URL: 'ftp://x' }, 'WAVE_BASE_URL'],
      [{ WAVE_PROVIDER: 'openai', WAVE_API_KEY: key, WAVE_API_KEY_HEADER: 'x-key' }, 'WAVE_API_KEY_HEADER'],
      [{ PORT: 'eighty' }, 'PORT'],
      [{ PORT: '70000' }, 'PORT'],
      [{ WAVE_SITES: '[{"id":"a"}]' }, 'WAVE_SITES'],
      [{ WAVE_SITES: '[{"id":"a","allowedOrigins":["https://a.example/path"]}]' }, 'WAVE_SITES'],
      [{ WAVE_SITES: '[' }, 'WAVE_SITES'],
      [{ WAVE_SITES: 'sites.json' }, 'WAVE_SITES'],
      [{ WAVE_ALLOWED_ORIGINS: 'shop.example' }, 'WAVE_ALLOWED_ORIGINS'],
    ];
    for (const [env, variable] of cases) {
      const error = configError(() => loadConfig(env));
      assert.equal(error.variable, variable, JSON.stringify(env));
      assert.ok(error.message.startsWith(`${variable}: `));
      assert.ok(!error.message.includes(key));
    }
  });
});

describe('loadConfig: operations settings', () => {
  it('defaults: header ignored (0 trusted hops), in-memory limit of 60 a minute, 25 s drain', () => {
    const config = loadConfig({});
    assert.equal(config.trustProxy, 0);
    assert.deepEqual(config.rateLimit, { windowMs: 60_000, max: 60 });
    assert.equal(config.drainMs, 25_000);
    assert.equal(config.redisUrl, undefined);
  });

  it('reads WAVE_TRUST_PROXY, WAVE_RATE_LIMIT (0: off), WAVE_DRAIN_MS and WAVE_REDIS_URL', () => {
    const config = loadConfig({ WAVE_TRUST_PROXY: '2', WAVE_RATE_LIMIT: '0', WAVE_DRAIN_MS: '5000', WAVE_REDIS_URL: 'rediss://:pw@cache.internal:6380' });
    assert.equal(config.trustProxy, 2);
    assert.equal(config.rateLimit, false);
    assert.equal(config.drainMs, 5000);
    assert.equal(config.redisUrl, 'rediss://:pw@cache.internal:6380');
    assert.deepEqual(loadConfig({ WAVE_RATE_LIMIT: '120' }).rateLimit, { windowMs: 60_000, max: 120 });
  });

  it('WAVE_STREAM_USAGE=0 stops asking an OpenAI-compatible server for token counts', async () => {
    const up = await fakeUpstream((res) => {
      sseHead(res);
      res.end(oa.text('hi') + oa.finish('stop') + oa.done);
    });
    try {
      for (const [flag, expected] of [[undefined, { include_usage: true }], ['0', undefined]] as const) {
        const config = loadConfig({ WAVE_PROVIDER: 'openai', WAVE_BASE_URL: up.url, ...(flag ? { WAVE_STREAM_USAGE: flag } : {}) });
        await collect(config.provider.step(stepInput(), new AbortController().signal));
        assert.deepEqual(up.requests.at(-1)!.body.stream_options, expected);
      }
      assert.equal(configError(() => loadConfig({ WAVE_PROVIDER: 'openai', WAVE_BASE_URL: up.url, WAVE_STREAM_USAGE: 'off' })).variable, 'WAVE_STREAM_USAGE');
    } finally {
      await up.close();
    }
  });

  it('refuses bad values, naming the variable and never echoing a Redis password', () => {
    const cases: [Record<string, string>, string][] = [
      [{ WAVE_TRUST_PROXY: 'true' }, 'WAVE_TRUST_PROXY'],
      [{ WAVE_TRUST_PROXY: '-1' }, 'WAVE_TRUST_PROXY'],
      [{ WAVE_TRUST_PROXY: '99' }, 'WAVE_TRUST_PROXY'],
      [{ WAVE_RATE_LIMIT: 'lots' }, 'WAVE_RATE_LIMIT'],
      [{ WAVE_DRAIN_MS: '1.5' }, 'WAVE_DRAIN_MS'],
      [{ WAVE_REDIS_URL: 'http://:hunter2@cache:6379' }, 'WAVE_REDIS_URL'],
      [{ WAVE_REDIS_URL: 'cache:hunter2' }, 'WAVE_REDIS_URL'],
    ];
    for (const [env, variable] of cases) {
      const error = configError(() => loadConfig(env));
      assert.equal(error.variable, variable, JSON.stringify(env));
      assert.ok(!error.message.includes('hunter2'));
    }
  });
});
