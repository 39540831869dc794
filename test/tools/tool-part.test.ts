/**
 * The tool part's status machine (issue 12): requested → awaiting consent → running →
 * succeeded / failed / cancelled / declined. The table is written from the wording, then
 * the runner is driven through every path and the record refuses illegal moves.
 */
import { expect } from '@open-wc/testing';
import { upsertPart } from '../../src/agent/record.js';
import { toModelMessages } from '../../src/agent/to-model-messages.js';
import { ChipStatus, canMove, isSettled, type ToolPart, type TranscriptItem } from '../../src/agent/types.js';
import { ConfirmationGate } from '../../src/consent/confirmation-gate.js';
import { SpendGrant } from '../../src/consent/spend-grant.js';
import { MemoryStorage } from '../../src/storage.js';
import { ToolDeferral } from '../../src/tools/deferral.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { RunnerText, ToolRunner } from '../../src/tools/runner.js';
import type { ToolDefinition, ToolOutcome } from '../../src/tools/types.js';
import { ArgumentValidator } from '../../src/tools/validator.js';
import { FakeClock, flushMicrotasks } from '../helpers/fake-clock.js';
import { until } from '../helpers/until.js';

const ALL = Object.values(ChipStatus);
const FINAL = ['succeeded', 'failed', 'cancelled', 'declined'];

/** Every legal move, from the machine; everything else is illegal. */
const LEGAL: Record<string, string[]> = {
  requested: ['requested', 'awaiting-confirmation', 'running', 'failed', 'cancelled'],
  'awaiting-confirmation': ['awaiting-confirmation', 'running', 'declined', 'cancelled', 'failed'],
  running: ['running', 'succeeded', 'failed', 'cancelled'],
  succeeded: [],
  failed: [],
  cancelled: [],
  declined: [],
};

// The validator's engine is a lazy chunk: loaded once before the tests, so those that count
// turns (not time) after a tool call never race its arrival from the server.
before(() => new ArgumentValidator({ engine: 'interpreter' }).compile({ type: 'object' }));

describe('tool part status machine', () => {
  it('has exactly the seven statuses of the issue', () => {
    expect([...ALL].sort()).to.deep.equal(['awaiting-confirmation', 'cancelled', 'declined', 'failed', 'requested', 'running', 'succeeded']);
  });

  for (const from of ALL) {
    for (const to of ALL) {
      const legal = LEGAL[from]!.includes(to);
      it(`${from} → ${to} is ${legal ? 'legal' : 'illegal'}`, () => {
        expect(canMove(from, to)).to.equal(legal);
      });
    }
  }

  it('settled statuses are exactly the final four; junk is neither legal nor settled', () => {
    expect(ALL.filter(isSettled).sort()).to.deep.equal([...FINAL].sort());
    for (const junk of [undefined, null, 'done', 'constructor', '__proto__', 42, {}]) {
      expect(isSettled(junk), String(junk)).to.equal(false);
      expect(canMove(junk, 'running'), String(junk)).to.equal(false);
      expect(canMove('running', junk), String(junk)).to.equal(false);
    }
  });

  it('a declined call can only be reached through a confirmation: not from requested or running', () => {
    expect(canMove('requested', 'declined')).to.equal(false);
    expect(canMove('running', 'declined')).to.equal(false);
    expect(canMove('awaiting-confirmation', 'declined')).to.equal(true);
  });

  describe('the record refuses illegal moves', () => {
    const part = (status: ToolPart['status'], extra: Partial<ToolPart> = {}): ToolPart => ({ kind: 'tool', id: 'c1', name: 'add_task', status, ...extra });

    it('a succeeded part never goes back to running (the record is unchanged)', () => {
      const items: readonly TranscriptItem[] = upsertPart(upsertPart([], part('running')), part('succeeded', { spent: 5 }));
      const after = upsertPart(items, part('running', { attempts: 2 }));
      expect(after).to.equal(items);
      expect(after[0]).to.deep.include({ status: 'succeeded', spent: 5 });
    });

    for (const final of FINAL) {
      it(`${final} is final: no status replaces it`, () => {
        const items = upsertPart([], part(final as ToolPart['status']));
        for (const to of ALL) expect(upsertPart(items, part(to))[0], `${final} → ${to}`).to.deep.include({ status: final });
      });
    }

    it('a part filed while still waiting (a voice wait answered the model) settles in place: one chip, what the model was told kept', () => {
      let items: readonly TranscriptItem[] = upsertPart([], part('awaiting-confirmation'));
      items = items.map((i) => ({ ...i, step: 's1', input: {}, output: '{"success":false,"timedOut":true}' }) as TranscriptItem);
      items = upsertPart(items, part('cancelled'));
      expect(items).to.have.length(1);
      expect(items[0]).to.deep.include({ status: 'cancelled', step: 's1', output: '{"success":false,"timedOut":true}' });
      // Once settled it is history: a later call reusing the id gets its own part.
      expect(upsertPart(items, part('requested'))).to.have.length(2);
    });

    it('legal moves update in place, keeping the part where it was', () => {
      let items: readonly TranscriptItem[] = [{ kind: 'message', id: 'u1', role: 'user', text: 'Go', streaming: false }];
      for (const status of ['requested', 'awaiting-confirmation', 'running', 'running', 'succeeded'] as const) items = upsertPart(items, part(status));
      expect(items).to.have.length(2);
      expect(items[1]).to.deep.include({ status: 'succeeded' });
    });
  });

  describe('the runner walks the machine', () => {
    const trusted = { isTrusted: true, source: 'pointer' } as const;

    function setup() {
      const clock = new FakeClock();
      const registry = new ToolRegistry({ warn: () => undefined });
      const gate = new ConfirmationGate();
      const grant = new SpendGrant({ clock, storage: new MemoryStorage(), siteId: 't' });
      let items: readonly TranscriptItem[] = [];
      const seen: string[][] = [];
      const runner = new ToolRunner({
        registry,
        validator: new ArgumentValidator({ engine: 'interpreter' }),
        deferral: new ToolDeferral(),
        gate,
        grant,
        clock,
        onChip: (chip) => {
          items = upsertPart(items, chip);
          (seen[seen.length - 1] as string[]).push(chip.status);
        },
      });
      const run = (name: string, args: unknown = {}, signal = new AbortController().signal): Promise<ToolOutcome> => {
        seen.push([]);
        return runner.run({ id: `c${seen.length}`, name, arguments: args }, { signal, conversationId: 'k', source: 'model' });
      };
      // After the lazy validator chunk, however long it takes to come.
      const confirmation = () => until(() => gate.pending()[0], 'a confirmation shown');
      const register = (name: string, def: ToolDefinition) => expect(registry.register(name, def)).to.equal(true);
      return { clock, gate, run, confirmation, register, seen, items: () => items, runner };
    }

    const statuses = (s: { seen: string[][] }) => s.seen.at(-1);

    it('requested → running → succeeded', async () => {
      const s = setup();
      s.register('add_task', { handler: () => ({}) });
      await s.run('add_task');
      expect(statuses(s)).to.deep.equal(['requested', 'running', 'succeeded']);
    });

    it('requested → running → failed (the handler said no, after its retries)', async () => {
      const s = setup();
      s.register('book', { handler: () => ({ success: false, error: 'Taken' }) });
      let done = false;
      const p = s.run('book').finally(() => (done = true));
      // The fake clock moves until the retries are over (the first run waits for the lazy validator).
      const start = Date.now();
      while (!done && Date.now() - start < 8_000) await s.clock.tickAsync(100);
      await p;
      expect(statuses(s)).to.deep.equal(['requested', 'running', 'running', 'running', 'failed']);
    });

    it('requested → running → cancelled (Stop while it runs)', async () => {
      const s = setup();
      s.register('hang', { handler: () => new Promise(() => undefined) });
      const stop = new AbortController();
      const p = s.run('hang', {}, stop.signal);
      await until(() => statuses(s)?.at(-1) === 'running', 'the call running');
      stop.abort();
      expect((await p).result.error).to.equal(RunnerText.stopped);
      expect(statuses(s)).to.deep.equal(['requested', 'running', 'cancelled']);
    });

    it('requested → failed (unknown tool; invalid arguments end failed and silent)', async () => {
      const s = setup();
      s.register('add_task', { parameters: { type: 'object', properties: { t: { type: 'string' } }, required: ['t'] }, handler: () => ({}) });
      await s.run('no_such_tool');
      expect(statuses(s)).to.deep.equal(['requested', 'failed']);
      await s.run('add_task', { t: 5 });
      expect(statuses(s)).to.deep.equal(['requested', 'failed']);
      expect(s.items().at(-1)).to.deep.include({ status: 'failed', failure: 'invalid-arguments', silent: true });
    });

    it('requested → awaiting-confirmation → running → succeeded (confirmed)', async () => {
      const s = setup();
      s.register('delete_task', { confirm: true, handler: () => ({}) });
      const p = s.run('delete_task');
      s.gate.answer((await s.confirmation()).id, 'confirm', trusted);
      await p;
      expect(statuses(s)).to.deep.equal(['requested', 'awaiting-confirmation', 'running', 'succeeded']);
    });

    it('requested → awaiting-confirmation → declined (the visitor said no; a spoken no too)', async () => {
      for (const source of ['pointer', 'keyboard', 'voice'] as const) {
        const s = setup();
        s.register('delete_task', { confirm: true, handler: () => ({}) });
        const p = s.run('delete_task');
        s.gate.answer((await s.confirmation()).id, 'cancel', { isTrusted: true, source });
        const outcome = await p;
        expect(statuses(s), source).to.deep.equal(['requested', 'awaiting-confirmation', 'declined']);
        expect(outcome).to.include({ status: 'cancelled', declined: true });
        expect(outcome.result.error).to.equal(RunnerText.cancelled);
      }
    });

    it('requested → awaiting-confirmation → cancelled (Stop, closing, restarting, voice ending withdraw it)', async () => {
      for (const reason of ['stopped', 'closed', 'restarted', 'voice-ended'] as const) {
        const s = setup();
        s.register('delete_task', { confirm: true, handler: () => ({}) });
        const p = s.run('delete_task');
        await s.confirmation();
        s.gate.cancelAll(reason);
        const outcome = await p;
        expect(statuses(s), reason).to.deep.equal(['requested', 'awaiting-confirmation', 'cancelled']);
        expect(outcome.declined, reason).to.equal(undefined);
        expect(outcome.result.error).to.equal(RunnerText.withdrawn);
      }
    });

    it('an untrusted Cancel (a page script) settles nothing: the part keeps waiting', async () => {
      const s = setup();
      s.register('delete_task', { confirm: true, handler: () => ({}) });
      const p = s.run('delete_task');
      const req = await s.confirmation();
      expect(s.gate.answer(req.id, 'cancel', { isTrusted: false, source: 'pointer' })).to.equal(false);
      await flushMicrotasks();
      expect(statuses(s)).to.deep.equal(['requested', 'awaiting-confirmation']);
      s.gate.answer(req.id, 'confirm', trusted);
      await p;
    });

    it('every run ends in a final status, and every step it took was legal', async () => {
      const s = setup();
      s.register('add_task', { handler: () => ({}) });
      s.register('delete_task', { confirm: true, handler: () => ({}) });
      await s.run('add_task');
      const p = s.run('delete_task');
      s.gate.answer((await s.confirmation()).id, 'cancel', trusted);
      await p;
      await s.run('missing');
      for (const walk of s.seen) {
        expect(isSettled(walk.at(-1)), walk.join(' → ')).to.equal(true);
        for (let i = 1; i < walk.length; i++) expect(canMove(walk[i - 1], walk[i]), walk.join(' → ')).to.equal(true);
      }
    });
  });

  describe('what the model is told for each ending', () => {
    it('declined, withdrawn, stopped, failed and succeeded calls each carry their own result in the request', () => {
      const filed = (id: string, status: ToolPart['status'], output: unknown): ToolPart => ({
        kind: 'tool',
        id,
        name: 'delete_task',
        status,
        step: 's1',
        input: {},
        output: JSON.stringify(output),
      });
      const items: TranscriptItem[] = [
        { kind: 'message', id: 'u1', role: 'user', text: 'Delete them', streaming: false },
        filed('a', 'declined', { success: false, cancelled: true, error: RunnerText.cancelled }),
        filed('b', 'cancelled', { success: false, cancelled: true, error: RunnerText.withdrawn }),
        filed('c', 'cancelled', { success: false, cancelled: true, error: RunnerText.stopped }),
        filed('d', 'failed', { success: false, error: 'Locked' }),
        filed('e', 'succeeded', { success: true }),
      ];
      const tools = toModelMessages(items).filter((m) => m.role === 'tool');
      expect(tools.map((m) => ('content' in m ? JSON.parse(m.content).error : null))).to.deep.equal([
        RunnerText.cancelled,
        RunnerText.withdrawn,
        RunnerText.stopped,
        'Locked',
        undefined,
      ]);
      // Nothing the model reads invites a retry of an action the visitor refused.
      expect(RunnerText.cancelled).to.match(/Do not retry it\.$/);
      expect(RunnerText.withdrawn).to.match(/did not run\. Do not retry it\.$/);
    });

    it('a part not yet settled is never sent: the call is left out until its result exists', () => {
      for (const status of ['requested', 'awaiting-confirmation', 'running'] as const) {
        const items: TranscriptItem[] = [
          { kind: 'message', id: 'u1', role: 'user', text: 'Go', streaming: false },
          { kind: 'tool', id: 'x', name: 'add_task', status },
        ];
        expect(toModelMessages(items), status).to.deep.equal([{ role: 'user', content: 'Go' }]);
      }
    });
  });
});
