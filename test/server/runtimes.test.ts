/**
 * The same standards handler served by Node, Deno, Bun and workerd (Cloudflare Workers' runtime),
 * each from its entry in src/server/runtimes/ (Node: src/server/node.ts), each binary from npm.
 * Every runtime drives the same conversation: the offline model, then a fake OpenAI-compatible
 * upstream over real HTTP (streamed text, a tool call split across chunks, its continuation, Stop).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { WaveStreamEvent } from '../../src/transport/protocol.js';
import { fakeUpstream, oa, ORIGIN, parseWaveEvents, sseHead, tool, waveBody, writeSplit, type UpstreamRequest } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'node_modules', '.bin');

interface Running {
  base: string;
  /** Sends SIGTERM; resolves with the exit code. */
  terminate(): Promise<number | null>;
  stop(): Promise<void>;
}

/** Spawns `command`, resolves once `ready` matches its output (giving the port), or rejects with the output. */
function spawnServer(command: string, args: string[], env: Record<string, string>, ready: RegExp, extra: { controlFd?: boolean } = {}): Promise<Running> {
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), NO_COLOR: '1', ...env },
    stdio: extra.controlFd ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error('did not start within 30 s')), 30_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')}: ${error.message}\n${output}`));
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        base: `http://127.0.0.1:${match[1]}`,
        terminate: () => {
          child.kill('SIGTERM');
          return exited;
        },
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    if (extra.controlFd) (child.stdio[3] as NodeJS.ReadableStream).on('data', onData);
    child.once('error', fail);
    child.once('exit', (code) => {
      if (!ready.test(output)) fail(new Error(`exited with ${code}`));
    });
  });
}

let workDir: string;

/** workerd: the worker entry bundled by esbuild, a config with text bindings, port 0 reported on a control fd. */
async function startWorkerd(env: Record<string, string>): Promise<Running> {
  const capnp = join(workDir, `config-${Object.keys(env).length}-${Date.now()}.capnp`);
  const bindings = Object.entries(env)
    .map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`)
    .join(', ');
  await writeFile(
    capnp,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .wave),
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);
const wave :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2025-01-01",
  compatibilityFlags = ["nodejs_compat", "enable_request_signal"],
  bindings = [${bindings}],
);
`,
  );
  return spawnServer(join(BIN, 'workerd'), ['serve', capnp, '--control-fd=3'], {}, /"port":(\d+)/, { controlFd: true });
}

interface Runtime {
  name: string;
  start(env: Record<string, string>): Promise<Running>;
  /** Headers the platform itself adds (Cloudflare sets CF-Connecting-IP). */
  headers?: Record<string, string>;
  /** The entry drains on SIGTERM (Node's drain is tested in long-streams.test.ts; Workers: the platform's). */
  drains?: boolean;
}

const runtimes: Runtime[] = [
  {
    name: 'Node (src/server/node.ts)',
    start: (env) =>
      spawnServer(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', `const m = await import(${JSON.stringify(join(ROOT, 'src/server/node.ts'))}); await m.main(['--port', '0'], process.env);`],
        env,
        /localhost:(\d+)\//,
      ),
  },
  {
    name: 'Deno (src/server/runtimes/deno.ts)',
    drains: true,
    start: (env) => spawnServer(join(BIN, 'deno'), ['run', '--allow-net', '--allow-env', '--allow-read', 'src/server/runtimes/deno.ts'], { ...env, PORT: '0' }, /127\.0\.0\.1:(\d+)\/wave/),
  },
  {
    name: 'Bun (src/server/runtimes/bun.ts)',
    drains: true,
    start: (env) => spawnServer(join(BIN, 'bun'), ['src/server/runtimes/bun.ts'], { ...env, PORT: '0' }, /127\.0\.0\.1:(\d+)\/wave/),
  },
  {
    name: 'Cloudflare Workers, workerd (src/server/runtimes/worker.ts)',
    start: startWorkerd,
    headers: { 'cf-connecting-ip': '203.0.113.50' },
  },
];

const SHOP_TOOLS = [
  tool('add_to_cart', {
    description: 'Add a product to the shopping cart.',
    parameters: {
      type: 'object',
      properties: { sku: { type: 'string', description: 'Product SKU' }, quantity: { type: 'integer', minimum: 1 } },
      required: ['sku', 'quantity'],
      additionalProperties: false,
    },
  }),
];
const SHOP_STATE = JSON.stringify({ catalogue: { products: [{ sku: 'MUG-01', name: 'Blue ceramic mug', price: '$12.00' }] }, cart: [] });
const SITES = JSON.stringify([{ id: 'shop', allowedOrigins: [ORIGIN] }]);

async function step(running: Running, runtime: Runtime, body: ReturnType<typeof waveBody>): Promise<WaveStreamEvent[]> {
  const res = await fetch(`${running.base}/wave`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN, ...runtime.headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
  assert.equal(res.headers.get('access-control-allow-origin'), ORIGIN);
  return parseWaveEvents(text);
}

/** Two steps: the model calls add_to_cart; the page runs it; the model continues and stops. */
async function conversation(running: Running, runtime: Runtime) {
  const first = waveBody({ messages: [{ role: 'user', content: 'add two mugs to my cart' }], tools: SHOP_TOOLS, context: SHOP_STATE });
  const one = await step(running, runtime, first);
  assert.equal(one[0]!.type, 'meta');
  const call = one.find((e) => e.type === 'tool_call') as Extract<WaveStreamEvent, { type: 'tool_call' }>;
  assert.ok(call, JSON.stringify(one));
  assert.equal(call.name, 'add_to_cart');
  assert.deepEqual(call.arguments, { sku: 'MUG-01', quantity: 2 });
  assert.deepEqual(one.at(-1), { type: 'end', reason: 'tool_calls' });
  const two = await step(running, runtime, {
    ...first,
    messages: [
      ...first.messages,
      { role: 'assistant', content: '', toolCalls: [{ id: call.id, name: call.name, arguments: call.arguments }] },
      { role: 'tool', toolCallId: call.id, name: call.name, content: JSON.stringify({ success: true, result: { cart: [{ sku: 'MUG-01', quantity: 2 }] } }) },
    ],
  });
  assert.equal(two[0]!.type, 'meta');
  assert.ok(two.some((e) => e.type === 'text'), JSON.stringify(two));
  assert.ok(!two.some((e) => e.type === 'tool_call' || e.type === 'error'), JSON.stringify(two));
  assert.deepEqual(two.at(-1), { type: 'end', reason: 'stop' });
  return { one, two };
}

describe('runtimes: one handler on Node, Deno, Bun and workerd', () => {
  let upstream: Awaited<ReturnType<typeof fakeUpstream>>;
  before(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'wave-runtimes-'));
    await build({
      entryPoints: [join(ROOT, 'src/server/runtimes/worker.ts')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      conditions: ['worker', 'browser'],
      outfile: join(workDir, 'worker.js'),
      logLevel: 'silent',
    });
    upstream = await fakeUpstream(async (res, req: UpstreamRequest) => {
      sseHead(res);
      const messages = req.body.messages as { role: string }[];
      if (messages.some((m) => m.role === 'tool')) {
        await writeSplit(res, oa.text('Two blue mugs are ') + oa.text('in your cart.') + oa.finish('stop') + oa.done, [11, 29]);
      } else {
        // Text, then a tool call whose name and arguments are split across chunks and TCP writes.
        await writeSplit(
          res,
          oa.text('Adding the mugs.') +
            oa.toolStart(0, 'call_7', 'add_to_cart', '{"sku":"MU') +
            oa.toolArgs(0, 'G-01","quan') +
            oa.toolArgs(0, 'tity":2}') +
            oa.finish('tool_calls') +
            `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 321, completion_tokens: 17 } })}\n\n` +
            oa.done,
          [13, 7, 40],
        );
      }
      res.end();
    });
  });
  after(async () => {
    await upstream.close();
    await rm(workDir, { recursive: true, force: true });
  });

  for (const runtime of runtimes.filter((r) => r.drains)) {
    it(`${runtime.name}: SIGTERM ends a stream still open at the WAVE_DRAIN_MS deadline with server_shutdown, then exits 0`, { timeout: 60_000 }, async () => {
      const silent = await fakeUpstream((res) => {
        sseHead(res);
        res.write(oa.text('thinking'));
      });
      const running = await runtime.start({ WAVE_PROVIDER: 'openai', WAVE_BASE_URL: silent.url, WAVE_DRAIN_MS: '300', WAVE_SITES: SITES });
      try {
        const res = await fetch(`${running.base}/wave`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: ORIGIN },
          body: JSON.stringify(waveBody()),
        });
        const reader = res.body!.getReader();
        let text = '';
        while (!text.includes('thinking')) text += new TextDecoder().decode((await reader.read()).value);
        const code = running.terminate();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          text += new TextDecoder().decode(value);
        }
        assert.deepEqual(parseWaveEvents(text).at(-1), {
          type: 'error',
          code: 'server_shutdown',
          message: 'The server restarted before the reply finished; send the message again.',
          retryable: true,
        });
        assert.equal(await code, 0);
      } finally {
        await running.stop();
        await silent.close();
      }
    });
  }

  for (const runtime of runtimes) {
    it(runtime.name, { timeout: 90_000 }, async () => {
      const offline = await runtime.start({ WAVE_PROVIDER: 'offline', WAVE_OFFLINE_DELAY_MS: '0', WAVE_SITES: SITES });
      try {
        const { one } = await conversation(offline, runtime);
        assert.deepEqual(one[0], { type: 'meta', model: 'offline demo model', offline: true });
        const health = await fetch(`${offline.base}/wave/health`);
        assert.equal(health.status, 200);
        assert.deepEqual(await health.json(), { status: 'ok' });
        if (runtime.headers) {
          // Without the header the platform sets, the worker cannot tell who calls: refused on its own.
          const anonymous = await fetch(`${offline.base}/wave`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: ORIGIN },
            body: JSON.stringify(waveBody()),
          });
          assert.equal(anonymous.status, 403);
          assert.equal(((await anonymous.json()) as { error: { code: string } }).error.code, 'client_unidentified');
        }
      } finally {
        await offline.stop();
      }
      const before = upstream.requests.length;
      const online = await runtime.start({ WAVE_PROVIDER: 'openai', WAVE_BASE_URL: upstream.url, WAVE_MODEL: 'gpt-fake', WAVE_API_KEY: 'sk-runtime-test', WAVE_SITES: SITES });
      try {
        const { one, two } = await conversation(online, runtime);
        assert.deepEqual(one[0], { type: 'meta', model: 'gpt-fake', offline: false });
        assert.deepEqual(one.filter((e) => e.type === 'text'), [{ type: 'text', delta: 'Adding the mugs.' }]);
        assert.equal((one.find((e) => e.type === 'tool_call') as { id: string }).id, 'call_7');
        assert.equal(two.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta).join(''), 'Two blue mugs are in your cart.');
        const seen = upstream.requests.slice(before);
        assert.equal(seen.length, 2);
        assert.equal(seen[0]!.headers.authorization, 'Bearer sk-runtime-test');
        assert.equal(seen[1]!.body.model, 'gpt-fake');
      } finally {
        await online.stop();
      }
    });
  }
});
