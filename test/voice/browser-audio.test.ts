import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { createBrowserAudio, openMicrophone } from '../../src/voice/browser-audio.js';
import { audioFailureReason, VoiceAudioError, VoiceStartTimeoutMs } from '../../src/voice/types.js';
import { FakeClock, flushMicrotasks } from '../helpers/fake-clock.js';
import { until } from '../helpers/until.js';
import { base64ToBytes, bytesToBase64, floatToPcm16, pcm16ToFloat, resample } from '../../src/voice/pcm.js';

describe('pcm', () => {
  it('round-trips float samples through PCM16 and base64', () => {
    const input = new Float32Array([0, 0.5, -0.5, 1, -1, 0.25]);
    const back = pcm16ToFloat(base64ToBytes(bytesToBase64(floatToPcm16(input))));
    expect(back.length).to.equal(input.length);
    input.forEach((v, i) => expect(back[i]).to.be.closeTo(v, 1 / 16384));
  });

  it('writes little-endian PCM16 and clips out-of-range samples', () => {
    expect(Array.from(floatToPcm16(new Float32Array([1, -1, 2])))).to.deep.equal([0xff, 0x7f, 0x00, 0x80, 0xff, 0x7f]);
  });

  it('resamples 48 kHz to 24 kHz by half and leaves equal rates alone', () => {
    const input = new Float32Array(480).map((_, i) => i / 480);
    const out = resample(input, 48000, 24000);
    expect(out.length).to.equal(240);
    expect(out[10]).to.be.closeTo(input[20]!, 1e-6);
    expect(resample(input, 24000, 24000)).to.equal(input);
  });

  it('turns invalid base64 into no samples instead of throwing', () => {
    expect(base64ToBytes('%%%').length).to.equal(0);
  });
});

describe('createBrowserAudio', () => {
  for (const disableWorklet of [false, true]) {
    it(`streams a real microphone-like stream as base64 PCM16 24 kHz chunks and meters playback (${disableWorklet ? 'ScriptProcessor' : 'AudioWorklet'})`, async () => {
      // Autoplay policy: audio contexts start only after a real (trusted) user activation.
      const button = document.createElement('button');
      document.body.append(button);
      button.focus();
      await sendKeys({ press: ' ' }); // the space bar, by the key name both CDP and BiDi know
      button.remove();
      // A tone through a MediaStream stands in for the microphone.
      const source = new AudioContext();
      await source.resume();
      const osc = source.createOscillator();
      const dest = source.createMediaStreamDestination();
      osc.connect(dest);
      osc.start();
      const chunks: string[] = [];
      const audio = createBrowserAudio({ mediaDevices: { getUserMedia: async () => dest.stream }, chunkMs: 50, disableWorklet });
      const gotChunk = new Promise<void>((resolve) => {
        void audio.start({
          signal: new AbortController().signal,
          onChunk: (b64) => {
            chunks.push(b64);
            resolve();
          },
          onPlaybackIdle: () => {},
        });
      });
      await gotChunk;
      const samples = pcm16ToFloat(base64ToBytes(chunks[0]!));
      expect(samples.length).to.be.greaterThanOrEqual(1200); // ≥ 50 ms at 24 kHz
      expect(Math.max(...Array.from(samples, Math.abs))).to.be.greaterThan(0.1);

      // Five seconds of tone (stopped by close() as soon as it is metered): a loaded machine whose
      // audio thread starts playback late still meters it while it plays.
      const tone = new Float32Array(5 * 24000).map((_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / 24000));
      audio.play(bytesToBase64(floatToPcm16(tone)));
      const level = await until(() => (audio.outputLevel() > 0.3 ? audio.outputLevel() : 0), 'the playback metered above 0.3', 4_000);
      expect(level).to.be.greaterThan(0.3);
      expect(audio.inputLevel()).to.be.greaterThan(0);
      audio.close();
      expect(audio.outputLevel()).to.equal(0);
      osc.stop();
      await source.close();
    });
  }
});

/** A stand-in microphone stream whose tracks report being stopped. */
function fakeStream() {
  const track = { stopped: false, stop() { this.stopped = true; } };
  return { stream: { getTracks: () => [track] } as unknown as MediaStream, track };
}

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return audioFailureReason(error);
  }
  return 'resolved';
}

describe('audio start never hangs, and says why it failed', () => {
  it('with no audio input device at all it is "mic-missing", without asking for permission', async () => {
    let asked = 0;
    const devices = {
      enumerateDevices: async () => [{ kind: 'audiooutput' } as MediaDeviceInfo, { kind: 'videoinput' } as MediaDeviceInfo],
      getUserMedia: async () => {
        asked++;
        return fakeStream().stream;
      },
    };
    expect(await reasonOf(openMicrophone(devices, { audio: true }))).to.equal('mic-missing');
    expect(asked).to.equal(0);
  });

  it('a missing microphone, a refusal and other device errors each map to their own reason', async () => {
    const failing = (name: string) => ({ getUserMedia: () => Promise.reject(new DOMException('x', name)) });
    expect(await reasonOf(openMicrophone(failing('NotFoundError'), { audio: true }))).to.equal('mic-missing');
    expect(await reasonOf(openMicrophone(failing('NotAllowedError'), { audio: true }))).to.equal('mic-denied');
    expect(await reasonOf(openMicrophone(failing('SecurityError'), { audio: true }))).to.equal('mic-denied');
    expect(await reasonOf(openMicrophone(failing('AbortError'), { audio: true }))).to.equal('error');
    expect(await reasonOf(openMicrophone(undefined, { audio: true }))).to.equal('mic-missing');
  });

  it('a microphone that never opens times out, and a stream that arrives late is released', async () => {
    const clock = new FakeClock(0);
    let deliver!: (s: MediaStream) => void;
    const devices = { getUserMedia: () => new Promise<MediaStream>((r) => (deliver = r)) };
    const opening = reasonOf(openMicrophone(devices, { audio: true }, { clock, timeoutMs: 45_000 }));
    await flushMicrotasks();
    clock.tick(44_999);
    await flushMicrotasks();
    clock.tick(1);
    expect(await opening).to.equal('timed-out');
    const late = fakeStream();
    deliver(late.stream);
    await flushMicrotasks();
    expect(late.track.stopped).to.equal(true);
    expect(clock.pending).to.equal(0);
  });

  it('an audio context whose resume() never settles (no audio output) ends as "no-audio-output" and releases the microphone', async () => {
    const clock = new FakeClock(0);
    const mic = fakeStream();
    class HangingContext {
      state = 'suspended';
      closed = false;
      resume() {
        return new Promise<void>(() => undefined);
      }
      close() {
        this.closed = true;
        return Promise.resolve();
      }
    }
    const audio = createBrowserAudio({
      mediaDevices: { getUserMedia: async () => mic.stream },
      AudioContextImpl: HangingContext as unknown as typeof AudioContext,
      clock,
    });
    const starting = audio.start({ signal: new AbortController().signal, onChunk() {}, onPlaybackIdle() {} });
    const failed = starting.then(
      () => null,
      (e: unknown) => e,
    );
    // The wait for audio output is armed (a timer on the fake clock) before the clock moves.
    await until(() => clock.scheduled.includes(VoiceStartTimeoutMs.resume), 'the audio-output wait armed');
    clock.tick(5_000);
    const error = await failed;
    expect(error).to.be.instanceOf(VoiceAudioError);
    expect(audioFailureReason(error)).to.equal('no-audio-output');
    expect(mic.track.stopped).to.equal(true);
    expect(clock.pending).to.equal(0);
  });
});
