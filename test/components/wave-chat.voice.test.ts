import { aTimeout, expect, fixture, html, nextFrame, oneEvent } from '@open-wc/testing';
import { until } from '../helpers/until.js';
import '../../components/define.js';
import { WaveChat } from '../../components/wave-chat.js';
import type { WaveComposer } from '../../components/wave-composer.js';
import type { WaveVoiceBubble } from '../../components/wave-voice-bubble.js';
import type { TranscriptItem } from '../../src/agent/types.js';
import { WaveSession } from '../../src/agent/wave-session.js';
import { MemoryStorage } from '../../src/storage.js';
import { VoiceState } from '../../src/voice/types.js';
import type { VoiceEngine, VoiceStartOptions } from '../../src/voice/types.js';
import { realClick } from './fake-session.js';

/** An engine the test drives: levels, tool calls, the end. */
class FakeEngine implements VoiceEngine {
  readonly kind = 'browser' as const;
  state: VoiceState = VoiceState.idle;
  options: VoiceStartOptions | null = null;
  stops: string[] = [];
  input = 0;
  output = 0;

  async start(options: VoiceStartOptions): Promise<void> {
    this.options = options;
    this.state = VoiceState.listening;
    options.onState(this.state);
  }
  stop(reason = 'stopped'): void {
    this.stops.push(reason);
    if (this.state === VoiceState.ended) return;
    this.state = VoiceState.ended;
    this.options?.onState(this.state);
    this.options?.onEnd(reason);
  }
  inputLevel(): number {
    return this.input;
  }
  outputLevel(): number {
    return this.output;
  }
}

const originalSession = WaveChat.createSession;
const originalEngine = WaveChat.createVoiceEngine;
let engines: FakeEngine[] = [];
let sessions: WaveSession[] = [];

const q = <T extends Element = HTMLElement>(el: WaveChat, selector: string): T | null => el.shadowRoot!.querySelector<T>(selector);
const composerButton = (el: WaveChat) => q(el, 'wave-composer')!.shadowRoot!.querySelector<HTMLButtonElement>('[part~="voice-button"]');


async function frames(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await nextFrame();
}

describe('<wave-chat> voice', () => {
  beforeEach(() => {
    engines = [];
    sessions = [];
    WaveChat.createSession = (el) => {
      const s = new WaveSession({ siteId: el.siteId || 'voice', storage: new MemoryStorage(), validatorEngine: 'interpreter', warn: () => undefined });
      sessions.push(s);
      return s;
    };
    WaveChat.createVoiceEngine = () => {
      const e = new FakeEngine();
      engines.push(e);
      return e;
    };
  });
  afterEach(() => {
    WaveChat.createSession = originalSession;
    WaveChat.createVoiceEngine = originalEngine;
    for (const s of sessions) s.dispose();
  });

  it('the voice button enters voice mode, the waves follow the engine level, and "End voice" returns to text', async () => {
    const el = await fixture<WaveChat>(html`<wave-chat open voice-available></wave-chat>`);
    await q<WaveComposer>(el, 'wave-composer')!.updateComplete;
    const started = oneEvent(el, 'wave-voice-started');
    await realClick(composerButton(el)!);
    await started;
    await el.updateComplete;

    expect(engines).to.have.length(1);
    expect(el.voice).to.equal(true);
    expect(el.state.voice).to.deep.include({ state: 'listening', engine: 'browser' });
    expect(q(el, 'wave-transcript')!.hidden).to.equal(true);
    expect(q(el, 'wave-composer')!.hidden).to.equal(true);
    const bubble = q<WaveVoiceBubble>(el, 'wave-voice-bubble')!;
    expect(bubble).to.exist;

    engines[0]!.input = 0.7;
    await frames(3);
    expect(bubble.shownLevel).to.be.closeTo(0.7, 0.01);
    expect(bubble.hasAttribute('speaking')).to.equal(true);
    // The louder of microphone and playback drives the waves.
    engines[0]!.output = 0.9;
    await frames(3);
    expect(bubble.shownLevel).to.be.closeTo(0.9, 0.01);

    await bubble.updateComplete;
    const ended = oneEvent(el, 'wave-voice-ended');
    await realClick(bubble.shadowRoot!.querySelector('[part~="end-voice-button"]')!);
    expect((await ended).detail).to.deep.equal({ engine: 'browser', reason: 'stopped' });
    await el.updateComplete;
    expect(engines[0]!.stops).to.deep.equal(['stopped']);
    expect(el.voice).to.equal(false);
    expect(el.levelSource).to.equal(null);
    expect(q(el, 'wave-voice-bubble')).to.equal(null);
    expect(q(el, 'wave-transcript')!.hidden).to.equal(false);
  });

  it('a page listener can veto the start request', async () => {
    const el = await fixture<WaveChat>(html`<wave-chat open voice-available></wave-chat>`);
    const veto = (e: Event) => e.preventDefault();
    document.addEventListener('wave-voice-start-request', veto);
    try {
      await q<WaveComposer>(el, 'wave-composer')!.updateComplete;
      composerButton(el)!.click();
      await aTimeout(0);
      expect(engines).to.have.length(0);
      expect(el.voice).to.equal(false);
    } finally {
      document.removeEventListener('wave-voice-start-request', veto);
    }
  });

  it('a confirmation shows in the bubble; closing the panel ends voice and cancels it', async () => {
    const el = await fixture<WaveChat>(html`<wave-chat open></wave-chat>`);
    el.registerTool('delete_task', { description: 'Delete.', confirm: true, handler: () => ({}) });
    await el.startVoice();
    await el.updateComplete;
    const engine = engines[0]!;
    const outcome = engine.options!.runTool({ id: 'c1', name: 'delete_task', arguments: '{}' }, new AbortController().signal);
    await until(() => el.state.items.some((i) => i.kind === 'tool' && i.status === 'awaiting-confirmation'), 'a confirmation chip');
    await el.updateComplete;
    const bubble = q<WaveVoiceBubble>(el, 'wave-voice-bubble')!;
    await bubble.updateComplete;
    expect(bubble.shadowRoot!.querySelector('wave-tool-chip')).to.exist;

    el.hide();
    await el.updateComplete;
    expect(engine.stops).to.deep.equal(['closed']);
    expect((await outcome).status).to.equal('cancelled');
    expect(el.voice).to.equal(false);
  });

  it('with two confirmations waiting, the bubble shows the one asked aloud, then the next in turn', async () => {
    const el = await fixture<WaveChat>(html`<wave-chat open></wave-chat>`);
    el.registerTool('delete_task', { description: 'Delete.', confirm: true, confirmLabel: 'Delete?', handler: () => ({}) });
    await el.startVoice();
    const engine = engines[0]!;
    const first = engine.options!.runTool({ id: 'c1', name: 'delete_task', arguments: '{"n":1}' }, new AbortController().signal);
    void engine.options!.runTool({ id: 'c2', name: 'delete_task', arguments: '{"n":2}' }, new AbortController().signal);
    await until(() => el.state.items.filter((i) => i.kind === 'tool' && i.status === 'awaiting-confirmation').length === 2, 'two chips');
    await el.updateComplete;
    const bubble = q<WaveVoiceBubble>(el, 'wave-voice-bubble')!;
    await bubble.updateComplete;
    expect(bubble.confirmation?.id).to.equal('c1');
    // The visitor taps Cancel on the first (the core session, as a trusted tap reaches it).
    sessions[0]!.answerConfirmation('c1', 'cancel', { isTrusted: true, source: 'pointer' });
    await first;
    await el.updateComplete;
    await bubble.updateComplete;
    expect(bubble.confirmation?.id).to.equal('c2');
  });

  it('no microphone says so in the page\'s own words, and the voice button works again', async () => {
    let fail = true;
    WaveChat.createVoiceEngine = () => {
      const e = new FakeEngine();
      if (fail) {
        e.start = async (options) => {
          options.onEnd('mic-missing');
          throw new DOMException('Requested device not found', 'NotFoundError');
        };
      }
      engines.push(e);
      return e;
    };
    const el = await fixture<WaveChat>(html`<wave-chat open voice-available></wave-chat>`);
    el.labels = { voiceNoMicrophone: 'Pas de micro.' };
    await el.startVoice();
    await el.updateComplete;
    const notice = q(el, 'wave-transcript')!.shadowRoot!.querySelector('[part~="notice"]');
    expect(notice?.textContent).to.contain('Pas de micro.');
    expect(el.voice).to.equal(false);
    fail = false;
    composerButton(el)!.click();
    await until(() => el.voice, 'voice on after the failure');
  });

  it('an engine that cannot run becomes a notice in the transcript, not voice mode', async () => {
    WaveChat.createVoiceEngine = () => null;
    const el = await fixture<WaveChat>(html`<wave-chat open voice-available></wave-chat>`);
    el.dispatchEvent(new Event('wave-voice-start-request', { bubbles: true, composed: true, cancelable: true }));
    await until(() => el.state.items.some((i) => i.kind === 'notice'), 'a notice');
    await el.updateComplete;
    expect(el.voice).to.equal(false);
    expect(el.levelSource).to.equal(null);
    const notice = el.state.items.find((i): i is Extract<TranscriptItem, { kind: 'notice' }> => i.kind === 'notice')!;
    expect(notice).to.deep.include({ level: 'error', notice: { kind: 'voice-failed', reason: 'unsupported', message: 'voice is not supported in this browser' } });
    await el.updateComplete;
    const transcript = el.shadowRoot!.querySelector('wave-transcript')!;
    await (transcript as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    expect(transcript.shadowRoot!.querySelector('[part~="notice"]')!.textContent!.trim()).to.equal("Voice isn't available in this browser.");

    WaveChat.createVoiceEngine = () => {
      throw new Error('boom');
    };
    await el.startVoice();
    expect(el.state.items.filter((i) => i.kind === 'notice')).to.have.length(2);
  });

  it('voice-engine picks the engine the default factory makes; realtime offers the voice button', async () => {
    WaveChat.createVoiceEngine = originalEngine;
    const el = await fixture<WaveChat>(html`<wave-chat voice-engine="realtime" endpoint="/wave"></wave-chat>`);
    expect(el.voiceAvailable).to.equal(true);
    expect(WaveChat.createVoiceEngine(el, el.session)?.kind).to.equal('realtime');
    el.voiceEngine = 'browser';
    const hasWebSpeech = 'webkitSpeechRecognition' in globalThis || 'SpeechRecognition' in globalThis;
    expect(WaveChat.createVoiceEngine(el, el.session)?.kind ?? null).to.equal(hasWebSpeech ? 'browser' : null);
    const plain = await fixture<WaveChat>(html`<wave-chat></wave-chat>`);
    expect(plain.voiceAvailable).to.equal(hasWebSpeech);
  });
});
