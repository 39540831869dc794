import { expect } from '@open-wc/testing';
import { ConfirmDecision } from '../../src/consent/types.js';
import type { ConfirmationRequest, VisitorEvidence } from '../../src/consent/types.js';
import { VOICE_EVIDENCE, classifyVoiceAnswer, handleVoiceAnswer } from '../../src/voice/voice-answer.js';
import type { VoiceAnswerKind, VoiceAnswerTarget } from '../../src/voice/voice-answer.js';
import { DESIGNED } from './voice-answer-designed.js';
import { PARAPHRASES } from './voice-answer-paraphrases.js';

// Two tables: paraphrases written before the classifier was rewritten (not designed for), and
// the phrasings it was designed around. Every row must match exactly.
const TABLE: ReadonlyArray<readonly [string, VoiceAnswerKind]> = [...PARAPHRASES, ...DESIGNED];
const CONSENT: readonly VoiceAnswerKind[] = ['confirm', 'grant'];

describe('classifyVoiceAnswer', () => {
  it('is tried on at least 300 phrasings, half of them paraphrases it was not designed around', () => {
    expect(TABLE.length).to.be.greaterThanOrEqual(300);
    expect(PARAPHRASES.length * 2).to.be.greaterThanOrEqual(TABLE.length);
  });

  for (const [utterance, kind] of TABLE) {
    it(`${JSON.stringify(utterance)} → ${kind}`, () => {
      expect(classifyVoiceAnswer(utterance).kind).to.equal(kind);
    });
  }

  it('never hears consent in a no, a revocation or a message from either table', () => {
    const falseConsent = TABLE.filter(([u, kind]) => !CONSENT.includes(kind) && CONSENT.includes(classifyVoiceAnswer(u).kind));
    expect(falseConsent).to.deep.equal([]);
  });

  it('a refusal said last is never consent, whatever came before it', () => {
    const openings = ['yes', 'sure', 'go ahead', 'approve all spending', "don't ask again", 'ok', 'yeah right', 'wait'];
    const refusals = ['no', 'nope', "don't", 'not yet', 'stop', 'cancel that', 'never mind', 'wait no'];
    for (const a of openings) {
      for (const b of refusals) {
        for (const joint of [', ', '... ', ' \u2014 ', '. ']) {
          const kind = classifyVoiceAnswer(`${a}${joint}${b}`).kind;
          expect(CONSENT.includes(kind), `${a}${joint}${b} → ${kind}`).to.equal(false);
        }
      }
    }
  });

  it('a negated or questioned blanket phrase never grants', () => {
    const phrases = ['approve all spending', 'stop asking', 'approve everything from now on', 'stop asking me for permission'];
    for (const p of phrases) {
      for (const framed of [`don't ${p}`, `never ${p}`, `I didn't say ${p}`, `should I ${p}?`, `${p}?`, `what if I ${p}`]) {
        expect(classifyVoiceAnswer(framed).kind, framed).to.not.equal('grant');
      }
    }
  });

  it('treats anything that is not a string as a message', () => {
    expect(classifyVoiceAnswer(undefined as unknown as string).kind).to.equal('message');
    expect(classifyVoiceAnswer(42 as unknown as string).kind).to.equal('message');
  });
});

function target(pending: ConfirmationRequest | null, grantActive = false) {
  const answers: Array<{ id: string; decision: ConfirmDecision; evidence: VisitorEvidence }> = [];
  const revokes: VisitorEvidence[] = [];
  const t: VoiceAnswerTarget = {
    pendingConfirmation: () => pending,
    answerConfirmation: (id, decision, evidence) => {
      answers.push({ id, decision, evidence });
      return true;
    },
    revokeGrant: (evidence) => {
      revokes.push(evidence);
      return true;
    },
    grantActive: () => grantActive,
  };
  return { t, answers, revokes };
}

const paid: ConfirmationRequest = { id: 'call_1', toolName: 'buy_scene', label: 'Buy?', cost: 40, tier3: false, offersSessionApproval: true, args: {} };
const free: ConfirmationRequest = { ...paid, id: 'call_2', cost: 0, offersSessionApproval: false };

describe('handleVoiceAnswer', () => {
  it('settles the confirmation on screen with voice evidence on a short yes or no', () => {
    const yes = target(paid);
    expect(handleVoiceAnswer('yes please', yes.t)).to.equal('consumed');
    expect(yes.answers).to.deep.equal([{ id: 'call_1', decision: ConfirmDecision.confirm, evidence: { isTrusted: true, source: 'voice' } }]);
    const no = target(paid);
    expect(handleVoiceAnswer('nope', no.t)).to.equal('consumed');
    expect(no.answers[0]!.decision).to.equal(ConfirmDecision.cancel);
    expect(VOICE_EVIDENCE).to.deep.equal({ isTrusted: true, source: 'voice' });
  });

  it('passes a yes to the model when nothing is on screen', () => {
    const t = target(null);
    expect(handleVoiceAnswer('yes', t.t)).to.equal('pass');
    expect(t.answers).to.have.length(0);
  });

  it('passes longer or ambiguous answers to the model even while a confirmation waits', () => {
    const t = target(paid);
    expect(handleVoiceAnswer('yes but make it two', t.t)).to.equal('pass');
    expect(t.answers).to.have.length(0);
  });

  it('a blanket phrase approves the session where a grant may be offered; on a free or tier3 chip it settles nothing', () => {
    const p = target(paid);
    expect(handleVoiceAnswer('approve all spending', p.t)).to.equal('consumed');
    expect(p.answers[0]!.decision).to.equal(ConfirmDecision.approveSession);
    const f = target(free);
    expect(handleVoiceAnswer("don't ask again", f.t)).to.equal('ask-again');
    expect(f.answers).to.have.length(0);
    const t3 = target({ ...paid, tier3: true, offersSessionApproval: false });
    for (const phrase of ['stop asking', 'stop asking me', 'approve all spending']) expect(handleVoiceAnswer(phrase, t3.t)).to.equal('ask-again');
    expect(t3.answers).to.have.length(0);
    // Even a chip that claims to offer it: tier3 and free never take a blanket phrase.
    const lying = target({ ...paid, tier3: true, offersSessionApproval: true });
    expect(handleVoiceAnswer('approve all spending', lying.t)).to.equal('ask-again');
    expect(lying.answers).to.have.length(0);
  });

  it('revokes an active grant with voice evidence, and passes when none is active', () => {
    const active = target(null, true);
    expect(handleVoiceAnswer('ask me every time', active.t)).to.equal('consumed');
    expect(active.revokes).to.deep.equal([{ isTrusted: true, source: 'voice' }]);
    const none = target(null, false);
    expect(handleVoiceAnswer('ask me every time', none.t)).to.equal('pass');
    expect(none.revokes).to.have.length(0);
  });

  it('passes when the session refuses the answer', () => {
    const t = target(paid);
    t.t.answerConfirmation = () => false;
    expect(handleVoiceAnswer('yes', t.t)).to.equal('pass');
  });
});
