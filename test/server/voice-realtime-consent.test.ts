// Spoken consent with the realtime engine (SPEC §9), end to end: the real engine and a real
// WaveSession against a fake Realtime server, driven in the orders the issue saw.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { WaveSession } from '../../src/agent/wave-session.js';
import type { VoiceSessionResponse } from '../../src/transport/protocol.js';
import { MemoryStorage } from '../../src/storage.js';
import type { RealtimeAudio, RealtimeAudioStartOptions } from '../../src/voice/browser-audio.js';
import { base64AudioMs, createRealtimeEngine } from '../../src/voice/realtime-engine.js';
import type { WebSocketConstructorLike } from '../../src/voice/realtime-engine.js';
import type { VoiceHeard } from '../../src/voice/types.js';
import { fakeRealtimeServer, manualClock, type FakeConnection, type Frame } from './voice-fake-realtime.js';
import { until } from '../helpers/until.js';

const session = (url: string) => async (): Promise<VoiceSessionResponse> => ({
  transport: 'websocket',
  model: 'gpt-realtime',
  url,
  clientSecret: 'ek_test',
  expiresAt: 2_000_000_000,
  sessionConfig: { type: 'realtime', instructions: 'Be brief.' },
});

/** Waits until `frames` holds a frame matching `pick` (frames the engine sent, in order). */
async function frameWhere(conn: FakeConnection, pick: (f: Frame) => boolean): Promise<Frame> {
  for (;;) {
    const frame = await conn.next();
    if (pick(frame)) return frame;
  }
}

async function setup(options: { audio?: RealtimeAudio | null } = {}) {
  const server = await fakeRealtimeServer();
  const clock = manualClock();
  const wave = new WaveSession({ siteId: 'voice', clock, storage: new MemoryStorage(), warn: () => undefined, validatorEngine: 'interpreter' });
  let runs = 0;
  wave.registerTool('add_scene', { description: 'Adds a scene.', cost: 40, confirmLabel: 'Add the scene?', handler: () => ({ added: ++runs }) });
  wave.registerTool('delete_all', { description: 'Deletes everything.', confirm: true, handler: () => ({ deleted: ++runs }) });
  wave.registerTool('wire', { description: 'Wires money.', cost: 10, tier3: true, handler: () => ({ wired: ++runs }) });
  const engine = createRealtimeEngine({
    createSession: session(server.url),
    WebSocketImpl: WebSocket as unknown as WebSocketConstructorLike,
    audio: options.audio === undefined ? null : options.audio,
    clock,
  });
  const started = wave.startVoice(engine);
  const conn = await server.connection();
  await started;
  assert.equal((await conn.next()).type, 'session.update');
  const chips = () => wave.state.items.filter((i) => i.kind === 'tool');
  const chip = (id: string) => chips().find((c) => c.id === id);
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  };
  /** The model calls `name` as call `id`. */
  const call = async (name: string, id: string) => {
    conn.emit({ type: 'response.created', response: { id: `r_${id}` } });
    conn.emit({ type: 'response.output_item.done', item: { id: `item_${id}`, type: 'function_call', call_id: id, name, arguments: '{}' } });
    conn.emit({ type: 'response.done', response: { id: `r_${id}`, output: [] } });
    // Over a real socket and the lazy validator: wait for the state, not a count of turns.
    await until(() => (chip(id) as { status?: string } | undefined)?.status === 'awaiting-confirmation', `${id} awaiting confirmation`);
  };
  // Counts the engine's moves to listening: a speech_started has been handled once it moves.
  let listened = 0;
  let lastState = '';
  wave.subscribe((s) => {
    if (s.voice?.state === 'listening' && lastState !== 'listening') listened++;
    lastState = s.voice?.state ?? '';
  });
  /** The visitor starts speaking (input item `itemId`); resolves once the engine has handled it. */
  const say = async (itemId: string) => {
    const before = listened;
    conn.emit({ type: 'input_audio_buffer.speech_stopped' });
    conn.emit({ type: 'input_audio_buffer.speech_started', item_id: itemId });
    await until(() => listened > before, 'speech_started handled');
  };
  const transcript = (itemId: string, text: string) =>
    conn.emit({ type: 'conversation.item.input_audio_transcription.completed', item_id: itemId, transcript: text });
  return { server, conn, clock, wave, engine, chips, chip, call, say, transcript, settle, runs: () => runs };
}

describe('realtime spoken consent', () => {
  it('a "yes" begun before the chip appeared does not confirm it, even when its transcript arrives after', async () => {
    const t = await setup();
    await t.say('u1');
    t.clock.advance(400);
    await t.settle();
    await t.call('add_scene', 'c1');
    t.clock.advance(400);
    t.transcript('u1', 'yes');
    await t.settle();
    assert.equal((t.chip('c1') as { status: string }).status, 'awaiting-confirmation');
    assert.equal(t.runs(), 0);
    // Said after the chip: it counts, and its item is removed from the conversation.
    t.clock.advance(500);
    await t.say('u2');
    await t.settle();
    t.clock.advance(300);
    t.transcript('u2', 'yes');
    assert.deepEqual(await frameWhere(t.conn, (f) => f.type === 'conversation.item.delete'), { type: 'conversation.item.delete', item_id: 'u2' });
    await until(() => t.runs() > 0, 'the confirmed tool ran');
    assert.equal(t.runs(), 1);
    t.wave.dispose();
  });

  it('with two confirmations waiting, a "yes" settles the one asked aloud, and the other is then asked with its own response', async () => {
    const t = await setup();
    await t.call('add_scene', 'c1');
    await t.call('delete_all', 'c2');
    assert.equal(t.wave.state.voice?.asking, 'c1');
    t.clock.advance(100);
    await t.say('u1');
    await t.settle();
    t.transcript('u1', 'yes');
    await frameWhere(t.conn, (f) => f.type === 'conversation.item.delete');
    await until(() => t.runs() > 0, 'the confirmed tool ran');
    assert.equal(t.runs(), 1);
    assert.equal((t.chip('c2') as { status: string }).status, 'awaiting-confirmation');
    assert.equal(t.wave.state.voice?.asking, 'c2');
    const ask = await frameWhere(t.conn, (f) => f.type === 'response.create' && !!f['response']);
    const response = ask['response'] as { tool_choice: string; instructions: string };
    assert.equal(response.tool_choice, 'none');
    assert.match(response.instructions, /^Be brief\./);
    assert.match(response.instructions, /"Delete all\?"/);
    // A "no" begun before c2 was asked does not cancel it.
    t.transcript('u9', 'no');
    await t.settle();
    assert.equal((t.chip('c2') as { status: string }).status, 'awaiting-confirmation');
    t.wave.dispose();
  });

  it('blanket phrases never settle a free confirm chip or a tier3 chip; the question is asked again', async () => {
    const t = await setup();
    await t.call('delete_all', 'c1');
    let n = 0;
    for (const phrase of ["don't ask again", 'stop asking', 'stop asking me']) {
      t.clock.advance(100);
      await t.say(`u${++n}`);
      await t.settle();
      t.transcript(`u${n}`, phrase);
      assert.deepEqual(await t.conn.next(), { type: 'conversation.item.delete', item_id: `u${n}` });
      const ask = await t.conn.next();
      assert.equal(ask.type, 'response.create');
      assert.match((ask['response'] as { instructions: string }).instructions, /its own yes or no/);
      t.conn.emit({ type: 'response.created' });
      t.conn.emit({ type: 'response.done', response: { output: [] } });
    }
    assert.equal((t.chip('c1') as { status: string }).status, 'awaiting-confirmation');
    t.clock.advance(100);
    await t.say('no1');
    await t.settle();
    t.transcript('no1', 'no');
    await until(() => (t.chip('c1') as { status: string }).status !== 'awaiting-confirmation', 'the spoken no settled c1');
    // A spoken no is the visitor's own answer: declined, not a system cancel.
    assert.equal((t.chip('c1') as { status: string }).status, 'declined');
    await t.call('wire', 'c2');
    t.clock.advance(100);
    await t.say('g1');
    await t.settle();
    t.transcript('g1', 'approve all spending');
    await frameWhere(t.conn, (f) => f.type === 'response.create' && !!f['response']);
    assert.equal((t.chip('c2') as { status: string }).status, 'awaiting-confirmation');
    assert.equal(t.wave.state.grant.active, false);
    assert.equal(t.runs(), 0);
    t.wave.dispose();
  });

  it('times speech from the audio offset of speech_started, mapped to when that audio was captured', async () => {
    let audioOptions: RealtimeAudioStartOptions | null = null;
    const audio: RealtimeAudio = {
      start: async (o) => {
        audioOptions = o;
      },
      play() {},
      interrupt() {},
      inputLevel: () => 0,
      outputLevel: () => 0,
      close() {},
    };
    const server = await fakeRealtimeServer();
    const clock = manualClock();
    const heard: Array<[string, VoiceHeard]> = [];
    const engine = createRealtimeEngine({ createSession: session(server.url), WebSocketImpl: WebSocket as unknown as WebSocketConstructorLike, audio, clock });
    const started = engine.start({
      signal: new AbortController().signal,
      tools: [],
      context: null,
      runTool: () => new Promise(() => undefined),
      isConfirming: () => false,
      onState() {},
      onTranscript() {},
      onEnd() {},
      now: () => clock.now() + 1_000_000,
      onUserUtterance: (text, h) => {
        heard.push([text, h]);
        return 'consumed';
      },
    });
    const conn = await server.connection();
    await started;
    await conn.next();
    // 100 ms of 24 kHz PCM16 is 4,800 bytes.
    const chunk = Buffer.alloc(4800).toString('base64');
    assert.equal(base64AudioMs(chunk), 100);
    clock.advance(1000);
    audioOptions!.onChunk(chunk); // audio 0–100 ms, sent at 1,001,000
    clock.advance(100);
    audioOptions!.onChunk(chunk); // 100–200 ms, sent at 1,001,100
    clock.advance(5000);
    conn.emit({ type: 'input_audio_buffer.speech_started', item_id: 'a', audio_start_ms: 150 });
    conn.emit({ type: 'input_audio_buffer.speech_started', item_id: 'b' });
    // Transcripts in the other order, and one with no speech_started at all.
    conn.emit({ type: 'conversation.item.input_audio_transcription.completed', item_id: 'b', transcript: 'second' });
    conn.emit({ type: 'conversation.item.input_audio_transcription.completed', item_id: 'a', transcript: 'first' });
    conn.emit({ type: 'conversation.item.input_audio_transcription.completed', item_id: 'c', transcript: 'third' });
    for (let i = 0; i < 3; i++) await frameWhere(conn, (f) => f.type === 'conversation.item.delete');
    assert.deepEqual(heard, [
      ['second', { speechStartedAt: 1_006_100 }],
      ['first', { speechStartedAt: 1_001_050 }],
      ['third', { speechStartedAt: null }],
    ]);
    engine.stop();
  });
});
