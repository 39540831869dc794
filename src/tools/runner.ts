/**
 * The tool runner (SPEC §4, §5): one call from the model (or `callTool`) goes through
 * resolution, validation, consent, the handler with retry and timeout, and sanitization.
 * It never rejects: whatever a handler does ends as a `ToolOutcome`.
 */
import { sleep, systemClock, type Clock } from '../clock.js';
import type { ConfirmationGate } from '../consent/confirmation-gate.js';
import type { SpendGrant, SpendHold } from '../consent/spend-grant.js';
import { mustConfirm, readConsentFacts } from '../consent/policy.js';
import { ConfirmDecision, type ConfirmationRequest } from '../consent/types.js';
import { NoticeKind, type NoticeFact } from '../notice.js';
import { ChipStatus, type ToolPart } from './tool-part.js';
import type { ToolDeferral } from './deferral.js';
import type { ToolRegistry } from './registry.js';
import { sanitizeResult } from './sanitize.js';
import { FAILED_TEXT, runHandler, type AttemptResult } from './execute.js';
import { resolveTool, unknownBuiltinText, type ResolvedTool, type ToolCallSource } from './resolve.js';
import { keyArgument, readableToolName, toolTitle } from './tool-title.js';
import {
  ToolFailure,
  ToolLimits,
  ToolOutcomeStatus,
  RESERVED_TOOL_NAMES,
  type SanitizedResult,
  type ToolCall,
  type BuiltinToolDefinition,
  type ToolOutcome,
  type ToolRunEvent,
} from './types.js';
import type { ArgumentValidator } from './validator.js';
import { describeError } from '../util/describe-error.js';

/** A built-in tool: a definition plus an optional per-call confirmation rule (e.g. `navigate`). */
export type { BuiltinToolDefinition } from './types.js';

/** One tool chip as the transcript shows it (facts only). */
export type ToolChipItem = ToolPart;

export type { ToolCallSource } from './resolve.js';

export interface ToolRunOptions {
  /** Aborts the call: the reply was stopped. */
  signal: AbortSignal;
  conversationId: string;
  /** `page` calls (`callTool`) may run any registered tool (even a deferred one); the model only active ones. */
  source: ToolCallSource;
}

export interface ToolRunnerOptions {
  registry: ToolRegistry;
  validator: ArgumentValidator;
  deferral: ToolDeferral;
  gate: ConfirmationGate;
  grant: SpendGrant;
  clock?: Clock;
  /** Built-in tools, offered only while the registry is empty. */
  builtinTools?: () => Readonly<Record<string, BuiltinToolDefinition>>;
  emit?: (event: ToolRunEvent) => void;
  /** A chip's facts changed (one call, keyed by its id). */
  onChip?: (chip: ToolChipItem) => void;
  /** Something the visitor should know that is not a chip (invalid arguments), keyed by the call id. */
  onNotice?: (id: string, notice: NoticeFact) => void;
}

/**
 * Text the model receives, one place. Nothing here reaches the visitor: chips carry facts
 * (`ToolPart`) that the elements word from their labels.
 */
export const RunnerText = {
  /** The visitor said no (status `declined`). */
  cancelled: 'The visitor cancelled this action. Do not retry it.',
  /** Stop, closing, restarting or ending voice withdrew the confirmation (status `cancelled`). */
  withdrawn: 'The confirmation was withdrawn before the visitor answered (the reply was stopped or the chat closed), so the action did not run. Do not retry it.',
  stopped: 'The action was stopped before it finished. Do not retry it unless the visitor asks.',
  timedOut: (ms: number) => `The action timed out after ${ms} ms. It may or may not have completed; check before retrying.`,
  failed: FAILED_TEXT,
  unreadableCost: (name: string) =>
    `The cost of ${name} could not be read, so it was not run. Tell the visitor the action is unavailable right now.`,
  unknownBuiltin: unknownBuiltinText,
} as const;

const MAX_LABEL_CHARS = 200;


/** What reading the consent getters produced at show time. */
interface ConsentReading {
  cost: number;
  tier3: boolean;
  confirm: boolean;
  /** The page's `confirmLabel`, when it set one. */
  label: string | undefined;
}

/** The facts every chip of one call carries. */
interface CallFacts {
  name: string;
  title: string;
  builtin?: boolean;
  subject?: string;
  args?: Record<string, unknown>;
  cost?: number;
}

/** The ending of a call, beside its status and result. */
interface Ending {
  /** The page's own words (a summary) or the error text; '' when neither. */
  label: string;
  failure?: ToolFailure;
  /** The handler's message, shown on the chip (failure `handler` only). */
  error?: string;
  spent?: number;
  /** The visitor said no: the part ends `declined` (the outcome stays `cancelled`, with `declined`). */
  declined?: boolean;
}


/**
 * Runs tool calls. One runner per session; `abortAll` ends every handler in flight (chat closed).
 *
 * Decisions beyond the SPEC:
 * - a timeout is final (no retry): the handler may still be working despite the aborted signal,
 *   and a second run could do the action twice;
 * - a cap re-ask confirmed for an action bigger than one 200 step raises the cap once; if the
 *   action still does not fit, it runs as an individually confirmed action (the visitor saw its
 *   cost) and is not counted under the grant, so grant spend never passes its cap;
 * - the same for "Approve for this session" on an action costing more than 200.
 *
 * @example
 * const runner = new ToolRunner({ registry, validator, deferral, gate, grant, clock, emit, onChip });
 * const outcome = await runner.run({ id: 'c1', name: 'add_task', arguments: { title: 'Milk' } },
 *   { signal: stop.signal, conversationId, source: 'model' });
 * outcome.result; // { success: true, … } as the model receives it
 */
export class ToolRunner {
  readonly #o: ToolRunnerOptions;
  readonly #clock: Clock;
  #closing = new AbortController();

  constructor(options: ToolRunnerOptions) {
    this.#o = options;
    this.#clock = options.clock ?? systemClock;
  }

  /** Aborts every handler (and retry wait) in flight; later runs are unaffected. */
  abortAll(reason: string = 'closed'): void {
    const closing = this.#closing;
    this.#closing = new AbortController();
    closing.abort(new DOMException(`The chat was ${reason}.`, 'AbortError'));
  }

  /** Runs one call to its outcome. Never rejects. */
  async run(call: ToolCall, options: ToolRunOptions): Promise<ToolOutcome> {
    const callId = safeString(call?.id, 'call');
    const name = safeString(call?.name, '');
    try {
      return await this.#run(callId, name, call?.arguments, options);
    } catch (error) {
      // Only a bug in an injected collaborator lands here; still an outcome, never a rejection.
      const message = describeError(error);
      const facts: CallFacts = { name, title: readableToolName(name) };
      // The message is ours, not the page's: the chip says the action failed, without it.
      return this.#finish(callId, facts, ToolOutcomeStatus.failed, { success: false, error: message }, { label: message, failure: ToolFailure.handler }, 0);
    }
  }

  async #run(callId: string, name: string, rawArgs: unknown, options: ToolRunOptions): Promise<ToolOutcome> {
    // 'host' is the former name of 'page' (deprecated): one name from here on.
    if (options.source === 'host') options = { ...options, source: 'page' };
    // One signal for this call: the reply's stop, or the chat closing.
    const linked = linkSignals([options.signal, this.#closing.signal]);
    try {
      const parsed = parseArguments(rawArgs);
      // The part exists from the moment it is asked for, before anything is resolved or checked.
      this.#chip(callId, { name, title: readableToolName(name), ...(RESERVED_TOOL_NAMES.has(name) ? { builtin: true } : {}) }, ChipStatus.requested, {});
      this.#emit({ type: 'tool-call-requested', callId, name, args: parsed.ok ? parsed.value : rawArgs });

      const resolution = resolveTool(name, options.source, { registry: this.#o.registry, deferral: this.#o.deferral, builtins: () => this.#o.builtinTools?.() ?? {} });
      if (resolution.kind === 'unknown') {
        const facts: CallFacts = { name, title: readableToolName(name) };
        return this.#finish(callId, facts, ToolOutcomeStatus.unknown, { success: false, error: resolution.error }, { label: resolution.error, failure: ToolFailure.unknownTool }, 0);
      }
      if (resolution.kind === 'load_tools') return this.#loadTools(callId, parsed.ok ? parsed.value : rawArgs);

      const tool = resolution.tool;
      const named: CallFacts = { name, title: toolTitle(name, tool.definition), ...(tool.builtin ? { builtin: true } : {}) };
      if (!parsed.ok) return this.#invalid(callId, named, parsed.reason, options.source);
      let validation: Awaited<ReturnType<ArgumentValidator['validate']>>;
      try {
        validation = await this.#o.validator.validate(tool.parameters, parsed.value);
      } catch (error) {
        validation = { valid: false, reason: describeError(error) };
      }
      if (!validation.valid) return this.#invalid(callId, named, validation.reason, options.source);
      const args = validation.value;
      const subject = keyArgument(tool.parameters, args);
      const facts: CallFacts = { ...named, ...(subject !== undefined ? { subject } : {}), args };
      if (linked.signal.aborted) return this.#cancelled(callId, facts, RunnerText.stopped, 0);

      const consent = readConsent(tool, args);
      if (consent === null) {
        const error = RunnerText.unreadableCost(name);
        return this.#finish(callId, facts, ToolOutcomeStatus.failed, { success: false, error }, { label: error, failure: ToolFailure.unreadableCost }, 0);
      }
      if (consent.cost > 0) facts.cost = consent.cost;
      const runningLabel = readRunningLabel(tool);
      const run = { signal: linked.signal, conversationId: options.conversationId };
      if (!consent.confirm) return await this.#execute(callId, facts, tool, args, consent, runningLabel, run, { retry: true });

      const gated = await this.#consent(callId, facts, tool, args, consent, linked.signal);
      if (gated.kind === 'cancelled') return this.#cancelled(callId, facts, gated.text, 0, gated.declined);
      return await this.#execute(callId, facts, tool, args, consent, runningLabel, run, { retry: false, hold: gated.hold });
    } finally {
      linked.dispose();
    }
  }


  #loadTools(callId: string, args: unknown): ToolOutcome {
    const facts: CallFacts = { name: 'load_tools', title: readableToolName('load_tools'), builtin: true };
    this.#chip(callId, facts, ChipStatus.running, { attempts: 1 });
    this.#emit({ type: 'tool-call-started', callId, name: facts.name, attempt: 1 });
    let result: SanitizedResult;
    try {
      result = sanitizeResult(this.#o.deferral.load(this.#o.registry, args));
    } catch (error) {
      result = { success: false, error: describeError(error) };
    }
    if (result.success !== false) return this.#finish(callId, facts, ToolOutcomeStatus.succeeded, result, { label: '' }, 1);
    // The deferral's reason is written for the model; the chip only says the search failed.
    return this.#finish(callId, facts, ToolOutcomeStatus.failed, result, { label: failureText(result), failure: ToolFailure.handler }, 1);
  }

  /** Asks the visitor (or uses the grant). Resolves with a hold when the run counts under the grant. */
  async #consent(
    callId: string,
    facts: CallFacts,
    tool: ResolvedTool,
    args: Record<string, unknown>,
    consent: ConsentReading,
    signal: AbortSignal,
  ): Promise<{ kind: 'run'; hold?: SpendHold } | { kind: 'cancelled'; text: string; declined: boolean }> {
    const { grant } = this.#o;
    const grantable = consent.cost > 0 && !consent.tier3;
    const base: ConfirmationRequest = {
      id: callId,
      toolName: tool.name,
      title: facts.title,
      ...(facts.subject !== undefined ? { subject: facts.subject } : {}),
      ...(consent.label !== undefined ? { label: consent.label } : {}),
      cost: consent.cost,
      tier3: consent.tier3,
      offersSessionApproval: grantable,
      args,
    };

    if (grantable) {
      const coverage = grant.covers(consent.cost, { tier3: consent.tier3 });
      if (coverage === 'yes') {
        const hold = grant.hold(consent.cost);
        if (hold) return { kind: 'run', hold };
      } else if (coverage === 'would-exceed') {
        const state = grant.state();
        const reask: ConfirmationRequest = { ...base, offersSessionApproval: false, grantRunningTotal: state.spent, grantCap: state.cap };
        const answer = await this.#ask(facts, reask, signal);
        if (answer.decision !== ConfirmDecision.confirm) {
          // The visitor's Cancel on the re-ask ends the grant; a system cancel (stop, close) does not.
          if (answer.source !== 'system') grant.revoke('visitor');
          return refused(answer.source);
        }
        grant.raise();
        return { kind: 'run', hold: grant.hold(consent.cost) ?? undefined };
      }
    }

    const answer = await this.#ask(facts, base, signal);
    // Closing or stopping cancels "the same way" as the visitor's Cancel (SPEC §5): not run, not to
    // be retried. Only the visitor's own no is `declined`.
    if (answer.decision === ConfirmDecision.cancel) return refused(answer.source);
    if (answer.decision === ConfirmDecision.approveSession && grantable) {
      grant.start();
      return { kind: 'run', hold: grant.hold(consent.cost) ?? undefined };
    }
    return { kind: 'run' };
  }

  async #ask(facts: CallFacts, request: ConfirmationRequest, signal: AbortSignal) {
    this.#chip(request.id, facts, ChipStatus.awaitingConfirmation, {
      ...(request.label !== undefined ? { label: request.label } : {}),
      confirmation: request,
    });
    return this.#o.gate.requestOutcome(request, signal);
  }

  async #execute(
    callId: string,
    facts: CallFacts,
    tool: ResolvedTool,
    args: Record<string, unknown>,
    consent: ConsentReading,
    runningLabel: string | undefined,
    run: { signal: AbortSignal; conversationId: string },
    mode: { retry: boolean; hold?: SpendHold | undefined },
  ): Promise<ToolOutcome> {
    const name = tool.name;
    const signal = run.signal;
    const delays = mode.retry ? ToolLimits.retryDelaysMs : ToolLimits.retryDelaysMs.slice(0, 1);
    const running = runningLabel !== undefined ? { label: runningLabel } : {};
    let last: AttemptResult = { kind: 'failed', result: { success: false, error: RunnerText.failed }, error: RunnerText.failed };
    let attempts = 0;
    this.#chip(callId, facts, ChipStatus.running, { ...running, attempts: 1 });
    try {
      for (const delay of delays) {
        if (attempts > 0) {
          try {
            await sleep(this.#clock, delay, signal);
          } catch {
            return this.#cancelled(callId, facts, RunnerText.stopped, attempts);
          }
        }
        if (signal.aborted) return this.#cancelled(callId, facts, RunnerText.stopped, attempts);
        attempts += 1;
        if (attempts > 1) this.#chip(callId, facts, ChipStatus.running, { ...running, attempts });
        this.#emit({ type: 'tool-call-started', callId, name, attempt: attempts });
        last = await runHandler(callId, tool, args, run, this.#clock);
        if (last.kind !== 'failed') break;
      }
    } finally {
      // A handler that timed out or was stopped may still have spent: count it against the cap.
      if (last.kind === 'failed') mode.hold?.release();
      else if (last.kind !== 'ok') mode.hold?.commit();
    }

    if (last.kind === 'aborted') return this.#cancelled(callId, facts, RunnerText.stopped, attempts);
    if (last.kind === 'timeout') {
      const error = RunnerText.timedOut(last.ms);
      return this.#finish(callId, facts, ToolOutcomeStatus.failed, { success: false, error }, { label: error, failure: ToolFailure.timeout }, attempts);
    }
    if (last.kind === 'failed') {
      const ending: Ending = { label: last.error, failure: ToolFailure.handler };
      if (last.own !== undefined) ending.error = last.own;
      return this.#finish(callId, facts, ToolOutcomeStatus.failed, last.result, ending, attempts);
    }

    mode.hold?.commit();
    const summary = readSummary(tool, args, last.result);
    const ending: Ending = { label: summary ?? '' };
    if (consent.cost > 0) ending.spent = consent.cost;
    return this.#finish(callId, facts, ToolOutcomeStatus.succeeded, last.result, ending, attempts);
  }


  #invalid(callId: string, facts: CallFacts, reason: string, source: ToolCallSource): ToolOutcome {
    // The model gets the validator's precise reason; the visitor a notice, not a red chip: the
    // requested part ends failed and silent.
    const error = `Invalid arguments: ${reason}`;
    const outcome = this.#outcome(callId, facts, ToolOutcomeStatus.invalid, { success: false, error }, { label: error, failure: ToolFailure.invalidArguments }, 0);
    this.#chip(callId, facts, ChipStatus.failed, { attempts: 0, failure: ToolFailure.invalidArguments, silent: true });
    try {
      this.#o.onNotice?.(callId, { kind: NoticeKind.invalidArguments, name: facts.name, title: facts.title, source: source === 'model' ? 'model' : 'page', reason });
    } catch {
      /* observers cannot break a call */
    }
    this.#emit({ type: 'tool-call-failed', outcome });
    return outcome;
  }

  #cancelled(callId: string, facts: CallFacts, error: string, attempts: number, declined = false): ToolOutcome {
    return this.#finish(callId, facts, ToolOutcomeStatus.cancelled, { success: false, cancelled: true, error }, { label: '', ...(declined ? { declined } : {}) }, attempts);
  }

  #finish(callId: string, facts: CallFacts, status: ToolOutcomeStatus, result: SanitizedResult, ending: Ending, attempts: number): ToolOutcome {
    const outcome = this.#outcome(callId, facts, status, result, ending, attempts);
    const chipStatus =
      status === ToolOutcomeStatus.succeeded
        ? ChipStatus.succeeded
        : status === ToolOutcomeStatus.cancelled
          ? ending.declined === true
            ? ChipStatus.declined
            : ChipStatus.cancelled
          : ChipStatus.failed;
    this.#chip(callId, facts, chipStatus, {
      attempts,
      ...(status === ToolOutcomeStatus.succeeded && ending.label !== '' ? { label: outcome.label } : {}),
      ...(ending.failure !== undefined ? { failure: ending.failure } : {}),
      ...(ending.error !== undefined && ending.error !== '' ? { error: capLabel(ending.error) } : {}),
      ...(ending.spent !== undefined ? { spent: ending.spent } : {}),
    });
    this.#emit({
      type:
        status === ToolOutcomeStatus.succeeded ? 'tool-call-succeeded' : status === ToolOutcomeStatus.cancelled ? 'tool-call-cancelled' : 'tool-call-failed',
      outcome,
    });
    return outcome;
  }

  #outcome(callId: string, facts: CallFacts, status: ToolOutcomeStatus, result: SanitizedResult, ending: Ending, attempts: number): ToolOutcome {
    const outcome: ToolOutcome = { callId, name: facts.name, title: facts.title, status, result, label: capLabel(ending.label), attempts };
    if (ending.failure !== undefined) outcome.failure = ending.failure;
    if (ending.spent !== undefined) outcome.spent = ending.spent;
    if (ending.declined === true) outcome.declined = true;
    return outcome;
  }

  #chip(
    id: string,
    facts: CallFacts,
    status: ChipStatus,
    extra: Partial<Pick<ToolPart, 'label' | 'attempts' | 'spent' | 'failure' | 'error' | 'confirmation' | 'silent'>>,
  ): void {
    const chip: ToolChipItem = { kind: 'tool', id, ...facts, status, ...extra };
    if (chip.label !== undefined) chip.label = capLabel(chip.label);
    try {
      this.#o.onChip?.(chip);
    } catch {
      /* observers cannot break a call */
    }
  }

  #emit(event: ToolRunEvent): void {
    try {
      this.#o.emit?.(event);
    } catch {
      /* observers cannot break a call */
    }
  }
}

/** A confirmation answered "cancel": the visitor's own no is `declined`; a system cancel withdrew it. */
function refused(source: string): { kind: 'cancelled'; text: string; declined: boolean } {
  return source === 'system' ? { kind: 'cancelled', text: RunnerText.withdrawn, declined: false } : { kind: 'cancelled', text: RunnerText.cancelled, declined: true };
}

function readConsent(tool: ResolvedTool, args: Record<string, unknown>): ConsentReading | null {
  const def = tool.definition;
  const facts = readConsentFacts(def);
  // The price is unknown: not run at all (the schema already asked the model to expect a confirmation).
  if (!facts.costReadable) return null;
  const { cost, tier3 } = facts;
  let confirm = mustConfirm(facts);
  if (!confirm) {
    // A built-in's per-call rule (e.g. `navigate` off-site).
    try {
      confirm = typeof def.confirmIf === 'function' && def.confirmIf(args) !== false;
    } catch {
      confirm = true;
    }
  }
  let label: string | undefined;
  if (confirm) {
    try {
      const raw: unknown = def.confirmLabel;
      if (typeof raw === 'string' && raw.trim() !== '') label = raw;
    } catch {
      /* the elements' default question */
    }
  }
  return { cost, tier3, confirm, label };
}

/** The page's `runningLabel`, or undefined (the elements word the default). */
function readRunningLabel(tool: ResolvedTool): string | undefined {
  try {
    const raw: unknown = tool.definition.runningLabel;
    if (typeof raw === 'string' && raw.trim() !== '') return raw;
  } catch {
    /* default */
  }
  return undefined;
}

/** The page's `summary(args, result)`, or undefined (the elements word the default). */
function readSummary(tool: ResolvedTool, args: Record<string, unknown>, result: SanitizedResult): string | undefined {
  try {
    const summary: unknown = tool.definition.summary;
    if (typeof summary === 'function') {
      const text: unknown = summary(args, result);
      if (typeof text === 'string' && text.trim() !== '') return text;
    }
  } catch {
    /* fallback */
  }
  return undefined;
}


function parseArguments(raw: unknown): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (raw === undefined || raw === null || raw === '') return { ok: true, value: {} };
  if (typeof raw !== 'string') return { ok: true, value: raw };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false, reason: 'the arguments are not valid JSON' };
  }
}

function failureText(result: SanitizedResult): string {
  const error = result.error;
  return typeof error === 'string' && error.trim() !== '' ? error : RunnerText.failed;
}

function capLabel(label: string): string {
  return label.length > MAX_LABEL_CHARS ? `${label.slice(0, MAX_LABEL_CHARS - 1)}…` : label;
}

function safeString(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}


/** One signal that aborts when any of `signals` does; `dispose` detaches it. */
function linkSignals(signals: AbortSignal[]): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const listeners: Array<[AbortSignal, () => void]> = [];
  for (const s of signals) {
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    const onAbort = () => controller.abort(s.reason);
    s.addEventListener('abort', onAbort, { once: true });
    listeners.push([s, onAbort]);
  }
  return {
    signal: controller.signal,
    dispose: () => {
      for (const [s, l] of listeners) s.removeEventListener('abort', l);
    },
  };
}
