import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { OpenAICompatibleProvider } from '../../src/server/providers/openai.js';
import type { ModelProvider, ProviderEvent } from '../../src/server/providers/types.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { oa, ORIGIN, parseWaveEvents, post, sseHead, waveBody, waveServer } from './helpers.js';

/** A provider that yields one text delta per `release()`, then ends. */
class SteppedProvider implements ModelProvider {
  readonly name = 'stepped';
  readonly model = 'stepped-model';
  readonly offline = false;
  #waiting: (() => void) | null = null;
  #released = 0;
  release(): void {
    this.#released += 1;
    this.#waiting?.();
  }
  async *step(_input: unknown, signal: AbortSignal): AsyncGenerator<ProviderEvent> {
    for (let i = 0; i < 2; i++) {
      while (this.#released <= i) {
        await new Promise<void>((resolve, reject) => {
          this.#waiting = resolve;
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      }
      yield { type: 'text', delta: `part${i} ` };
    }
    yield { type: 'end', reason: 'stop' };
  }
}

const decoder = new TextDecoder();

describe('long streams: keep-alive while the model is silent', () => {
  it('sends an SSE comment after 15 s of silence, only then, and leaves no timer behind', async () => {
    const clock = new FakeClock();
    const provider = new SteppedProvider();
    const s = await waveServer({ provider, clock });
    try {
      const res = await post(s.url, waveBody());
      const reader = res.body!.getReader();
      const read = async () => decoder.decode((await reader.read()).value);
      assert.match(await read(), /^event: meta\n/);
      clock.tick(14_999);
      clock.tick(1);
      assert.equal(await read(), ': keep-alive\n\n');
      clock.tick(15_000);
      assert.equal(await read(), ': keep-alive\n\n');
      provider.release();
      assert.match(await read(), /"delta":"part0 "/);
      // The text re-armed the timer: 14,999 ms later there is still nothing to send.
      clock.tick(14_999);
      provider.release();
      let rest = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        rest += decoder.decode(value);
      }
      assert.ok(!rest.includes('keep-alive'), rest);
      assert.deepEqual(parseWaveEvents(rest).map((e) => e.type), ['text', 'end']);
      assert.equal(clock.pending, 0);
    } finally {
      await s.close();
    }
  });

  it('keepAliveMs: 0 turns the comments off', async () => {
    const clock = new FakeClock();
    const provider = new SteppedProvider();
    const s = await waveServer({ provider, clock, keepAliveMs: 0 });
    try {
      const res = await post(s.url, waveBody());
      const reader = res.body!.getReader();
      await reader.read();
      assert.equal(clock.pending, 0);
      provider.release();
      provider.release();
      let rest = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        rest += decoder.decode(value);
      }
      assert.ok(!rest.includes('keep-alive'));
    } finally {
      await s.close();
    }
  });
});

/** A slow OpenAI-compatible upstream that counts its open connections. */
async function countingUpstream(onRequest: (res: ServerResponse, text: string) => void) {
  let open = 0;
  let onZero: (() => void) | null = null;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => onRequest(res, body));
  });
  server.on('connection', (socket) => {
    open += 1;
    socket.on('close', () => {
      open -= 1;
      if (open === 0) onZero?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get open() {
      return open;
    },
    /** Resolves once no connection is open. */
    idle: () => new Promise<void>((resolve) => (open === 0 ? resolve() : (onZero = resolve))),
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

describe('long streams: a client that disconnects', () => {
  it('aborts the upstream request at once: on the disconnect itself, with every timer stopped', { timeout: 10_000 }, async (t) => {
    // The path must be event-driven (socket close → request.signal → upstream fetch abort),
    // never a timer (the upstream idle timeout, the keep-alive): no timer in this process fires
    // during this test, so the upstream can only close through that path. No stopwatch: the
    // proof holds on a fast machine and a loaded one alike.
    t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
    const up = await countingUpstream((res) => {
      sseHead(res);
      res.write(oa.text('first words'));
      // …and then the model is slow: nothing more until the caller hangs up.
    });
    const s = await waveServer({ provider: new OpenAICompatibleProvider({ baseUrl: up.url, model: 'gpt-test', timeoutMs: 60_000 }) });
    try {
      const controller = new AbortController();
      const res = await fetch(`${s.url}/wave`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        body: JSON.stringify(waveBody()),
        signal: controller.signal,
      });
      const reader = res.body!.getReader();
      let seen = '';
      while (!seen.includes('first words')) seen += decoder.decode((await reader.read()).value);
      assert.ok(up.open >= 1);
      controller.abort();
      await up.idle();
    } finally {
      t.mock.timers.reset();
      await s.close();
      await up.close();
    }
  });
});

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('long streams: SIGTERM', () => {
  it('stops accepting, lets open streams finish until the deadline, then ends the rest with server_shutdown', { timeout: 30_000 }, async () => {
    const releases: (() => void)[] = [];
    const up = await countingUpstream((res, text) => {
      sseHead(res);
      res.write(oa.text('thinking'));
      if (text.includes('please finish')) {
        releases.push(() => {
          res.write(oa.text(' done'));
          res.write(oa.finish('stop'));
          res.end(oa.done);
        });
      }
      // Any other request stays silent forever.
    });
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', `const m = await import(${JSON.stringify(`${ROOT}src/server/node.ts`)}); await m.main(['--port', '0'], process.env);`],
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          WAVE_PROVIDER: 'openai',
          WAVE_BASE_URL: up.url,
          WAVE_SITES: JSON.stringify([{ id: 'shop', allowedOrigins: [ORIGIN] }]),
          WAVE_DRAIN_MS: '1500',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    const waiters = new Set<() => void>();
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      for (const wake of waiters) wake();
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const waitFor = (pattern: RegExp) =>
      new Promise<RegExpMatchArray>((resolve, reject) => {
        const check = () => {
          const match = stdout.match(pattern);
          if (match) {
            waiters.delete(check);
            resolve(match);
          } else if (child.exitCode !== null) reject(new Error(`server exited: ${stdout}\n${stderr}`));
        };
        waiters.add(check);
        check();
      });
    try {
      const [, port] = await waitFor(/demo: http:\/\/localhost:(\d+)\//);
      const base = `http://127.0.0.1:${port}`;
      assert.equal((await fetch(`${base}/wave/health`)).status, 200);
      const open = async (message: string) => {
        const res = await post(base, waveBody({ messages: [{ role: 'user', content: message }] }));
        const reader = res.body!.getReader();
        let text = '';
        while (!text.includes('thinking')) {
          const { done, value } = await reader.read();
          if (done) throw new Error(`the stream ended early: ${res.status} ${text}`);
          text += decoder.decode(value);
        }
        // Wrapped, so awaiting open() does not wait for the whole stream.
        return { rest: (async () => {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return text;
            text += decoder.decode(value);
          }
        })() };
      };
      const finishing = await open('please finish');
      const hanging = await open('take your time');

      child.kill('SIGTERM');
      await waitFor(/"msg":"draining","openStreams":2/);
      // No new connections once draining.
      await assert.rejects(fetch(`${base}/wave/health`), (error: Error) => /ECONNREFUSED/.test(String((error.cause as Error)?.message ?? error)));

      // An open stream that finishes within the deadline ends normally.
      releases[0]!();
      const finished = parseWaveEvents(await finishing.rest);
      assert.deepEqual(finished.at(-1), { type: 'end', reason: 'stop' });
      assert.ok(!finished.some((e) => e.type === 'error'));

      // One that does not is ended with a clear error event, then the process exits cleanly.
      const ended = parseWaveEvents(await hanging.rest);
      assert.deepEqual(ended.at(-1), {
        type: 'error',
        code: 'server_shutdown',
        message: 'The server restarted before the reply finished; send the message again.',
        retryable: true,
      });
      assert.equal(await exited, 0);
      await up.idle();
      assert.match(stderr, /"msg":"drain deadline passed: ending open streams","openStreams":1/);
      assert.match(stdout + stderr, /"outcome":"error:server_shutdown"/);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await up.close();
    }
  });
});
