/**
 * Property test of spoken consent (SPEC §9) through the real realtime engine and the consent
 * desk: random interleavings of speech starts, transcripts (in any order, for any item, or
 * for items that never started), responses, tool calls that show chips, questions asked
 * aloud, taps and clock jumps. Whatever the order:
 * - a chip is settled by voice only by an utterance whose speech began after that chip was
 *   shown and after it was asked aloud, and only the chip being asked;
 * - a free `confirm: true` chip and a tier3 chip are never settled by a blanket phrase, and
 *   no chip but a cost-bearing, non-tier3 one is ever approved for the session;
 * - an utterance settles at most one chip.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ConfirmDecision } from '../../src/consent/types.js';
import type { ConfirmationRequest, VisitorEvidence } from '../../src/consent/types.js';
import type { ToolOutcome } from '../../src/tools/types.js';
import type { VoiceSessionResponse } from '../../src/transport/protocol.js';
import { createRealtimeEngine } from '../../src/voice/realtime-engine.js';
import type { WebSocketConstructorLike, WebSocketLike } from '../../src/voice/realtime-engine.js';
import type { VoiceQuestion } from '../../src/voice/types.js';
import { classifyVoiceAnswer } from '../../src/voice/voice-answer.js';
import { VoiceConsentDesk } from '../../src/voice/voice-consent.js';
import { manualClock } from './voice-fake-realtime.js';

type Kind = 'paid' | 'free' | 'tier3' | 'plain';

/** An in-process socket: server events are delivered synchronously, so the order is exactly the test's. */
class InProcessSocket implements WebSocketLike {
  static last: InProcessSocket | null = null;
  readyState = 1;
  sent: Array<Record<string, unknown>> = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor() {
    InProcessSocket.last = this;
    queueMicrotask(() => this.onopen?.({}));
  }
  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close() {
    this.readyState = 3;
  }
  emit(event: Record<string, unknown>) {
    this.onmessage?.({ data: JSON.stringify(event) });
  }
}

const PHRASES = [
  'yes', 'yeah sure', 'go ahead', 'ok', 'no', 'hold on, no', 'approve all spending', "don't ask again", 'stop asking',
  'stop asking me', 'approve everything from now on', 'ask me every time', 'yeah right', 'add milk', 'yes but the blue one',
];

// Weighted so that the interesting orders (a chip asked, speech, a transcript) come up often.
const commandWith = (phrases: readonly string[]) => fc.oneof(
  { weight: 2, arbitrary: fc.record({ t: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 2_000 }) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('speech' as const) }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('transcript' as const), pick: fc.nat(), phrase: fc.constantFrom(...phrases), unstarted: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('call' as const), kind: fc.constantFrom<Kind>('paid', 'free', 'tier3', 'plain') }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('response' as const), done: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('asked' as const) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('tap' as const), pick: fc.nat(), confirm: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('long-tick' as const) }) },
);
const command = commandWith(PHRASES);
const BLANKET = ['approve all spending', "don't ask again", 'stop asking', 'stop asking me', 'approve everything from now on', "yes, don't ask me again"];

interface Chip {
  request: ConfirmationRequest;
  kind: Kind;
  shownAt: number;
  askedAt: number | null;
  settle: (outcome: ToolOutcome) => void;
}

/**
 * Runs `commands`; throws on a violation. `timing` replaces the engine's speech timing (to show
 * the property catches a desk that times answers by when the transcript arrived).
 */
type Command = typeof command extends fc.Arbitrary<infer T> ? T : never;

async function run(commands: Command[], timing?: (arrivedAt: number) => number): Promise<void> {
  const clock = manualClock();
  clock.advance(1_000);
  const chips = new Map<string, Chip>();
  const order: string[] = [];
  const starts = new Map<string, number>();
  let heardItems: string[] = [];
  let hearing: { item: string; phrase: string; startedAt: number | null; settled: number } | null = null;
  const asks: Array<() => void> = [];
  const violations: string[] = [];
  let callN = 0;
  let itemN = 0;

  const waiting = () => order.map((id) => chips.get(id)!.request);
  const remove = (id: string) => {
    chips.delete(id);
    order.splice(order.indexOf(id), 1);
    desk.update(waiting());
  };
  const outcome = (id: string, ok: boolean): ToolOutcome => ({ callId: id, name: 'x', status: ok ? 'succeeded' : 'cancelled', result: { success: ok }, label: '', attempts: 1 });

  const desk: VoiceConsentDesk = new VoiceConsentDesk({
    now: () => clock.now(),
    answerConfirmation(id: string, decision: ConfirmDecision, evidence: VisitorEvidence) {
      const chip = chips.get(id);
      if (!chip) return false;
      if (!hearing) violations.push(`${id} settled outside a heard utterance`);
      else {
        const { startedAt, phrase } = hearing;
        if (evidence.source !== 'voice' || !evidence.isTrusted) violations.push('not voice evidence');
        if (startedAt === null) violations.push(`${id} settled by "${phrase}" with no known speech start`);
        else {
          if (startedAt < chip.shownAt) violations.push(`${id} (shown ${chip.shownAt}) settled by "${phrase}" begun at ${startedAt}`);
          if (chip.askedAt === null || startedAt < chip.askedAt) violations.push(`${id} (asked ${chip.askedAt}) settled by "${phrase}" begun at ${startedAt}`);
        }
        if (order[0] !== id) violations.push(`${id} settled while ${order[0]} was the one asked`);
        if (classifyVoiceAnswer(phrase).kind === 'grant' && chip.kind !== 'paid') violations.push(`${chip.kind} chip ${id} settled by blanket "${phrase}"`);
        if (decision === ConfirmDecision.approveSession && chip.kind !== 'paid') violations.push(`${chip.kind} chip ${id} approved for the session`);
        if (++hearing.settled > 1) violations.push(`"${phrase}" settled more than one chip`);
      }
      remove(id);
      chip.settle(outcome(id, decision !== ConfirmDecision.cancel));
      return true;
    },
    revokeGrant: () => false,
    grantActive: () => false,
    approveSpending: () => true,
    ask(question: VoiceQuestion | null) {
      engine.ask?.(question);
      if (!question) return;
      // The engine finishes asking when the test says so ('asked').
      return new Promise<void>((resolve) =>
        asks.push(() => {
          const chip = chips.get(question.id);
          if (chip) chip.askedAt = clock.now();
          resolve();
        }),
      );
    },
  });

  const session = async (): Promise<VoiceSessionResponse> => ({ transport: 'websocket', model: 'm', url: 'ws://in-process', clientSecret: 'ek', expiresAt: 0, sessionConfig: { instructions: 'Be brief.' } });
  const engine = createRealtimeEngine({ createSession: session, WebSocketImpl: InProcessSocket as unknown as WebSocketConstructorLike, audio: null, clock });
  await engine.start({
    signal: new AbortController().signal,
    tools: [],
    context: null,
    now: () => clock.now(),
    isConfirming: (name) => name !== 'plain',
    runTool: (call, signal) => {
      const kind = call.name as Kind;
      if (kind === 'plain') return Promise.resolve(outcome(call.id, true));
      return new Promise<ToolOutcome>((resolve) => {
        const request: ConfirmationRequest = {
          id: call.id,
          toolName: kind,
          label: `Run ${kind}?`,
          cost: kind === 'paid' || kind === 'tier3' ? 40 : 0,
          tier3: kind === 'tier3',
          offersSessionApproval: kind === 'paid',
          args: {},
        };
        chips.set(call.id, { request, kind, shownAt: clock.now(), askedAt: null, settle: resolve });
        order.push(call.id);
        signal.addEventListener('abort', () => {
          if (!chips.has(call.id)) return;
          remove(call.id);
          resolve(outcome(call.id, false));
        });
        desk.update(waiting());
      });
    },
    onState() {},
    onTranscript() {},
    onEnd() {},
    onUserUtterance(text, heard) {
      hearing = { item: '', phrase: text, startedAt: heard.speechStartedAt, settled: 0 };
      try {
        return desk.hear(text, timing ? { speechStartedAt: timing(clock.now()) } : heard);
      } finally {
        hearing = null;
      }
    },
  });
  const socket = InProcessSocket.last!;

  for (const c of commands) {
    switch (c.t) {
      case 'tick':
        clock.advance(c.ms);
        break;
      case 'long-tick':
        clock.advance(31_000);
        break;
      case 'speech': {
        const item = `item_${++itemN}`;
        starts.set(item, clock.now());
        heardItems.push(item);
        socket.emit({ type: 'input_audio_buffer.speech_started', item_id: item, audio_start_ms: 0 });
        break;
      }
      case 'transcript': {
        if (c.unstarted || heardItems.length === 0) {
          socket.emit({ type: 'conversation.item.input_audio_transcription.completed', item_id: `never_${++itemN}`, transcript: c.phrase });
          break;
        }
        const item = heardItems[c.pick % heardItems.length]!;
        heardItems = heardItems.filter((i) => i !== item);
        socket.emit({ type: 'conversation.item.input_audio_transcription.completed', item_id: item, transcript: c.phrase });
        break;
      }
      case 'call': {
        const id = `call_${++callN}`;
        socket.emit({ type: 'response.created' });
        socket.emit({ type: 'response.output_item.done', item: { type: 'function_call', call_id: id, name: c.kind, arguments: '{}' } });
        break;
      }
      case 'response':
        socket.emit({ type: c.done ? 'response.done' : 'response.created', response: { output: [] } });
        break;
      case 'asked':
        asks.shift()?.();
        break;
      case 'tap': {
        if (order.length === 0) break;
        const id = order[c.pick % order.length]!;
        const chip = chips.get(id)!;
        remove(id);
        chip.settle(outcome(id, c.confirm));
        break;
      }
    }
    await Promise.resolve();
    await Promise.resolve();
  }
  engine.stop();
  desk.close();
  clock.advance(300_000);
  assert.deepEqual(violations, []);
}

describe('spoken consent, any interleaving', () => {
  it('settles a chip only by an answer begun after it was shown and asked; never free or tier3 chips by a blanket phrase', async () => {
    await fc.assert(fc.asyncProperty(fc.array(command, { maxLength: 60 }), (cmds) => run(cmds)), { numRuns: 300 });
  });

  it('never settles a free or tier3 chip by a blanket phrase, whatever the order (blanket phrases only)', async () => {
    await fc.assert(fc.asyncProperty(fc.array(commandWith(BLANKET), { maxLength: 40 }), (cmds) => run(cmds)), { numRuns: 300 });
  });

  it('fails when answers are timed by transcript arrival instead of speech start (the rule loosened)', async () => {
    const out = await fc.check(fc.asyncProperty(fc.array(command, { maxLength: 60 }), (cmds) => run(cmds, (arrivedAt) => arrivedAt)), { numRuns: 300, seed: 9 });
    assert.equal(out.failed, true);
    assert.match(String(out.errorInstance), /settled by "[^"]+" (?:begun at|with no known speech start)/);
  });
});
