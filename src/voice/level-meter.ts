/**
 * The waves' input: the real audio level of a node (microphone or playback), read from an
 * AnalyserNode on demand, so nothing runs between animation frames.
 */

/** A smoothed 0..1 level of one audio node. */
export interface LevelMeter {
  /** RMS-based level, 0..1, smoothed (fast attack, slower release). */
  level(): number;
  /** Disconnects the analyser; `level()` then returns 0. */
  dispose(): void;
}

// Levels are mapped from dBFS: -60 dB (room noise) reads 0, -10 dB (loud speech) reads 1.
const FLOOR_DB = -60;
const CEILING_DB = -10;
const ATTACK_S = 0.03;
const RELEASE_S = 0.25;

/**
 * Meters `source` through an AnalyserNode on `ctx`. The analyser is a tap: nothing is routed
 * to the destination, so metering the microphone never plays it back.
 *
 * @example
 * const mic = ctx.createMediaStreamSource(stream);
 * const meter = createLevelMeter(ctx, mic);
 * requestAnimationFrame(function draw() { wave.amplitude = meter.level(); requestAnimationFrame(draw); });
 */
export function createLevelMeter(ctx: BaseAudioContext, source: AudioNode): LevelMeter {
  const analyser = ctx.createAnalyser();
  analyser.fftSize = 1024;
  analyser.smoothingTimeConstant = 0;
  source.connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  let smoothed = 0;
  let lastTime = -1;
  let disposed = false;

  return {
    level(): number {
      if (disposed) return 0;
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!;
      const rms = Math.sqrt(sum / samples.length);
      const db = rms > 0 ? 20 * Math.log10(rms) : -Infinity;
      const target = Math.min(1, Math.max(0, (db - FLOOR_DB) / (CEILING_DB - FLOOR_DB)));
      // Smooth by elapsed audio time, so the feel does not depend on how often level() is called.
      const now = ctx.currentTime;
      const dt = lastTime < 0 ? Infinity : Math.max(0, now - lastTime);
      lastTime = now;
      const tau = target > smoothed ? ATTACK_S : RELEASE_S;
      const alpha = dt === Infinity ? 1 : 1 - Math.exp(-dt / tau);
      smoothed += (target - smoothed) * alpha;
      return smoothed;
    },
    dispose(): void {
      if (disposed) return;
      disposed = true;
      try {
        source.disconnect(analyser);
      } catch {
        // Already disconnected (the source was torn down first): nothing to undo.
      }
    },
  };
}
