import { expect } from '@open-wc/testing';
import { ConfirmationGate, type ConfirmationOutcome } from '../../src/consent/confirmation-gate.js';
import type { ConfirmationRequest, ConfirmDecision, VisitorEvidence } from '../../src/consent/types.js';

const trusted: VisitorEvidence = { isTrusted: true, source: 'pointer' };
const untrusted: VisitorEvidence = { isTrusted: false, source: 'pointer' };

function req(id: string, over: Partial<ConfirmationRequest> = {}): ConfirmationRequest {
  return { id, toolName: 'delete_task', label: 'Delete?', cost: 0, tier3: false, offersSessionApproval: false, args: {}, ...over };
}

/** Tracks whether a promise settled, without waiting on it. */
function track<T>(p: Promise<T>): { settled: () => boolean; value: () => T | undefined } {
  let done = false;
  let value: T | undefined;
  void p.then((v) => {
    done = true;
    value = v;
  });
  return { settled: () => done, value: () => value };
}

const tick = () => new Promise<void>((r) => queueMicrotask(r)).then(() => undefined);

describe('ConfirmationGate', () => {
  it('resolves with the decision of a trusted visitor answer', async () => {
    const gate = new ConfirmationGate();
    const decision = gate.request(req('a'));
    expect(gate.answer('a', 'confirm', trusted)).to.equal(true);
    expect(await decision).to.equal('confirm');
    expect(gate.pending()).to.deep.equal([]);
  });

  it('ignores untrusted evidence: the request keeps waiting', async () => {
    const gate = new ConfirmationGate();
    const t = track(gate.request(req('a')));
    expect(gate.answer('a', 'confirm', untrusted)).to.equal(false);
    expect(gate.answer('a', 'confirm', { isTrusted: 'true', source: 'pointer' } as unknown as VisitorEvidence)).to.equal(false);
    expect(gate.answer('a', 'confirm', null as unknown as VisitorEvidence)).to.equal(false);
    const throwing = new Proxy({}, { get: () => { throw new Error('no'); } }) as VisitorEvidence;
    expect(gate.answer('a', 'confirm', throwing)).to.equal(false);
    await tick();
    expect(t.settled()).to.equal(false);
    expect(gate.pending().map((r) => r.id)).to.deep.equal(['a']);
  });

  it('settles once: a second answer is refused and changes nothing', async () => {
    const gate = new ConfirmationGate();
    const decision = gate.request(req('a'));
    expect(gate.answer('a', 'cancel', trusted)).to.equal(true);
    expect(gate.answer('a', 'confirm', trusted)).to.equal(false);
    expect(await decision).to.equal('cancel');
  });

  it('refuses an answer for an unknown id or an invalid decision', async () => {
    const gate = new ConfirmationGate();
    const t = track(gate.request(req('a')));
    expect(gate.answer('b', 'confirm', trusted)).to.equal(false);
    expect(gate.answer('a', 'yes' as ConfirmDecision, trusted)).to.equal(false);
    await tick();
    expect(t.settled()).to.equal(false);
  });

  it('refuses approve-session when the chip does not offer it, accepts it when it does', async () => {
    const gate = new ConfirmationGate();
    const t = track(gate.request(req('a')));
    expect(gate.answer('a', 'approve-session', trusted)).to.equal(false);
    await tick();
    expect(t.settled()).to.equal(false);
    const offered = gate.request(req('b', { cost: 40, offersSessionApproval: true }));
    expect(gate.answer('b', 'approve-session', trusted)).to.equal(true);
    expect(await offered).to.equal('approve-session');
  });

  it('resolves cancel when the signal aborts, and when already aborted', async () => {
    const gate = new ConfirmationGate();
    const controller = new AbortController();
    const decision = gate.request(req('a'), controller.signal);
    controller.abort();
    expect(await decision).to.equal('cancel');
    expect(gate.pending()).to.deep.equal([]);
    expect(await gate.request(req('b'), AbortSignal.abort())).to.equal('cancel');
  });

  it('cancelAll cancels every outstanding request with a system source and the reason', async () => {
    const answered: Array<[string, ConfirmationOutcome]> = [];
    const gate = new ConfirmationGate({ onAnswered: (r, o) => answered.push([r.id, o]) });
    const a = gate.requestOutcome(req('a'));
    const b = gate.requestOutcome(req('b'));
    gate.cancelAll('closed');
    expect(await a).to.deep.equal({ decision: 'cancel', source: 'system', reason: 'closed' });
    expect(await b).to.deep.equal({ decision: 'cancel', source: 'system', reason: 'closed' });
    expect(answered.map(([id]) => id)).to.deep.equal(['a', 'b']);
    expect(gate.answer('a', 'confirm', trusted)).to.equal(false);
  });

  it('reports shown requests and the visitor source of answers', async () => {
    const shown: string[] = [];
    const answered: ConfirmationOutcome[] = [];
    const gate = new ConfirmationGate({ onShown: (r) => shown.push(r.id), onAnswered: (_r, o) => answered.push(o) });
    const outcome = gate.requestOutcome(req('a'));
    expect(shown).to.deep.equal(['a']);
    expect(gate.pending()[0]?.label).to.equal('Delete?');
    gate.answer('a', 'confirm', { isTrusted: true, source: 'keyboard' });
    expect(await outcome).to.deep.equal({ decision: 'confirm', source: 'keyboard' });
    expect(answered).to.deep.equal([{ decision: 'confirm', source: 'keyboard' }]);
  });

  it('keeps a snapshot: mutating the request after asking does not change what the gate allows', async () => {
    const gate = new ConfirmationGate();
    const request = req('a');
    const t = track(gate.request(request));
    request.offersSessionApproval = true;
    expect(gate.answer('a', 'approve-session', trusted)).to.equal(false);
    await tick();
    expect(t.settled()).to.equal(false);
  });

  it('nothing settles it by itself: no answer means it is still pending after many turns', async () => {
    const gate = new ConfirmationGate();
    const t = track(gate.request(req('a')));
    for (let i = 0; i < 20; i++) await tick();
    expect(t.settled()).to.equal(false);
    expect(gate.has('a')).to.equal(true);
  });
});
