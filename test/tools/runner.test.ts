import { expect } from '@open-wc/testing';
import { ChipStatus, type WaveCoreEvent } from '../../src/agent/types.js';
import { ConfirmationGate } from '../../src/consent/confirmation-gate.js';
import { SpendGrant } from '../../src/consent/spend-grant.js';
import type { ConfirmationRequest, VisitorEvidence } from '../../src/consent/types.js';
import { MemoryStorage } from '../../src/storage.js';
import { ToolDeferral } from '../../src/tools/deferral.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { RunnerText, ToolRunner, type BuiltinToolDefinition, type ToolChipItem, type ToolCallSource } from '../../src/tools/runner.js';
import type { HandlerContext, ToolDefinition, ToolOutcome } from '../../src/tools/types.js';
import { ArgumentValidator } from '../../src/tools/validator.js';
import { FakeClock, flushMicrotasks } from '../helpers/fake-clock.js';
import { until } from '../helpers/until.js';

const trusted: VisitorEvidence = { isTrusted: true, source: 'pointer' };
const untrusted: VisitorEvidence = { isTrusted: false, source: 'pointer' };
// The interpreter needs no eval and loads fast; engine choice is the validator's own concern.
const validator = new ArgumentValidator({ engine: 'interpreter' });

function setup(options: { builtins?: Record<string, BuiltinToolDefinition> } = {}) {
  const clock = new FakeClock();
  const registry = new ToolRegistry({ warn: () => undefined });
  const deferral = new ToolDeferral();
  const gate = new ConfirmationGate();
  const grant = new SpendGrant({ clock, storage: new MemoryStorage(), siteId: 't' });
  const events: WaveCoreEvent[] = [];
  const chips: ToolChipItem[] = [];
  const runner = new ToolRunner({
    registry,
    validator,
    deferral,
    gate,
    grant,
    clock,
    builtinTools: () => options.builtins ?? {},
    emit: (e) => events.push(e),
    onChip: (c) => chips.push(c),
  });
  let n = 0;
  const run = (name: string, args: unknown = {}, extra: { signal?: AbortSignal; source?: ToolCallSource; id?: string } = {}) =>
    runner.run(
      { id: extra.id ?? `c${++n}`, name, arguments: args },
      { signal: extra.signal ?? new AbortController().signal, conversationId: 'conv-1', source: extra.source ?? 'model' },
    );
  /** Waits until a confirmation is on screen (after the lazy validator chunk), and returns it. */
  const confirmation = (): Promise<ConfirmationRequest> => until(() => gate.pending().at(-1) as ConfirmationRequest | undefined, 'a confirmation shown');
  const register = (name: string, def: ToolDefinition) => {
    expect(registry.register(name, def), `register ${name}`).to.equal(true);
  };
  return { clock, registry, deferral, gate, grant, events, chips, runner, run, confirmation, register };
}

/** Tracks a promise's settlement without waiting on it. */
function track<T>(p: Promise<T>) {
  const t = { settled: false, value: undefined as T | undefined };
  void p.then((v) => {
    t.settled = true;
    t.value = v;
  });
  return t;
}

async function turns(k = 10): Promise<void> {
  for (let i = 0; i < k; i++) await flushMicrotasks();
}

const titleSchema = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'], additionalProperties: false };

// The validator's engine is a lazy chunk: loaded once before the tests, so those that count
// turns (not time) after a tool call never race its arrival from the server.
before(() => new ArgumentValidator({ engine: 'interpreter' }).compile({ type: 'object' }));

describe('ToolRunner', () => {
  describe('running a handler', () => {
    it('passes validated args and the context, normalises the result, and reports chips and events', async () => {
      const s = setup();
      const seen: Array<[unknown, HandlerContext]> = [];
      s.register('add_task', {
        description: 'Add a task.',
        parameters: titleSchema,
        handler: (args: unknown, ctx: HandlerContext) => {
          seen.push([args, ctx]);
          return { id: 't1' };
        },
        summary: (args: { title: string }) => `Added “${args.title}”`,
      });
      const outcome = await s.run('add_task', { title: 'Milk' }, { id: 'call-7' });
      expect(outcome).to.deep.equal({
        callId: 'call-7',
        name: 'add_task',
        title: 'Add task',
        status: 'succeeded',
        result: { success: true, id: 't1' },
        label: 'Added “Milk”',
        attempts: 1,
      });
      expect(seen[0]?.[0]).to.deep.equal({ title: 'Milk' });
      expect(seen[0]?.[1].callId).to.equal('call-7');
      expect(seen[0]?.[1].conversationId).to.equal('conv-1');
      expect(seen[0]?.[1].signal.aborted).to.equal(false);
      // Facts only: the page's own words pass through; no sentence of the core's.
      expect(s.chips).to.deep.equal([
        { kind: 'tool', id: 'call-7', name: 'add_task', title: 'Add task', status: 'requested' },
        { kind: 'tool', id: 'call-7', name: 'add_task', title: 'Add task', subject: 'Milk', args: { title: 'Milk' }, status: 'running', attempts: 1 },
        { kind: 'tool', id: 'call-7', name: 'add_task', title: 'Add task', subject: 'Milk', args: { title: 'Milk' }, status: 'succeeded', attempts: 1, label: 'Added “Milk”' },
      ]);
      expect(s.events.map((e) => e.type)).to.deep.equal(['tool-call-requested', 'tool-call-started', 'tool-call-succeeded']);
    });

    it('parses JSON string arguments from a model', async () => {
      const s = setup();
      s.register('add_task', { parameters: titleSchema, handler: (a: { title: string }) => ({ title: a.title }) });
      const outcome = await s.run('add_task', '{"title":"Eggs"}');
      expect(outcome.result).to.deep.equal({ success: true, title: 'Eggs' });
      const bad = await s.run('add_task', '{"title":');
      expect(bad.status).to.equal('invalid');
    });

    it('rejects invalid arguments with the reason; the handler never runs', async () => {
      const s = setup();
      let calls = 0;
      s.register('add_task', { parameters: titleSchema, handler: () => ++calls });
      const outcome = await s.run('add_task', { title: 42 });
      expect(outcome.status).to.equal('invalid');
      expect(outcome.failure).to.equal('invalid-arguments');
      expect(outcome.result.success).to.equal(false);
      expect(String(outcome.result.error)).to.match(/^Invalid arguments: .+/);
      expect(calls).to.equal(0);
      expect(s.events.at(-1)?.type).to.equal('tool-call-failed');
    });

    it('reports invalid arguments as a notice fact (no visible chip: the requested part ends failed and silent): the tool, its title, who called, and the reason the model got', async () => {
      const s = setup();
      const notices: unknown[] = [];
      const runner = new ToolRunner({
        registry: s.registry, validator, deferral: s.deferral, gate: s.gate, grant: s.grant, clock: s.clock,
        onChip: (c) => s.chips.push(c),
        onNotice: (id, notice) => notices.push({ id, ...notice }),
      });
      const idSchema = { type: 'object', properties: { task_id: { type: 'string' } }, required: ['task_id'], additionalProperties: false };
      s.register('delete_task', { parameters: idSchema, confirm: true, handler: () => ({}) });
      const outcome = await runner.run({ id: 'x1', name: 'delete_task', arguments: { task_id: 7 } }, { signal: new AbortController().signal, conversationId: 'c', source: 'model' });
      expect(s.chips.map((c) => c.status)).to.deep.equal(['requested', 'failed']);
      expect(s.chips.at(-1)).to.include({ silent: true, failure: 'invalid-arguments' });
      const reason = String(outcome.result.error).replace(/^Invalid arguments: /, '');
      expect(reason).to.contain('task_id');
      expect(notices).to.deep.equal([{ id: 'x1', kind: 'invalid-arguments', name: 'delete_task', title: 'Delete task', source: 'model', reason }]);
    });

    it('answers an unknown tool with the deferral error text', async () => {
      const s = setup();
      s.register('add_task', { handler: () => ({}) });
      const outcome = await s.run('nope');
      expect(outcome.status).to.equal('unknown');
      expect(outcome.result).to.deep.equal({ success: false, error: s.deferral.unknownToolError(s.registry, 'nope') });
    });

    it('passes the running label, then a summary; a throwing or non-string summary leaves no label (the element words it)', async () => {
      const s = setup();
      s.register('a', { runningLabel: 'Adding…', handler: () => ({}), summary: () => { throw new Error('x'); } });
      s.register('b', { handler: () => ({}), summary: () => 42 });
      s.register('c', { handler: () => ({}), summary: () => 'x'.repeat(5000) });
      const a = await s.run('a');
      expect(s.chips[0]).to.include({ status: 'requested' }).and.not.have.property('label');
      expect(s.chips[1]?.label).to.equal('Adding…');
      expect(a.label).to.equal('');
      expect(s.chips.at(-1)).to.not.have.property('label');
      expect((await s.run('b')).label).to.equal('');
      const c = await s.run('c');
      expect(c.label.length).to.be.at.most(200);
      expect(c.label.endsWith('…')).to.equal(true);
    });
  });

  describe('failures, retry and timeout', () => {
    it('retries a non-confirming tool immediately, after 150 ms and after 400 ms, keeping the running chip', async () => {
      const s = setup();
      const times: number[] = [];
      s.register('flaky', {
        handler: () => {
          times.push(s.clock.now());
          if (times.length < 3) throw new Error('not ready');
          return { ok: 1 };
        },
      });
      const t0 = s.clock.now();
      const p = track(s.run('flaky'));
      await turns();
      expect(times).to.deep.equal([t0]);
      await s.clock.tickAsync(149);
      expect(times).to.have.length(1);
      await s.clock.tickAsync(1);
      expect(times).to.deep.equal([t0, t0 + 150]);
      await s.clock.tickAsync(399);
      expect(times).to.have.length(2);
      await s.clock.tickAsync(1);
      await turns();
      expect(times).to.deep.equal([t0, t0 + 150, t0 + 550]);
      expect(p.value?.status).to.equal('succeeded');
      expect(p.value?.attempts).to.equal(3);
      expect(s.chips[0]?.status).to.equal(ChipStatus.requested);
      expect(s.chips.slice(1, -1).every((c) => c.status === ChipStatus.running)).to.equal(true);
      expect(s.events.filter((e) => e.type === 'tool-call-started').map((e) => (e as { attempt: number }).attempt)).to.deep.equal([1, 2, 3]);
    });

    it('stops at the first attempt that neither throws nor returns success:false', async () => {
      const s = setup();
      let calls = 0;
      s.register('once', { handler: () => ({ n: ++calls }) });
      const outcome = await s.run('once');
      expect(calls).to.equal(1);
      expect(outcome.attempts).to.equal(1);
    });

    it('fails after three attempts with the last error passed on', async () => {
      const s = setup();
      let calls = 0;
      s.register('sold_out', { handler: () => ({ success: false, error: `Sold out ${++calls}` }) });
      const p = s.run('sold_out');
      await s.clock.tickAsync(1000);
      const outcome = await p;
      expect(outcome.status).to.equal('failed');
      expect(outcome.attempts).to.equal(3);
      expect(outcome.result).to.deep.equal({ success: false, error: 'Sold out 3' });
      expect(outcome.label).to.equal('Sold out 3');
      expect(s.chips.at(-1)).to.include({ status: 'failed', failure: 'handler', error: 'Sold out 3', attempts: 3 });
      // Each retry reports its attempt, so a chip can say which one is running.
      expect(s.chips.filter((c) => c.status === 'running').map((c) => c.attempts)).to.deep.equal([1, 2, 3]);
    });

    it("a failed chip shows only the handler's own message, never a description the runner made up", async () => {
      const s = setup();
      const cases: Record<string, () => unknown> = {
        thrown_error: () => { throw new Error('Sold out'); },
        thrown_string: () => { throw 'Plus de stock'; },
        thrown_object: () => { throw { error: 'Carte refusée', code: 42 }; },
        thrown_null: () => { throw null; },
        thrown_empty: () => { throw new Error(''); },
        returned_bare: () => ({ success: false }),
        returned_error: () => ({ success: false, error: 'No such task' }),
      };
      for (const [name, handler] of Object.entries(cases)) s.register(name, { handler });
      const shown: Record<string, string | undefined> = {};
      for (const name of Object.keys(cases)) {
        const p = s.run(name);
        await s.clock.tickAsync(1000);
        const outcome = await p;
        expect(outcome.status, name).to.equal('failed');
        expect(String(outcome.result.error), `${name}: the model always gets a reason`).to.not.equal('');
        shown[name] = s.chips.at(-1)?.error;
      }
      expect(shown).to.deep.equal({
        thrown_error: 'Sold out',
        thrown_string: 'Plus de stock',
        thrown_object: 'Carte refusée',
        thrown_null: undefined,
        thrown_empty: undefined,
        returned_bare: undefined,
        returned_error: 'No such task',
      });
    });

    it('times out: aborts the handler signal, fails with "timed out after N ms", no retry', async () => {
      const s = setup();
      const signals: AbortSignal[] = [];
      s.register('hang', { timeoutMs: 500, handler: (_a: unknown, ctx: HandlerContext) => { signals.push(ctx.signal); return new Promise(() => undefined); } });
      const p = track(s.run('hang'));
      await turns();
      await s.clock.tickAsync(499);
      expect(signals[0]?.aborted).to.equal(false);
      expect(p.settled).to.equal(false);
      await s.clock.tickAsync(1);
      await turns();
      expect(signals[0]?.aborted).to.equal(true);
      expect(p.value?.status).to.equal('failed');
      expect(String(p.value?.result.error)).to.contain('timed out after 500 ms');
      expect(s.chips.at(-1)).to.include({ status: 'failed', failure: 'timeout' });
      expect(s.chips.at(-1)).to.not.have.property('error');
      await s.clock.tickAsync(5000);
      expect(signals).to.have.length(1);
    });

    it('defaults the timeout to 30 s', async () => {
      const s = setup();
      s.register('hang', { handler: () => new Promise(() => undefined) });
      const p = track(s.run('hang'));
      await s.clock.tickAsync(29_999);
      expect(p.settled).to.equal(false);
      await s.clock.tickAsync(1);
      await turns();
      expect(String(p.value?.result.error)).to.contain('timed out after 30000 ms');
    });

    it('the run signal aborts the handler and cancels the call', async () => {
      const s = setup();
      let signal: AbortSignal | undefined;
      s.register('hang', { handler: (_a: unknown, ctx: HandlerContext) => { signal = ctx.signal; return new Promise(() => undefined); } });
      const stop = new AbortController();
      const p = s.run('hang', {}, { signal: stop.signal });
      await turns();
      stop.abort();
      const outcome = await p;
      expect(signal?.aborted).to.equal(true);
      expect(outcome.status).to.equal('cancelled');
      expect(outcome.result.cancelled).to.equal(true);
      expect(outcome.label).to.equal('');
      expect(s.chips.at(-1)?.status).to.equal('cancelled');
    });

    it('abortAll (chat closed) aborts handlers and pending retry waits', async () => {
      const s = setup();
      let calls = 0;
      s.register('flaky', { handler: () => { calls++; throw new Error('no'); } });
      const p = s.run('flaky');
      await turns();
      s.runner.abortAll('closed');
      const outcome = await p;
      expect(outcome.status).to.equal('cancelled');
      expect(calls).to.equal(1);
      // Later runs are unaffected.
      s.register('ok', { handler: () => ({}) });
      expect((await s.run('ok')).status).to.equal('succeeded');
    });

    it('nothing a handler does escapes', async () => {
      const s = setup();
      const throwingThen = { get then() { throw new Error('then getter'); } };
      const proxy = new Proxy({}, { get: () => { throw new Error('trap'); }, ownKeys: () => { throw new Error('trap'); } });
      const badToString = { toString() { throw new Error('nope'); } };
      const cases: Record<string, () => unknown> = {
        sync_throw: () => { throw new Error('boom'); },
        async_reject: () => Promise.reject(new Error('later')),
        throw_symbol: () => { throw Symbol('s'); },
        throw_weird: () => { throw badToString; },
        throwing_then: () => throwingThen,
        returns_proxy: () => proxy,
        returns_function: () => () => 1,
        returns_cycle: () => { const o: Record<string, unknown> = { a: 1 }; o.self = o; return o; },
        returns_undefined: () => undefined,
        then_never_calls: () => ({ then() { /* never */ } }),
      };
      for (const [name, handler] of Object.entries(cases)) s.register(name, { handler, timeoutMs: 100 });
      const outcomes: ToolOutcome[] = [];
      for (const name of Object.keys(cases)) {
        const p = s.run(name);
        await s.clock.tickAsync(2000);
        outcomes.push(await p);
      }
      for (const o of outcomes) {
        expect(o.result, o.name).to.be.an('object');
        expect(JSON.parse(JSON.stringify(o.result)), o.name).to.deep.equal(o.result);
      }
      const by = (n: string) => outcomes.find((o) => o.name === n) as ToolOutcome;
      expect(by('sync_throw').result).to.deep.equal({ success: false, error: 'boom' });
      expect(by('async_reject').result.error).to.equal('later');
      expect(by('throw_symbol').status).to.equal('failed');
      expect(by('throw_weird').status).to.equal('failed');
      expect(by('throwing_then').status).to.equal('failed');
      expect(by('returns_proxy').result).to.be.an('object');
      expect(by('returns_function').status).to.equal('succeeded');
      expect(by('returns_cycle').status).to.equal('succeeded');
      expect(by('then_never_calls').status).to.equal('failed');
      expect(String(by('then_never_calls').result.error)).to.contain('timed out after 100 ms');
    });

    it('the model reads why whatever a handler throws or rejects with (null, undefined, objects, strings)', async () => {
      const s = setup();
      const cases: Array<[string, () => unknown, string]> = [
        ['throw_null', () => { throw null; }, 'The action failed without giving a reason.'],
        ['throw_undefined', () => { throw undefined; }, 'The action failed without giving a reason.'],
        ['reject_null', () => Promise.reject(null), 'The action failed without giving a reason.'],
        ['reject_undefined', () => Promise.reject(undefined), 'The action failed without giving a reason.'],
        ['reject_object', () => Promise.reject({ code: 42 }), 'The action failed: {"code":42}'],
        ['reject_message', () => Promise.reject({ message: 'Card declined' }), 'Card declined'],
        ['reject_error_field', () => Promise.reject({ error: 'Out of stock', status: 409 }), 'Out of stock'],
        ['throw_string', () => { throw 'No such order'; }, 'No such order'],
        ['throw_number', () => { throw 404; }, 'The action failed: 404'],
      ];
      for (const [name, handler] of cases) s.register(name, { handler });
      for (const [name, , expected] of cases) {
        const p = s.run(name);
        await s.clock.tickAsync(60_000); // past the retries' back-off
        const outcome = await p;
        expect(outcome.status, name).to.equal('failed');
        expect(outcome.result.error, name).to.equal(expected);
        expect(outcome.label, name).to.equal(expected);
      }
      // A returned failure keeps its object for the model; the chip still reads its contents.
      s.register('returns_failure_object', { handler: () => ({ success: false, error: { code: 'E_LIMIT' } }) });
      const p = s.run('returns_failure_object');
      await s.clock.tickAsync(60_000);
      const outcome = await p;
      expect(outcome.result).to.deep.equal({ success: false, error: { code: 'E_LIMIT' } });
      expect(outcome.label).to.equal('The action failed: {"code":"E_LIMIT"}');
    });
  });

  describe('consent', () => {
    it('waits for a trusted confirm, then runs exactly once (no retry even on failure)', async () => {
      const s = setup();
      let calls = 0;
      s.register('delete_task', { confirm: true, confirmLabel: 'Delete the draft?', handler: () => { calls++; return { success: false, error: 'gone' }; } });
      const p = track(s.run('delete_task'));
      const req = await s.confirmation();
      expect(req).to.include({ toolName: 'delete_task', label: 'Delete the draft?', cost: 0, tier3: false, offersSessionApproval: false });
      expect(s.chips.at(-1)?.status).to.equal('awaiting-confirmation');
      expect(s.chips.at(-1)?.confirmation?.id).to.equal(req.id);
      expect(s.gate.answer(req.id, 'confirm', untrusted)).to.equal(false);
      await turns();
      expect(calls).to.equal(0);
      expect(p.settled).to.equal(false);
      expect(s.gate.answer(req.id, 'confirm', trusted)).to.equal(true);
      await s.clock.tickAsync(2000);
      expect(calls).to.equal(1);
      expect(p.value?.status).to.equal('failed');
      expect(p.value?.attempts).to.equal(1);
    });

    it('cancel resolves as cancelled with the do-not-retry text; the handler never runs', async () => {
      const s = setup();
      let calls = 0;
      s.register('delete_task', { confirm: true, handler: () => ++calls });
      const p = s.run('delete_task');
      const req = await s.confirmation();
      s.gate.answer(req.id, 'cancel', trusted);
      const outcome = await p;
      expect(outcome.status).to.equal('cancelled');
      expect(outcome.declined).to.equal(true);
      expect(outcome.result).to.deep.equal({ success: false, cancelled: true, error: RunnerText.cancelled });
      expect(outcome.result.error).to.equal('The visitor cancelled this action. Do not retry it.');
      expect(outcome.label).to.equal('');
      expect(calls).to.equal(0);
      // The visitor's own no: the part is declined, not cancelled.
      expect(s.chips.map((c) => c.status)).to.deep.equal(['requested', 'awaiting-confirmation', 'declined']);
      expect(s.events.at(-1)).to.deep.include({ type: 'tool-call-cancelled' });
    });

    it('a closing chat (cancelAll) cancels the waiting call the same way: not run, not to be retried; cancelled, not declined', async () => {
      const s = setup();
      let calls = 0;
      s.register('delete_task', { confirm: true, handler: () => ++calls });
      const p = s.run('delete_task');
      await s.confirmation();
      s.gate.cancelAll('closed');
      const outcome = await p;
      expect(outcome.status).to.equal('cancelled');
      expect(outcome).to.not.have.property('declined');
      expect(outcome.result).to.deep.equal({ success: false, cancelled: true, error: RunnerText.withdrawn });
      expect(outcome.result.error).to.match(/did not run\. Do not retry it\.$/);
      expect(calls).to.equal(0);
      expect(s.chips.map((c) => c.status)).to.deep.equal(['requested', 'awaiting-confirmation', 'cancelled']);
    });

    it('reads cost and confirmLabel getters fresh when the confirmation is shown', async () => {
      const s = setup();
      let total = 10;
      let reads = 0;
      s.register('add_scene', {
        get cost() {
          reads++;
          return total;
        },
        get confirmLabel() {
          return `Add scene for ${total} cr?`;
        },
        handler: () => ({}),
      });
      total = 40;
      const p = s.run('add_scene');
      const req = await s.confirmation();
      expect(req.cost).to.equal(40);
      expect(req.label).to.equal('Add scene for 40 cr?');
      expect(reads).to.be.greaterThan(0);
      total = 999;
      s.gate.answer(req.id, 'confirm', trusted);
      const outcome = await p;
      expect(outcome.spent).to.equal(40);
    });

    it('a confirmation without a confirmLabel carries facts for the default question: title, key argument, cost', async () => {
      const s = setup();
      s.register('buy_wave_sticker_pack', {
        cost: 30,
        parameters: { type: 'object', properties: { pack_id: { type: 'string' }, name: { type: 'string' } }, required: ['pack_id', 'name'] },
        handler: () => ({}),
      });
      s.register('rename', { title: 'Renommer la liste', confirm: true, parameters: titleSchema, handler: () => ({}) });
      const p = s.run('buy_wave_sticker_pack', { pack_id: 'p_93', name: 'Ocean\u202e blues\n' });
      const req = await s.confirmation();
      // The id is skipped (only a confirmLabel can resolve it); invisible characters are dropped.
      expect(req).to.include({ toolName: 'buy_wave_sticker_pack', title: 'Buy wave sticker pack', subject: 'Ocean blues', cost: 30 });
      expect(req).to.not.have.property('label');
      expect(s.chips.at(-1)).to.include({ status: 'awaiting-confirmation', title: 'Buy wave sticker pack', subject: 'Ocean blues', cost: 30 });
      s.gate.answer(req.id, 'confirm', trusted);
      await p;
      expect(s.chips.at(-1)).to.include({ status: 'succeeded', title: 'Buy wave sticker pack', subject: 'Ocean blues', spent: 30 });
      const q = s.run('rename', { title: 'Courses' });
      expect(await s.confirmation()).to.include({ title: 'Renommer la liste', subject: 'Courses' });
      s.gate.cancelAll('closed');
      await q;
    });

    it('fails closed when the cost getter throws or is not a valid number', async () => {
      const s = setup();
      let calls = 0;
      s.register('broken', { get cost(): number { throw new Error('no price'); }, handler: () => ++calls });
      s.register('nan', { get cost() { return Number.NaN; }, handler: () => ++calls });
      s.register('negative', { get cost() { return -5; }, handler: () => ++calls });
      for (const name of ['broken', 'nan', 'negative']) {
        const p = s.run(name);
        await s.clock.tickAsync(60_000); // past the retries' back-off
        const outcome = await p;
        expect(outcome.status, name).to.equal('failed');
        expect(String(outcome.result.error)).to.contain('could not be read');
        expect(s.chips.at(-1)).to.include({ status: 'failed', failure: 'unreadable-cost' });
      }
      expect(calls).to.equal(0);
      expect(s.gate.pending()).to.deep.equal([]);
    });

    it('cost > 0 forces confirmation, offers session approval, and a successful run carries a receipt', async () => {
      const s = setup();
      s.register('add_scene', { cost: 40, handler: () => ({}), summary: () => 'Added scene' });
      const p = s.run('add_scene');
      const req = await s.confirmation();
      expect(req.offersSessionApproval).to.equal(true);
      s.gate.answer(req.id, 'confirm', trusted);
      const outcome = await p;
      expect(outcome.spent).to.equal(40);
      expect(s.chips.at(-1)).to.include({ status: 'succeeded', label: 'Added scene', spent: 40 });
      expect(s.grant.state().active).to.equal(false);
    });

    it('a failed costly run has no receipt', async () => {
      const s = setup();
      s.register('add_scene', { cost: 40, handler: () => ({ success: false, error: 'No credits' }) });
      const p = s.run('add_scene');
      s.gate.answer((await s.confirmation()).id, 'confirm', trusted);
      const outcome = await p;
      expect(outcome.status).to.equal('failed');
      expect(outcome.spent).to.equal(undefined);
    });

    it('approve-session runs the action, starts the grant, and later costly calls run without asking', async () => {
      const s = setup();
      let calls = 0;
      s.register('add_scene', { cost: 40, handler: () => ({ n: ++calls }) });
      const p = s.run('add_scene');
      s.gate.answer((await s.confirmation()).id, 'approve-session', trusted);
      expect((await p).spent).to.equal(40);
      expect(s.grant.state()).to.include({ active: true, spent: 40, cap: 200 });
      const second = await s.run('add_scene');
      expect(second.status).to.equal('succeeded');
      expect(second.spent).to.equal(40);
      expect(s.grant.state().spent).to.equal(80);
      expect(s.chips.at(-1)).to.include({ status: 'succeeded', spent: 40 });
      expect(calls).to.equal(2);
    });

    it('a free confirm tool always asks, even under a grant', async () => {
      const s = setup();
      s.grant.start();
      let calls = 0;
      s.register('delete_task', { confirm: true, handler: () => ++calls });
      const p = track(s.run('delete_task'));
      const req = await s.confirmation();
      expect(req.offersSessionApproval).to.equal(false);
      expect(calls).to.equal(0);
      s.gate.answer(req.id, 'confirm', trusted);
      await turns();
      expect(p.value?.status).to.equal('succeeded');
    });

    it('tier3 tools always ask, never offer or use the grant', async () => {
      const s = setup();
      s.grant.start();
      let calls = 0;
      s.register('buy', { cost: 10, tier3: true, handler: () => ++calls });
      const p = s.run('buy');
      const req = await s.confirmation();
      expect(req.tier3).to.equal(true);
      expect(req.offersSessionApproval).to.equal(false);
      expect(s.gate.answer(req.id, 'approve-session', trusted)).to.equal(false);
      expect(calls).to.equal(0);
      s.gate.answer(req.id, 'confirm', trusted);
      const outcome = await p;
      expect(outcome.spent).to.equal(10);
      expect(s.grant.state().spent).to.equal(0);
    });

    it('counts a covered call that timed out against the cap (it may have spent); a reported failure is not counted', async () => {
      const s = setup();
      s.grant.start();
      s.register('slow_buy', { cost: 40, timeoutMs: 500, handler: () => new Promise(() => undefined) });
      s.register('refused_buy', { cost: 40, handler: () => ({ success: false, error: 'card declined' }) });
      const p = track(s.run('slow_buy'));
      await turns();
      await s.clock.tickAsync(500);
      await turns();
      expect(p.value?.status).to.equal('failed');
      expect(s.grant.state().spent).to.equal(40);
      expect((await s.run('refused_buy')).status).to.equal('failed');
      expect(s.grant.state().spent).to.equal(40);
    });

    it('reads confirm and tier3 as the schema reports them: any truthy value asks, and tier3 never uses the grant', async () => {
      const s = setup();
      s.grant.start();
      let runs = 0;
      s.register('wipe', { confirm: 'yes', handler: () => ++runs } as unknown as ToolDefinition);
      s.register('buy', { cost: 40, tier3: 1, handler: () => ++runs } as unknown as ToolDefinition);
      for (const name of ['wipe', 'buy']) {
        expect(s.registry.toSchema(s.registry.get(name)!).confirm).to.equal(true);
        const p = s.run(name);
        const req = await s.confirmation();
        expect(runs, `${name} ran before an answer`).to.equal(0);
        if (name === 'buy') expect(req.offersSessionApproval).to.equal(false);
        s.gate.answer(req.id, 'cancel', trusted);
        expect((await p).status).to.equal('cancelled');
      }
      expect(s.grant.state().spent).to.equal(0);
    });

    it('a call that would cross the cap asks once more with the running total; confirm raises by 200', async () => {
      const s = setup();
      s.grant.start();
      s.grant.record(180);
      s.register('add_scene', { cost: 40, handler: () => ({}) });
      const p = s.run('add_scene');
      const req = await s.confirmation();
      expect(req.grantRunningTotal).to.equal(180);
      expect(req.grantCap).to.equal(200);
      expect(req.offersSessionApproval).to.equal(false);
      s.gate.answer(req.id, 'confirm', trusted);
      const outcome = await p;
      expect(outcome.spent).to.equal(40);
      expect(s.grant.state()).to.include({ active: true, spent: 220, cap: 400 });
    });

    it('cancelling the cap re-ask ends the grant and cancels the call', async () => {
      const s = setup();
      s.grant.start();
      s.grant.record(190);
      let calls = 0;
      s.register('add_scene', { cost: 40, handler: () => ++calls });
      const p = s.run('add_scene');
      s.gate.answer((await s.confirmation()).id, 'cancel', trusted);
      expect((await p).status).to.equal('cancelled');
      expect(s.chips.at(-1)?.status).to.equal('declined');
      expect(s.grant.state().active).to.equal(false);
      expect(calls).to.equal(0);
    });

    it('stopping during a cap re-ask cancels the call but keeps the grant', async () => {
      const s = setup();
      s.grant.start();
      s.grant.record(190);
      s.register('add_scene', { cost: 40, handler: () => ({}) });
      const stop = new AbortController();
      const p = s.run('add_scene', {}, { signal: stop.signal });
      await s.confirmation();
      stop.abort();
      expect((await p).status).to.equal('cancelled');
      expect(s.chips.at(-1)?.status).to.equal('cancelled');
      expect(s.grant.state().active).to.equal(true);
    });

    it('after the grant expires, costly calls ask again', async () => {
      const s = setup();
      s.grant.start();
      s.clock.tick(30 * 60_000);
      s.register('add_scene', { cost: 40, handler: () => ({}) });
      const p = s.run('add_scene');
      const req = await s.confirmation();
      expect(req.offersSessionApproval).to.equal(true);
      expect(req.grantRunningTotal).to.equal(undefined);
      s.gate.answer(req.id, 'cancel', trusted);
      await p;
    });

    it('concurrent covered calls cannot overspend the cap', async () => {
      const s = setup();
      s.grant.start();
      let release: (() => void) | undefined;
      s.register('add_scene', { cost: 150, handler: () => new Promise((r) => { release = () => r({}); }) });
      const first = s.run('add_scene');
      await turns();
      const second = track(s.run('add_scene'));
      const req = await s.confirmation();
      expect(req.grantRunningTotal).to.equal(0);
      release?.();
      expect((await first).spent).to.equal(150);
      s.gate.answer(req.id, 'cancel', trusted);
      await turns();
      expect(second.value?.status).to.equal('cancelled');
    });
  });

  describe('resolution', () => {
    it('offers built-in tools only while no page tool is registered, honouring confirmIf', async () => {
      let navigated = 0;
      const s = setup({
        builtins: {
          navigate: {
            description: 'Go to a URL.',
            parameters: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
            handler: () => ({ url: ++navigated }),
            confirmIf: () => true,
          },
          read_page: { handler: () => ({ outline: 'x' }) },
        },
      });
      expect((await s.run('read_page')).status).to.equal('succeeded');
      const p = s.run('navigate', { url: '/a' });
      const req = await s.confirmation();
      s.gate.answer(req.id, 'confirm', trusted);
      expect((await p).status).to.equal('succeeded');
      expect(navigated).to.equal(1);
      s.register('add_task', { handler: () => ({}) });
      expect((await s.run('read_page')).status).to.equal('unknown');
    });

    it("passes a built-in tool's page outline whole (over the page-tool string cap) but caps a page tool's", async () => {
      const outline = '- text "' + 'x'.repeat(3500) + '"';
      const s = setup({ builtins: { read_page: { handler: () => ({ success: true, outline }) } } });
      const builtin = await s.run('read_page');
      expect(builtin.result['outline']).to.equal(outline);
      s.register('big_read', { handler: () => ({ outline }) });
      const page = await s.run('big_read');
      expect(page.result['outline']).to.have.length(2000 + '\u2026[truncated]'.length);
    });

    it('runs load_tools when deferring; a deferred tool is unknown to the model but runs for the host', async () => {
      const s = setup();
      for (let i = 0; i < 25; i++) s.register(`tool_${i}`, { description: `Tool ${i}.`, handler: () => ({ i }) });
      expect(s.deferral.isDeferring(s.registry)).to.equal(true);
      const inactive = s.registry.list().map((t) => t.name).find((n) => !s.deferral.isActive(s.registry, n)) as string;
      expect((await s.run(inactive)).status).to.equal('unknown');
      expect((await s.run(inactive, {}, { source: 'page' })).status).to.equal('succeeded');
      // 'host', the source's former name, still means the page.
      expect((await s.run(inactive, {}, { source: 'host' })).status).to.equal('succeeded');
      const load = await s.run('load_tools', { names: [inactive] });
      expect(load.status).to.equal('succeeded');
      // A built-in chip: the elements title it from their labels.
      expect(s.chips.at(-1)).to.deep.include({ name: 'load_tools', builtin: true, status: 'succeeded' });
      expect((await s.run(inactive)).status).to.equal('succeeded');
      const bad = await s.run('load_tools', { names: 'nope' });
      expect(bad.status).to.equal('failed');
      expect(s.chips.at(-1)).to.include({ name: 'load_tools', status: 'failed', failure: 'handler' });
      expect(s.chips.at(-1), 'the reason is written for the model, not shown').to.not.have.property('error');
    });
  });
});
