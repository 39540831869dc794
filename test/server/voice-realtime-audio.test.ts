// The realtime engine's real browser-audio path, end to end: Chromium's fake microphone plays a
// WAV into the engine's default createBrowserAudio, whose PCM16 chunks reach a fake Realtime API
// WebSocket server; the server then sends a tone back and the page's playback meter must move.
// Per-launch microphone flags are why this is a playwright-core script test in Node, not a wtr test.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { audioFixture as wav, launchWithMicrophone, serveBundledPage } from '../helpers/fake-microphone.js';

type Frame = { type: string; [key: string]: unknown };

/** What the page reports back (see the inline entry below). */
interface PageRun {
  inputLevels: number[];
  states: string[];
  ends: string[];
}

// The page: the engine with its DEFAULT audio (createBrowserAudio), the browser's WebSocket, and a
// createSession that points it at the fake server. Levels are sampled in the page every 16 ms.
const ENTRY = `
  import { createRealtimeEngine } from './src/voice/realtime-engine.ts';
  let engine = null;
  let run = null;
  let timer = 0;
  let outputPeak = 0;
  window.startVoice = async (url) => {
    run = { inputLevels: [], states: [], ends: [] };
    engine = createRealtimeEngine({
      createSession: async () => ({
        clientSecret: 'ek_dummy',
        expiresAt: Date.now() + 60000,
        url,
        transport: 'websocket',
        model: 'gpt-realtime',
        sessionConfig: {},
      }),
    });
    await engine.start({
      signal: new AbortController().signal,
      tools: [],
      context: null,
      runTool: async () => { throw new Error('no tools in this test'); },
      isConfirming: () => false,
      onState: (s) => run.states.push(s),
      onTranscript: () => undefined,
      onEnd: (reason) => run.ends.push(reason),
    });
    timer = setInterval(() => {
      run.inputLevels.push(engine.inputLevel());
      outputPeak = Math.max(outputPeak, engine.outputLevel());
    }, 16);
    return engine.state;
  };
  window.outputPeak = () => outputPeak;
  window.stopVoice = () => {
    clearInterval(timer);
    engine.stop();
    return { ...run, state: engine.state, inputAfterStop: engine.inputLevel() };
  };`;

let http: { origin: string; close(): Promise<void> };
let wss: WebSocketServer;
let wsUrl = '';
const connections: Array<{ socket: WebSocket; frames: Frame[]; protocols: string }> = [];
const waiting: Array<() => void> = [];

before(async () => {
  http = await serveBundledPage(ENTRY);

  // The fake Realtime API: accepts the 'realtime' subprotocol and records every client frame.
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: (p) => (p.has('realtime') ? 'realtime' : false) });
  await once(wss, 'listening');
  wsUrl = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/v1/realtime?model=gpt-realtime`;
  wss.on('connection', (socket, req) => {
    const conn = { socket, frames: [] as Frame[], protocols: String(req.headers['sec-websocket-protocol'] ?? '') };
    socket.on('message', (data) => conn.frames.push(JSON.parse(String(data)) as Frame));
    connections.push(conn);
    waiting.splice(0).forEach((wake) => wake());
  });
});

after(async () => {
  for (const client of wss.clients) client.terminate();
  await new Promise((resolve) => wss.close(resolve));
  await http.close();
});

/** Per-chunk RMS (0..1) of the base64 PCM16 in each `input_audio_buffer.append` frame. */
function appendRms(frames: Frame[]): number[] {
  return frames
    .filter((f) => f.type === 'input_audio_buffer.append')
    .map((f) => {
      const bytes = Buffer.from(String(f['audio']), 'base64');
      const count = bytes.length >> 1;
      let sum = 0;
      for (let i = 0; i < count; i++) {
        const s = bytes.readInt16LE(i * 2) / 0x8000;
        sum += s * s;
      }
      return count === 0 ? 0 : Math.sqrt(sum / count);
    });
}

/** 0.5 s of a 440 Hz tone at half scale, as a base64 PCM16 24 kHz delta. */
function toneDelta(): string {
  const rate = 24_000;
  const samples = rate / 2;
  const bytes = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) bytes.writeInt16LE(Math.round(0.5 * 0x7fff * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
  return bytes.toString('base64');
}

interface RunResult extends PageRun {
  frames: Frame[];
  protocols: string;
  startState: string;
  outputPeak: number;
  state: string;
  inputAfterStop: number;
}

const callPage = <T>(page: Page, fn: string, arg?: unknown): Promise<T> =>
  page.evaluate(([name, a]) => (window as unknown as Record<string, (x: unknown) => T>)[name as string]!(a), [fn, arg] as const);

/** Launches Chromium with `file` as the microphone, runs the engine for `ms`, then plays a tone. */
async function runFor(file: string, ms: number): Promise<RunResult> {
  const index = connections.length;
  const browser = await launchWithMicrophone(file);
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${http.origin}/`);
    await page.waitForFunction(() => 'startVoice' in window);
    const startState = await callPage<string>(page, 'startVoice', wsUrl);
    if (connections.length === index) await new Promise<void>((resolve) => waiting.push(resolve));
    const conn = connections[index]!;
    await new Promise((resolve) => setTimeout(resolve, ms));
    // Playback: the model's audio delta must reach the speakers' meter.
    conn.socket.send(JSON.stringify({ type: 'response.output_audio.delta', response_id: 'r1', item_id: 'i1', delta: toneDelta() }));
    await page.waitForFunction(() => (window as unknown as { outputPeak(): number }).outputPeak() > 0.3, undefined, { polling: 16, timeout: 5_000 }).catch(() => undefined);
    const outputPeak = await callPage<number>(page, 'outputPeak');
    const stopped = await callPage<PageRun & { state: string; inputAfterStop: number }>(page, 'stopVoice');
    return { ...stopped, frames: conn.frames, protocols: conn.protocols, startState, outputPeak };
  } finally {
    await browser.close();
  }
}

const max = (xs: number[]) => xs.reduce((a, b) => Math.max(a, b), 0);

describe('realtime engine on real browser audio (Chromium fake microphone)', () => {
  let speech: RunResult;
  let silence: RunResult;

  before(async () => {
    speech = await runFor(wav('speech.wav'), 2500);
    silence = await runFor(wav('silence.wav'), 2500);
    const figures = (r: RunResult) => ({
      appends: appendRms(r.frames).length,
      peakRms: max(appendRms(r.frames)).toFixed(4),
      peakInputLevel: max(r.inputLevels).toFixed(3),
      outputPeak: r.outputPeak.toFixed(3),
    });
    console.log('speech', figures(speech), 'silence', figures(silence));
  });

  it('opens with session.update over the realtime subprotocol, then streams microphone chunks', () => {
    for (const run of [speech, silence]) {
      assert.equal(run.startState, 'listening');
      assert.match(run.protocols, /\brealtime\b/);
      assert.match(run.protocols, /openai-insecure-api-key\.ek_dummy/);
      assert.equal(run.frames[0]?.type, 'session.update');
      assert.deepEqual(run.frames[0]?.['session'], {});
      assert.equal(run.frames.filter((f) => f.type === 'session.update').length, 1);
      // ~100 ms chunks over 2.5 s: well over ten appends, each 2400 PCM16 samples or more.
      const appends = run.frames.filter((f) => f.type === 'input_audio_buffer.append');
      assert.ok(appends.length >= 10, `${appends.length} append frames`);
      for (const f of appends) {
        const bytes = Buffer.from(String(f['audio']), 'base64');
        assert.ok(bytes.length >= 2400 * 2 && bytes.length % 2 === 0, `append of ${bytes.length} bytes`);
      }
    }
  });

  it('sends the speech as clearly louder PCM16 than the silence', () => {
    const speechPeak = max(appendRms(speech.frames));
    const silencePeak = max(appendRms(silence.frames));
    assert.ok(silencePeak < 0.01, `silence peak RMS ${silencePeak.toFixed(4)}`);
    assert.ok(speechPeak > 0.05, `speech peak RMS ${speechPeak.toFixed(4)}`);
    assert.ok(speechPeak > 10 * silencePeak, `speech ${speechPeak.toFixed(4)} vs silence ${silencePeak.toFixed(4)}`);
  });

  it('meters the microphone: inputLevel rises during speech and rests in silence', () => {
    assert.ok(speech.inputLevels.length > 30 && silence.inputLevels.length > 30);
    assert.ok(max(speech.inputLevels) > 0.5, `speech peak inputLevel ${max(speech.inputLevels).toFixed(3)}`);
    assert.ok(max(silence.inputLevels) < 0.05, `silence peak inputLevel ${max(silence.inputLevels).toFixed(3)}`);
    assert.equal(speech.inputAfterStop, 0);
  });

  it('plays the model audio delta: outputLevel rises and the engine is speaking', () => {
    for (const run of [speech, silence]) {
      assert.ok(run.outputPeak > 0.3, `output peak ${run.outputPeak.toFixed(3)}`);
      assert.ok(run.states.includes('speaking'), `states ${run.states.join(',')}`);
      assert.equal(run.state, 'ended');
      assert.deepEqual(run.ends, ['stopped']);
    }
  });
});
