import { expect } from '@open-wc/testing';
import { until } from '../helpers/until.js';
import { toModelMessages } from '../../src/agent/to-model-messages.js';
import type { LoopUpdate } from '../../src/agent/conversation-loop.js';
import type { TranscriptItem, WaveCoreEvent } from '../../src/agent/types.js';
import { unavailableVoiceEngine } from '../../src/voice/voice-failure.js';
import { WaveSession, type SessionLoop, type SessionLoopDeps } from '../../src/agent/wave-session.js';
import { MemoryStorage } from '../../src/storage.js';
import type { ToolOutcome } from '../../src/tools/types.js';
import { audioFailureReason, VoiceAudioError, VoiceStartTimeoutMs, VoiceState } from '../../src/voice/types.js';
import { createBrowserAudio } from '../../src/voice/browser-audio.js';
import { createRealtimeEngine } from '../../src/voice/realtime-engine.js';
import { noticeText, resolveLabels, type WaveLabels } from '../../components/labels.js';
import type { VoiceEngine, VoiceEngineKind, VoiceQuestion, VoiceStartOptions } from '../../src/voice/types.js';
import { FakeClock, flushMicrotasks } from '../helpers/fake-clock.js';

/** A scriptable engine: the test plays the provider and the visitor. */
class FakeEngine implements VoiceEngine {
  readonly kind: VoiceEngineKind;
  state: VoiceState = VoiceState.idle;
  options: VoiceStartOptions | null = null;
  stops: string[] = [];
  failWith: Error | null = null;
  failReason = 'mic-denied';
  level = { input: 0, output: 0 };
  /** Every question the session put aloud (null: stop asking). */
  asked: Array<VoiceQuestion | null> = [];

  constructor(kind: VoiceEngineKind = 'realtime') {
    this.kind = kind;
  }

  async start(options: VoiceStartOptions): Promise<void> {
    this.options = options;
    this.#set(VoiceState.connecting);
    await flushMicrotasks();
    if (this.failWith) {
      this.end(this.failReason, VoiceState.error);
      throw this.failWith;
    }
    this.#set(VoiceState.listening);
  }

  stop(reason = 'stopped'): void {
    this.stops.push(reason);
    this.end(reason);
  }

  inputLevel(): number {
    return this.level.input;
  }

  outputLevel(): number {
    return this.level.output;
  }

  /** The engine ends on its own (connection lost, error) or by stop. */
  end(reason: string, final: VoiceState = VoiceState.ended): void {
    if (this.state === VoiceState.ended || this.state === VoiceState.error) return;
    this.#set(final);
    this.options?.onEnd(reason);
  }

  /** The model calls a tool, as the realtime provider would. */
  call(name: string, args: unknown = {}, id = `call_${name}`): Promise<ToolOutcome> {
    return this.options!.runTool({ id, name, arguments: JSON.stringify(args) }, new AbortController().signal);
  }

  ask(question: VoiceQuestion | null): void {
    this.asked.push(question);
  }

  /** The recogniser heard the visitor say `text`, begun at `startedAt` (default: now). */
  hear(text: string, startedAt?: number | null): 'consumed' | 'pass' | undefined {
    this.options!.onTranscript({ role: 'user', text, final: true });
    const at = startedAt === undefined ? this.options!.now!() : startedAt;
    return this.options!.onUserUtterance?.(text, { speechStartedAt: at });
  }

  #set(state: VoiceState): void {
    this.state = state;
    this.options?.onState(state);
  }
}

const sessions: WaveSession[] = [];

function setup(createLoop?: (deps: SessionLoopDeps) => SessionLoop) {
  const clock = new FakeClock();
  const session = new WaveSession({
    siteId: 'voice',
    clock,
    storage: new MemoryStorage(),
    warn: () => undefined,
    validatorEngine: 'interpreter',
    ...(createLoop ? { createLoop } : {}),
  });
  sessions.push(session);
  const events: WaveCoreEvent[] = [];
  session.onEvent((e) => events.push(e));
  const chips = () => session.state.items.filter((i): i is Extract<TranscriptItem, { kind: 'tool' }> => i.kind === 'tool');
  const messages = () =>
    session.state.items.filter((i): i is Extract<TranscriptItem, { kind: 'message' }> => i.kind === 'message').map((m) => `${m.role}: ${m.text}`);
  const notices = () => session.state.items.flatMap((n) => (n.kind === 'notice' ? [n.notice] : []));
  // The validator loads lazily on first use (a chunk from the server): wait for the chip, in tasks.
  const waitingChip = () => until(() => chips().find((c) => c.status === 'awaiting-confirmation' && c.confirmation), 'a confirmation chip');
  return { session, clock, events, chips, messages, notices, waitingChip };
}

const types = (events: WaveCoreEvent[]) => events.map((e) => e.type);

describe('WaveSession voice', () => {
  afterEach(() => {
    for (const s of sessions.splice(0)) s.dispose();
  });

  it('emits voice-started once on and voice-ended once over, and mirrors the engine state', async () => {
    const { session, events } = setup();
    const engine = new FakeEngine();
    const starting = session.startVoice(engine);
    expect(session.state.voice).to.deep.equal({ state: 'connecting', engine: 'realtime', asking: null });
    expect(types(events)).to.not.include('voice-started');
    await starting;
    expect(events.filter((e) => e.type === 'voice-started')).to.deep.equal([{ type: 'voice-started', engine: 'realtime' }]);
    expect(session.state.voice).to.deep.equal({ state: 'listening', engine: 'realtime', asking: null });

    session.endVoice('stopped');
    expect(engine.stops).to.deep.equal(['stopped']);
    expect(session.state.voice).to.equal(null);
    expect(events.filter((e) => e.type === 'voice-ended')).to.deep.equal([{ type: 'voice-ended', engine: 'realtime', reason: 'stopped' }]);
    session.endVoice('stopped');
    expect(events.filter((e) => e.type === 'voice-ended')).to.have.length(1);
  });

  it('grows the voice tool set only through load_tools under deferral, and hands the engine the grown set', async () => {
    const { session } = setup();
    for (let i = 0; i < 25; i++) session.registerTool(`tool_${i}`, { description: `Tool number ${i}.`, handler: () => ({ i }) });
    const engine = new FakeEngine();
    await session.startVoice(engine);
    const opened = engine.options!.tools.map((t) => t.name);
    expect(opened).to.include('load_tools');
    const deferred = Array.from({ length: 25 }, (_, i) => `tool_${i}`).find((n) => !opened.includes(n))!;
    expect((await engine.call(deferred)).status).to.equal('unknown');
    expect((await engine.call('load_tools', { names: [deferred] })).status).to.equal('succeeded');
    expect(engine.options!.toolsAfterLoad!().map((t) => t.name)).to.include(deferred);
    expect((await engine.call(deferred)).status).to.equal('succeeded');
  });

  it('gives the engine the tools and context of the moment it starts; later changes are not sent', async () => {
    const { session } = setup();
    session.registerTool('add_scene', { description: 'Add a scene.', cost: 40, handler: () => ({}) });
    session.registerTool('list_scenes', { description: 'List.', handler: () => ({ scenes: [] }) });
    session.setContext({ board: 'Launch' });
    const engine = new FakeEngine();
    await session.startVoice(engine, { instructions: 'Be brief.' });
    session.registerTool('late_tool', { description: 'Too late.', handler: () => ({}) });
    session.setContext({ board: 'Other' });

    const opts = engine.options!;
    expect(opts.tools.map((t) => t.name)).to.deep.equal(['add_scene', 'list_scenes']);
    expect(opts.context).to.contain('Launch');
    expect(opts.instructions).to.equal('Be brief.');
    expect(opts.isConfirming('add_scene')).to.equal(true);
    expect(opts.isConfirming('list_scenes')).to.equal(false);
    expect(opts.isConfirming('late_tool')).to.equal(false);
    expect(session.getHostToolSchemas().map((t) => t.name)).to.include('late_tool');
  });

  it('a confirming call shows a chip and a spoken "yes" settles it with voice evidence', async () => {
    const { session, events, waitingChip } = setup();
    let runs = 0;
    session.registerTool('delete_task', { description: 'Delete.', confirm: true, handler: () => ({ deleted: ++runs }) });
    const engine = new FakeEngine();
    await session.startVoice(engine);

    const outcome = engine.call('delete_task');
    const chip = await waitingChip();
    expect(chip.name).to.equal('delete_task');
    expect(runs).to.equal(0);

    expect(engine.hear('yes please')).to.equal('consumed');
    const result = await outcome;
    expect(result.result).to.include({ success: true, deleted: 1 });
    expect(runs).to.equal(1);
    const answered = events.find((e) => e.type === 'confirmation-answered');
    expect(answered).to.deep.include({ decision: 'confirm', source: 'voice' });
  });

  it('a spoken "no" cancels; a longer answer goes to the model and settles nothing', async () => {
    const { session, waitingChip } = setup();
    let runs = 0;
    session.registerTool('add_scene', { description: 'Add.', cost: 40, handler: () => ({ n: ++runs }) });
    const engine = new FakeEngine();
    await session.startVoice(engine);

    const first = engine.call('add_scene', {}, 'c1');
    await waitingChip();
    expect(engine.hear('yes but make it two')).to.equal('pass');
    expect(session.state.items.some((i) => i.kind === 'tool' && i.status === 'awaiting-confirmation')).to.equal(true);
    expect(engine.hear('no')).to.equal('consumed');
    const outcome = await first;
    expect(outcome.result.success).to.equal(false);
    expect(runs).to.equal(0);
  });

  it('"approve all spending" grants for the session; "ask me every time" revokes', async () => {
    const { session, events, waitingChip } = setup();
    let runs = 0;
    session.registerTool('add_scene', { description: 'Add.', cost: 40, handler: () => ({ n: ++runs }) });
    const engine = new FakeEngine();
    await session.startVoice(engine);

    const first = engine.call('add_scene', {}, 'c1');
    await waitingChip();
    expect(engine.hear('approve all spending')).to.equal('consumed');
    await first;
    expect(session.state.grant).to.include({ active: true, spent: 40 });
    expect(events.find((e) => e.type === 'confirmation-answered')).to.deep.include({ decision: 'approve-session', source: 'voice' });

    // Under the grant the next cost-bearing call runs without asking.
    const second = await engine.call('add_scene', {}, 'c2');
    expect(second.result.success).to.equal(true);
    expect(runs).to.equal(2);

    expect(engine.hear('ask me every time')).to.equal('consumed');
    expect(session.state.grant.active).to.equal(false);
    expect(types(events)).to.include('grant-revoked');
    // With no grant a revoke phrase is just talk for the model.
    expect(engine.hear('ask me every time')).to.equal('pass');
  });

  it('a blanket phrase with nothing on screen starts the grant', async () => {
    const { session, events } = setup();
    const engine = new FakeEngine();
    await session.startVoice(engine);
    expect(engine.hear("don't ask me again")).to.equal('consumed');
    expect(session.state.grant.active).to.equal(true);
    expect(types(events)).to.include('grant-started');
  });

  it('asks one confirmation at a time, oldest first: a yes settles only the one asked, then the next is asked in turn', async () => {
    const { session, chips, clock } = setup();
    session.registerTool('delete_task', { description: 'Delete.', confirm: true, handler: (args: unknown) => args });
    const engine = new FakeEngine();
    await session.startVoice(engine);
    const older = engine.call('delete_task', { id: 1 }, 'old');
    const newer = engine.call('delete_task', { id: 2 }, 'new');
    await until(() => chips().filter((c) => c.status === 'awaiting-confirmation').length === 2, 'two confirmation chips');
    expect(session.state.voice?.asking).to.equal('old');
    expect(engine.asked.map((q) => q?.id)).to.deep.equal(['old']);
    clock.tick(500);
    expect(engine.hear('yes')).to.equal('consumed');
    expect((await older).result.success).to.equal(true);
    expect(chips().find((c) => c.id === 'new')?.status).to.equal('awaiting-confirmation');
    // The next one is now asked aloud, with its own question; an answer begun before it was asked does not count.
    expect(session.state.voice?.asking).to.equal('new');
    expect(engine.asked.at(-1)).to.deep.include({ id: 'new', reason: 'turn' });
    expect(engine.hear('no', clock.now() - 1)).to.equal('pass');
    clock.tick(500);
    expect(engine.hear('no')).to.equal('consumed');
    expect((await newer).status).to.equal('cancelled');
    expect(session.state.voice?.asking).to.equal(null);
    expect(engine.asked.at(-1)).to.equal(null);
  });

  it('a yes begun before the chip was shown goes to the model, whatever order the transcript arrives in', async () => {
    const { session, chips, clock, waitingChip } = setup();
    let runs = 0;
    session.registerTool('add_scene', { description: 'Add.', cost: 40, handler: () => ({ n: ++runs }) });
    const engine = new FakeEngine();
    await session.startVoice(engine);
    const spokeAt = clock.now();
    clock.tick(300);
    const call = engine.call('add_scene', {}, 'c1');
    await waitingChip();
    clock.tick(300);
    // The transcript of the earlier "yes" arrives only now.
    expect(engine.hear('yes', spokeAt)).to.equal('pass');
    expect(engine.hear('approve all spending', spokeAt)).to.equal('pass');
    expect(engine.hear('yes', null)).to.equal('pass');
    expect(chips().find((c) => c.id === 'c1')?.status).to.equal('awaiting-confirmation');
    expect(session.state.grant.active).to.equal(false);
    expect(runs).to.equal(0);
    expect(engine.hear('yes')).to.equal('consumed');
    expect((await call).result.success).to.equal(true);
  });

  it('a blanket phrase settles nothing on a free confirm chip or a tier3 chip: the question is asked again', async () => {
    const { session, chips, clock, waitingChip } = setup();
    let runs = 0;
    session.registerTool('delete_all', { description: 'Delete.', confirm: true, handler: () => ({ n: ++runs }) });
    session.registerTool('wire_money', { description: 'Wire.', cost: 40, tier3: true, handler: () => ({ n: ++runs }) });
    const engine = new FakeEngine();
    await session.startVoice(engine);
    for (const [name, id] of [['delete_all', 'free'], ['wire_money', 't3']] as const) {
      const call = engine.call(name, {}, id);
      await waitingChip();
      for (const phrase of ["don't ask again", 'stop asking', 'stop asking me', 'approve all spending']) {
        clock.tick(100);
        const before = engine.asked.length;
        expect(engine.hear(phrase)).to.equal('consumed');
        expect(engine.asked.length).to.equal(before + 1);
        expect(engine.asked.at(-1)).to.deep.include({ id, reason: 'again' });
        expect(chips().find((c) => c.id === id)?.status).to.equal('awaiting-confirmation');
      }
      expect(session.state.grant.active).to.equal(false);
      expect(runs).to.equal(0);
      clock.tick(100);
      expect(engine.hear('no')).to.equal('consumed');
      expect((await call).status).to.equal('cancelled');
    }
  });

  it('chips already waiting when voice starts are asked aloud in turn', async () => {
    const { session, waitingChip, clock } = setup();
    session.registerTool('delete_task', { description: 'Delete.', confirm: true, handler: () => ({ ok: 1 }) });
    const pending = session.callTool('delete_task');
    const chip = await waitingChip();
    const engine = new FakeEngine();
    await session.startVoice(engine);
    expect(engine.asked[0]).to.deep.include({ id: chip.id, reason: 'turn' });
    clock.tick(10);
    expect(engine.hear('yes')).to.equal('consumed');
    expect((await pending).success).to.equal(true);
  });

  it('a browser-engine turn waits 240 s on a confirmation and 30 s on an ordinary tool, then tells the model', async () => {
    let deps: SessionLoopDeps | undefined;
    const outcomes: ToolOutcome[] = [];
    const { session, clock, chips } = setup((d) => {
      deps = d;
      return {
        async send() {
          outcomes.push(await deps!.runTool({ id: 'c1', name: 'add_scene', arguments: '{}' }, new AbortController().signal));
          outcomes.push(await deps!.runTool({ id: 'c2', name: 'slow', arguments: '{}' }, new AbortController().signal));
        },
        async retry() {},
        reset() {},
      };
    });
    session.registerTool('add_scene', { description: 'Add.', cost: 40, handler: () => ({ ok: true }) });
    session.registerTool('slow', { description: 'Slow.', handler: () => new Promise(() => undefined) });
    await session.startVoice(new FakeEngine('browser'));
    const turn = session.sendForReply('add a scene', new AbortController().signal);
    // The 240 s wait starts when the chip is shown (after the lazy validator): wait for it first.
    await until(() => chips().some((c) => c.status === 'awaiting-confirmation'), 'the confirmation chip');
    await clock.tickAsync(239_999);
    expect(outcomes).to.have.length(0);
    await clock.tickAsync(1);
    await until(() => outcomes.length === 1, 'the timed-out outcome');
    expect(outcomes[0]).to.deep.include({ status: 'cancelled' });
    expect(outcomes[0]!.result).to.include({ success: false, timedOut: true });
    expect(chips().find((c) => c.id === 'c1')?.status).to.equal('cancelled');
    await until(() => chips().some((c) => c.id === 'c2'), 'the second call running');
    await clock.tickAsync(29_999);
    expect(outcomes).to.have.length(1);
    await clock.tickAsync(1);
    await turn;
    expect(outcomes[1]!.result).to.include({ success: false, timedOut: true });
    expect(clock.pending).to.equal(0);
  });

  it('model text never settles a confirmation: only onUserUtterance carries voice evidence', async () => {
    const { session, waitingChip, chips } = setup();
    session.registerTool('delete_task', { description: 'Delete.', confirm: true, handler: () => ({}) });
    const engine = new FakeEngine();
    await session.startVoice(engine);
    void engine.call('delete_task');
    const chip = await waitingChip();
    engine.options!.onTranscript({ role: 'assistant', text: 'yes', final: true });
    engine.options!.onTranscript({ role: 'user', text: 'yes', final: true });
    await flushMicrotasks();
    expect(chips().find((c) => c.id === chip.id)?.status).to.equal('awaiting-confirmation');
  });

  it('ending voice cancels outstanding confirmations: the tool call resolves cancelled', async () => {
    const { session, events, waitingChip, chips } = setup();
    let runs = 0;
    session.registerTool('delete_task', { description: 'Delete.', confirm: true, handler: () => ({ n: ++runs }) });
    const engine = new FakeEngine();
    await session.startVoice(engine);
    const outcome = engine.call('delete_task');
    const chip = await waitingChip();

    engine.end('connection-lost');
    const result = await outcome;
    expect(result.status).to.equal('cancelled');
    expect(runs).to.equal(0);
    expect(chips().find((c) => c.id === chip.id)?.status).to.equal('cancelled');
    expect(events.find((e) => e.type === 'voice-ended')).to.deep.equal({ type: 'voice-ended', engine: 'realtime', reason: 'connection-lost' });
    expect(session.state.voice).to.equal(null);
    // A dropped connection is news for the visitor; a stop they chose is not.
    expect(session.state.items.at(-1)).to.deep.include({ kind: 'notice', level: 'error', notice: { kind: 'voice-failed', reason: 'connection-lost' } });
  });

  it('close() and restart() end voice', async () => {
    const { session, events } = setup();
    const a = new FakeEngine();
    await session.startVoice(a);
    session.close();
    expect(a.stops).to.deep.equal(['closed']);
    const b = new FakeEngine();
    await session.startVoice(b);
    session.restart();
    expect(b.stops).to.deep.equal(['restarted']);
    expect(events.filter((e) => e.type === 'voice-ended').map((e) => (e.type === 'voice-ended' ? e.reason : ''))).to.deep.equal(['closed', 'restarted']);
    expect(session.state.voice).to.equal(null);
    expect(session.state.items.filter((i) => i.kind === 'notice')).to.deep.equal([]);
  });

  it('records final transcript lines as messages; interim lines are not recorded', async () => {
    const { session, messages } = setup();
    const engine = new FakeEngine();
    await session.startVoice(engine);
    engine.options!.onTranscript({ role: 'user', text: 'add a', final: false });
    engine.options!.onTranscript({ role: 'user', text: 'add a scene', final: true });
    engine.options!.onTranscript({ role: 'assistant', text: 'Added', final: false });
    engine.options!.onTranscript({ role: 'assistant', text: 'Added it.', final: true });
    expect(messages()).to.deep.equal(['user: add a scene', 'assistant: Added it.']);
    session.endVoice();
    engine.options!.onTranscript({ role: 'user', text: 'after the end', final: true });
    expect(messages()).to.have.length(2);
  });

  it('a start failure becomes a notice, not a rejection, and emits no voice events', async () => {
    const { session, events, notices } = setup();
    const engine = new FakeEngine();
    engine.failWith = new DOMException('Permission denied', 'NotAllowedError');
    await session.startVoice(engine);
    expect(session.state.voice).to.equal(null);
    expect(types(events).filter((t) => t.startsWith('voice'))).to.deep.equal([]);
    expect(notices()).to.deep.equal([{ kind: 'voice-failed', reason: 'mic-denied' }]);

    await session.startVoice(unavailableVoiceEngine('speech recognition is not supported in this browser'));
    expect(notices().at(-1)).to.deep.equal({ kind: 'voice-failed', reason: 'unsupported', message: 'speech recognition is not supported in this browser' });
  });

  it('no microphone, a refused one, no audio output and a device that never answers each get their own message (a label key)', async () => {
    const { session, notices } = setup();
    const cases: Array<[Error, string, keyof WaveLabels, string]> = [
      [new DOMException('Requested device not found', 'NotFoundError'), 'no-microphone', 'voiceNoMicrophone', 'Voice needs a microphone, and none was found.'],
      [new DOMException('Permission denied', 'NotAllowedError'), 'mic-denied', 'voiceMicDenied', 'Voice needs the microphone, and access to it was refused.'],
      [new VoiceAudioError('no-audio-output', 'no audio output'), 'no-audio-output', 'voiceNoAudioOutput', 'Voice could not play sound: no audio output was found.'],
      [new VoiceAudioError('timed-out', 'the microphone did not open in time'), 'timed-out', 'voiceTimedOut', 'Voice could not start: the microphone or the connection did not respond. Try again.'],
    ];
    for (const [error, reason, key, text] of cases) {
      for (const failReason of [audioFailureReason(error), 'error']) {
        // Whether the engine names the cause as it ends or only the error says it.
        const engine = new FakeEngine();
        engine.failWith = error;
        engine.failReason = failReason;
        await session.startVoice(engine);
        const last = notices().at(-1);
        expect(last).to.deep.equal({ kind: 'voice-failed', reason });
        // The element words it from the page's own label for that key, or the English default.
        expect(noticeText(last, resolveLabels({ [key]: `L:${key}` }))).to.equal(`L:${key}`);
        expect(noticeText(last, resolveLabels(null))).to.equal(text);
      }
    }
    // Nothing is left half-open: voice starts again afterwards.
    await session.startVoice(new FakeEngine());
    expect(session.state.voice?.state).to.equal('listening');
  });

  it('a realtime start whose audio context never resumes (no audio output) ends clearly, and voice can be started again', async () => {
    const { session, clock, notices } = setup();
    const mic = { getTracks: () => [{ stop() {} }] } as unknown as MediaStream;
    class HangingContext {
      state = 'suspended';
      resume = () => new Promise<void>(() => undefined);
      close = () => Promise.resolve();
    }
    let minted = 0;
    const engine = createRealtimeEngine({
      createSession: async () => {
        minted++;
        throw new Error('unreachable');
      },
      audio: createBrowserAudio({ mediaDevices: { getUserMedia: async () => mic }, AudioContextImpl: HangingContext as unknown as typeof AudioContext, clock }),
      clock,
    });
    const starting = session.startVoice(engine);
    // The wait for audio output is armed (a timer on the fake clock) before the clock moves.
    await until(() => clock.scheduled.includes(VoiceStartTimeoutMs.resume), 'the audio-output wait armed');
    expect(session.state.voice?.state).to.equal('connecting');
    clock.tick(5_000);
    await starting;
    expect(session.state.voice).to.equal(null);
    expect(notices().at(-1)).to.deep.equal({ kind: 'voice-failed', reason: 'no-audio-output' });
    expect(minted).to.equal(0);
    expect(clock.pending).to.equal(0);
    await session.startVoice(new FakeEngine());
    expect(session.state.voice?.state).to.equal('listening');
  });

  it('sendForReply runs the text loop, returns the reply, and the spoken turn is recorded once', async () => {
    let deps: SessionLoopDeps | undefined;
    const loop: SessionLoop = {
      async send(text) {
        const push = (u: LoopUpdate) => deps!.onUpdate(u);
        push({ type: 'user-message', id: 'u1', text });
        push({ type: 'assistant-done', id: 'a0', text: 'Let me check.' });
        push({ type: 'assistant-done', id: 'a1', text: `You said ${text}.` });
      },
      async retry() {},
      reset() {},
    };
    const { session, messages } = setup((d) => {
      deps = d;
      return loop;
    });
    const engine = new FakeEngine('browser');
    await session.startVoice(engine);
    // What the browser engine does with one final utterance.
    expect(engine.hear('hello there')).to.equal('pass');
    const reply = await session.sendForReply('hello there', new AbortController().signal);
    expect(reply).to.equal('You said hello there.');
    engine.options!.onTranscript({ role: 'assistant', text: reply, final: true });
    expect(messages()).to.deep.equal(['user: hello there', 'assistant: Let me check.', 'assistant: You said hello there.']);
  });

  it('spoken turns enter the record like typed ones: the next text request carries them (realtime lines too)', async () => {
    let deps: SessionLoopDeps | undefined;
    const { session } = setup((d) => {
      deps = d;
      return { async send() {}, async retry() {}, reset() {} };
    });
    const engine = new FakeEngine('realtime');
    await session.startVoice(engine);
    engine.hear('what is on my list');
    engine.options!.onTranscript({ role: 'assistant', text: 'Milk and eggs.', final: true });
    engine.options!.onTranscript({ role: 'assistant', text: 'Anything else?', final: true });
    session.endVoice();
    await session.send('no thanks');
    expect(toModelMessages(deps!.record())).to.deep.equal([
      { role: 'user', content: 'what is on my list' },
      { role: 'assistant', content: 'Milk and eggs.' },
      { role: 'assistant', content: 'Anything else?' },
    ]);
  });

  it('a browser-voice turn is one visitor message and one reply in the record, whatever the order of echoes', async () => {
    let deps: SessionLoopDeps | undefined;
    let turn = 0;
    const loop: SessionLoop = {
      async send(text) {
        turn += 1;
        deps!.onUpdate({ type: 'user-message', id: `u${turn}`, text });
        deps!.onUpdate({ type: 'assistant-done', id: `a${turn}`, text: `Said: ${text}` });
      },
      async retry() {},
      reset() {},
    };
    const { session, messages } = setup((d) => {
      deps = d;
      return loop;
    });
    const engine = new FakeEngine('browser');
    await session.startVoice(engine);
    for (const said of ['one', 'one']) {
      engine.hear(said);
      const reply = await session.sendForReply(said, new AbortController().signal);
      engine.options!.onTranscript({ role: 'assistant', text: reply, final: true });
    }
    // The same words twice are two turns, each recorded once.
    expect(messages()).to.deep.equal(['user: one', 'assistant: Said: one', 'user: one', 'assistant: Said: one']);
    expect(toModelMessages(deps!.record()).map((m) => m.role)).to.deep.equal(['user', 'assistant', 'user', 'assistant']);
  });

  it('text-loop turns during voice carry the tool set voice opened with', async () => {
    let deps: SessionLoopDeps | undefined;
    const { session } = setup((d) => {
      deps = d;
      return { async send() {}, async retry() {}, reset() {} };
    });
    session.registerTool('first', { description: 'One.', handler: () => ({}) });
    await session.startVoice(new FakeEngine('browser'));
    session.registerTool('second', { description: 'Two.', handler: () => ({}) });
    await session.sendForReply('hi', new AbortController().signal);
    expect(deps!.schemas().map((t) => t.name)).to.deep.equal(['first']);
    session.endVoice();
    expect(deps!.schemas().map((t) => t.name)).to.deep.equal(['first', 'second']);
  });

  it('aborting a sendForReply turn stops that reply', async () => {
    let seen: AbortSignal | null = null;
    const { session } = setup(() => ({
      send: (_text, signal) => {
        seen = signal;
        return new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      },
      async retry() {},
      reset() {},
    }));
    const turn = new AbortController();
    const pending = session.sendForReply('hi', turn.signal);
    turn.abort(new Error('voice ended'));
    expect(await pending).to.equal('');
    expect(seen!.aborted).to.equal(true);
  });
});

describe('voice as a plug-in on the session\'s public API', () => {
  afterEach(() => {
    for (const s of sessions.splice(0)) s.dispose();
  });

  it('the plug-in runs on public members only: a host built from them alone confirms by voice, records turns and withdraws on end', async () => {
    const { VoicePlugin } = await import('../../src/agent/voice-plugin.js');
    const { session, clock, chips, messages } = setup();
    let deletes = 0;
    session.registerTool('delete_task', { confirm: true, handler: () => ++deletes });
    // Nothing but the session's public members: no private field is reachable from here.
    const host = {
      get state() {
        return session.state;
      },
      clock: session.clock,
      subscribe: session.subscribe.bind(session),
      getHostToolSchemas: session.getHostToolSchemas.bind(session),
      getContext: session.getContext.bind(session),
      runToolCall: session.runToolCall.bind(session),
      appendTurn: session.appendTurn.bind(session),
      answerConfirmation: session.answerConfirmation.bind(session),
      revokeGrant: session.revokeGrant.bind(session),
      approveSpending: session.approveSpending.bind(session),
      cancelConfirmations: session.cancelConfirmations.bind(session),
    };
    const out: { voice: unknown[]; events: string[]; notices: unknown[] } = { voice: [], events: [], notices: [] };
    const plugin = new VoicePlugin(host, {
      setVoice: (v) => out.voice.push(v),
      notice: (_l, n) => out.notices.push(n),
      emit: (e) => out.events.push(e.type),
    });
    const engine = new FakeEngine();
    await plugin.start(engine);
    expect(out.events).to.deep.equal(['voice-started']);

    // A spoken yes after the question confirms; the handler runs once.
    const first = engine.call('delete_task');
    await until(() => chips().find((c) => c.status === 'awaiting-confirmation'), 'confirmation');
    clock.tick(100);
    expect(engine.hear('yes')).to.equal('consumed');
    expect((await first).status).to.equal('succeeded');
    expect(deletes).to.equal(1);
    expect(messages()).to.include('user: yes');

    // A spoken line from before the question does not settle it; ending voice withdraws it (cancelled, not declined).
    const second = engine.call('delete_task', {}, 'c2');
    await until(() => chips().find((c) => c.id === 'c2' && c.status === 'awaiting-confirmation'), 'second confirmation');
    expect(engine.hear('yes', clock.now() - 1_000)).to.equal('pass');
    plugin.end('stopped');
    expect((await second).status).to.equal('cancelled');
    expect(chips().find((c) => c.id === 'c2')?.status).to.equal('cancelled');
    expect(deletes).to.equal(1);
    expect(out.events).to.deep.equal(['voice-started', 'voice-ended']);
    expect(out.voice.at(-1)).to.equal(null);
  });

  it('ending voice while its code is still loading: it never starts, nothing is left connecting', async () => {
    const { session, events } = setup();
    const engine = new FakeEngine();
    const starting = session.startVoice(engine);
    expect(session.state.voice).to.deep.include({ state: 'connecting' });
    session.endVoice('stopped');
    await starting;
    expect(engine.options, 'the engine was never started').to.equal(null);
    expect(session.state.voice ?? null).to.equal(null);
    expect(events.filter((e) => e.type === 'voice-started' || e.type === 'voice-ended')).to.deep.equal([]);
    // Voice can start afterwards.
    const next = new FakeEngine();
    await session.startVoice(next);
    expect(session.state.voice).to.deep.include({ state: 'listening' });
  });

  it('closing while voice loads is the same: the chat closed, voice stays off', async () => {
    const { session } = setup();
    const engine = new FakeEngine();
    const starting = session.startVoice(engine);
    session.close();
    await starting;
    expect(engine.options).to.equal(null);
    expect(session.state.voice ?? null).to.equal(null);
  });
});

describe('voice waits and the record', () => {
  afterEach(() => {
    for (const s of sessions.splice(0)) s.dispose();
  });

  it('a confirmation that outlives the 240 s voice wait in a real loop ends as one cancelled chip, and the model reads the wait result', async () => {
    const { ConversationLoop } = await import('../../src/agent/conversation-loop.js');
    const requests: Array<{ messages: unknown[] }> = [];
    const steps = [
      [{ type: 'tool_call', id: 'c1', name: 'delete_task', arguments: {} }, { type: 'end', reason: 'tool_calls' }],
      [{ type: 'text', delta: 'It was not deleted.' }, { type: 'end', reason: 'stop' }],
    ];
    const transport = {
      step(request: { messages: unknown[] }) {
        requests.push(structuredClone(request));
        const events = steps.shift() ?? [];
        return (async function* () {
          yield* events;
        })();
      },
    };
    const { session, clock, chips } = setup((deps) => new ConversationLoop({ ...deps, transport: transport as never }));
    session.registerTool('delete_task', { description: 'Delete.', confirm: true, handler: () => ({}) });
    await session.startVoice(new FakeEngine('browser'));
    const turn = session.sendForReply('delete it', new AbortController().signal);
    await until(() => chips().some((c) => c.status === 'awaiting-confirmation'), 'the confirmation chip');
    await clock.tickAsync(240_000);
    expect(await turn).to.equal('It was not deleted.');
    const parts = chips().filter((c) => c.id === 'c1');
    expect(parts, 'one chip for the call').to.have.length(1);
    expect(parts[0]).to.deep.include({ status: 'cancelled', step: parts[0]!.step });
    expect(parts[0]!.step).to.be.a('string');
    const told = (requests[1]!.messages as Array<{ role: string; content?: string }>).find((m) => m.role === 'tool');
    expect(JSON.parse(told!.content!)).to.include({ success: false, timedOut: true });
  });
});
