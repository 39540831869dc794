import { expect } from '@open-wc/testing';
import type { Clock } from '../../src/clock.js';
import { createBrowserEngine, speakableText } from '../../src/voice/browser-engine.js';
import type { SpeechRecognitionEventLike, SpeechRecognitionLike, SpeechUtteranceLike } from '../../src/voice/browser-engine.js';
import { VoiceState } from '../../src/voice/types.js';
import type { UtteranceHandling, VoiceHeard, VoiceQuestion, VoiceStartOptions, VoiceTranscriptEvent } from '../../src/voice/types.js';
import { FakeClock } from '../helpers/fake-clock.js';

/** A recogniser the test drives: `hear()` delivers a result, `end()` ends a phrase. */
class FakeRecognition implements SpeechRecognitionLike {
  static instances: FakeRecognition[] = [];
  lang = '';
  continuous = true;
  interimResults = false;
  onresult: ((event: SpeechRecognitionEventLike) => void) | null = null;
  onerror: ((event: { error: string }) => void) | null = null;
  onend: (() => void) | null = null;
  starts = 0;
  running = false;
  constructor() {
    FakeRecognition.instances.push(this);
  }
  start() {
    if (this.running) throw new Error('InvalidStateError');
    this.running = true;
    this.starts++;
  }
  stop() {
    this.end();
  }
  abort() {
    this.end();
  }
  end() {
    if (!this.running) return;
    this.running = false;
    this.onend?.();
  }
  hear(text: string, isFinal = true) {
    const result = Object.assign([{ transcript: text }], { isFinal });
    this.onresult?.({ resultIndex: 0, results: [result] });
  }
  fail(error: string) {
    this.onerror?.({ error });
    this.end();
  }
}

class FakeUtterance implements SpeechUtteranceLike {
  lang = '';
  onend: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onboundary: (() => void) | null = null;
  constructor(public text: string) {}
}

class FakeSynthesis {
  spoken: FakeUtterance[] = [];
  cancelled = 0;
  speak(u: SpeechUtteranceLike) {
    this.spoken.push(u as FakeUtterance);
  }
  cancel() {
    this.cancelled++;
  }
}

const clock: Clock & { t: number } = { t: 0, now: () => clock.t, setTimeout: () => 0, clearTimeout: () => {} };

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

function setup(opts: { hook?: (text: string, heard: VoiceHeard) => UtteranceHandling; reply?: (text: string, signal: AbortSignal) => Promise<string>; clock?: Clock } = {}) {
  FakeRecognition.instances = [];
  const synthesis = new FakeSynthesis();
  const sent: Array<{ text: string; signal: AbortSignal }> = [];
  const states: VoiceState[] = [];
  const transcripts: VoiceTranscriptEvent[] = [];
  const ends: string[] = [];
  const abort = new AbortController();
  const engine = createBrowserEngine({
    sendText: (text, signal) => {
      sent.push({ text, signal });
      return opts.reply ? opts.reply(text, signal) : Promise.resolve(`You said ${text}.`);
    },
    SpeechRecognitionImpl: FakeRecognition,
    speechSynthesis: synthesis,
    SpeechSynthesisUtteranceImpl: FakeUtterance,
    lang: 'en-GB',
    openMicLevel: null,
    clock: opts.clock ?? clock,
  });
  const options: VoiceStartOptions = {
    signal: abort.signal,
    tools: [],
    context: null,
    runTool: () => Promise.reject(new Error('the browser engine drives the text loop')),
    isConfirming: () => false,
    onState: (s) => states.push(s),
    onTranscript: (e) => transcripts.push(e),
    onEnd: (r) => ends.push(r),
    ...(opts.hook ? { onUserUtterance: opts.hook } : {}),
  };
  return { engine, synthesis, sent, states, transcripts, ends, abort, options, rec: () => FakeRecognition.instances[0]! };
}

describe('browser voice engine', () => {
  it('listens, sends the final utterance through the text loop, speaks the reply, then listens again', async () => {
    const s = setup();
    await s.engine.start(s.options);
    expect(s.engine.kind).to.equal('browser');
    expect(s.engine.state).to.equal(VoiceState.listening);
    const rec = s.rec();
    expect(rec.lang).to.equal('en-GB');
    expect(rec.running).to.equal(true);
    rec.hear('add', false);
    rec.hear('add milk');
    await flush();
    expect(s.sent.map((x) => x.text)).to.deep.equal(['add milk']);
    expect(s.synthesis.spoken.map((u) => u.text)).to.deep.equal(['You said add milk.']);
    expect(s.engine.state).to.equal(VoiceState.speaking);
    expect(rec.running, 'recognition pauses while speaking so the engine never hears itself').to.equal(false);
    s.synthesis.spoken[0]!.onend?.();
    await flush();
    expect(s.engine.state).to.equal(VoiceState.listening);
    expect(rec.running).to.equal(true);
    expect(s.states).to.deep.equal([VoiceState.connecting, VoiceState.listening, VoiceState.thinking, VoiceState.speaking, VoiceState.listening]);
    expect(s.transcripts).to.deep.equal([
      { role: 'user', text: 'add', final: false },
      { role: 'user', text: 'add milk', final: true },
      { role: 'assistant', text: 'You said add milk.', final: true },
    ]);
  });

  it('keeps recognising while a turn waits, so a spoken yes reaches the consent hook and not the model', async () => {
    const reply = deferred<string>();
    const heard: string[] = [];
    const s = setup({
      hook: (text) => {
        heard.push(text);
        return text === 'yes' ? 'consumed' : 'pass';
      },
      reply: () => reply.promise,
    });
    await s.engine.start(s.options);
    const rec = s.rec();
    rec.hear('buy the scene');
    rec.end(); // the browser ends a phrase; the engine restarts it while thinking
    expect(rec.running).to.equal(true);
    expect(s.engine.state).to.equal(VoiceState.thinking);
    rec.hear('yes');
    expect(heard).to.deep.equal(['buy the scene', 'yes']);
    expect(s.sent.map((x) => x.text)).to.deep.equal(['buy the scene']);
    reply.resolve('Bought it.');
    await flush();
    expect(s.synthesis.spoken.map((u) => u.text)).to.deep.equal(['Bought it.']);
  });

  it('queues a passed utterance heard mid-turn and sends it after the reply', async () => {
    const first = deferred<string>();
    const s = setup({ reply: (text) => (text === 'one' ? first.promise : Promise.resolve('')) });
    await s.engine.start(s.options);
    const rec = s.rec();
    rec.hear('one');
    rec.end();
    rec.hear('two');
    expect(s.sent.map((x) => x.text)).to.deep.equal(['one']);
    first.resolve('');
    await flush();
    expect(s.sent.map((x) => x.text)).to.deep.equal(['one', 'two']);
  });

  it('stop() aborts the turn, silences synthesis, stops recognition and calls onEnd once', async () => {
    const pending = deferred<string>();
    const s = setup({ reply: () => pending.promise });
    await s.engine.start(s.options);
    const rec = s.rec();
    rec.hear('hello');
    s.engine.stop('visitor-ended');
    s.engine.stop('again');
    expect(s.sent[0]!.signal.aborted).to.equal(true);
    expect(s.synthesis.cancelled).to.equal(1);
    expect(rec.running).to.equal(false);
    expect(s.ends).to.deep.equal(['visitor-ended']);
    expect(s.engine.state).to.equal(VoiceState.ended);
    pending.resolve('late reply');
    await flush();
    expect(s.synthesis.spoken, 'a reply after the end is never spoken').to.have.length(0);
  });

  it('aborting the start signal ends the session', async () => {
    const s = setup();
    await s.engine.start(s.options);
    s.abort.abort();
    expect(s.ends).to.deep.equal(['aborted']);
    expect(s.engine.state).to.equal(VoiceState.ended);
  });

  it('a denied microphone ends in error; a no-speech pause just keeps listening', async () => {
    const s = setup();
    await s.engine.start(s.options);
    const rec = s.rec();
    rec.fail('no-speech');
    expect(rec.running).to.equal(true);
    expect(s.ends).to.deep.equal([]);
    rec.fail('not-allowed');
    expect(s.ends).to.deep.equal(['mic-denied']);
    expect(s.engine.state).to.equal(VoiceState.error);
    expect(rec.running).to.equal(false);
  });

  it('rejects and ends in error when the browser has no speech recognition', async () => {
    const ends: string[] = [];
    const engine = createBrowserEngine({ sendText: async () => '', SpeechRecognitionImpl: undefined, openMicLevel: null });
    const g = globalThis as unknown as Record<string, unknown>;
    const saved = [g['SpeechRecognition'], g['webkitSpeechRecognition']];
    g['SpeechRecognition'] = undefined;
    g['webkitSpeechRecognition'] = undefined;
    try {
      let error: unknown = null;
      await engine.start({ signal: new AbortController().signal, tools: [], context: null, runTool: () => new Promise(() => {}), isConfirming: () => false, onState() {}, onTranscript() {}, onEnd: (r) => ends.push(r) }).catch((e: unknown) => (error = e));
      expect(String(error)).to.match(/not available/);
      expect(ends).to.deep.equal(['error']);
      expect(engine.state).to.equal(VoiceState.error);
    } finally {
      g['SpeechRecognition'] = saved[0];
      g['webkitSpeechRecognition'] = saved[1];
    }
  });

  it('the output level pulses on word boundaries while speaking and is 0 otherwise', async () => {
    const s = setup();
    await s.engine.start(s.options);
    expect(s.engine.outputLevel()).to.equal(0);
    s.rec().hear('hi');
    await flush();
    clock.t = 1000;
    s.synthesis.spoken[0]!.onboundary?.();
    expect(s.engine.outputLevel()).to.equal(1);
    clock.t = 2000;
    expect(s.engine.outputLevel()).to.equal(0.2);
    expect(s.engine.inputLevel()).to.equal(0);
  });

  it('speaks Markdown as plain words', () => {
    expect(speakableText('**Added** [milk](https://x.test) to your `basket`.\n\n# Done')).to.equal('Added milk to your basket. Done');
  });

  describe('spoken consent', () => {
    const question: VoiceQuestion = { id: 'c1', label: 'Add the scene?', cost: 40, tier3: false, reason: 'shown' };

    it('asks the confirmation aloud with recognition stopped, then listens in a new session: answers carry that session\'s start', async () => {
      const reply = deferred<string>();
      const heard: Array<[string, VoiceHeard]> = [];
      const s = setup({ reply: () => reply.promise, hook: (text, h) => (heard.push([text, h]), text === 'yes' ? 'consumed' : 'pass') });
      clock.t = 0;
      await s.engine.start(s.options);
      const rec = s.rec();
      rec.hear('add the intro scene');
      rec.end();
      clock.t = 100;
      const asked = s.engine.ask!(question) as Promise<void>;
      expect(rec.running, 'the engine never hears its own question').to.equal(false);
      expect(s.engine.state).to.equal(VoiceState.speaking);
      expect(s.synthesis.spoken.at(-1)!.text).to.equal('Add the scene? (40 credits)');
      clock.t = 200;
      s.synthesis.spoken.at(-1)!.onend?.();
      await asked;
      expect(s.engine.state).to.equal(VoiceState.listening);
      expect(rec.running).to.equal(true);
      clock.t = 900;
      rec.hear('yes');
      expect(heard.map(([t, h]) => [t, h.speechStartedAt])).to.deep.equal([
        ['add the intro scene', 0],
        ['yes', 200],
      ]);
      expect(s.sent.map((x) => x.text)).to.deep.equal(['add the intro scene']);
      reply.resolve('');
      s.engine.stop();
    });

    it('what the visitor says while a confirmation waits is kept for the model, and the question is asked again', async () => {
      const reply = deferred<string>();
      const s = setup({ reply: (text) => (text === 'add a scene' ? reply.promise : Promise.resolve('')), hook: () => 'pass' });
      await s.engine.start(s.options);
      const rec = s.rec();
      rec.hear('add a scene');
      rec.end();
      const asked = s.engine.ask!(question) as Promise<void>;
      s.synthesis.spoken.at(-1)!.onend?.();
      await asked;
      const spokenBefore = s.synthesis.spoken.length;
      rec.hear('how much does it cost');
      expect(s.synthesis.spoken.length, 'asked again').to.equal(spokenBefore + 1);
      expect(s.synthesis.spoken.at(-1)!.text).to.equal('Add the scene? (40 credits)');
      s.synthesis.spoken.at(-1)!.onend?.();
      await s.engine.ask!(null);
      reply.resolve('');
      await flush();
      expect(s.sent.map((x) => x.text)).to.deep.equal(['add a scene', 'how much does it cost']);
      s.engine.stop();
    });

    it('a synthesis that never reports its end does not hold the question: it counts as asked after a cap', async () => {
      const fake = new FakeClock(0);
      const s = setup({ clock: fake, reply: () => new Promise(() => undefined), hook: () => 'pass' });
      await s.engine.start(s.options);
      s.rec().hear('add a scene');
      s.rec().end();
      let done = false;
      void (s.engine.ask!(question) as Promise<void>).then(() => (done = true));
      await flush();
      expect(done).to.equal(false);
      fake.tick(60_000);
      await flush();
      expect(done).to.equal(true);
      expect(s.engine.state).to.equal(VoiceState.listening);
      s.engine.stop();
      expect(fake.pending, 'no timer left behind').to.equal(0);
    });
  });
});
