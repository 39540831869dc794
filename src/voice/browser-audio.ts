/**
 * Audio I/O for the realtime engine: microphone → PCM16 24 kHz base64 chunks, and playback of
 * the model's PCM16 deltas, each metered for the waves.
 */
import { systemClock } from '../clock.js';
import type { Clock } from '../clock.js';
import { createLevelMeter } from './level-meter.js';
import type { LevelMeter } from './level-meter.js';
import { REALTIME_SAMPLE_RATE, base64ToBytes, bytesToBase64, floatToPcm16, pcm16ToFloat, resample } from './pcm.js';
import { VoiceAudioError, VoiceEndReason, VoiceStartTimeoutMs, withTimeout } from './types.js';

/** What the realtime engine needs from audio; injected so the engine runs without a sound card. */
export interface RealtimeAudio {
  /** Opens the microphone (rejects when denied) and streams base64 PCM16 24 kHz chunks. */
  start(options: RealtimeAudioStartOptions): Promise<void>;
  /** Queues one base64 PCM16 24 kHz delta for playback, gapless after the previous one. */
  play(base64Pcm16: string): void;
  /** Drops queued and playing audio (the visitor started talking over the model). */
  interrupt(): void;
  inputLevel(): number;
  outputLevel(): number;
  /** Releases the microphone and the audio context. */
  close(): void;
}

export interface RealtimeAudioStartOptions {
  onChunk(base64Pcm16: string): void;
  /** Playback drained: the model has finished speaking aloud. */
  onPlaybackIdle(): void;
  signal: AbortSignal;
}

export interface BrowserAudioOptions {
  mediaDevices?: Pick<MediaDevices, 'getUserMedia'> & Partial<Pick<MediaDevices, 'enumerateDevices'>>;
  AudioContextImpl?: typeof AudioContext;
  /** Microphone chunk length sent per `input_audio_buffer.append`. */
  chunkMs?: number;
  /** Force the ScriptProcessor path (e.g. where blob: modules are blocked by CSP). */
  disableWorklet?: boolean;
  /** For the start timeouts (`VoiceStartTimeoutMs`). */
  clock?: Clock;
  /** Overrides `VoiceStartTimeoutMs.microphone` / `.resume`. */
  timeouts?: { microphone?: number; resume?: number };
}

/**
 * Opens the microphone, failing fast and clearly: no microphone at all (no audio input device,
 * or NotFoundError) is `mic-missing`, a refusal `mic-denied`, a device that never answers
 * `timed-out`. Never hangs: the wait is capped.
 *
 * @example
 * const stream = await openMicrophone(navigator.mediaDevices, { audio: true });
 */
export async function openMicrophone(
  devices: (Pick<MediaDevices, 'getUserMedia'> & Partial<Pick<MediaDevices, 'enumerateDevices'>>) | undefined,
  constraints: MediaStreamConstraints,
  options: { clock?: Clock; timeoutMs?: number } = {},
): Promise<MediaStream> {
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.timeoutMs ?? VoiceStartTimeoutMs.microphone;
  if (!devices || typeof devices.getUserMedia !== 'function') {
    throw new VoiceAudioError(VoiceEndReason.micMissing, 'this page cannot use a microphone (no mediaDevices: an insecure context?)');
  }
  if (typeof devices.enumerateDevices === 'function') {
    // Listing devices needs no permission: with no audio input at all, say so without a prompt.
    const list = await withTimeout(clock, devices.enumerateDevices(), 5_000, () => new Error('enumerate timed out')).catch(() => null);
    if (list && list.length > 0 && !list.some((d) => d.kind === 'audioinput')) {
      throw new VoiceAudioError(VoiceEndReason.micMissing, 'no microphone was found');
    }
  }
  let late: MediaStream | null = null;
  let timedOut = false;
  const opening = devices.getUserMedia(constraints).then((stream) => {
    // Opened after we gave up: release it at once.
    if (timedOut) stream.getTracks().forEach((t) => t.stop());
    late = stream;
    return stream;
  });
  try {
    return await withTimeout(clock, opening, timeoutMs, () => {
      timedOut = true;
      return new VoiceAudioError(VoiceEndReason.timedOut, 'the microphone did not open in time');
    });
  } catch (error) {
    if (late && timedOut) (late as MediaStream).getTracks().forEach((t) => t.stop());
    throw error;
  }
}

// Batches 2048 frames per message so the main thread sees ~20 messages a second, not ~375.
const WORKLET_SOURCE = `class WaveCapture extends AudioWorkletProcessor {
  constructor() { super(); this.buf = new Float32Array(2048); this.n = 0; }
  process(inputs) {
    const ch = inputs[0] && inputs[0][0];
    if (ch) for (let i = 0; i < ch.length; i++) {
      this.buf[this.n++] = ch[i];
      if (this.n === this.buf.length) { this.port.postMessage(this.buf.slice(0)); this.n = 0; }
    }
    return true;
  }
}
registerProcessor('wave-capture', WaveCapture);`;

/**
 * The browser implementation of {@link RealtimeAudio}: getUserMedia, an AudioWorklet (or a
 * ScriptProcessor where worklets cannot load) and gapless AudioBufferSource playback.
 *
 * @example
 * const engine = createRealtimeEngine({ createSession, audio: createBrowserAudio() });
 */
export function createBrowserAudio(options: BrowserAudioOptions = {}): RealtimeAudio {
  const chunkMs = options.chunkMs ?? 100;
  let ctx: AudioContext | null = null;
  let stream: MediaStream | null = null;
  let inMeter: LevelMeter | null = null;
  let outMeter: LevelMeter | null = null;
  let outGain: GainNode | null = null;
  let workletUrl: string | null = null;
  const nodes: AudioNode[] = [];
  const sources = new Set<AudioBufferSourceNode>();
  let playhead = 0;
  let onIdle: () => void = () => {};
  let pending: Float32Array[] = [];
  let pendingLength = 0;
  let closed = false;

  const flushInput = (samples: Float32Array, rate: number, onChunk: (b64: string) => void) => {
    pending.push(resample(samples, rate, REALTIME_SAMPLE_RATE));
    pendingLength += pending[pending.length - 1]!.length;
    if (pendingLength < (REALTIME_SAMPLE_RATE * chunkMs) / 1000) return;
    const joined = new Float32Array(pendingLength);
    let offset = 0;
    for (const part of pending) {
      joined.set(part, offset);
      offset += part.length;
    }
    pending = [];
    pendingLength = 0;
    onChunk(bytesToBase64(floatToPcm16(joined)));
  };

  return {
    async start({ onChunk, onPlaybackIdle, signal }) {
      onIdle = onPlaybackIdle;
      const clock = options.clock ?? systemClock;
      const devices = options.mediaDevices ?? (globalThis.navigator?.mediaDevices as BrowserAudioOptions['mediaDevices']);
      const Ctx = options.AudioContextImpl ?? AudioContext;
      stream = await openMicrophone(devices, { audio: { echoCancellation: true, noiseSuppression: true, channelCount: 1 } }, {
        clock,
        ...(options.timeouts?.microphone !== undefined ? { timeoutMs: options.timeouts.microphone } : {}),
      });
      if (signal.aborted || closed) {
        stream.getTracks().forEach((t) => t.stop());
        throw signal.reason ?? new Error('closed');
      }
      const context = new Ctx();
      ctx = context;
      // With no audio output device, resume() can wait forever (Firefox): give up clearly instead.
      const resumed = await withTimeout(
        clock,
        context.resume().then(
          () => true,
          () => false,
        ),
        options.timeouts?.resume ?? VoiceStartTimeoutMs.resume,
        () => new VoiceAudioError(VoiceEndReason.noAudioOutput, 'no audio output: the audio context did not start'),
      ).catch((error: unknown) => {
        this.close();
        throw error;
      });
      if (!resumed && context.state !== 'running') {
        this.close();
        throw new VoiceAudioError(VoiceEndReason.noAudioOutput, 'no audio output: the audio context could not start');
      }
      if (signal.aborted || closed) throw signal.reason ?? new Error('closed');
      const mic = context.createMediaStreamSource(stream);
      inMeter = createLevelMeter(context, mic);
      // Capture nodes only run when pulled by the destination; a muted gain keeps the mic silent.
      const mute = context.createGain();
      mute.gain.value = 0;
      mute.connect(context.destination);
      nodes.push(mic, mute);
      let capture: AudioNode | null = null;
      if (!options.disableWorklet && typeof AudioWorkletNode !== 'undefined' && context.audioWorklet) {
        try {
          workletUrl = URL.createObjectURL(new Blob([WORKLET_SOURCE], { type: 'text/javascript' }));
          await context.audioWorklet.addModule(workletUrl);
          const node = new AudioWorkletNode(context, 'wave-capture', { numberOfInputs: 1, numberOfOutputs: 1, channelCount: 1 });
          node.port.onmessage = (e: MessageEvent<Float32Array>) => flushInput(e.data, context.sampleRate, onChunk);
          capture = node;
        } catch {
          // A CSP without blob: in script-src blocks the module: fall back to ScriptProcessor.
          capture = null;
        }
      }
      if (!capture) {
        const node = context.createScriptProcessor(4096, 1, 1);
        node.onaudioprocess = (e) => flushInput(new Float32Array(e.inputBuffer.getChannelData(0)), context.sampleRate, onChunk);
        capture = node;
      }
      mic.connect(capture);
      capture.connect(mute);
      nodes.push(capture);
      outGain = context.createGain();
      outGain.connect(context.destination);
      outMeter = createLevelMeter(context, outGain);
    },
    play(base64Pcm16) {
      if (!ctx || !outGain || closed) return;
      const samples = pcm16ToFloat(base64ToBytes(base64Pcm16));
      if (samples.length === 0) return;
      const buffer = ctx.createBuffer(1, samples.length, REALTIME_SAMPLE_RATE);
      buffer.copyToChannel(samples, 0);
      const source = ctx.createBufferSource();
      source.buffer = buffer;
      source.connect(outGain);
      const at = Math.max(ctx.currentTime, playhead);
      source.start(at);
      playhead = at + buffer.duration;
      sources.add(source);
      source.onended = () => {
        sources.delete(source);
        if (sources.size === 0) onIdle();
      };
    },
    interrupt() {
      for (const source of sources) {
        source.onended = null;
        try {
          source.stop();
        } catch {
          // Not started yet or already stopped: nothing to stop.
        }
      }
      sources.clear();
      playhead = 0;
    },
    inputLevel: () => inMeter?.level() ?? 0,
    outputLevel: () => outMeter?.level() ?? 0,
    close() {
      if (closed) return;
      closed = true;
      this.interrupt();
      inMeter?.dispose();
      outMeter?.dispose();
      for (const node of nodes) node.disconnect();
      stream?.getTracks().forEach((t) => t.stop());
      if (workletUrl) URL.revokeObjectURL(workletUrl);
      void ctx?.close().catch(() => undefined);
    },
  };
}
