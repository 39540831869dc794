/**
 * Executing one handler run (SPEC §4.3): bounded by the tool's timeout and the call's signal,
 * whatever the handler does (throws, never settles, returns a thenable, a failure object).
 * Retries and consent are the runner's; this is one attempt.
 */
import type { Clock } from '../clock.js';
import { describeError } from '../util/describe-error.js';
import type { ResolvedTool } from './resolve.js';
import { isFailure, sanitizeBuiltinResult, sanitizeResult } from './sanitize.js';
import { ToolLimits, type HandlerContext, type SanitizedResult, type ToolDefinition } from './types.js';

/** What the model reads when a handler failed without saying why. */
export const FAILED_TEXT = 'The action failed.';

/** How one attempt ended. */
export type AttemptResult =
  | { kind: 'ok'; result: SanitizedResult }
  /** `error` is what the model reads; `own` is the handler's own message, when it gave one (the chip shows only that). */
  | { kind: 'failed'; result: SanitizedResult; error: string; own?: string }
  | { kind: 'timeout'; ms: number }
  | { kind: 'aborted' };

/**
 * One handler run, bounded by the timeout and the call's signal. Never rejects.
 *
 * @example
 * const attempt = await runHandler('c1', tool, { title: 'Milk' }, { signal, conversationId }, systemClock);
 * if (attempt.kind === 'ok') attempt.result; // sanitized
 */
export async function runHandler(
  callId: string,
  tool: ResolvedTool,
  args: Record<string, unknown>,
  run: { signal: AbortSignal; conversationId: string },
  clock: Clock,
): Promise<AttemptResult> {
  const outer = run.signal;
  const timeoutMs = readTimeout(tool.definition);
  const controller = new AbortController();
  let timedOut = false;
  let wake: (() => void) | undefined;
  const stopped = new Promise<'stopped'>((resolve) => {
    wake = () => resolve('stopped');
  });
  const onOuterAbort = () => {
    controller.abort(outer.reason);
    wake?.();
  };
  outer.addEventListener('abort', onOuterAbort, { once: true });
  const timer = clock.setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`Timed out after ${timeoutMs} ms`, 'TimeoutError'));
    wake?.();
  }, timeoutMs);
  if (outer.aborted) onOuterAbort();

  const handlerContext: HandlerContext = { callId, conversationId: run.conversationId, signal: controller.signal };
  try {
    // `new Promise` adopts thenables safely: a throwing `then` getter becomes a rejection.
    const running = new Promise<unknown>((resolve) => resolve(tool.definition.handler(args, handlerContext)));
    const settled = await Promise.race([
      running.then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      ),
      stopped,
    ]);
    if (settled === 'stopped' || controller.signal.aborted) {
      return timedOut ? { kind: 'timeout', ms: timeoutMs } : { kind: 'aborted' };
    }
    if (!settled.ok) {
      const error = describeError(settled.error);
      const own = ownMessage(settled.error);
      return { kind: 'failed', result: sanitizeResult({ success: false, error }), error, ...(own ? { own } : {}) };
    }
    const result = tool.builtin ? sanitizeBuiltinResult(settled.value) : sanitizeResult(settled.value);
    // isFailure also reads a failure inside the oversize `{ note, preview }` form.
    const failure = isFailure(result);
    if (failure.failed) return { kind: 'failed', result, error: failure.error || FAILED_TEXT, ...(failure.error ? { own: failure.error } : {}) };
    return { kind: 'ok', result };
  } finally {
    clock.clearTimeout(timer);
    outer.removeEventListener('abort', onOuterAbort);
  }
}

function readTimeout(def: ToolDefinition): number {
  try {
    const raw: unknown = def.timeoutMs;
    if (typeof raw === 'number' && Number.isFinite(raw) && raw > 0) return raw;
  } catch {
    /* default */
  }
  return ToolLimits.defaultTimeoutMs;
}

/**
 * The message a handler gave with what it threw, in its own words (an Error's message, a string,
 * an object's `message` or `error`), or undefined: a description we make up is for the model only.
 */
function ownMessage(thrown: unknown): string | undefined {
  try {
    if (typeof thrown === 'string') return thrown.trim() !== '' ? thrown : undefined;
    if (typeof thrown !== 'object' || thrown === null) return undefined;
    const record = thrown as Record<string, unknown>;
    for (const key of ['message', 'error']) {
      const value = record[key];
      if (typeof value === 'string' && value.trim() !== '') return value;
    }
  } catch {
    /* a throwing getter says nothing */
  }
  return undefined;
}
