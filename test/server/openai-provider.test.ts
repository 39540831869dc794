import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OpenAICompatibleProvider, toChatMessages } from '../../src/server/providers/openai.js';
import { ProviderError } from '../../src/server/providers/types.js';
import { collect, fakeUpstream, oa, sseHead, stepInput, tool, writeSplit } from './helpers.js';

const KEY = 'sk-test-SECRET-0123456789';

function provider(baseUrl: string, extra: Partial<ConstructorParameters<typeof OpenAICompatibleProvider>[0]> = {}) {
  return new OpenAICompatibleProvider({ baseUrl: `${baseUrl}/v1`, apiKey: KEY, model: 'gpt-test', timeoutMs: 2000, ...extra });
}

describe('OpenAICompatibleProvider', () => {
  it('streams text deltas and ends with stop, sending the chat request it should', async () => {
    const up = await fakeUpstream(async (res) => {
      sseHead(res);
      await writeSplit(res, oa.text('Hel') + oa.text('lo') + oa.finish('stop') + oa.done);
      res.end();
    });
    try {
      const { events, error } = await collect(
        provider(up.url).step(stepInput({ tools: [tool('add_item')], model: 'site-model' }), new AbortController().signal),
      );
      assert.equal(error, undefined);
      assert.deepEqual(events, [
        { type: 'text', delta: 'Hel' },
        { type: 'text', delta: 'lo' },
        { type: 'end', reason: 'stop' },
      ]);
      const request = up.requests[0]!;
      assert.equal(request.url, '/v1/chat/completions');
      assert.equal(request.headers.authorization, `Bearer ${KEY}`);
      assert.equal(request.body.stream, true);
      assert.equal(request.body.model, 'site-model');
      assert.deepEqual((request.body.messages as unknown[])[0], { role: 'system', content: 'SYSTEM' });
      assert.deepEqual(request.body.tools, [
        { type: 'function', function: { name: 'add_item', description: 'Does add_item.', parameters: tool('add_item').parameters } },
      ]);
    } finally {
      await up.close();
    }
  });

  it('accumulates tool-call arguments split across many chunks, mid-UTF-8 and mid-line', async () => {
    const args = JSON.stringify({ id: 'scène-42', note: 'café ☕ 😀' });
    const pieces = args.match(/.{1,3}/gsu)!;
    const stream =
      oa.toolStart(0, 'call_a', 'add_item') + pieces.map((p) => oa.toolArgs(0, p)).join('') + oa.finish('tool_calls') + oa.done;
    const up = await fakeUpstream(async (res) => {
      sseHead(res);
      // Odd sizes cut lines and multi-byte characters (é, ☕, 😀) at many places.
      await writeSplit(res, stream, [1, 2, 3, 5, 11]);
      res.end();
    });
    try {
      const { events, error } = await collect(provider(up.url).step(stepInput(), new AbortController().signal));
      assert.equal(error, undefined);
      assert.deepEqual(events, [
        { type: 'tool_call', id: 'call_a', name: 'add_item', arguments: args },
        { type: 'end', reason: 'tool_calls' },
      ]);
    } finally {
      await up.close();
    }
  });

  it('keeps several tool calls of one step apart by index, interleaved', async () => {
    const up = await fakeUpstream(async (res) => {
      sseHead(res);
      await writeSplit(
        res,
        oa.toolStart(0, 'call_1', 'add_item') +
          oa.toolStart(1, 'call_2', 'remove_item') +
          oa.toolArgs(0, '{"id":') +
          oa.toolArgs(1, '{"id":"b"}') +
          oa.toolArgs(0, '"a"}') +
          oa.finish('tool_calls') +
          oa.done,
        [64],
      );
      res.end();
    });
    try {
      const { events } = await collect(provider(up.url).step(stepInput(), new AbortController().signal));
      assert.deepEqual(events, [
        { type: 'tool_call', id: 'call_1', name: 'add_item', arguments: '{"id":"a"}' },
        { type: 'tool_call', id: 'call_2', name: 'remove_item', arguments: '{"id":"b"}' },
        { type: 'end', reason: 'tool_calls' },
      ]);
    } finally {
      await up.close();
    }
  });

  it('maps assistant tool calls and tool results to the chat format', () => {
    const messages = toChatMessages('S', [
      { role: 'user', content: 'add a' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'add_item', arguments: { id: 'a' } }] },
      { role: 'tool', toolCallId: 'c1', name: 'add_item', content: '{"success":true}' },
    ]);
    assert.deepEqual(messages, [
      { role: 'system', content: 'S' },
      { role: 'user', content: 'add a' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add_item', arguments: '{"id":"a"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '{"success":true}' },
    ]);
  });

  it('uses the api-key header and api-version query for Azure', async () => {
    const up = await fakeUpstream(async (res) => {
      sseHead(res);
      res.end(oa.text('ok') + oa.finish('stop') + oa.done);
    });
    try {
      await collect(
        new OpenAICompatibleProvider({
          baseUrl: `${up.url}/openai/deployments/dep`,
          apiKey: KEY,
          apiKeyHeader: 'api-key',
          query: { 'api-version': '2024-10-21' },
          model: 'gpt-test',
        }).step(stepInput(), new AbortController().signal),
      );
      assert.equal(up.requests[0]!.url, '/openai/deployments/dep/chat/completions?api-version=2024-10-21');
      assert.equal(up.requests[0]!.headers['api-key'], KEY);
      assert.equal(up.requests[0]!.headers.authorization, undefined);
    } finally {
      await up.close();
    }
  });

  for (const [status, code, retryable] of [
    [401, 'provider_auth', false],
    [403, 'provider_auth', false],
    [429, 'provider_rate_limited', true],
    [500, 'provider_unavailable', true],
    [400, 'provider_rejected', false],
  ] as const) {
    it(`turns upstream HTTP ${status} into ${code} (retryable ${retryable}) without upstream text`, async () => {
      const up = await fakeUpstream((res) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}` } }));
      });
      try {
        const { events, error } = await collect(provider(up.url).step(stepInput(), new AbortController().signal));
        assert.deepEqual(events, []);
        assert.ok(error instanceof ProviderError);
        assert.equal(error.code, code);
        assert.equal(error.retryable, retryable);
        assert.equal(error.status, status);
        assert.ok(!error.message.includes(KEY));
      } finally {
        await up.close();
      }
    });
  }

  it('times out when the upstream never answers, and hangs up on it', async () => {
    const up = await fakeUpstream(() => undefined);
    try {
      const { error } = await collect(provider(up.url, { timeoutMs: 100 }).step(stepInput(), new AbortController().signal));
      assert.ok(error instanceof ProviderError);
      assert.equal(error.code, 'provider_timeout');
      assert.equal(error.retryable, true);
      await up.closed;
    } finally {
      await up.close();
    }
  });

  it('times out when the stream stalls between chunks', async () => {
    const up = await fakeUpstream((res) => {
      sseHead(res);
      res.write(oa.text('partial'));
    });
    try {
      const { events, error } = await collect(provider(up.url, { timeoutMs: 100 }).step(stepInput(), new AbortController().signal));
      assert.deepEqual(events, [{ type: 'text', delta: 'partial' }]);
      assert.equal((error as ProviderError).code, 'provider_timeout');
    } finally {
      await up.close();
    }
  });

  it('reports a data line that is not JSON as provider_bad_stream', async () => {
    const up = await fakeUpstream((res) => {
      sseHead(res);
      res.end(oa.text('a') + 'data: {"choices": [\n\n' + oa.done);
    });
    try {
      const { events, error } = await collect(provider(up.url).step(stepInput(), new AbortController().signal));
      assert.deepEqual(events, [{ type: 'text', delta: 'a' }]);
      assert.equal((error as ProviderError).code, 'provider_bad_stream');
    } finally {
      await up.close();
    }
  });

  it('reports a stream truncated before finish_reason and [DONE] as provider_bad_stream', async () => {
    const up = await fakeUpstream((res) => {
      sseHead(res);
      res.end(oa.toolStart(0, 'c', 'add_item', '{"id":'));
    });
    try {
      const { events, error } = await collect(provider(up.url).step(stepInput(), new AbortController().signal));
      assert.deepEqual(events, []);
      assert.equal((error as ProviderError).code, 'provider_bad_stream');
    } finally {
      await up.close();
    }
  });

  it('reports a refused connection as provider_unreachable', async () => {
    const up = await fakeUpstream(() => undefined);
    const url = up.url;
    await up.close();
    const { error } = await collect(provider(url).step(stepInput(), new AbortController().signal));
    assert.equal((error as ProviderError).code, 'provider_unreachable');
  });

  it('aborting the step closes the upstream request and rethrows the abort', async () => {
    const up = await fakeUpstream((res) => {
      sseHead(res);
      res.write(oa.text('streaming…'));
    });
    try {
      const controller = new AbortController();
      const iterator = provider(up.url).step(stepInput(), controller.signal)[Symbol.asyncIterator]();
      assert.deepEqual((await iterator.next()).value, { type: 'text', delta: 'streaming…' });
      const reason = new Error('visitor stopped');
      const pending = iterator.next();
      controller.abort(reason);
      await assert.rejects(pending, (e) => e === reason);
      await up.closed;
    } finally {
      await up.close();
    }
  });
});
