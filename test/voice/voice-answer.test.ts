import { expect } from '@open-wc/testing';
import { ConfirmDecision } from '../../src/consent/types.js';
import type { ConfirmationRequest, VisitorEvidence } from '../../src/consent/types.js';
import { VOICE_EVIDENCE, classifyVoiceAnswer, handleVoiceAnswer } from '../../src/voice/voice-answer.js';
import type { VoiceAnswerKind, VoiceAnswerTarget } from '../../src/voice/voice-answer.js';

// [utterance, expected kind]: short yes/no settles, blanket phrases grant/revoke, the rest is talk.
const TABLE: Array<[string, VoiceAnswerKind]> = [
  // confirm: short and affirmative
  ['yes', 'confirm'],
  ['Yes.', 'confirm'],
  ['YES!', 'confirm'],
  ['yes please', 'confirm'],
  ['Yes, please.', 'confirm'],
  ['yeah', 'confirm'],
  ['yeah sure why not', 'confirm'],
  ['yep', 'confirm'],
  ['yup', 'confirm'],
  ['sure', 'confirm'],
  ['sure thing', 'confirm'],
  ['ok', 'confirm'],
  ['okay', 'confirm'],
  ['OK then', 'confirm'],
  ['okay do it', 'confirm'],
  ['do it', 'confirm'],
  ['go ahead', 'confirm'],
  ['yes go ahead', 'confirm'],
  ['go for it', 'confirm'],
  ['confirm', 'confirm'],
  ['confirmed', 'confirm'],
  ['yes, confirm', 'confirm'],
  ['confirm it', 'confirm'],
  ['correct', 'confirm'],
  ["that's right", 'confirm'],
  ['thats right', 'confirm'],
  ['absolutely', 'confirm'],
  ['definitely', 'confirm'],
  ['of course', 'confirm'],
  ['yes yes', 'confirm'],
  ['uh huh', 'confirm'],
  ['mm-hmm', 'confirm'],
  ['um yes', 'confirm'],
  ['oh yes please', 'confirm'],
  ['yes thank you', 'confirm'],
  ['sounds good', 'confirm'],
  ['alright', 'confirm'],
  ['all right', 'confirm'],
  ['proceed', 'confirm'],
  ['approve it', 'confirm'],
  ['approve', 'confirm'],
  ["let's do it", 'confirm'],
  ['lets do it', 'confirm'],
  ['please do', 'confirm'],
  ['fine', 'confirm'],
  ['yes, do it', 'confirm'],
  ['yeah go on', 'confirm'],
  ['affirmative', 'confirm'],
  ['yes I confirm', 'confirm'],
  ["I'm sure", 'confirm'],
  // cancel: short and negative
  ['no', 'cancel'],
  ['No.', 'cancel'],
  ['nope', 'cancel'],
  ['nah', 'cancel'],
  ["don't", 'cancel'],
  ['dont', 'cancel'],
  ["don't do it", 'cancel'],
  ['do not', 'cancel'],
  ['no thanks', 'cancel'],
  ['no thank you', 'cancel'],
  ['no, thank you.', 'cancel'],
  ['cancel', 'cancel'],
  ['cancel it', 'cancel'],
  ['cancel that', 'cancel'],
  ['stop', 'cancel'],
  ['no no no', 'cancel'],
  ['no stop', 'cancel'],
  ['never mind', 'cancel'],
  ['nevermind', 'cancel'],
  ['forget it', 'cancel'],
  ['not now', 'cancel'],
  ['not really', 'cancel'],
  ['negative', 'cancel'],
  ['no way', 'cancel'],
  ['definitely not', 'cancel'],
  ['absolutely not', 'cancel'],
  ['um no', 'cancel'],
  ["no, don't", 'cancel'],
  ["let's not", 'cancel'],
  ["I'd rather not", 'cancel'],
  ['abort', 'cancel'],
  ['no sorry', 'cancel'],
  // grant: explicit blanket phrases only
  ['approve all spending', 'grant'],
  ['Approve all spending.', 'grant'],
  ['yes, approve all spending', 'grant'],
  ['please approve all spending', 'grant'],
  ['approve all purchases', 'grant'],
  ["don't ask again", 'grant'],
  ["don't ask me again", 'grant'],
  ['do not ask me again', 'grant'],
  ["dont ask again", 'grant'],
  ['stop asking', 'grant'],
  ['stop asking me', 'grant'],
  ['yes and stop asking', 'message'],
  ["you don't need to ask me again", 'grant'],
  ['no need to ask again', 'grant'],
  ['approve for this session', 'grant'],
  ['approve everything for this session', 'grant'],
  // revoke
  ['ask me every time', 'revoke'],
  ['Ask me every time.', 'revoke'],
  ['please ask me each time', 'revoke'],
  ['always ask me', 'revoke'],
  ['always ask first', 'revoke'],
  ['keep asking me', 'revoke'],
  ['start asking again', 'revoke'],
  ['stop approving spending', 'revoke'],
  ['revoke the approval', 'revoke'],
  ['cancel the spending approval', 'revoke'],
  // message: longer, mixed or ambiguous (near misses)
  ['yes but make it two', 'message'],
  ['no idea', 'message'],
  ['not sure', 'message'],
  ['yes and also add milk', 'message'],
  ['no, the blue one', 'message'],
  ['maybe', 'message'],
  ['I guess', 'message'],
  ['yes I guess', 'message'],
  ["I don't know", 'message'],
  ['yes no', 'message'],
  ['no yes', 'message'],
  ['wait', 'message'],
  ['hold on', 'message'],
  ['what does it cost', 'message'],
  ['how much is it', 'message'],
  ['yes for two people', 'message'],
  ['no, make it three', 'message'],
  ['ok but cheaper', 'message'],
  ['add milk', 'message'],
  ['yes add it to the blue basket instead', 'message'],
  ['yes yes yes yes yes yes yes', 'message'],
  ['sure, but first tell me the price', 'message'],
  ["don't know", 'message'],
  ["don't ask", 'message'],
  ['ask me', 'message'],
  ['approve all', 'message'],
  ['approve all spending except for food', 'message'],
  ["don't ask me again about the colour", 'message'],
  ['stop asking questions and tell me a joke', 'message'],
  ['ask me every time you change the colour of anything on this page', 'message'],
  ['never', 'message'],
  ['thank you', 'message'],
  ['', 'message'],
  ['   ', 'message'],
  ['...', 'message'],
  ['42', 'message'],
  ['yes 2', 'message'],
  ['no the second', 'message'],
  ['right one', 'message'],
  ['what', 'message'],
  ['stop the music', 'message'],
  ['cancel my order from yesterday', 'message'],
  ['yes, why?', 'message'],
  ['should I?', 'message'],
  ['no problem', 'message'],
  ['okay what next', 'message'],
];

describe('classifyVoiceAnswer', () => {
  it('has at least 100 phrasings', () => {
    expect(TABLE.length).to.be.greaterThanOrEqual(100);
  });

  for (const [utterance, kind] of TABLE) {
    it(`${JSON.stringify(utterance)} → ${kind}`, () => {
      expect(classifyVoiceAnswer(utterance).kind).to.equal(kind);
    });
  }
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

  it('a blanket phrase approves the session where offered, else confirms only this call', () => {
    const p = target(paid);
    expect(handleVoiceAnswer('approve all spending', p.t)).to.equal('consumed');
    expect(p.answers[0]!.decision).to.equal(ConfirmDecision.approveSession);
    const f = target(free);
    expect(handleVoiceAnswer("don't ask again", f.t)).to.equal('consumed');
    expect(f.answers[0]!.decision).to.equal(ConfirmDecision.confirm);
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
