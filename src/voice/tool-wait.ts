/**
 * The waits of SPEC §5/§9 for a tool in voice, shared by every engine: a confirming tool is
 * awaited up to 240 s, an ordinary one up to 30 s. Past the wait the call is aborted (which
 * cancels its confirmation: nothing waits on a chip after this) and the model is told why.
 */
import type { Clock } from '../clock.js';
import type { SanitizedResult } from '../tools/types.js';
import { VoiceToolWaitMs } from './types.js';

/** What the model is told when a voice tool wait runs out. */
export function voiceWaitResult(confirming: boolean): SanitizedResult {
  const waitMs = confirming ? VoiceToolWaitMs.confirming : VoiceToolWaitMs.ordinary;
  return {
    success: false,
    timedOut: true,
    error: confirming
      ? `The visitor did not answer the confirmation within ${waitMs / 1000} s; it was cancelled and the action did not happen. Do not retry unless the visitor asks.`
      : `The action timed out after ${waitMs / 1000} s and did not complete.`,
  };
}

/**
 * Runs `run` with its own abort signal (aborted by `signal` too) and resolves with its value, or
 * with `{ timedOut: true }` once the voice wait has passed (the run is aborted then). The timer
 * is always cleared: nothing is left scheduled once this settles.
 *
 * @example
 * const r = await withVoiceWait(clock, true, (s) => runTool(call, s), signal);
 * if (r.timedOut) send(voiceWaitResult(true));
 */
export async function withVoiceWait<T>(
  clock: Clock,
  confirming: boolean,
  run: (signal: AbortSignal) => Promise<T>,
  signal?: AbortSignal,
): Promise<{ timedOut: false; value: T } | { timedOut: true }> {
  const waitMs = confirming ? VoiceToolWaitMs.confirming : VoiceToolWaitMs.ordinary;
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  let timer: unknown;
  const timedOut = new Promise<{ timedOut: true }>((resolve) => {
    timer = clock.setTimeout(() => {
      controller.abort(new Error('voice tool wait exceeded'));
      resolve({ timedOut: true });
    }, waitMs);
  });
  try {
    return await Promise.race([run(controller.signal).then((value) => ({ timedOut: false as const, value })), timedOut]);
  } finally {
    clock.clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
