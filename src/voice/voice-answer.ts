/**
 * Voice consent (SPEC §5, §9): what a visitor's words mean while a confirmation is asked aloud.
 *
 * The classifier reads an utterance the way a careful listener would, not against a list of
 * whole sentences: it splits it into clauses, reads each clause (a yes, a no, a blanket grant,
 * a revocation, a hedge, doubt or sarcasm, a question, or anything else), scopes negation
 * inside a clause ("don't ask again" grants, "don't stop asking" revokes, "not okay" refuses),
 * and then weighs the clauses. It fails closed: whatever is not clearly a yes, a no, a grant or
 * a revocation is a message for the model, and a no anywhere means it is never a yes.
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

// An answer is short: past this many words the visitor is saying something else.
const MAX_WORDS = 18;

/** How one clause reads. */
const Clause = {
  yes: 'yes',
  no: 'no',
  grant: 'grant',
  revoke: 'revoke',
  /** Waiting, thinking, unsure: "wait", "hold on", "I guess", "maybe". */
  hedge: 'hedge',
  /** Sarcasm and dismissal: "yeah right", "sure sure", "whatever". */
  doubt: 'doubt',
  /** Politeness and noise that change nothing: "please", "um", "no problem". */
  neutral: 'neutral',
  /** Anything else: a question, a condition, another request. */
  other: 'other',
} as const;
type Clause = (typeof Clause)[keyof typeof Clause];

// Words that add nothing to a yes or a no.
const FILLER = new Set([
  'please', 'pls', 'thanks', 'thank', 'you', 'oh', 'um', 'umm', 'uh', 'uhm', 'er', 'erm', 'ah', 'hmm', 'hm', 'mm', 'well',
  'so', 'then', 'just', 'now', 'oops', 'sorry', 'ok', 'okay', 'alright', 'actually', 'like', 'yo', 'hey', 'and', 'but',
  'kindly', 'really', 'honestly', 'assistant', 'mate', 'buddy', 'dude',
]);
// Fillers that are also a yes on their own ("ok", "alright").
const FILLER_THAT_AFFIRMS = new Set(['ok', 'okay', 'alright']);

const AFFIRM_WORDS = new Set([
  'yes', 'yeah', 'yep', 'yup', 'yea', 'yah', 'ya', 'aye', 'sure', 'ok', 'okay', 'alright', 'correct', 'affirmative',
  'absolutely', 'definitely', 'certainly', 'confirm', 'confirmed', 'proceed', 'approve', 'approved', 'agreed', 'agree',
  'fine', 'indeed', 'gladly', 'yessir', 'totally',
]);
// Casual yeses that, repeated alone ("sure, sure", "yeah yeah"), are dismissive.
const CASUAL = new Set(['sure', 'yeah', 'yea', 'yah', 'ya', 'ok', 'okay', 'right', 'fine']);
const NEGATE_WORDS = new Set(['no', 'nope', 'nah', 'naw', 'nay', 'negative', 'cancel', 'cancelled', 'stop', 'abort', 'decline', 'declined', 'deny', 'denied', 'reject', 'nevermind', 'skip']);
// Words that turn what follows in the clause around.
const NEGATORS = new Set(["don't", 'not', 'never', "won't", "can't", 'cannot', "shouldn't", "wouldn't", "didn't", "doesn't", "isn't", "ain't", 'no']);
// What "do it" may be said as: the action echoed back with a pronoun.
const ACTION_VERBS = new Set([
  'do', 'buy', 'add', 'delete', 'remove', 'run', 'send', 'book', 'order', 'pay', 'purchase', 'proceed', 'continue',
  'confirm', 'approve', 'charge', 'make', 'place', 'submit', 'save', 'execute', 'apply', 'post', 'publish', 'go', 'finish',
  'complete', 'accept', 'create', 'start', 'spend', 'use', 'get', 'take', 'install', 'schedule', 'move', 'change',
]);
const GERUNDS = new Set(['doing', 'buying', 'adding', 'deleting', 'removing', 'paying', 'running', 'sending', 'ordering', 'going', 'booking', 'spending', 'charging', 'proceeding']);
const OBJECT_WORDS = new Set(['it', 'that', 'this', 'them', 'those', 'these', 'one', 'the', 'order', 'purchase', 'action', 'thing', 'now', 'away', 'ahead', 'on', 'with', 'please']);
// Words of waiting or doubt inside a clause ("wait no" is a no, "yes wait" is not a yes).
const HEDGE_WORDS = new Set(['wait', 'maybe', 'perhaps', 'probably', 'possibly', 'hmm']);
// Subjects that carry no answer of their own ("I don't agree", "that's not okay").
const SUBJECTS = new Set(['i', 'we', "that's", "it's", 'that', 'it', 'this', "i'm"]);
const QUESTION_START = /^(?:what|whats|what's|why|how|when|where|who|whom|whose|which|is|are|was|were|does|did|do (?:you|i|we|they)|can (?:i|we|it)|will (?:it|that|this|i|you)|would (?:it|that|i|you)|should (?:i|we|it|you)|could (?:it|i|that)|shall (?:i|we)|am i|have you|has it)\b/;

// Whole-clause idioms, checked after normalising (the clause must match entirely).
const YES_IDIOMS = [
  /^(?:go|going) (?:ahead|for it|on)(?: with (?:it|that|this))?$/,
  /^(?:let's|lets|let us) (?:do|go with) (?:it|that|this)$/,
  /^let's go$/,
  /^please do$/,
  /^(?:that|it|this)(?:'s| is| sounds| seems| looks)? (?:good|great|fine|right|correct|perfect|ok|okay|alright|all right)(?: (?:to|by|with|for) me)?$/,
  /^(?:sounds|looks) (?:good|great|fine|right|perfect)(?: to me)?$/,
  /^of course$/,
  /^sure thing$/,
  /^you bet$/,
  /^make it so$/,
  /^(?:i'm|i am) (?:sure|certain|positive|ok with it|okay with it|fine with it|fine with that)$/,
  /^(?:i|we) (?:do|confirm|approve|agree|accept)$/,
  /^(?:works|fine|ok|okay) (?:for|by|with) me$/,
  /^(?:uh huh|mm hmm|mhm|mhmm|mm hm|uh hu)$/,
  /^alright$/,
  /^(?:that|it|this) (?:works|will do|does it)(?: for me)?$/,
  /^(?:that's|that is) what i want$/,
  /^(?:yes|yeah) (?:i do|please|go|do it)$/,
];

const NO_IDIOMS = [
  /^(?:not|no) (?:now|yet|today|right now|this time|at the moment|at all|really|for now|anymore|any more)$/,
  /^(?:never ?mind|forget (?:it|that|about it|about that)|scratch that|call it off|hold off)$/,
  /^(?:(?:i|i've) )?changed my mind$/,
  /^(?:i|i've|i have) changed my mind$/,
  /^(?:i'd|i would|we'd) (?:rather|prefer) not$/,
  /^(?:rather|prefer|better) not$/,
  /^(?:let's|lets|let us) not$/,
  /^(?:let's|lets|let us) (?:not do|skip|leave) (?:it|that|this)$/,
  /^(?:i|we) (?:don't|do not) think so$/,
  /^(?:i|we) (?:don't|do not) want (?:it|that|this|to|them)$/,
  /^(?:i'll|i will|we'll) pass$/,
  /^pass(?: on (?:it|that|this))?$/,
  /^(?:leave|drop) (?:it|that|this)(?: for now)?$/,
  /^skip (?:it|that|this)(?: one)?$/,
  /^(?:absolutely|definitely|certainly|of course|hell|god|heck|oh god|oh hell) (?:not|no)$/,
  /^no (?:way|thanks|thank you|chance|sir|ma'am)$/,
  /^(?:i|i've) said no$/,
  /^(?:don't|do not) bother$/,
  /^count me out$/,
  /^not interested$/,
];

// Neutral phrases that contain a "no" or "not" but agree: removed before reading negation.
const NEUTRAL_PHRASES = [
  /\bno (?:problem|problems|worries|worry|issue|issues)\b/g,
  /\bnot a problem\b/g,
  /\bwhy not\b/g,
  /\bno doubt\b/g,
];

const HEDGES = [
  /^(?:wait|hold on|hold up|hang on|one (?:sec|second|moment|minute)|just a (?:sec|second|moment|minute)|a (?:sec|second|moment)|give me a (?:sec|second|moment|minute)|wait a (?:sec|second|moment|minute)|hang on a (?:sec|second|moment|minute)|hold on a (?:sec|second|moment|minute))$/,
  /^let me (?:think|see|check|look|think about it|check first|look first|think first)(?: (?:about it|first))?$/,
  /^(?:maybe|perhaps|probably|possibly|dunno|i dunno|i don't know|don't know|not sure|i'm not sure|i am not sure|unsure|i guess|i suppose|i think|i think so|i guess so|i suppose so|i believe so|kind of|sort of|kinda|sorta|hmm|er|um|uh|actually|on second thought|on second thoughts|second thoughts|good question|depends|it depends)(?: (?:yet|so|not))?$/,
  /^(?:i'm|i am) not (?:sure|certain)(?: yet| about (?:it|that|this))?$/,
];

const DOUBTS = [
  /^(?:yeah|yea|yes|sure|oh yeah|oh sure|oh yes) right$/,
  /^(?:oh|ah) (?:sure|yeah|right)$/,
  /^(?:whatever|as if|in your dreams|you wish|nice try|very funny|good one|like that's going to happen|like that's gonna happen|i bet|sure jan|sure buddy|yeah sure buddy|fat chance|dream on|over my dead body)$/,
];

// A blanket grant, read inside one clause. Each pattern is the core; a polite or permissive
// opening may precede it (see GRANT_OPENING), and a negator before the core undoes it.
const GRANT_OBJECT = '(?:all|everything|anything|any|every|spending|spend|purchases|purchase|payments|charges|costs|credits|transactions|actions|it|them|the rest)';
const GRANT_SCOPE = '(?: (?:after|beyond) (?:it|this|that|this one|that one))?(?: too| as well| also)?(?: (?:for|during|in|through|throughout) (?:this|the|the whole|the rest of the|the rest of this|this whole) session| for now| from now on| going forward| for the rest of (?:the|this) (?:session|conversation|chat)| until i say otherwise| this session)?';
const GRANT_CORES: RegExp[] = [
  new RegExp(`^(?:approve|allow|authorize|authorise|accept|permit|ok|okay|confirm|greenlight) (?:all|every|any)(?: of)?(?: the| my)? ${GRANT_OBJECT}?${GRANT_SCOPE}$`),
  new RegExp(`^(?:approve|allow|authorize|authorise|accept|permit) (?:everything|anything|spending|purchases|payments|charges|it all|them all)${GRANT_SCOPE}$`),
  new RegExp(`^(?:approve|allow|authorize|authorise) (?:spending|purchases|everything|it|them)? ?(?:for|during|in) (?:this|the|the rest of the|the rest of this) session$`),
  /^(?:approve|allow) (?:the )?session$/,
  new RegExp(`^(?:always|auto|automatically|auto ?approve|autoapprove)(?: (?:approve|confirm|accept|allow))?(?: ${GRANT_OBJECT})?${GRANT_SCOPE}$`),
  new RegExp(`^(?:yes|ok|okay|go ahead) (?:to|for|with) (?:all|everything|all of (?:it|them)|the rest)${GRANT_SCOPE}$`),
  new RegExp(`^(?:stop|quit|cease) (?:asking|checking|confirming|bothering me)(?: me)?(?: (?:for|about) (?:my |your )?(?:permission|confirmation|approval|consent|it|that|spending|purchases))?(?: (?:every|each) time)?${GRANT_SCOPE}$`),
  new RegExp(`^(?:no|no more|without) (?:more )?(?:asking|checking|confirmations|confirming|questions about (?:spending|purchases))${GRANT_SCOPE}$`),
  new RegExp(`^(?:no|there's no|there is no) (?:need|reason) (?:to|for you to) (?:ask|check|confirm)(?: (?:me|with me))?(?: (?:again|anymore|any more|every time|each time))?${GRANT_SCOPE}$`),
  new RegExp(`^(?:do|run|buy|approve) (?:it|them|everything|things|all of (?:it|them)) without asking(?: me)?(?: first)?${GRANT_SCOPE}$`),
  new RegExp(`^(?:you have|you've got|you got|take) my (?:permission|approval|consent|ok|okay|go ahead)(?: (?:for|on) (?:all|everything|all of (?:it|them)|the rest of (?:the|this) session|this session|the session))${GRANT_SCOPE}$`),
  new RegExp(`^(?:i (?:approve|allow|authorize|authorise|okay)) (?:all|everything|all spending|all purchases|spending|purchases)${GRANT_SCOPE}$`),
  new RegExp(`^skip (?:the |all )?(?:confirmations|confirmation|asking|approvals)${GRANT_SCOPE}$`),
];
const POLITE_REQUEST = /^(?:please )?(?:can|could|would|will) you\b/;
// Said before a grant core and still granting ("you can stop asking", "could you stop asking").
const GRANT_OPENING = /^(?:(?:you can|you may|can you|could you|would you|will you|feel free to|go ahead and|just|please|so|and|yes|yeah|ok|okay|sure|from now on|for this session|i want you to|i'd like you to|i would like you to) )+/;
// "don't ask (me) again": the one grant that is itself a negation.
const DONT_ASK = new RegExp(
  `^(?:you )?(?:don't|do not|never|dont) (?:need to |have to |bother to |ever )?(?:ask|check with|check|bother asking|bother)(?: me)?(?: (?:for|about) (?:my )?(?:permission|confirmation|approval|consent|it|that|spending|purchases))?(?: (?:again|anymore|any more|every time|each time|ever again))?${GRANT_SCOPE}$`,
);
const DONT_ASK_NEEDS_QUALIFIER = /^(?:you )?(?:don't|do not|never|dont) (?:ask|check)(?: me)?$/;

// A revocation: keep asking, ask every time, stop the approval.
const REVOKE_CORES: RegExp[] = [
  /^(?:always |please |just )?(?:ask|check with)(?: me)? (?:every|each) (?:time|purchase|payment|one|single time)(?: from now on)?$/,
  /^(?:always |please |just )?(?:ask|check with)(?: me)?(?: (?:first|before (?:you )?(?:spend|spending|buy|buying|pay|paying|charge|charging|do|doing|purchase|purchasing|act|acting)(?: anything| something| money| credits)?))(?: (?:from now on|next time|again|going forward|each time|every time))?$/,
  /^(?:always) (?:ask|check)(?: me)?$/,
  /^(?:keep|start|go back to|resume|continue) (?:asking|checking with|checking)(?: me)?(?: again)?(?: (?:every|each) time| first)?$/,
  /^(?:stop|end|cancel|revoke|withdraw|remove|turn off|switch off|take back|take away|kill|disable|drop|undo|pull) (?:the |my |that |this |your )?(?:spending |spend |session |auto |automatic |blanket )?(?:approval|approvals|grant|permission|permissions|consent|auto ?approve|autoapprove|auto approval|auto approvals|pre ?approval)$/,
  /^(?:stop|quit|no more) (?:auto |automatically )?(?:approving|auto ?approving|autoapproving)(?: (?:everything|things|spending|purchases|automatically|for me)){0,2}$/,
  /^(?:don't|do not|never) (?:spend|buy|charge|pay|purchase|order)(?: (?:anything|money|credits|more))?(?: (?:without|before) (?:asking|checking with|checking)(?: me)?(?: first)?)$/,
  /^no more (?:automatic|auto|unapproved|blanket|unasked) (?:spending|approvals|purchases|payments|charges)$/,
  /^no more (?:spending|purchases|buying) without asking(?: me)?$/,
  /^(?:i want to|i'd like to|let me|i'll|i will) (?:approve|confirm|okay|check) (?:each|every) (?:one|purchase|time|payment|action|charge|thing)(?: myself)?$/,
  /^(?:confirm|check) (?:each|every) (?:one|purchase|payment|action|charge) with me$/,
  /^stop spending(?: (?:money|credits|automatically))?$/,
  /^(?:don't|do not|never) (?:stop|quit) (?:asking|checking with|checking)(?: me)?(?: (?:for|about) (?:my )?(?:permission|confirmation|approval|consent))?(?: first)?$/,
  /^(?:i|we) (?:don't|do not) want you to (?:stop|quit) (?:asking|checking)(?: me)?$/,
];
const REVOKE_OPENING = /^(?:(?:please|so|and|from now on|going forward|ok|okay|can you|could you|would you|i want you to|i'd like you to) )+/;

/** Lower-case, straight apostrophes, contractions spelled one way, elongations shortened. */
function normalise(utterance: string): string {
  return utterance
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc\u2032`\u00b4]/g, "'")
    .replace(/[\u2013\u2014\u2026]/g, ', ')
    .replace(/\.{2,}/g, ', ')
    .replace(/\b(\w)\1{2,}/g, '$1')
    .replace(/(\w)\1{2,}\b/g, '$1')
    .replace(/\byess+\b/g, 'yes')
    .replace(/\bnoo+\b/g, 'no')
    .replace(/\b(?:dont|don't)\b/g, "don't")
    .replace(/\bdo not\b/g, "don't")
    .replace(/\bwont\b/g, "won't")
    .replace(/\bcant\b/g, "can't")
    .replace(/\blets\b/g, "let's")
    .replace(/\bthats\b/g, "that's")
    .replace(/\bim\b/g, "i'm")
    .replace(/\bid\b/g, "i'd")
    .replace(/\bill\b/g, "i'll")
    .replace(/\bive\b/g, "i've")
    .replace(/\bwanna\b/g, 'want to')
    .replace(/\bgonna\b/g, 'going to')
    .replace(/\bkay\b/g, 'okay')
    .replace(/\bo\.?k\.?\b/g, 'ok')
    .replace(/\ball right\b/g, 'alright')
    .replace(/\bany ?more\b/g, 'anymore')
    .replace(/\bauto[- ]?approv/g, 'auto approv')
    .replace(/\bmm+[- ]?hm+\b/g, 'mm hmm')
    .replace(/\buh[- ]?huh\b/g, 'uh huh')
    .replace(/\b(?:hold|hang) on\b|\bhold up\b/g, 'wait')
    .replace(/[-\u2010]/g, ' ');
}

/** Splits into clauses on punctuation and on joining words, keeping whether each was a question. */
function clauses(text: string): Array<{ words: string; question: boolean }> {
  const out: Array<{ words: string; question: boolean }> = [];
  const parts = text.split(/([,.;:!?]+)/);
  for (let i = 0; i < parts.length; i += 2) {
    const raw = parts[i] ?? '';
    const punctuation = parts[i + 1] ?? '';
    const pieces = raw.split(/\b(?:but|and then|and also|and|then|or)\b/);
    pieces.forEach((piece, index) => {
      const words = piece.replace(/[^a-z0-9' ]+/g, ' ').replace(/\s+/g, ' ').trim();
      if (!words) return;
      out.push({ words, question: index === pieces.length - 1 && punctuation.includes('?') });
    });
  }
  return out;
}

function stripFiller(words: string[]): string[] {
  let start = 0;
  let end = words.length;
  while (start < end && FILLER.has(words[start]!) && !FILLER_THAT_AFFIRMS.has(words[start]!)) start++;
  while (end > start && FILLER.has(words[end - 1]!) && !FILLER_THAT_AFFIRMS.has(words[end - 1]!)) end--;
  return words.slice(start, end);
}

function matchAny(patterns: readonly RegExp[], text: string): boolean {
  return patterns.some((re) => {
    re.lastIndex = 0;
    return re.test(text);
  });
}

function grantCore(text: string): boolean {
  if (DONT_ASK.test(text) && !DONT_ASK_NEEDS_QUALIFIER.test(text)) return true;
  const bare = text.replace(GRANT_OPENING, '');
  return matchAny(GRANT_CORES, text) || matchAny(GRANT_CORES, bare) || (bare !== text && DONT_ASK.test(bare) && !DONT_ASK_NEEDS_QUALIFIER.test(bare));
}

function revokeCore(text: string): boolean {
  return matchAny(REVOKE_CORES, text) || matchAny(REVOKE_CORES, text.replace(REVOKE_OPENING, ''));
}

// A negator followed, in the same clause, by a grant ("don't approve all spending", "I never said stop asking").
function negatedGrant(words: string[]): boolean {
  for (let i = 0; i < words.length; i++) {
    if (!NEGATORS.has(words[i]!) && words[i] !== 'said') continue;
    for (let j = i + 1; j < words.length; j++) {
      if (grantCore(words.slice(j).join(' '))) return true;
    }
  }
  return false;
}

/** "buy it", "yes do that now", "go ahead with it": the action echoed back, no new content. */
function actionEcho(words: string[]): boolean {
  if (words.length === 0 || words.length > 4 || !(ACTION_VERBS.has(words[0]!) || GERUNDS.has(words[0]!))) return false;
  return words.slice(1).every((w) => OBJECT_WORDS.has(w));
}

function readClause(raw: string, question: boolean, isLast: boolean): Clause {
  let text = raw;
  for (const re of NEUTRAL_PHRASES) text = text.replace(re, ' ');
  text = text.replace(/\s+/g, ' ').trim();
  const words = stripFiller(text ? text.split(' ') : []);
  const joined = words.join(' ');
  // Idioms are read on the clause as said and without its filler ("mm hmm", "not right now").
  const either = (patterns: readonly RegExp[]) => matchAny(patterns, joined) || matchAny(patterns, text);
  if (words.length === 0) return either(YES_IDIOMS) ? Clause.yes : Clause.neutral;

  // Grants and revocations first: they may carry a "don't" or a "stop" that is not a no.
  if (revokeCore(joined) || revokeCore(text)) return Clause.revoke;
  if (negatedGrant(words)) return Clause.other;
  if (grantCore(joined) || grantCore(text)) {
    // A question is not a grant, except a polite request ("could you stop asking?").
    if (QUESTION_START.test(joined)) return Clause.other;
    return question && !POLITE_REQUEST.test(text) ? Clause.other : Clause.grant;
  }
  if (either(DOUBTS)) return Clause.doubt;
  if (question || QUESTION_START.test(joined)) return Clause.other;
  if (either(HEDGES)) return Clause.hedge;
  if (either(NO_IDIOMS)) return Clause.no;
  if (either(YES_IDIOMS)) return Clause.yes;
  // "Right." alone is doubt ("right…"); "right, go ahead" opens a yes.
  if (joined === 'right') return isLast ? Clause.doubt : Clause.neutral;

  // Word by word: affirmations, refusals, negators and the action echoed back.
  let yes = 0;
  let no = 0;
  let negator = false;
  let hedge = false;
  // Which came last, a yes or a no ("yeah nah" is a no; "nah yeah" is not a yes).
  let last: 'yes' | 'no' | null = null;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (NEGATORS.has(word) && word !== 'no') {
      negator = true;
      continue;
    }
    if (word === 'no' || NEGATE_WORDS.has(word)) {
      // "stop" or "cancel" followed by more words is a request about something else ("stop the music").
      const rest = words.slice(i + 1);
      if (word !== 'no' && rest.length > 0 && !rest.every((w) => OBJECT_WORDS.has(w) || FILLER.has(w) || NEGATE_WORDS.has(w) || w === 'no')) return Clause.other;
      no++;
      last = 'no';
      continue;
    }
    if (AFFIRM_WORDS.has(word) || word === 'right') {
      yes++;
      last = 'yes';
      continue;
    }
    if (HEDGE_WORDS.has(word)) {
      hedge = true;
      continue;
    }
    if (FILLER.has(word) || SUBJECTS.has(word)) continue;
    // "you can do it", "you may go ahead".
    if ((word === 'can' || word === 'may') && (i === 0 || words[i - 1] === 'you')) continue;
    // An idiom or the action echoed back ends the clause: "yeah go for it", "yes buy it", "don't buy it".
    const rest = words.slice(i).join(' ');
    if (actionEcho(words.slice(i)) || matchAny(YES_IDIOMS, rest)) {
      yes++;
      last = 'yes';
      break;
    }
    if (matchAny(NO_IDIOMS, rest)) {
      no++;
      last = 'no';
      break;
    }
    return Clause.other;
  }
  // "don't", "please don't", "I don't agree", "not okay": a negator with nothing else, or turning a yes round.
  if (negator) return Clause.no;
  if (no > 0) return last === 'no' ? Clause.no : Clause.hedge;
  if (hedge) return Clause.hedge;
  if (yes > 0) {
    // "sure, sure" / "yeah yeah": a casual word said over and over is dismissal, not consent.
    if (words.length >= 2 && words.every((w) => w === words[0] && CASUAL.has(w))) return Clause.doubt;
    return Clause.yes;
  }
  return Clause.other;
}

/**
 * Classifies what a visitor said while voice is on: a short yes or no, a blanket grant or
 * revocation of spending approval, or a message for the model. Fails closed: anything unclear
 * is a message, and an utterance with a no in it is never a yes or a grant.
 *
 * @example
 * classifyVoiceAnswer('yes please');            // { kind: 'confirm' }
 * classifyVoiceAnswer('hold on, no');           // { kind: 'cancel' }
 * classifyVoiceAnswer('yeah right');            // { kind: 'message' }
 * classifyVoiceAnswer('no, the blue one');      // { kind: 'message' }
 * classifyVoiceAnswer("don't ask me again");    // { kind: 'grant' }
 * classifyVoiceAnswer('ask me every time');     // { kind: 'revoke' }
 */
export function classifyVoiceAnswer(utterance: string): { kind: VoiceAnswerKind } {
  const message = { kind: VoiceAnswerKind.message };
  if (typeof utterance !== 'string') return message;
  const text = normalise(utterance);
  // "yes and no", "yes or no": not an answer either way.
  if (/^\W*(?:yes|yeah|yep) (?:and|or) no\b/.test(text)) return message;
  const list = clauses(text);
  const wordCount = list.reduce((n, c) => n + c.words.split(' ').length, 0);
  if (list.length === 0 || wordCount > MAX_WORDS) return message;
  // Repeating one clause adds nothing ("yes. yes." is a yes; "sure, sure" is read as doubt below).
  const read: Clause[] = list.map((c, i) => readClause(c.words, c.question, i === list.length - 1));
  const sureSure = list.length >= 2 && list.every((c) => c.words === list[0]!.words && CASUAL.has(c.words));
  if (sureSure) return message;

  if (read.includes(Clause.other)) return message;
  const decisive: Clause[] = read.filter((c) => c !== Clause.neutral);
  if (decisive.length === 0) return message;
  const has = (c: Clause) => decisive.includes(c);
  const lastDecisive = [...decisive].reverse().find((c) => c === Clause.yes || c === Clause.no || c === Clause.grant || c === Clause.revoke);

  if (has(Clause.revoke)) {
    // Asking to be asked is never read alongside a grant or a yes to something else.
    if (has(Clause.grant)) return message;
    return { kind: VoiceAnswerKind.revoke };
  }
  if (has(Clause.no)) {
    // A no that stands last is the answer; a yes or grant after a no is a change of mind we do
    // not guess at. "No, and don't ask again" is a no (and do not offer it again), never a grant.
    if (lastDecisive === Clause.no) return { kind: VoiceAnswerKind.cancel };
    const afterNo = read.slice(read.lastIndexOf(Clause.no) + 1);
    const onlyDontAsk = afterNo.every((c, i) => c !== Clause.grant || DONT_ASK.test(list[read.lastIndexOf(Clause.no) + 1 + i]!.words.replace(GRANT_OPENING, '')));
    return !afterNo.includes(Clause.yes) && onlyDontAsk ? { kind: VoiceAnswerKind.cancel } : message;
  }
  if (has(Clause.hedge) || has(Clause.doubt)) return message;
  if (has(Clause.grant)) return { kind: VoiceAnswerKind.grant };
  if (has(Clause.yes)) return { kind: VoiceAnswerKind.confirm };
  return message;
}

/** Whether a blanket phrase may answer `request`: only where a session grant may be offered (SPEC §9). */
export function grantAnswerable(request: ConfirmationRequest): boolean {
  return request.offersSessionApproval === true && request.cost > 0 && request.tier3 !== true;
}

/** What the voice-consent hook needs from the session (implemented by the session wiring). */
export interface VoiceAnswerTarget {
  /** The one confirmation being asked aloud, or null. */
  pendingConfirmation(): ConfirmationRequest | null;
  answerConfirmation(id: string, decision: ConfirmDecision, evidence: VisitorEvidence): boolean;
  revokeGrant(evidence: VisitorEvidence): boolean;
  /** Whether a spend grant is active (a revoke phrase with none active goes to the model). */
  grantActive(): boolean;
}

/** What {@link handleVoiceAnswer} did: settled, passed to the model, or heard a blanket phrase a chip cannot take. */
export type VoiceAnswerHandling = UtteranceHandling | 'ask-again';

/**
 * Settles the confirmation being asked aloud, or the grant, from an utterance the caller has
 * already checked was begun after that confirmation was asked (see `VoiceConsentDesk`). A
 * blanket phrase on a chip that may not offer a session grant (free or tier3) settles nothing:
 * the result is 'ask-again'.
 *
 * @example
 * handleVoiceAnswer('yes please', target); // 'consumed'
 */
export function handleVoiceAnswer(utterance: string, target: VoiceAnswerTarget): VoiceAnswerHandling {
  const { kind } = classifyVoiceAnswer(utterance);
  if (kind === VoiceAnswerKind.message) return 'pass';
  if (kind === VoiceAnswerKind.revoke) {
    if (!target.grantActive()) return 'pass';
    return target.revokeGrant(VOICE_EVIDENCE) ? 'consumed' : 'pass';
  }
  const pending = target.pendingConfirmation();
  // A yes with nothing asked is just talk.
  if (!pending) return 'pass';
  let decision: ConfirmDecision = ConfirmDecision.confirm;
  if (kind === VoiceAnswerKind.cancel) decision = ConfirmDecision.cancel;
  else if (kind === VoiceAnswerKind.grant) {
    if (!grantAnswerable(pending)) return 'ask-again';
    decision = ConfirmDecision.approveSession;
  }
  return target.answerConfirmation(pending.id, decision, VOICE_EVIDENCE) ? 'consumed' : 'pass';
}
