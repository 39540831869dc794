import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AnthropicProvider, toAnthropicMessages } from '../../src/server/providers/anthropic.js';
import { ProviderError } from '../../src/server/providers/types.js';
import { an, collect, fakeUpstream, sseHead, stepInput, tool, writeSplit } from './helpers.js';

const KEY = 'sk-ant-SECRET-abcdef';

function provider(baseUrl: string, timeoutMs = 2000) {
  return new AnthropicProvider({ baseUrl, apiKey: KEY, model: 'claude-test', timeoutMs });
}

describe('AnthropicProvider', () => {
  it('streams text and sends system, tools and headers the Messages API expects', async () => {
    const up = await fakeUpstream(async (res) => {
      sseHead(res);
      await writeSplit(res, an.start() + an.textBlock(0) + an.text(0, 'Bon') + an.text(0, 'jour') + an.stop(0) + an.delta('end_turn') + an.end(), [13]);
      res.end();
    });
    try {
      const { events, error } = await collect(provider(up.url).step(stepInput({ tools: [tool('add_item')] }), new AbortController().signal));
      assert.equal(error, undefined);
      assert.deepEqual(events, [
        { type: 'text', delta: 'Bon' },
        { type: 'text', delta: 'jour' },
        { type: 'end', reason: 'stop' },
      ]);
      const request = up.requests[0]!;
      assert.equal(request.url, '/v1/messages');
      assert.equal(request.headers['x-api-key'], KEY);
      assert.equal(request.headers['anthropic-version'], '2023-06-01');
      assert.equal(request.body.system, 'SYSTEM');
      assert.equal(request.body.stream, true);
      assert.deepEqual(request.body.tools, [{ name: 'add_item', description: 'Does add_item.', input_schema: tool('add_item').parameters }]);
    } finally {
      await up.close();
    }
  });

  it('assembles tool_use input from partial_json split across chunks, mid-UTF-8, for several tools', async () => {
    const first = JSON.stringify({ id: 'ünïcode 😀 — ok' });
    const parts = first.match(/.{1,2}/gsu)!;
    const up = await fakeUpstream(async (res) => {
      sseHead(res);
      await writeSplit(
        res,
        an.start() +
          an.textBlock(0) +
          an.text(0, 'Doing it.') +
          an.stop(0) +
          an.toolBlock(1, 'toolu_1', 'add_item') +
          parts.map((p) => an.json(1, p)).join('') +
          an.stop(1) +
          an.toolBlock(2, 'toolu_2', 'clear_all') +
          an.stop(2) +
          an.delta('tool_use') +
          an.end(),
        [1, 3, 4, 9],
      );
      res.end();
    });
    try {
      const { events, error } = await collect(provider(up.url).step(stepInput(), new AbortController().signal));
      assert.equal(error, undefined);
      assert.deepEqual(events, [
        { type: 'text', delta: 'Doing it.' },
        { type: 'tool_call', id: 'toolu_1', name: 'add_item', arguments: first },
        { type: 'tool_call', id: 'toolu_2', name: 'clear_all', arguments: '{}' },
        { type: 'end', reason: 'tool_calls' },
      ]);
    } finally {
      await up.close();
    }
  });

  it('puts tool results in user turns as tool_result blocks and merges consecutive turns', () => {
    assert.deepEqual(
      toAnthropicMessages([
        { role: 'assistant', content: 'Hi! How can I help?' },
        { role: 'user', content: 'add a and b' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 't1', name: 'add_item', arguments: { id: 'a' } },
            { id: 't2', name: 'add_item', arguments: { id: 'b' } },
          ],
        },
        { role: 'tool', toolCallId: 't1', name: 'add_item', content: 'r1' },
        { role: 'tool', toolCallId: 't2', name: 'add_item', content: 'r2' },
        { role: 'user', content: 'thanks' },
      ]),
      [
        { role: 'user', content: [{ type: 'text', text: 'add a and b' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 't1', name: 'add_item', input: { id: 'a' } },
            { type: 'tool_use', id: 't2', name: 'add_item', input: { id: 'b' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: 'r1' },
            { type: 'tool_result', tool_use_id: 't2', content: 'r2' },
            { type: 'text', text: 'thanks' },
          ],
        },
      ],
    );
  });

  for (const [status, code, retryable] of [
    [401, 'provider_auth', false],
    [429, 'provider_rate_limited', true],
    [529, 'provider_unavailable', true],
    [500, 'provider_unavailable', true],
  ] as const) {
    it(`turns upstream HTTP ${status} into ${code}`, async () => {
      const up = await fakeUpstream((res) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: `bad key ${KEY}` } }));
      });
      try {
        const { error } = await collect(provider(up.url).step(stepInput(), new AbortController().signal));
        assert.ok(error instanceof ProviderError);
        assert.equal(error.code, code);
        assert.equal(error.retryable, retryable);
        assert.ok(!error.message.includes(KEY));
      } finally {
        await up.close();
      }
    });
  }

  it('turns an overloaded error event mid-stream into a retryable provider_unavailable', async () => {
    const up = await fakeUpstream((res) => {
      sseHead(res);
      res.end(an.start() + an.textBlock(0) + an.text(0, 'x') + an.event('error', { error: { type: 'overloaded_error', message: 'Overloaded' } }));
    });
    try {
      const { events, error } = await collect(provider(up.url).step(stepInput(), new AbortController().signal));
      assert.deepEqual(events, [{ type: 'text', delta: 'x' }]);
      assert.equal((error as ProviderError).code, 'provider_unavailable');
      assert.equal((error as ProviderError).retryable, true);
    } finally {
      await up.close();
    }
  });

  it('reports a stream truncated before message_stop as provider_bad_stream', async () => {
    const up = await fakeUpstream((res) => {
      sseHead(res);
      res.end(an.start() + an.toolBlock(0, 'toolu_1', 'add_item') + an.json(0, '{"id": "a'));
    });
    try {
      const { events, error } = await collect(provider(up.url).step(stepInput(), new AbortController().signal));
      assert.deepEqual(events, []);
      assert.equal((error as ProviderError).code, 'provider_bad_stream');
    } finally {
      await up.close();
    }
  });

  it('reports bad JSON as provider_bad_stream', async () => {
    const up = await fakeUpstream((res) => {
      sseHead(res);
      res.end('event: message_start\ndata: {not json}\n\n');
    });
    try {
      const { error } = await collect(provider(up.url).step(stepInput(), new AbortController().signal));
      assert.equal((error as ProviderError).code, 'provider_bad_stream');
    } finally {
      await up.close();
    }
  });

  it('times out when the upstream never answers', async () => {
    const up = await fakeUpstream(() => undefined);
    try {
      const { error } = await collect(provider(up.url, 100).step(stepInput(), new AbortController().signal));
      assert.equal((error as ProviderError).code, 'provider_timeout');
      await up.closed;
    } finally {
      await up.close();
    }
  });
});
