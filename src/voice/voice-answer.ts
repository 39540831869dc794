/**
 * Voice consent (SPEC §5): a short spoken yes or no settles the one confirmation on screen, an
 * explicit blanket phrase grants or revokes spending approval, anything else goes to the model.
 */
import { ConfirmDecision } from '../consent/types.js';
import type { ConfirmationRequest, VisitorEvidence } from '../consent/types.js';
import type { UtteranceHandling } from './types.js';

/** What a spoken answer means, the Lit `TaskStatus` pattern. */
export const VoiceAnswerKind = {
  confirm: 'confirm',
  cancel: 'cancel',
  grant: 'grant',
  revoke: 'revoke',
  message: 'message',
} as const;
export type VoiceAnswerKind = (typeof VoiceAnswerKind)[keyof typeof VoiceAnswerKind];

/** Evidence for an answer heard by the speech recogniser or the realtime input transcription. */
export const VOICE_EVIDENCE: VisitorEvidence = Object.freeze({ isTrusted: true, source: 'voice' });

// A bare yes or no longer than this is no longer "short": the model hears it instead.
const MAX_ANSWER_WORDS = 6;

const REVOKE = [
  /^(?:please )?(?:ask|check with) me (?:every|each) time(?: please)?$/,
  /^(?:please )?(?:always ask(?: me)?(?: first)?|ask (?:every|each) time|keep asking(?: me)?|start asking(?: me)? again)(?: please)?$/,
  /^(?:please )?(?:stop|cancel|end|revoke) (?:the )?(?:spending|spend) (?:approval|grant|permission)(?: please)?$/,
  /^(?:please )?(?:revoke|cancel|withdraw) (?:the |my )?(?:approval|grant)(?: please)?$/,
  /^(?:please )?stop approving(?: spending| everything| things)?(?: please)?$/,
];

const GRANT = [
  /^(?:(?:yes|yeah|ok|okay|sure)[, ]+)?(?:please )?approve all (?:the )?(?:spending|purchases|charges|costs|credits|payments)(?: please)?$/,
  /^(?:(?:yes|yeah|ok|okay|sure)[, ]+)?(?:please )?approve (?:spending|everything|all) (?:for|during) (?:this|the) session(?: please)?$/,
  /^(?:(?:yes|yeah|ok|okay|sure)[, ]+)?(?:please )?approve (?:for|during) (?:this|the) session(?: please)?$/,
  /^(?:(?:yes|yeah|ok|okay|sure)[, ]+)?(?:please )?(?:don't|do not) ask(?: me)? again(?: please)?$/,
  /^(?:(?:yes|yeah|ok|okay|sure)[, ]+)?(?:please )?(?:stop|quit) asking(?: me)?(?: please)?$/,
  /^(?:(?:yes|yeah|ok|okay|sure)[, ]+)?(?:you )?(?:don't|do not) (?:need|have) to ask(?: me)?(?: again| anymore| any more)?$/,
  /^(?:(?:yes|yeah|ok|okay|sure)[, ]+)?no need to ask(?: me)?(?: again| anymore| any more)?$/,
];

// Longest first, so "don't do it" wins over "don't".
const longestFirst = (phrases: string[]): readonly string[] => phrases.sort((a, b) => b.length - a.length);

// Whole multi-word answers, collapsed to one token before the word check.
const NEGATIVE_PHRASES = longestFirst([
  "don't do it", "do not do it", "don't do that", 'do not do that', "don't", 'do not',
  'no thank you', 'no thanks', 'not really', 'not now', 'never mind', 'forget it', 'forget about it',
  'cancel that', 'cancel it', 'call it off', "i don't want it", "i don't want that", 'definitely not',
  'absolutely not', 'of course not', 'no way', "let's not", 'better not', "i'd rather not", 'rather not',
]);
const AFFIRMATIVE_PHRASES = longestFirst([
  'why not', 'go ahead', 'go for it', 'do it', 'do that', "let's do it", "let's do that", 'let us do it',
  'sounds good', 'that sounds good', "that's right", "that's fine", "that's correct", 'that is right',
  'of course', 'sure thing', 'uh huh', 'mm hmm', 'mhm', 'all right', 'please do', 'i do', 'make it so',
  'yes please', 'confirm it', 'confirm that', 'approve it', 'approve that', "i'm sure", 'i am sure',
  'i confirm', 'you bet', 'go on', 'alright then', 'fine by me', 'works for me', 'ok then', 'okay then',
]);

const AFFIRM_WORDS = new Set([
  'yes', 'yeah', 'yep', 'yup', 'yea', 'ya', 'aye', 'sure', 'ok', 'okay', 'k', 'confirm', 'confirmed',
  'correct', 'right', 'affirmative', 'absolutely', 'definitely', 'certainly', 'proceed', 'approve',
  'approved', 'agreed', 'agree', 'fine', 'alright', 'indeed', 'yess', 'yas', 'positive', 'gladly',
]);
const NEGATE_WORDS = new Set(['no', 'nope', 'nah', 'cancel', 'cancelled', 'negative', 'nay', 'stop', 'abort', 'decline', 'declined', 'nevermind']);
// Politeness and hesitation noises that do not change a yes or a no.
const FILLER_WORDS = new Set(['please', 'thanks', 'thank', 'you', 'oh', 'um', 'uh', 'uhm', 'er', 'erm', 'hmm', 'well', 'so', 'then', 'just', 'now', 'and', 'oops', 'sorry']);

const AFFIRM_TOKEN = '\u0001';
const NEGATE_TOKEN = '\u0002';

/** Lower-case, straight apostrophes, no punctuation, single spaces. */
function normalise(utterance: string): string {
  return utterance
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    .replace(/\bdont\b/g, "don't")
    .replace(/\blets\b/g, "let's")
    .replace(/\bthats\b/g, "that's")
    .replace(/\bim\b/g, "i'm")
    .replace(/[-‐]/g, ' ')
    .replace(/[^a-z0-9' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function collapse(text: string, phrases: readonly string[], token: string): string {
  let out = ` ${text} `;
  for (const phrase of phrases) out = out.split(` ${phrase} `).join(` ${token} `);
  // A phrase can overlap its own replacement ("do it do it"): repeat once more.
  for (const phrase of phrases) out = out.split(` ${phrase} `).join(` ${token} `);
  return out.trim();
}

/**
 * Classifies what a visitor said while voice is on: a short yes or no, a blanket grant or
 * revocation of spending approval, or a message for the model.
 *
 * @example
 * classifyVoiceAnswer('yes please');            // { kind: 'confirm' }
 * classifyVoiceAnswer('no, the blue one');      // { kind: 'message' }
 * classifyVoiceAnswer("don't ask me again");    // { kind: 'grant' }
 * classifyVoiceAnswer('ask me every time');     // { kind: 'revoke' }
 */
export function classifyVoiceAnswer(utterance: string): { kind: VoiceAnswerKind } {
  const text = normalise(utterance);
  if (!text) return { kind: VoiceAnswerKind.message };
  if (REVOKE.some((re) => re.test(text))) return { kind: VoiceAnswerKind.revoke };
  if (GRANT.some((re) => re.test(text))) return { kind: VoiceAnswerKind.grant };

  const collapsed = collapse(collapse(text, NEGATIVE_PHRASES, NEGATE_TOKEN), AFFIRMATIVE_PHRASES, AFFIRM_TOKEN);
  const words = collapsed.split(' ');
  if (words.length > MAX_ANSWER_WORDS) return { kind: VoiceAnswerKind.message };
  let yes = 0;
  let no = 0;
  for (const word of words) {
    if (word === AFFIRM_TOKEN || AFFIRM_WORDS.has(word)) yes++;
    else if (word === NEGATE_TOKEN || NEGATE_WORDS.has(word)) no++;
    else if (!FILLER_WORDS.has(word)) return { kind: VoiceAnswerKind.message };
  }
  // Both at once ("yes no", "not sure") is ambiguous: the model can ask again.
  if (yes > 0 && no === 0) return { kind: VoiceAnswerKind.confirm };
  if (no > 0 && yes === 0) return { kind: VoiceAnswerKind.cancel };
  return { kind: VoiceAnswerKind.message };
}

/** What the voice-consent hook needs from the session (implemented by the session wiring). */
export interface VoiceAnswerTarget {
  /** The one confirmation on screen, or null. With several, the newest (the one the voice bubble shows). */
  pendingConfirmation(): ConfirmationRequest | null;
  answerConfirmation(id: string, decision: ConfirmDecision, evidence: VisitorEvidence): boolean;
  revokeGrant(evidence: VisitorEvidence): boolean;
  /** Whether a spend grant is active (a revoke phrase with none active goes to the model). */
  grantActive(): boolean;
}

/**
 * The `onUserUtterance` hook: settles the confirmation on screen or the grant from a recognised
 * utterance, with voice evidence. Call it only with recogniser / input-transcription text.
 *
 * @example
 * engine.start({ ...options, onUserUtterance: (text) => handleVoiceAnswer(text, session) });
 */
export function handleVoiceAnswer(utterance: string, target: VoiceAnswerTarget): UtteranceHandling {
  const { kind } = classifyVoiceAnswer(utterance);
  if (kind === VoiceAnswerKind.message) return 'pass';
  if (kind === VoiceAnswerKind.revoke) {
    if (!target.grantActive()) return 'pass';
    return target.revokeGrant(VOICE_EVIDENCE) ? 'consumed' : 'pass';
  }
  const pending = target.pendingConfirmation();
  // A yes with nothing on screen, or a blanket phrase with nothing to pay for, is just talk.
  if (!pending) return 'pass';
  let decision: ConfirmDecision = ConfirmDecision.confirm;
  if (kind === VoiceAnswerKind.cancel) decision = ConfirmDecision.cancel;
  // A blanket phrase approves the session where the chip offers it, else settles this one call.
  else if (kind === VoiceAnswerKind.grant && pending.offersSessionApproval) decision = ConfirmDecision.approveSession;
  return target.answerConfirmation(pending.id, decision, VOICE_EVIDENCE) ? 'consumed' : 'pass';
}
