import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AnthropicProvider } from '../../src/server/providers/anthropic.js';
import { OpenAICompatibleProvider } from '../../src/server/providers/openai.js';
import { an, fakeUpstream, oa, ORIGIN, parseWaveEvents, post, ScriptedProvider, sseHead, tool, waveBody, waveServer } from './helpers.js';

const KEY = 'sk-LOGTEST-7f3a9c2e';
const PAGE_MARKER = 'PAGE-STATE-MARKER-51d0';
const RESULT_MARKER = 'TOOL-RESULT-MARKER-88ab';
const USER_MARKER = 'USER-TEXT-MARKER-0c4e';
const DESCRIPTION_MARKER = 'DESCRIPTION-MARKER-e21f';

/** A two-step conversation carrying a marker in every page-supplied place. */
function markedBody() {
  return waveBody({
    messages: [
      { role: 'user', content: `find my order ${USER_MARKER}` },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'lookup', arguments: { id: USER_MARKER } }] },
      { role: 'tool', toolCallId: 'c1', name: 'lookup', content: JSON.stringify({ success: true, result: RESULT_MARKER }) },
    ],
    tools: [tool('lookup', { description: `Looks an order up. ${DESCRIPTION_MARKER}` })],
    context: `cart: ${PAGE_MARKER}`,
  });
}

function parsedLines(lines: string[]): Record<string, unknown>[] {
  return lines.map((line) => JSON.parse(line.slice(line.indexOf(' ') + 1)) as Record<string, unknown>);
}

describe('operations: structured logs', () => {
  it('one JSON line per request with request id, site, status, duration and the provider’s token counts; never a key, page state, tool result or body', async () => {
    const up = await fakeUpstream((res) => {
      sseHead(res);
      res.write(oa.text('Your order shipped.'));
      res.write(oa.finish('stop'));
      res.write(`data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 412, completion_tokens: 9, total_tokens: 421 } })}\n\n`);
      res.end(oa.done);
    });
    const s = await waveServer({ provider: new OpenAICompatibleProvider({ baseUrl: up.url, apiKey: KEY, model: 'gpt-test' }) });
    try {
      const res = await post(s.url, markedBody());
      const requestId = res.headers.get('x-request-id');
      assert.match(requestId ?? '', /^[0-9a-f-]{36}$/);
      assert.deepEqual(parseWaveEvents(await res.text()).at(-1), { type: 'end', reason: 'stop' });
      // The upstream was asked to report usage.
      assert.deepEqual(up.requests[0]!.body.stream_options, { include_usage: true });
      // A refused request is logged too, with its own id.
      const refused = await post(s.url, markedBody(), { origin: 'https://evil.example' });
      assert.equal(refused.status, 403);
      const [ok, denied] = parsedLines(s.logger.lines);
      assert.deepEqual({ ...ok, time: 'T', durationMs: 0 }, {
        time: 'T',
        level: 'info',
        msg: 'wave request',
        requestId,
        route: 'step',
        site: 'shop',
        status: 200,
        durationMs: 0,
        outcome: 'end:stop',
        inputTokens: 412,
        outputTokens: 9,
      });
      assert.equal(typeof ok!.durationMs, 'number');
      assert.ok(!Number.isNaN(Date.parse(ok!.time as string)));
      assert.equal(denied!.status, 403);
      assert.equal(denied!.requestId, refused.headers.get('x-request-id'));
      assert.notEqual(denied!.requestId, requestId);
      const all = s.logger.lines.join('\n');
      for (const secret of [KEY, PAGE_MARKER, RESULT_MARKER, USER_MARKER, DESCRIPTION_MARKER, 'Your order shipped']) {
        assert.ok(!all.includes(secret), `${secret} leaked into the log`);
      }
    } finally {
      await s.close();
      await up.close();
    }
  });

  it('Anthropic token counts (message_start input, message_delta output), summed over a repair round', async () => {
    let call = 0;
    const up = await fakeUpstream((res) => {
      call += 1;
      sseHead(res);
      res.write(an.event('message_start', { message: { id: 'm', role: 'assistant', content: [], usage: { input_tokens: 100 * call, output_tokens: 1 } } }));
      if (call === 1) {
        // A call to a tool that was not offered: the server runs one repair round.
        res.write(an.toolBlock(0, 'tu_1', 'not_offered') + an.json(0, '{}') + an.stop(0));
        res.write(an.event('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 5 } }));
      } else {
        res.write(an.textBlock(0) + an.text(0, 'Done.') + an.stop(0));
        res.write(an.event('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 7 } }));
      }
      res.end(an.end());
    });
    const s = await waveServer({ provider: new AnthropicProvider({ baseUrl: up.url, apiKey: KEY, model: 'claude-test' }) });
    try {
      await (await post(s.url, markedBody())).text();
      assert.equal(call, 2);
      const [line] = parsedLines(s.logger.lines);
      assert.equal(line!.inputTokens, 300);
      assert.equal(line!.outputTokens, 12);
      assert.ok(!s.logger.lines.join('\n').includes(KEY));
    } finally {
      await s.close();
      await up.close();
    }
  });

  it('no token fields when the provider reports none', async () => {
    const s = await waveServer({ provider: new ScriptedProvider([[{ type: 'text', delta: 'hi' }, { type: 'end', reason: 'stop' }]]) });
    try {
      await (await post(s.url, waveBody())).text();
      const [line] = parsedLines(s.logger.lines);
      assert.equal('inputTokens' in line!, false);
      assert.equal('outputTokens' in line!, false);
      assert.equal(line!.outcome, 'end:stop');
    } finally {
      await s.close();
    }
  });
});

describe('operations: GET {endpoint}/health', () => {
  it('200 {status:"ok"} without Origin, CORS, rate limit or a log line; 503 draining once the server drains', async () => {
    const draining = new AbortController();
    const s = await waveServer({
      provider: new ScriptedProvider([]),
      rateLimit: { windowMs: 60_000, max: 1 },
      clientKey: () => 'one-client',
      draining: draining.signal,
    });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${s.url}/wave/health`);
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('access-control-allow-origin'), null);
        assert.equal(res.headers.get('cache-control'), 'no-store');
        assert.deepEqual(await res.json(), { status: 'ok' });
      }
      assert.equal((await fetch(`${s.url}/wave/health`, { method: 'HEAD' })).status, 200);
      assert.equal(s.logger.lines.length, 0);
      draining.abort();
      const res = await fetch(`${s.url}/wave/health`);
      assert.equal(res.status, 503);
      assert.deepEqual(await res.json(), { status: 'draining' });
      // New work is refused while draining, with a reason the widget can retry on.
      const step = await post(s.url, waveBody());
      assert.equal(step.status, 503);
      assert.equal(((await step.json()) as { error: { code: string } }).error.code, 'shutting_down');
      assert.equal(step.headers.get('retry-after'), '1');
      assert.equal(step.headers.get('access-control-allow-origin'), ORIGIN);
    } finally {
      await s.close();
    }
  });

  it('other methods on /health are not a health check', async () => {
    const s = await waveServer({ provider: new ScriptedProvider([]) });
    try {
      const res = await fetch(`${s.url}/wave/health`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(res.status, 404);
    } finally {
      await s.close();
    }
  });
});
