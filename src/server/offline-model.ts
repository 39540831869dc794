/**
 * The built-in offline model (SPEC §10): a deterministic, rule-based stand-in for a real
 * model so the product runs with no key and no network. Generic over the request's tool
 * schemas, the page state and the conversation; stateless (it re-derives its plan from the
 * last user message and the tool results after it on every step).
 *
 * It never acts on a guess: when a request does not single out one item (a task, a product,
 * an order), names none, leaves an amount vague, or asks for something no tool does, it asks
 * or explains instead of calling a tool. A short answer to its own question ("the draft email
 * one") is read together with the request that raised it.
 */
import { neutralizeInstructions } from '../guard/neutralize.js';
import { unwrapEnvelope } from '../guard/envelope.js';
import type { PageToolSchema } from '../tools/types.js';
import type { WaveMessage } from '../transport/protocol.js';
import { describeError } from '../util/describe-error.js';
import { parseOutline, type OutlineControl, type OutlineEntry } from '../page/outline-format.js';
import type { ModelProvider, ProviderEvent, ProviderStepInput } from './providers/types.js';

/** What one offline step decides: call a tool, or answer in text. `clause` is the request clause the call serves. */
export type OfflineDecision =
  | { kind: 'tool_call'; name: string; arguments: Record<string, unknown>; clause?: number }
  | { kind: 'text'; text: string };

/** Canonical actions the synonyms map to. */
const Action = {
  create: 'create',
  delete: 'delete',
  update: 'update',
  increase: 'increase',
  decrease: 'decrease',
  buy: 'buy',
  list: 'list',
  fill: 'fill',
  click: 'click',
  select: 'select',
  navigate: 'navigate',
  scroll: 'scroll',
} as const;
type Action = (typeof Action)[keyof typeof Action];

// Order matters where two synonyms start at the same place ("check out" before "check").
const VERBS: ReadonlyArray<[Action, readonly string[]]> = [
  ['buy', ['buy', 'purchase', 'order', 'checkout', 'check out', 'pay for', 'pay', 'add to cart', 'add to basket', 'add to my cart', 'put in cart']],
  ['delete', ['delete', 'remove', 'drop', 'erase', 'trash', 'discard', 'clear', 'destroy', 'get rid of', 'throw away', 'take off', 'wipe', 'cancel']],
  ['increase', ['increment', 'increase', 'bump', 'raise', 'count up', 'go up']],
  ['decrease', ['decrement', 'decrease', 'subtract', 'reduce', 'lower', 'take away', 'count down', 'minus']],
  ['create', ['add', 'create', 'new', 'make', 'insert', 'register', 'schedule', 'book', 'post', 'write']],
  ['update', ['move', 'set', 'mark', 'change', 'update', 'rename', 'edit', 'switch', 'toggle', 'complete', 'finish', 'start', 'assign', 'reset']],
  ['list', ['list', 'show', 'read', 'get', 'display', 'view', 'see', 'find', 'search', 'look up', 'fetch', 'what', 'which', 'how many', 'how much']],
  ['fill', ['fill', 'enter', 'type', 'input', 'put', 'use']],
  ['click', ['click', 'press', 'tap', 'hit', 'submit', 'send', 'tick', 'untick', 'check', 'uncheck', 'subscribe', 'sign me up', 'opt in']],
  ['select', ['select', 'choose', 'pick']],
  ['navigate', ['go to', 'open', 'navigate', 'visit', 'take me to']],
  ['scroll', ['scroll']],
];

const PAST: Readonly<Record<Action, string>> = {
  create: 'Added',
  delete: 'Deleted',
  update: 'Updated',
  increase: 'Increased',
  decrease: 'Decreased',
  buy: 'Bought',
  list: 'Read',
  fill: 'Filled',
  click: 'Clicked',
  select: 'Selected',
  navigate: 'Opened',
  scroll: 'Scrolled to',
};

const BASE: Readonly<Record<Action, string>> = {
  create: 'add',
  delete: 'delete',
  update: 'update',
  increase: 'increase',
  decrease: 'decrease',
  buy: 'buy',
  list: 'read',
  fill: 'fill in',
  click: 'click',
  select: 'select',
  navigate: 'open',
  scroll: 'scroll to',
};

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  hundred: 100, thousand: 1000, zero: 0, one: 1, single: 1, two: 2, couple: 2, pair: 2, three: 3, four: 4, five: 5, six: 6, seven: 7,
  eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, dozen: 12, fifteen: 15, twenty: 20,
};

const STOP = new Set(
  'a an the this that these those it its of for to in on at by with and or then please can could would you me my i we our us is are be as from into onto up down all any also just now new called named titled about your their his her them there here want like need do does did let lets let\'s i\'d i\'m what\'s whats'.split(' '),
);
/** Words that name no particular item: "buy something", "the draft email one", "in the cart". */
const GENERIC = new Set(
  'something anything stuff product products item items thing things one ones some few several bunch lot lots load loads many more plenty exactly board list page cart basket bag column shop store site order orders entry entries'.split(' '),
);
const KEEP_IN_TITLE = new Set(['schedule', 'book', 'post', 'register', 'write', 'order', 'buy', 'call', 'send', 'start', 'finish', 'complete', 'open', 'check']);
const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'last'];
const VAGUE = /\b(?:some|a few|few|several|a bunch|bunch|lots|a lot|many|more|plenty|loads)\b/i;

const BUILTIN = new Set(['read_page', 'fill_field', 'click_element', 'select_option', 'scroll_to', 'navigate']);
const LABEL_KEYS = ['title', 'name', 'label', 'text', 'summary', 'subject', 'heading'];
const ID_PARAM = /^(?:id|sku|ref|key|slug|code|uuid)$|_(?:id|sku|ref|key|slug|code|uuid)$/i;
const TEXT_PARAM = /^(?:title|name|text|label|content|body|message|description|note|summary|subject|query|q|value|item|task|comment)$/i;
const QTY_PARAM = /qty|quantity|count|amount|number|by|times|units/i;

// ---------------------------------------------------------------- small text helpers

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];
}

function stem(word: string): string {
  const w = word.toLowerCase();
  if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (w.length > 3 && w.endsWith('es') && /(?:ch|sh|x|s)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

function contentWords(text: string): string[] {
  return words(text)
    .filter((w) => !STOP.has(w))
    .map(stem);
}

/** Two stemmed words name the same thing ("count" ~ "counter", "mug" ~ "mugs"). */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 4 && long.startsWith(short);
}

/** Text from a result or page state, safe to echo: no instructions, no Markdown control characters. */
function safeLabel(value: unknown, max = 80): string {
  const raw = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  const plain = raw.replace(/<<[^>]*>>/g, ' ').replace(/[*_`[\]<>#|\\]/g, '').replace(/\s+/g, ' ').trim();
  const clean = neutralizeInstructions(plain).text;
  return clean.length > max ? clean.slice(0, max - 1) + '…' : clean;
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function hasPhrase(text: string, phrase: string): boolean {
  return new RegExp(`(?:^|[^\\p{L}\\p{N}])${escapeRe(phrase).replace(/\s+/g, '\\s+')}(?:$|[^\\p{L}\\p{N}])`, 'iu').test(text);
}

function actionsIn(text: string): Action[] {
  const found: Action[] = [];
  for (const [action, synonyms] of VERBS) if (synonyms.some((s) => hasPhrase(text, s))) found.push(action);
  return found;
}

function firstAction(text: string): Action | undefined {
  let best: { action: Action; at: number } | undefined;
  for (const [action, synonyms] of VERBS) {
    for (const s of synonyms) {
      const m = new RegExp(`(?:^|[^\\p{L}])(${escapeRe(s).replace(/\s+/g, '\\s+')})(?:$|[^\\p{L}])`, 'iu').exec(text);
      if (m && (best === undefined || m.index < best.at)) best = { action, at: m.index };
    }
  }
  return best?.action;
}

function capitalise(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1);
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** "A, B or C" */
function orList(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

function plural(noun: string, n = 2): string {
  if (n === 1) return noun;
  if (/(?:s|x|ch|sh)$/i.test(noun)) return noun + 'es';
  if (/[^aeiou]y$/i.test(noun)) return noun.slice(0, -1) + 'ies';
  return noun + 's';
}

// ---------------------------------------------------------------- request views

interface ToolView {
  name: string;
  description: string;
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  nameWords: string[];
  /** Name words that are not verbs: "task" in add_task, "cat sticker pack" in buy_cat_sticker_pack. */
  nouns: string[];
  descWords: string[];
  action: Action | undefined;
  /** "Delete task", "Buy cat sticker pack": the name, readable. */
  title: string;
}

function isVerbWord(word: string): boolean {
  return VERBS.some(([, synonyms]) => synonyms.includes(word));
}

function viewTool(tool: PageToolSchema): ToolView {
  const description = unwrapEnvelope(tool.description) ?? tool.description;
  const params = asRecord(tool.parameters) ?? {};
  const props: Record<string, Record<string, unknown>> = {};
  for (const [key, value] of Object.entries(asRecord(params['properties']) ?? {})) props[key] = asRecord(value) ?? {};
  const required = Array.isArray(params['required']) ? params['required'].filter((r): r is string => typeof r === 'string') : [];
  const nameText = tool.name.replace(/_/g, ' ');
  const nameWords = contentWords(nameText);
  return {
    name: tool.name,
    description,
    properties: props,
    required,
    nameWords,
    nouns: nameWords.filter((w, i) => !(i === 0 && isVerbWord(w)) && w !== 'cart' && w !== 'basket'),
    descWords: contentWords(description.split(/(?<=[.!?])\s/)[0] ?? ''),
    action: firstAction(nameText) ?? firstAction(description.split(/[.!?]/)[0] ?? ''),
    title: capitalise(nameText),
  };
}

interface Entity {
  id: string | number;
  idKey: string;
  label: string;
  /** The key of the list it sits in ("tasks", "products"), if any. */
  collection: string;
  record: Record<string, unknown>;
}

/** Objects with an id and a title/name/label anywhere in the page state. */
function findEntities(value: unknown, out: Entity[] = [], depth = 0, collection = ''): Entity[] {
  if (depth > 8 || out.length > 500) return out;
  if (Array.isArray(value)) {
    for (const item of value) findEntities(item, out, depth + 1, collection);
    return out;
  }
  const record = asRecord(value);
  if (!record) return out;
  const idKey = Object.keys(record).find((k) => ID_PARAM.test(k) && (typeof record[k] === 'string' || typeof record[k] === 'number'));
  const labelKey = LABEL_KEYS.find((k) => typeof record[k] === 'string');
  if (idKey !== undefined && labelKey !== undefined) out.push({ id: record[idKey] as string | number, idKey, label: record[labelKey] as string, collection, record });
  for (const [key, child] of Object.entries(record)) if (typeof child === 'object' && child !== null) findEntities(child, out, depth + 1, key);
  return out;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

interface ToolResult {
  name: string;
  value: Record<string, unknown>;
}

function readResult(message: Extract<WaveMessage, { role: 'tool' }>): ToolResult {
  const inner = unwrapEnvelope(message.content) ?? message.content;
  const parsed = asRecord(parseJson(inner)) ?? { success: true, text: inner };
  return { name: message.name, value: parsed };
}

const isCancelled = (r: ToolResult): boolean => r.value['cancelled'] === true || r.value['status'] === 'cancelled';
const isFailure = (r: ToolResult): boolean => r.value['success'] === false;

// ---------------------------------------------------------------- planning

interface PlannedCall {
  name: string;
  arguments: Record<string, unknown>;
  action: Action | undefined;
  /** What the call is about, for the summary ("Run-of-show", the entity title…). */
  subject: string;
}

/** What one clause of the request comes to: calls, a question back, or nothing a tool does. */
type ClausePlan = { kind: 'calls'; calls: PlannedCall[] } | { kind: 'ask'; text: string } | { kind: 'none'; cannot?: Action; declined?: boolean };

/** Split a request into clauses: "then", "and then", ";", and " and " between two actions. */
export function splitClauses(text: string): string[] {
  const coarse = text
    .split(/\s*(?:,?\s*\band\s+then\b|,?\s*\bthen\b|;|\.\s+|\n+|,\s*(?:and\s+)?also\b|\bafter\s+that\b)\s*/i)
    .map((c) => c.trim())
    .filter((c) => c.length > 0);
  const out: string[] = [];
  for (const clause of coarse) {
    const parts = clause.split(/\s+and\s+/i);
    let current = parts[0] ?? '';
    for (const part of parts.slice(1)) {
      // Only split when the right side starts with an action verb ("add X and delete Y").
      const starts = VERBS.some(([, syn]) => syn.some((s) => new RegExp(`^(?:please\\s+)?${escapeRe(s).replace(/\s+/g, '\\s+')}\\b`, 'i').test(part)));
      if (starts && actionsIn(current).length > 0) {
        out.push(current);
        current = part;
      } else {
        current += ` and ${part}`;
      }
    }
    if (current.trim()) out.push(current.trim());
  }
  return out;
}

const CART_WORDS = /\b(?:cart|basket|bag)\b/i;
const BUY_NOW = /\b(?:buy|purchase|order|pay|check\s*out|checkout)\b/i;

function clauseActionOf(clause: string): Action | undefined {
  return firstAction(clause.replace(/^(?:please|now|also|and|could you|can you|would you)\s+/i, ''));
}

/** Whether a clause's verb fits a tool's action ("add 5 to the counter" fits increment_counter). */
function actionFit(clauseAction: Action | undefined, tool: ToolView, clause: string): number {
  if (clauseAction === undefined || tool.action === undefined) return 0;
  if (clauseAction === tool.action) return 4;
  const cart = CART_WORDS.test(clause);
  // "make it 3" sets a value: it is not "add 3".
  if (clauseAction === 'create' && tool.action === 'increase' && /\bmake\b/i.test(clause)) return -2;
  if (clauseAction === 'create' && (tool.action === 'increase' || (tool.action === 'buy' && cart))) return 3;
  if (clauseAction === 'fill' && (tool.action === 'create' || (tool.action === 'buy' && cart))) return 3;
  return -2;
}

function scoreTool(tool: ToolView, clause: string, clauseAction: Action | undefined): number {
  const cw = contentWords(clause);
  let score = actionFit(clauseAction, tool, clause);
  // A verb the model has no synonym for, said as the tool's own ("play Let It Be" → play_song).
  const lead = words(clause.replace(/^(?:please|now|could you|can you|would you)\s+/i, ''))[0];
  const toolVerb = tool.name.split('_')[0]?.toLowerCase();
  if ((tool.action === undefined || clauseAction === undefined) && lead !== undefined && lead === toolVerb) score += 4;
  for (const w of tool.nameWords) if (cw.some((c) => sameWord(c, w))) score += 2;
  for (const w of new Set(tool.descWords)) if (cw.some((c) => sameWord(c, w))) score += 0.5;
  return score;
}

function rankTools(tools: ToolView[], clause: string): Array<{ tool: ToolView; score: number }> {
  const clauseAction = clauseActionOf(clause);
  return tools.map((tool) => ({ tool, score: scoreTool(tool, clause, clauseAction) })).sort((a, b) => b.score - a.score);
}

function numbersIn(clause: string): number[] {
  const out: number[] = [];
  for (const m of clause.matchAll(/(?<![\p{L}\d.:])(-?\d+(?:\.\d+)?)(?![\p{L}\d:])|\b(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|dozen|couple|pair|single|hundred|thousand|half)\b/giu)) {
    if (m[1] !== undefined) out.push(Number(m[1]));
    else if (m[2] !== undefined) {
      const word = m[2].toLowerCase();
      // "the draft email one", "the blue one": a pronoun, not a number.
      if (word === 'one') {
        const prev = words(clause.slice(0, m.index)).at(-1);
        if (prev !== undefined && !isVerbWord(prev) && !['just', 'only', 'exactly', 'by', 'of', 'and', 'me', 'us', 'to', 'add', 'want', 'need', 'take', 'get'].includes(prev)) continue;
      }
      if (word === 'half') {
        out.push(0.5);
        continue;
      }
      // "three hundred", "a thousand": a multiplier of the number before it, or of one.
      if ((word === 'hundred' || word === 'thousand') && out.length > 0 && /\s$/.test(clause.slice(0, m.index)) && NUMBER_WORDS[words(clause.slice(0, m.index)).at(-1) ?? ''] !== undefined) {
        out.push(out.pop()! * NUMBER_WORDS[word]!);
        continue;
      }
      out.push(NUMBER_WORDS[word] ?? 0);
    }
  }
  return out;
}

/** The words that must name the item: the clause without verbs, numbers, filler and the tool's own nouns. */
// Set by planClause for the clause being planned (synchronous; nothing survives a step).
let containers: string[] = [];

function objectWords(clause: string, exclude: Iterable<string> = []): string[] {
  let text = ` ${clause.toLowerCase()} `;
  const phrases = VERBS.flatMap(([, s]) => s).filter((s) => s.includes(' ')).sort((a, b) => b.length - a.length);
  for (const p of phrases) text = text.replace(new RegExp(`(?<![\\p{L}])${escapeRe(p).replace(/\s+/g, '\\s+')}(?![\\p{L}])`, 'giu'), ' ');
  const skip = new Set([...exclude, ...containers].map(stem));
  return words(text)
    .filter((w) => !STOP.has(w) && !GENERIC.has(w) && !isVerbWord(w) && !(w in NUMBER_WORDS) && !/^\d+$/.test(w) && w !== 'a' && w !== 'an')
    .map(stem)
    .filter((w) => !GENERIC.has(w) && ![...skip].some((s) => sameWord(s, w)));
}

function entityWords(entity: Entity): string[] {
  // The label, the id, and short descriptive fields ("artist": "The Beatles", "status": "todo").
  const extra = Object.entries(entity.record)
    .filter(([k, v]) => k !== entity.idKey && !ID_PARAM.test(k) && typeof v === 'string' && v.length <= 40)
    .flatMap(([, v]) => contentWords(v as string));
  return [...contentWords(entity.label), String(entity.id).toLowerCase(), ...extra];
}

interface Resolution {
  kind: 'one' | 'many' | 'none' | 'empty';
  entity?: Entity;
  matches: Entity[];
  /** Entities sharing some words with the request, when none matches all of them. */
  near: Entity[];
  wanted: string;
}

function mentionsId(clause: string, entity: Entity): boolean {
  return String(entity.id).length > 0 && new RegExp(`(?<![\\p{L}\\p{N}-])${escapeRe(String(entity.id))}(?![\\p{L}\\p{N}-])`, 'iu').test(clause);
}

/** Which of `candidates` the clause singles out: exactly one, several, none, or nothing named. */
function resolve(candidates: Entity[], clause: string, exclude: Iterable<string>): Resolution {
  // An id is taken as such only when it looks like one ("t2", "o1", "blue-mug"), not a plain word ("notebook").
  const byId = candidates.filter((e) => /[\d_-]/.test(String(e.id)) && mentionsId(clause, e));
  if (byId.length === 1) return { kind: 'one', entity: byId[0], matches: byId, near: [], wanted: String(byId[0]!.id) };
  // A label said in full ("play Let It Be", whose words are all filler): the longest one said wins.
  const said = candidates.filter((e) => e.label.trim().length > 1 && hasPhrase(clause, e.label.trim()));
  if (said.length > 0) {
    const longest = Math.max(...said.map((e) => e.label.length));
    const top = said.filter((e) => e.label.length === longest);
    if (top.length === 1 && objectWords(clause.replace(new RegExp(escapeRe(top[0]!.label.trim()), 'i'), ' '), exclude).length === 0) {
      return { kind: 'one', entity: top[0], matches: top, near: [], wanted: top[0]!.label };
    }
  }
  const wanted = objectWords(clause, exclude);
  const wantedText = wanted.join(' ');
  if (wanted.length === 0) {
    return candidates.length === 1
      ? { kind: 'one', entity: candidates[0], matches: candidates, near: [], wanted: '' }
      : { kind: 'empty', matches: candidates, near: [], wanted: '' };
  }
  const matches = candidates.filter((e) => {
    const ew = entityWords(e);
    return wanted.every((w) => ew.some((x) => sameWord(x, w)));
  });
  if (matches.length === 1) return { kind: 'one', entity: matches[0], matches, near: [], wanted: wantedText };
  // "the first task", "the last one": a position in the list as the page lists it.
  const ordinal = ORDINALS.findIndex((o) => wanted.includes(o));
  const rest = wanted.filter((w) => !ORDINALS.includes(w));
  if (ordinal >= 0 && rest.length === 0 && candidates.length > 0) {
    const index = ORDINALS[ordinal] === 'last' ? candidates.length - 1 : ordinal;
    const entity = candidates[index];
    if (entity) return { kind: 'one', entity, matches: [entity], near: [], wanted: wantedText };
  }
  if (matches.length > 1) {
    // "the blue mug" when there is a "Blue mug" and a "Blue mug lid": an exact label wins.
    const exact = matches.filter((e) => {
      const lw = contentWords(e.label);
      return lw.length === wanted.length && lw.every((w) => wanted.some((x) => sameWord(x, w)));
    });
    if (exact.length === 1) return { kind: 'one', entity: exact[0], matches, near: [], wanted: wantedText };
    return { kind: 'many', matches, near: [], wanted: wantedText };
  }
  const near = candidates.filter((e) => {
    const ew = entityWords(e);
    return wanted.some((w) => ew.some((x) => sameWord(x, w)));
  });
  return { kind: 'none', matches: [], near, wanted: wantedText };
}

function dedupe(entities: Entity[]): Entity[] {
  const seen = new Set<string>();
  return entities.filter((e) => {
    const key = String(e.id);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The parameter that takes an item from the page state, and the items it may take. */
function entityParam(tool: ToolView, entities: Entity[]): { key: string; candidates: Entity[]; noun: string } | undefined {
  for (const [key, schema] of Object.entries(tool.properties)) {
    const values = Array.isArray(schema['enum']) ? schema['enum'].map(String) : undefined;
    if (values) {
      const inEnum = dedupe(entities.filter((e) => values.includes(String(e.id))));
      if (inEnum.length > 0) return { key, candidates: inEnum, noun: nounFor(key, inEnum, tool) };
      continue;
    }
    if (!ID_PARAM.test(key) || key === 'ref') continue;
    const prefix = stem(key.replace(ID_PARAM, '').replace(/_$/, '') || key);
    const inCollection = entities.filter((e) => e.collection && sameWord(stem(e.collection.toLowerCase()), prefix));
    const sameKey = entities.filter((e) => e.idKey === key);
    const candidates = dedupe(inCollection.length ? inCollection : sameKey.length ? sameKey : entities);
    return { key, candidates, noun: nounFor(key, candidates, tool) };
  }
  return undefined;
}

function nounFor(key: string, candidates: Entity[], tool: ToolView): string {
  const fromKey = key.replace(ID_PARAM, '').replace(/_$/, '');
  if (fromKey && !ID_PARAM.test(fromKey)) return fromKey.replace(/_/g, ' ');
  const collection = candidates[0]?.collection;
  if (collection) return stem(collection.toLowerCase()).replace(/_/g, ' ');
  return tool.nouns.at(-1) ?? 'item';
}

function entityName(e: Entity, withId = true): string {
  const label = safeLabel(e.label, 60);
  return withId && String(e.id) !== e.label ? `“${label}” (${safeLabel(String(e.id), 30)})` : `“${label}”`;
}

/** The question or explanation when a clause does not single out one item. */
function clarify(res: Resolution, noun: string, action: Action | undefined, all: Entity[]): string {
  const verb = action ? BASE[action] : 'use';
  const list = (items: Entity[]) => orList(items.slice(0, 8).map((e) => entityName(e)));
  if (all.length === 0) return `There is no ${noun} on the page to ${verb}.`;
  if (res.kind === 'many') return `Which ${noun} do you mean: ${list(res.matches)}?`;
  if (res.kind === 'empty') return `Which ${noun} should I ${verb}: ${list(all)}?`;
  const wanted = safeLabel(res.wanted, 60);
  if (/\b(?:both|every|everything|each)\b/.test(wanted)) return `I ${verb} one ${noun} at a time, and only one you name: which ${noun} should it be: ${list(all)}?`;
  if (res.near.length > 0) return `I couldn't find ${withArticle(noun)} called “${wanted}”. Did you mean ${list(res.near)}? Nothing was changed.`;
  return `I couldn't find ${withArticle(noun)} called “${wanted}”. The ${plural(noun)} here: ${list(all)}. Nothing was changed.`;
}

/** The clause's object phrase: "add a task for the run-of-show" → "Run-of-show". */
function objectPhrase(clause: string, tool: ToolView, otherValues: string[]): string {
  const quoted = /["“'‘]([^"”'’]{1,120})["”'’]/.exec(clause);
  if (quoted?.[1]) return quoted[1].trim();
  const nounColon = tool.nouns.length ? new RegExp(`\\b(?:${tool.nouns.map(escapeRe).join('|')})s?\\s*:\\s*(.+)$`, 'i').exec(clause) : null;
  const named = /\b(?:called|named|titled|saying|that says|reading)\s+(.+)$/i.exec(clause) ?? nounColon;
  let text = named?.[1] ?? clause;
  if (!named) {
    text = text.replace(/^(?:please\s+|could you\s+|can you\s+|would you\s+|now\s+|also\s+|i want to\s+|i'd like to\s+|let's\s+)*/i, '');
    for (const [, synonyms] of VERBS) {
      let stripped = false;
      for (const s of [...synonyms].sort((a, b) => b.length - a.length)) {
        const re = new RegExp(`^${escapeRe(s).replace(/\s+/g, '\\s+')}\\b\\s*`, 'i');
        // "schedule a meeting with Sam": a verb that is part of what to add stays in the title.
        if (KEEP_IN_TITLE.has(s) && s !== tool.name.split('_')[0]) {
          if (re.test(text)) {
            stripped = true;
            break;
          }
          continue;
        }
        if (re.test(text)) {
          text = text.replace(re, '');
          stripped = true;
          break;
        }
      }
      if (stripped) break;
    }
    const nounAlt = tool.nouns.map((n) => `${escapeRe(n)}s?`).join('|');
    // Drop "a task", "a new task for", "to the board", "on the list"…
    if (nounAlt) text = text.replace(new RegExp(`^(?:(?:a|an|the|new|another|one|some|two|three|four|five|several|\\d+)\\s+)*(?:${nounAlt})\\b\\s*`, 'i'), '');
    text = text.replace(/^(?:(?:for|about|to|of|on|with|:|-)\s*)+/i, '');
    text = text.replace(/\s+(?:to|on|in|onto|into)\s+(?:the|my|our)\s+(?:board|list|page|cart|basket|todo list|to-do list)\b.*$/i, '');
  }
  for (const v of otherValues) {
    if (v) text = text.replace(new RegExp(`\\s*\\b(?:as|to|with|in|into|under|on)?\\s*(?:the\\s+)?${escapeRe(v)}(?:\\s+(?:column|list|status))?\\b`, 'i'), '');
  }
  text = text.replace(/^(?:the|a|an)\s+/i, '').replace(/[\s.,!?:]+$/, '').trim();
  return capitalise(text);
}

function numberBounds(schema: Record<string, unknown>): { min?: number; max?: number } {
  const min = typeof schema['minimum'] === 'number' ? schema['minimum'] : undefined;
  const max = typeof schema['maximum'] === 'number' ? schema['maximum'] : undefined;
  return { min, max };
}

function outOfRange(n: number, schema: Record<string, unknown>, what: string): string | undefined {
  const { min, max } = numberBounds(schema);
  if (min !== undefined && n < min) return `I can't do that: ${what} has to be at least ${min}, and you asked for ${n}. Nothing was changed.`;
  if (max !== undefined && n > max) return `I can't do that: ${what} can be at most ${max} at a time, and you asked for ${n}. Nothing was changed.`;
  return undefined;
}

/** Arguments for a chosen tool, or the question to ask instead. */
function planToolCall(tool: ToolView, clause: string, entities: Entity[]): ClausePlan {
  const args: Record<string, unknown> = {};
  let subject = '';
  const used: string[] = [];
  const numbers = numbersIn(clause);
  const numericKeys = Object.entries(tool.properties).filter(([, s]) => s['type'] === 'integer' || s['type'] === 'number').map(([k]) => k);
  const textKeys = Object.entries(tool.properties).filter(([k, s]) => (s['type'] === 'string' || s['type'] === undefined) && !Array.isArray(s['enum']) && !ID_PARAM.test(k)).map(([k]) => k);
  // Enums first: their words must not leak into text values or entity matching.
  const ent = entityParam(tool, entities);
  for (const [key, schema] of Object.entries(tool.properties)) {
    const values = Array.isArray(schema['enum']) ? schema['enum'] : undefined;
    if (!values || key === ent?.key) continue;
    const hit = values.find((v) => typeof v === 'string' && hasPhrase(clause, v.replace(/[_-]/g, ' ')));
    if (hit !== undefined) {
      args[key] = hit;
      used.push(String(hit));
    } else if (tool.required.includes(key)) {
      if (schema['default'] !== undefined) args[key] = schema['default'];
      else return { kind: 'ask', text: `Which ${key.replace(/_/g, ' ')} should it be: ${orList(values.map((v) => `“${safeLabel(String(v), 40)}”`))}?` };
    }
  }
  const exclude = [...tool.nouns, ...used.flatMap((u) => words(u)), ...(ent ? [ent.noun, ...words(ent.noun)] : [])];
  if (ent) {
    const res = resolve(ent.candidates, clause, exclude);
    if (res.kind !== 'one' || !res.entity) return { kind: 'ask', text: clarify(res, ent.noun, tool.action, ent.candidates) };
    const type = tool.properties[ent.key]?.['type'];
    args[ent.key] = type === 'integer' || type === 'number' ? Number(res.entity.id) : type === 'string' ? String(res.entity.id) : res.entity.id;
    subject = res.entity.label;
  }
  // A number nothing can take ("set the counter to 10" with only a reset tool) is not ignored.
  if (numbers.length > 0 && numericKeys.length === 0 && textKeys.length === 0 && !numbers.every((n) => n === 0 && /\b(?:zero|0)\b/.test(tool.description))) {
    return { kind: 'none', cannot: clauseActionOf(clause) ?? tool.action ?? 'update' };
  }
  for (const [key, schema] of Object.entries(tool.properties)) {
    if (key in args || key === ent?.key) continue;
    const type = schema['type'];
    const required = tool.required.includes(key);
    if (type === 'integer' || type === 'number') {
      const n = numbers.shift();
      const what = /^(?:by|n|qty|amount|count|delta|step)$/i.test(key) ? 'the amount' : `the ${key.replace(/_/g, ' ')}`;
      if (n !== undefined) {
        const bad = outOfRange(n, schema, what);
        if (bad) return { kind: 'ask', text: bad };
        if (type === 'integer' && !Number.isInteger(n)) return { kind: 'ask', text: `${capitalise(what)} has to be a whole number; you asked for ${n}. How many exactly?` };
        args[key] = n;
      } else if (VAGUE.test(clause) && QTY_PARAM.test(key)) {
        return { kind: 'ask', text: `How many exactly${subject ? ` (${safeLabel(subject, 40)})` : ''}? Give me a number.` };
      } else if (schema['default'] !== undefined) args[key] = schema['default'];
      else if (required) {
        if (QTY_PARAM.test(key)) args[key] = 1;
        else return { kind: 'ask', text: `What should ${what} be? Give me a number.` };
      }
    } else if (type === 'boolean') {
      if (schema['default'] !== undefined) args[key] = schema['default'];
      else if (required) args[key] = !/\b(?:not|no|don't|without)\b/i.test(clause);
    } else if (type === 'string' || type === undefined) {
      if (/e-?mail/i.test(key)) {
        const email = /(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.exec(clause)?.[0];
        if (email) args[key] = email;
        else if (required) return { kind: 'ask', text: `Which email address should I use?` };
      } else if (/url|link|href/i.test(key)) {
        const url = /https?:\/\/\S+|\/[\w\-/.]*/.exec(clause)?.[0];
        if (url) args[key] = url;
        else if (required) return { kind: 'ask', text: `Which address should I open?` };
      } else if (TEXT_PARAM.test(key) || required) {
        const phrase = objectPhrase(clause, tool, used);
        if (phrase) {
          args[key] = phrase;
          subject ||= phrase;
        } else if (schema['default'] !== undefined) {
          args[key] = schema['default'];
        } else if (required) {
          const noun = tool.nouns.at(-1) ?? 'it';
          return { kind: 'ask', text: `What should the new ${noun} be called? For example: “${tool.name.replace(/_/g, ' ')} called Call the caterer”.` };
        }
      }
    }
  }
  // "add 'Buy milk' and 'Call mum'": one call per quoted title.
  const quoted = [...clause.matchAll(/["“‘]([^"”’]{1,120})["”’]|(?<![\p{L}])'([^']{1,120})'(?![\p{L}])/gu)].map((m) => (m[1] ?? m[2] ?? '').trim()).filter(Boolean);
  const textKey = Object.keys(args).find((k) => args[k] === quoted[0] && textKeys.includes(k));
  if (quoted.length > 1 && textKey && !ent) {
    return { kind: 'calls', calls: quoted.map((q) => ({ name: tool.name, arguments: { ...args, [textKey]: q }, action: tool.action, subject: q })) };
  }
  return { kind: 'calls', calls: [{ name: tool.name, arguments: args, action: tool.action, subject }] };
}

/** "buy the blue mug", "add two notebooks to the cart", "check out": products, quantities, cart and checkout. */
function planPurchase(clause: string, tools: ToolView[], entities: Entity[]): ClausePlan | undefined {
  const buyTools = tools.filter((t) => t.action === 'buy');
  if (buyTools.length === 0) return undefined;
  const cartTool = buyTools.find((t) => /cart|basket|bag/.test(t.name) && entityParam(t, entities));
  const checkoutTool = buyTools.find((t) => t !== cartTool && Object.keys(t.properties).length === 0 && /checkout|check_out|pay/.test(t.name));
  const itemTool = buyTools.find((t) => t !== cartTool && t !== checkoutTool && entityParam(t, entities));
  const oneClick = buyTools.filter((t) => t !== checkoutTool && t !== cartTool && Object.keys(t.properties).length === 0);
  const cartOnly = CART_WORDS.test(clause) && !BUY_NOW.test(clause);

  // What can be bought: the items a cart or item tool takes, else the one-click tools themselves.
  const param = (cartOnly ? cartTool : itemTool ?? cartTool) ?? cartTool ?? itemTool;
  const ent = param ? entityParam(param, entities) : undefined;
  const products = ent?.candidates ?? [];
  const wanted = objectWords(clause, ent ? [ent.noun] : []);
  if (wanted.length === 0 && !cartOnly && checkoutTool && /\b(?:check\s*out|checkout|pay)\b/i.test(clause)) {
    return { kind: 'calls', calls: [{ name: checkoutTool.name, arguments: {}, action: 'buy', subject: '' }] };
  }
  const numbers = numbersIn(clause);
  const qty = numbers[0];

  // One-click tools match by the words of their name ("buy_wave_sticker_pack").
  const clickMatch = (product: Entity | undefined): ToolView | undefined =>
    oneClick.find((t) => {
      const nouns = t.nouns;
      if (product) {
        const pw = contentWords(product.label);
        return nouns.length > 0 && nouns.every((n) => pw.some((w) => sameWord(w, n)));
      }
      return wanted.length > 0 && wanted.every((w) => nouns.some((n) => sameWord(n, w)));
    });

  if (products.length === 0) {
    // No catalogue in the page state: only the one-click tools.
    const matching = oneClick.filter((t) => wanted.length > 0 && wanted.every((w) => t.nouns.some((n) => sameWord(n, w))));
    if (matching.length === 1) {
      const times = qty ?? 1;
      if (times < 1 || times > 10) return { kind: 'ask', text: `I can buy between 1 and 10 at a time; you asked for ${times}. Nothing was bought.` };
      if (VAGUE.test(clause) && qty === undefined) return { kind: 'ask', text: 'How many exactly? Give me a number.' };
      return { kind: 'calls', calls: Array.from({ length: times }, () => ({ name: matching[0]!.name, arguments: {}, action: 'buy' as Action, subject: matching[0]!.nouns.join(' ') })) };
    }
    if (oneClick.length === 0) return undefined;
    const names = oneClick.map((t) => `“${capitalise(t.nouns.join(' '))}”`);
    if (matching.length > 1) return { kind: 'ask', text: `Which one do you mean: ${orList(matching.map((t) => `“${capitalise(t.nouns.join(' '))}”`))}?` };
    return { kind: 'ask', text: wanted.length ? `I couldn't find “${safeLabel(wanted.join(' '), 60)}” here. I can buy ${orList(names)}.` : `Which one should I buy: ${orList(names)}?` };
  }

  const res = resolve(products, clause, ent ? [ent.noun] : []);
  if (res.kind !== 'one' || !res.entity) {
    if (res.kind === 'empty') return { kind: 'ask', text: `Which product should I ${cartOnly ? 'add to the cart' : 'buy'}: ${orList(products.slice(0, 8).map((e) => entityName(e, false)))}?` };
    if (res.kind === 'many') return { kind: 'ask', text: `Which one do you mean: ${orList(res.matches.map((e) => entityName(e, false)))}?` };
    const near = res.near.length ? ` Did you mean ${orList(res.near.map((e) => entityName(e, false)))}?` : ` The shop has ${orList(products.slice(0, 8).map((e) => entityName(e, false)))}.`;
    return { kind: 'ask', text: `I couldn't find a product called “${safeLabel(res.wanted, 60)}”.${near} Nothing was bought.` };
  }
  const product = res.entity;
  if (qty === undefined && VAGUE.test(clause)) return { kind: 'ask', text: `How many ${plural(safeLabel(product.label, 40))} should I ${cartOnly ? 'add' : 'buy'}? Give me a number.` };
  const count = qty ?? 1;
  if (!Number.isInteger(count)) return { kind: 'ask', text: `I can only buy whole items; you asked for ${count}. How many ${plural(safeLabel(product.label, 40))} should it be?` };
  const withQuantity = (tool: ToolView): ClausePlan => {
    const p = entityParam(tool, entities)!;
    const args: Record<string, unknown> = { [p.key]: String(product.id) };
    const qKey = Object.keys(tool.properties).find((k) => k !== p.key && QTY_PARAM.test(k) && ['integer', 'number'].includes(String(tool.properties[k]?.['type'])));
    if (qKey) {
      const bad = outOfRange(count, tool.properties[qKey]!, 'the quantity');
      if (bad) return { kind: 'ask', text: bad };
      args[qKey] = count;
    } else if (count !== 1) {
      return { kind: 'ask', text: `I can only ${cartOnly ? 'add' : 'buy'} one ${safeLabel(product.label, 40)} at a time here. Shall I do one?` };
    }
    return { kind: 'calls', calls: [{ name: tool.name, arguments: args, action: 'buy', subject: product.label }] };
  };
  if (cartOnly) return cartTool ? withQuantity(cartTool) : undefined;
  const direct = clickMatch(product);
  if (direct && count === 1) return { kind: 'calls', calls: [{ name: direct.name, arguments: {}, action: 'buy', subject: product.label }] };
  if (itemTool) return withQuantity(itemTool);
  if (cartTool) {
    const add = withQuantity(cartTool);
    if (add.kind !== 'calls' || !checkoutTool) return add;
    return { kind: 'calls', calls: [...add.calls, { name: checkoutTool.name, arguments: {}, action: 'buy', subject: '' }] };
  }
  if (direct && count <= 10) return { kind: 'calls', calls: Array.from({ length: count }, () => ({ name: direct.name, arguments: {}, action: 'buy' as Action, subject: product.label })) };
  return { kind: 'none', cannot: 'buy' };
}

/** "buy a mug and two notebooks": each product through the cart, one checkout at the end. */
function planSeveralPurchases(clause: string, tools: ToolView[], entities: Entity[]): ClausePlan | undefined {
  const m = /^(.*?\b(?:buy|purchase|order|add|put|get)\b)\s+(.+)$/i.exec(clause);
  if (!m || !/\s+and\s+/i.test(m[2] ?? '')) return undefined;
  const verb = m[1]!;
  const tail = /\s+((?:to|in|into)\s+(?:the|my|our)\s+(?:cart|basket|bag).*)$/i.exec(m[2]!)?.[1] ?? '';
  const items = m[2]!.slice(0, m[2]!.length - tail.length).split(/\s*,\s*|\s+and\s+/i).filter(Boolean);
  if (items.length < 2) return undefined;
  const calls: PlannedCall[] = [];
  let checkout: PlannedCall | undefined;
  for (const item of items) {
    const plan = planPurchase(`${verb} ${item}${tail ? ` ${tail}` : ''}`, tools, entities);
    if (!plan) return undefined;
    if (plan.kind !== 'calls') return plan;
    for (const call of plan.calls) {
      if (Object.keys(call.arguments).length === 0 && call.subject === '') checkout = call;
      else calls.push(call);
    }
  }
  return { kind: 'calls', calls: checkout ? [...calls, checkout] : calls };
}

/** "add 5, then 3 more": a clause with no verb takes the previous clause's. */
function withCarriedVerbs(clauses: string[], tools: ToolView[]): string[] {
  let verb = '';
  const toolVerbs = new Set(tools.map((t) => t.name.split('_')[0]?.toLowerCase()));
  return clauses.map((clause) => {
    const action = clauseActionOf(clause);
    const lead = words(clause.replace(/^(?:please|now|could you|can you|would you)\s+/i, ''))[0];
    if (lead !== undefined && toolVerbs.has(lead)) {
      verb = '';
      return clause;
    }
    if (action !== undefined) {
      verb = /^(?:please\s+)?([\p{L}'’]+(?:\s+(?:up|down|out|rid\s+of|away|off))?)/iu.exec(clause)?.[1] ?? '';
      if (firstAction(verb) === undefined) verb = '';
      return clause;
    }
    return verb && !/\?\s*$/.test(clause) ? `${verb} ${clause}` : clause;
  });
}

/** One clause against the page's own tools. */
/** Everyday phrasings onto the verbs the model knows ("take 2 off" → "subtract 2", "stick it in my bag" → "put"). */
function normalise(clause: string, tools: ToolView[]): string {
  let text = clause
    .replace(/\btake\s+((?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b.*?)\s+off\b/i, 'subtract $1 from')
    .replace(/\btake\s+(.+?)\s+off\b/i, 'remove $1 from')
    .replace(/\b(?:stick|pop|throw|chuck)\s+(.+?)\s+(in|into|on)\b/i, 'put $1 $2');
  if (tools.some((t) => t.action === 'buy')) {
    text = text.replace(/^(?:i'?ll\s+(?:take|have)|i\s+want|i'?d\s+like|get\s+me|can\s+i\s+(?:get|have))\s+(?!to\b)/i, 'buy ');
  }
  return text;
}

/** Where the tools put things ("to the board", "from the playlist"): words that name no item. */
function containerWords(tools: ToolView[]): string[] {
  const out = new Set<string>();
  for (const t of tools) for (const m of t.description.matchAll(/\b(?:to|from|on|in|onto|into|off)\s+the\s+([\p{L}-]+)/giu)) out.add(stem(m[1]!.toLowerCase()));
  return [...out];
}

function planClause(rawClause: string, tools: ToolView[], entities: Entity[]): ClausePlan {
  if (negated(rawClause)) return { kind: 'none', declined: true };
  const clause = normalise(rawClause, tools);
  containers = containerWords(tools);
  const clauseAction = clauseActionOf(clause);
  const cart = CART_WORDS.test(clause) && (clauseAction === 'create' || clauseAction === 'fill');
  if (clauseAction === 'buy' || cart) {
    const several = planSeveralPurchases(clause, tools, entities);
    if (several) return several;
    const purchase = planPurchase(clause, tools, entities);
    if (purchase) return purchase;
  }
  // "3 mugs please": a number and a product with no verb is an order (the chip still asks before paying).
  if (clauseAction === undefined && numbersIn(clause).length > 0 && !/\?\s*$/.test(clause)) {
    const purchase = planPurchase(`buy ${clause}`, tools, entities);
    if (purchase?.kind === 'calls') return purchase;
  }
  const ranked = rankTools(tools.filter((t) => !(t.action === 'buy' && clauseAction !== 'buy' && !cart)), clause);
  const best = ranked[0];
  if ((!best || best.score < 3) && (clauseAction === 'create' || clauseAction === 'fill')) {
    // "add the notebook" in a shop with no other way to add: it goes in the cart.
    const toCart = planPurchase(`${clause} to the cart`, tools, entities);
    if (toCart?.kind === 'calls') return toCart;
  }
  if (!best || best.score < 3) {
    // A question, or a request no tool does ("mark the venue task as done" with no such tool).
    return clauseAction && clauseAction !== 'list' ? { kind: 'none', cannot: clauseAction } : { kind: 'none' };
  }
  const tool = best.tool;
  // The ambient snapshot already answers reads: prefer it over calling a read tool (SPEC §6).
  if (tool.action === 'list' && tool.required.length === 0 && entities.length > 0) return { kind: 'none' };
  const second = ranked[1];
  if (second && second.score === best.score && second.tool.action === tool.action) {
    return { kind: 'ask', text: `Do you want me to ${orList([tool, second.tool].map((t) => `“${t.name.replace(/_/g, ' ')}”`))}?` };
  }
  return planToolCall(tool, clause, entities);
}

// ---------------------------------------------------------------- built-in page tools

/** A control of the `read_page` outline that the actions can target (it has a ref). */
type OutlineNode = OutlineControl & { ref: string };

/** The outline's controls with a ref, read with the outline's own parser (the one contract with `src/page/outline.ts`). */
function outlineControls(outline: string): OutlineNode[] {
  return parseOutline(outline).filter((e): e is OutlineEntry & OutlineNode => e.kind === 'control' && typeof e.ref === 'string');
}

/** Headings and text lines of an outline, in order (for questions about the page). */
function outlineTexts(outline: string): Array<{ heading: boolean; text: string }> {
  const out: Array<{ heading: boolean; text: string }> = [];
  for (const e of parseOutline(outline)) {
    if ((e.kind === 'heading' || e.kind === 'text') && e.text.trim()) out.push({ heading: e.kind === 'heading', text: e.text });
  }
  return out;
}

const TEXT_FIELD_ROLES = new Set(['textbox', 'textarea', 'searchbox']);
const LABEL_NOISE = new Set(['your', 'field', 'box', 'address']);
const FILL_INTENT = /\b(?:fill|enter|type|put|write|set|use|change|complete)\b|\bmy\s+[\p{L}-]+(?:\s+[\p{L}-]+)?\s+is\b|^\s*[\p{L}-]+(?:\s+[\p{L}-]+)?\s*:\s*\S/iu;
/** "don't sign me up", "do not delete it": a clause that asks for nothing to be done. */
const NEGATED = /\b(?:don'?t|do\s+not|never|no\s+need\s+to|not|without)\b/i;

function negated(clause: string): boolean {
  const m = NEGATED.exec(clause);
  if (!m) return false;
  const verb = firstAction(clause.slice(m.index));
  const before = firstAction(clause.slice(0, m.index));
  return verb !== undefined && before === undefined;
}
const VALUE_END = String.raw`(?=\s*(?:,|;|\.(?:\s|$)|\band\s+(?:the|my|your|then|also|send|submit|click|press|tick|choose|select|pick|set|put|fill|type)\b|\bthen\b|\bbut\b|$))`;

/** Value for a form field from the request: by kind (email, phone), "put X in the <label>", or "<label> is X". */
function valueForField(field: OutlineNode, request: string, otherLabels: string[] = []): string | undefined {
  const label = field.name.toLowerCase();
  if (/e-?mail/.test(label)) return /(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.exec(request)?.[0];
  if (/phone|tel|mobile/.test(label)) return /\+?\d[\d\s().-]{5,}\d/.exec(request)?.[0]?.trim();
  const labelWords = words(field.name).filter((w) => w.length > 2 && !STOP.has(w) && !LABEL_NOISE.has(w));
  for (const w of labelWords) {
    const lw = escapeRe(w);
    // "put Ada Lovelace in the name field", "type hello into the message box"
    const before = new RegExp(String.raw`\b(?:put|type|enter|write|fill\s+in|add|use)\s+(?:["“']([^"”']+)["”']|(.+?))\s+(?:in|into|as|for)\s+(?:the|my|your)\s+${lw}\w*\b`, 'iu').exec(request);
    const v1 = (before?.[1] ?? before?.[2])?.trim();
    if (v1 && !/^(?:the|a|an|it|form|field)$/i.test(v1)) return v1;
    // "the name Ada Lovelace", "my name is Grace Hopper", "the message to Hello there"
    // The value ends where another field is named ("… and email ada@example.com").
    const others = otherLabels.filter((o) => o !== w).map(escapeRe);
    const end = others.length ? VALUE_END.replace('|$))', `|\\band\\s+(?:${others.join('|')})\\b|$))`) : VALUE_END;
    const after = new RegExp(String.raw`\b${lw}\w*\s*(?:is|was|should be|:|=|as|to|of)?\s*:?\s*(?:["“']([^"”']+)["”']|(.+?))${end}`, 'iu').exec(request);
    const v2 = (after?.[1] ?? after?.[2])?.trim();
    if (v2 && !/^(?:(?:the|a|an)\s+)?(?:it|form|field|box)\b/i.test(v2)) return v2;
  }
  return undefined;
}

function overlapNode(nodes: OutlineNode[], text: string, roles: ReadonlySet<string> | null): OutlineNode | undefined {
  const cw = contentWords(text);
  let best: { node: OutlineNode; score: number } | undefined;
  for (const node of nodes) {
    if (roles && !roles.has(node.role)) continue;
    const nw = contentWords(node.name);
    const score = nw.filter((w) => cw.some((c) => sameWord(c, w))).length;
    if (score > 0 && (best === undefined || score > best.score)) best = { node, score };
  }
  return best?.node;
}

type BuiltinPlan = { kind: 'calls'; calls: PlannedCall[] } | { kind: 'ask'; text: string };

function planBuiltin(fullRequest: string, outline: string, tools: Set<string>): BuiltinPlan {
  const nodes = outlineControls(outline);
  const request = splitClauses(fullRequest).filter((c) => !negated(c)).join('; ');
  const calls: PlannedCall[] = [];
  const filled = new Set<string>();
  const fillIntent = FILL_INTENT.test(request);
  const textFields = nodes.filter((n) => TEXT_FIELD_ROLES.has(n.role));
  if (tools.has('fill_field') && fillIntent) {
    const labels = [...new Set(textFields.flatMap((f) => words(f.name).filter((w) => w.length > 2 && !STOP.has(w) && !LABEL_NOISE.has(w))))];
    for (const field of textFields) {
      const value = valueForField(field, request, labels);
      if (value) {
        calls.push({ name: 'fill_field', arguments: { ref: field.ref, value }, action: 'fill', subject: field.name });
        filled.add(field.ref);
      }
    }
  }
  if (tools.has('select_option')) {
    for (const field of nodes) {
      if (field.role !== 'combobox' || !field.options) continue;
      const option = field.options.find((o) => o.length > 1 && hasPhrase(request, o));
      if (option && option !== field.value) calls.push({ name: 'select_option', arguments: { ref: field.ref, value: option }, action: 'select', subject: `${option}|${field.name}` });
    }
  }
  const clickable = new Set(['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem', 'switch']);
  for (const clause of splitClauses(request)) {
    const action = firstAction(clause);
    const target = clause.replace(/^.*?\b(?:click|press|tap|hit|tick|untick|check|uncheck|scroll to|scroll down to|go to|open|navigate to|visit|take me to|sign me up for|sign me up to|subscribe to|opt in to|opt into)\b\s*(?:on\s+)?(?:the\s+)?/i, '');
    const submits = /\b(?:send|submit)\b/i.test(clause) && !/\b(?:click|press|tap|tick|check)\b/i.test(clause);
    if (action === 'click' && tools.has('click_element')) {
      if (submits) {
        const buttons = nodes.filter((n) => n.role === 'button');
        const button = buttons.find((b) => /\b(?:send|submit)\b/i.test(b.name)) ?? (buttons.length === 1 ? buttons[0] : undefined);
        if (!button) return { kind: 'ask', text: 'I could not find a button that sends this form. Which button should I press?' };
        const missing = textFields.filter((f) => f.required && !f.value && !filled.has(f.ref));
        if (missing.length > 0) {
          return { kind: 'ask', text: `Before I send it: the form needs ${orList(missing.map((f) => `“${safeLabel(f.name, 40)}”`))}. What should I put there?` };
        }
        calls.push({ name: 'click_element', arguments: { ref: button.ref }, action: 'click', subject: button.name });
        continue;
      }
      const node = overlapNode(nodes, target, clickable);
      if (!node) continue;
      const ticking = /\b(?:tick|check|subscribe|sign me up|opt in)\b/i.test(clause);
      const unticking = /\b(?:untick|uncheck|unsubscribe)\b/i.test(clause);
      if ((node.role === 'checkbox' || node.role === 'switch') && ((ticking && node.checked) || (unticking && !node.checked))) continue;
      calls.push({ name: 'click_element', arguments: { ref: node.ref }, action: 'click', subject: node.name });
    } else if (action === 'scroll' && tools.has('scroll_to')) {
      const node = overlapNode(nodes, target, null);
      if (node) calls.push({ name: 'scroll_to', arguments: { ref: node.ref }, action: 'scroll', subject: node.name });
    } else if (action === 'navigate') {
      const link = overlapNode(nodes, target, new Set(['link']));
      if (link?.href && tools.has('navigate')) calls.push({ name: 'navigate', arguments: { url: link.href }, action: 'navigate', subject: link.name });
      else if (link && tools.has('click_element')) calls.push({ name: 'click_element', arguments: { ref: link.ref }, action: 'navigate', subject: link.name });
    }
  }
  if (calls.length === 0 && fillIntent && textFields.length > 0 && !/\?\s*$/.test(request)) {
    const fields = nodes.filter((n) => TEXT_FIELD_ROLES.has(n.role) || n.role === 'combobox');
    return {
      kind: 'ask',
      text: `What should I put in the form? It has ${orList(fields.map((f) => `“${safeLabel(f.name, 40)}”${f.required ? ' (required)' : ''}`))}. For example: “fill in the ${safeLabel(fields[0]?.name ?? 'name', 30).toLowerCase().replace(/^your\s+/, '')} with …”.`,
    };
  }
  return { kind: 'calls', calls };
}

/** A question about the page, answered from the outline's headings and text. */
function answerFromOutline(request: string, outline: string): string | undefined {
  const asked = contentWords(request).filter((w) => !['page', 'tell', 'say', 'what', 'when', 'where', 'who', 'how', 'which', 'why', 'does', 'do'].includes(w));
  if (asked.length === 0) return undefined;
  const texts = outlineTexts(outline);
  let best: { i: number; score: number } | undefined;
  texts.forEach((t, i) => {
    const tw = contentWords(t.text);
    const score = asked.filter((w) => tw.some((x) => sameWord(x, w))).length + (t.heading ? 0.5 : 0);
    if (score >= 1 && (best === undefined || score > best.score)) best = { i, score };
  });
  if (!best) return undefined;
  const hit = texts[best.i]!;
  if (!hit.heading) return `The page says: “${safeLabel(hit.text, 300)}”`;
  const body: string[] = [];
  for (const t of texts.slice(best.i + 1)) {
    if (t.heading) break;
    body.push(safeLabel(t.text, 300));
  }
  return body.length ? `${safeLabel(hit.text, 80)}: ${body.join(' ')}` : undefined;
}

// ---------------------------------------------------------------- answers

function toolCatalogue(tools: ToolView[]): string {
  if (tools.length === 0) return 'This page has not given me any actions, so I can only chat.';
  const lines = tools
    .filter((t) => t.name !== 'load_tools')
    .slice(0, 12)
    .map((t) => `- **${t.name.replace(/_/g, ' ')}**: ${safeLabel(t.description.split(/(?<=[.!?])\s/)[0] ?? '', 120)}`);
  return `Here is what I can do on this page:\n${lines.join('\n')}`;
}

function offlineIntro(tools: ToolView[]): string {
  return `I'm the offline demo model, so I follow simple requests rather than open conversation. ${toolCatalogue(tools)}\n\nTry something like "${exampleRequest(tools)}".`;
}

function cannotDo(action: Action, tools: ToolView[]): string {
  const verb = action === 'create' || action === 'update' || action === 'list' ? 'do' : BASE[action];
  return `I can't ${verb} that here: this page gives me no action for it, so nothing was changed. ${toolCatalogue(tools)}`;
}

function exampleRequest(tools: ToolView[]): string {
  const t = tools.find((x) => x.action === 'create') ?? tools.find((x) => x.action !== undefined && x.action !== 'list') ?? tools[0];
  if (!t) return 'what can you do?';
  if (BUILTIN.has(t.name)) return 'fill in the form with the name Ada Lovelace';
  return `${t.name.replace(/_/g, ' ')} …`;
}

function describeEntity(entity: Entity): string {
  const extras = Object.entries(entity.record)
    .filter(([k, v]) => !ID_PARAM.test(k) && !LABEL_KEYS.includes(k) && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'))
    .slice(0, 3)
    .map(([k, v]) => `${safeLabel(k, 30)}: ${safeLabel(String(v), 40)}`);
  return `- **${safeLabel(entity.label)}**${extras.length ? ` (${extras.join(', ')})` : ''}`;
}

/** Numbers and flags in the page state, by key: { balance_credits: 500 } → ["balance credits", 500]. */
function scalarsOf(value: unknown, prefix = '', out: Array<[string, number | boolean]> = [], depth = 0): Array<[string, number | boolean]> {
  const record = asRecord(value);
  if (!record || depth > 2) return out;
  for (const [k, v] of Object.entries(record)) {
    const key = `${prefix}${k}`.replace(/_/g, ' ');
    if (typeof v === 'number' || typeof v === 'boolean') out.push([key, v]);
    else if (asRecord(v)) scalarsOf(v, `${key} `, out, depth + 1);
  }
  return out;
}

function answerFromState(request: string, state: unknown, entities: Entity[], contextText: string | null): string | undefined {
  const cw = contentWords(request);
  const scalars = scalarsOf(state)
    .map(([k, v]) => ({ k, v, score: contentWords(k).filter((w) => cw.some((c) => sameWord(c, w))).length }))
    .filter((s) => s.score > 0);
  if (scalars.length > 0) {
    const top = Math.max(...scalars.map((s) => s.score));
    const lines = scalars.filter((s) => s.score === top).map((s) => `${safeLabel(s.k, 40)}: **${String(s.v)}**`);
    return `From the page right now: ${lines.join(', ')}.`;
  }
  if (entities.length > 0) {
    // Narrow by a mentioned field value ("which tasks are done?").
    const filtered = entities.filter((e) => Object.values(e.record).some((v) => typeof v === 'string' && v.length < 30 && cw.includes(stem(v.toLowerCase()))));
    const shown = filtered.length > 0 && filtered.length < entities.length ? filtered : entities;
    const lines = shown.slice(0, 20).map(describeEntity);
    const more = shown.length > 20 ? `\n…and ${shown.length - 20} more.` : '';
    return `From the page right now (${shown.length} ${shown.length === 1 ? 'item' : 'items'}):\n${lines.join('\n')}${more}`;
  }
  const all = scalarsOf(state);
  if (all.length > 0) return `From the page right now: ${all.slice(0, 8).map(([k, v]) => `${safeLabel(k, 40)}: **${String(v)}**`).join(', ')}.`;
  if (contextText && contextText.trim()) return `Here is what the page says right now:\n\n> ${safeLabel(contextText, 400)}`;
  return undefined;
}

function resultLabel(call: PlannedCall, result: Record<string, unknown>): string {
  // The result itself, then any object one level down (`task`, `order`, `item`, …): generic over shapes.
  const nested = Object.values(result).map(asRecord);
  for (const source of [result, ...nested]) {
    if (!source) continue;
    for (const key of ['deleted', 'removed', ...LABEL_KEYS, 'item']) {
      const v = source[key];
      if (typeof v === 'string' && v.trim()) return safeLabel(v);
    }
  }
  return safeLabel(call.subject) || safeLabel(call.name.replace(/_/g, ' '));
}

function creditsUnit(tool: ToolView | undefined): string {
  const m = /\b(credits?|points?|tokens?|coins?|cr)\b/i.exec(tool?.description ?? '');
  return m ? ` ${m[1]!.toLowerCase().replace(/^cr$/, 'cr').replace(/^credit$/, 'credits')}` : '';
}

function sentenceFor(call: PlannedCall, result: Record<string, unknown>, tool: ToolView | undefined, entities: Entity[]): string {
  const label = resultLabel(call, result);
  const action = call.action;
  const numeric = Object.entries(result).filter(([k, v]) => typeof v === 'number' && k !== 'success');
  if (action === 'buy') {
    const qtyEntry = Object.entries(call.arguments).find(([k, v]) => QTY_PARAM.test(k) && typeof v === 'number');
    const idEntry = Object.entries(call.arguments).find(([k]) => !QTY_PARAM.test(k));
    const product = idEntry ? entities.find((e) => String(e.id) === String(idEntry[1])) : undefined;
    const name = safeLabel(product?.label ?? call.subject ?? label) || label;
    if (tool && /cart|basket|bag/.test(tool.name)) return `Added ${qtyEntry ? String(qtyEntry[1]) : '1'} × ${name} to the cart.`;
    const paid = numeric.find(([k]) => /paid|total|charged|amount|cost/i.test(k));
    if (Object.keys(call.arguments).length === 0 && paid) return `Checked out: paid ${String(paid[1])}${creditsUnit(tool)}.`;
    if (Object.keys(call.arguments).length === 0 && tool && /checkout|pay/.test(tool.name)) return 'Checked out.';
    return `Bought ${qtyEntry ? `${String(qtyEntry[1])} × ` : ''}${label}.`;
  }
  if (action === 'update') {
    const changed = Object.entries(call.arguments).find(([k, v]) => !ID_PARAM.test(k) && typeof v === 'string' && k !== 'title' && k !== 'name');
    if (changed) return `Moved “${label}” to “${safeLabel(result[changed[0]] ?? changed[1])}”.`;
  }
  if ((action === 'increase' || action === 'decrease' || action === 'update') && numeric.length > 0) {
    const [key, value] = numeric[0]!;
    const noun = safeLabel(tool?.nouns.join(' ') || key.replace(/_/g, ' '), 40);
    const by = Object.values(call.arguments).find((v) => typeof v === 'number');
    if (action === 'increase') return `Added ${String(by ?? 1)} to the ${noun}: it is now ${String(value)}.`;
    if (action === 'decrease') return `Took ${String(by ?? 1)} off the ${noun}: it is now ${String(value)}.`;
    return `${tool ? tool.title : 'Updated'}: the ${noun} is now ${String(value)}.`;
  }
  if (action === 'increase' || action === 'decrease') {
    const by = Object.values(call.arguments).find((v) => typeof v === 'number') ?? 1;
    const noun = safeLabel(tool?.nouns.join(' ') || 'total', 40);
    return action === 'increase' ? `Added ${String(by)} to the ${noun}.` : `Took ${String(by)} off the ${noun}.`;
  }
  if (action === 'fill') return `Filled “${safeLabel(call.subject || label, 60)}” with “${safeLabel(call.arguments['value'], 60)}”.`;
  if (action === 'select') {
    const [option, field] = call.subject.split('|');
    return `Chose “${safeLabel(option, 60)}” for “${safeLabel(field, 40)}”.`;
  }
  if (action === 'click' && typeof result['checked'] === 'boolean') return `${result['checked'] ? 'Ticked' : 'Unticked'} “${safeLabel(call.subject || label, 60)}”.`;
  if (action === 'click') return `Clicked “${safeLabel(call.subject || label, 60)}”.`;
  if (action === 'list') {
    const list = Object.values(result).find(Array.isArray);
    return list ? `Read ${list.length} ${list.length === 1 ? 'entry' : 'entries'} from ${safeLabel(call.name.replace(/_/g, ' '))}.` : `Read “${label}”.`;
  }
  if (action === 'delete') {
    const name = typeof result['name'] === 'string' && typeof result['deleted'] === 'string' && result['name'] !== result['deleted'] ? ` (${safeLabel(result['name'], 60)})` : '';
    const noun = tool?.nouns.at(-1);
    return name && noun ? `Deleted ${noun} ${label}${name}.` : `Deleted “${label}”.`;
  }
  if (action === 'create') {
    const status = Object.entries(call.arguments).find(([k, v]) => Array.isArray(tool?.properties[k]?.['enum']) && typeof v === 'string');
    return `Added “${label}”${status ? ` to ${safeLabel(status[1], 30)}` : ''}.`;
  }
  if (action !== undefined) return `${PAST[action]} “${label}”.`;
  return `Ran ${safeLabel(call.name.replace(/_/g, ' '))}${label ? ` for “${label}”` : ''}.`;
}

function listFromResult(result: Record<string, unknown>): string {
  const entities = findEntities(result);
  return entities.length ? '\n' + entities.slice(0, 20).map(describeEntity).join('\n') : '';
}

// ---------------------------------------------------------------- the decision

/**
 * Decide one offline step from the request alone (pure; never throws).
 *
 * @example
 * const d = decideOfflineStep({ system: '', messages: [{ role: 'user', content: 'add a task for the run-of-show' }],
 *   tools: [addTask], context: null, model: 'offline' });
 * // { kind: 'tool_call', name: 'add_task', arguments: { title: 'Run-of-show' }, clause: 0 }
 */
export function decideOfflineStep(input: ProviderStepInput): OfflineDecision {
  try {
    return decide(input);
  } catch {
    return { kind: 'text', text: "Sorry, I couldn't work out that request. I'm the offline demo model: try a short, direct request." };
  }
}

interface DoneCall {
  call: PlannedCall;
  result: ToolResult;
  clause: number | undefined;
}

/** The visitor's request: the last message, or, when it only answers the model's own question, both together. */
function currentRequest(messages: WaveMessage[], lastUser: number): string {
  const message = messages[lastUser];
  const text = message?.role === 'user' && typeof message.content === 'string' ? message.content.trim() : '';
  if (!text || actionsIn(text).some((a) => a !== 'list') || /\?\s*$/.test(text) || /^(?:no|nope|nah|cancel|never\s*mind|forget\s+(?:it|that)|stop)\b/i.test(text)) return text;
  const asked = messages[lastUser - 1];
  if (asked?.role !== 'assistant' || typeof asked.content !== 'string' || !/\?/.test(asked.content)) return text;
  for (let i = lastUser - 2; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'user' && typeof m.content === 'string') return `${m.content.trim().replace(/[.!?]+$/, '')} ${text}`;
  }
  return text;
}

function decide(input: ProviderStepInput): OfflineDecision {
  containers = [];
  const messages = Array.isArray(input.messages) ? input.messages : [];
  const tools = (Array.isArray(input.tools) ? input.tools : []).filter((t) => typeof t?.name === 'string').map(viewTool);
  let lastUser = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user') {
      lastUser = i;
      break;
    }
  }
  const request = currentRequest(messages, lastUser);
  if (!request) return { kind: 'text', text: offlineIntro(tools) };
  if (/^(?:no|nope|nah|cancel|never\s*mind|forget\s+(?:it|that)|stop|don'?t)\b[\s.!]*$/i.test(request)) {
    return { kind: 'text', text: "All right, I won't do anything. Nothing was changed." };
  }

  const after = messages.slice(lastUser + 1);
  const results = after.filter((m): m is Extract<WaveMessage, { role: 'tool' }> => m.role === 'tool').map(readResult);
  const issued = after.flatMap((m) => (m.role === 'assistant' && Array.isArray(m.toolCalls) ? m.toolCalls : []));
  const contextText = typeof input.context === 'string' ? input.context : null;
  const state = contextText ? parseJson(unwrapEnvelope(contextText) ?? contextText) : undefined;
  const entities = findEntities(state);
  const pageTools = tools.filter((t) => !BUILTIN.has(t.name) && t.name !== 'load_tools');
  const builtinNames = new Set(tools.filter((t) => BUILTIN.has(t.name)).map((t) => t.name));
  const toolByName = new Map(tools.map((t) => [t.name, t]));

  const done: DoneCall[] = results.map((result, i) => {
    const call = issued[i];
    const name = typeof call?.name === 'string' ? call.name : result.name;
    const args = asRecord(call?.arguments) ?? {};
    const clause = /_c(\d+)$/.exec(typeof call?.id === 'string' ? call.id : '')?.[1];
    const subject = Object.entries(args).find(([k, v]) => typeof v === 'string' && (TEXT_PARAM.test(k) || LABEL_KEYS.includes(k)))?.[1];
    return {
      call: { name, arguments: args, action: toolByName.get(name)?.action, subject: typeof subject === 'string' ? subject : '' },
      result,
      clause: clause === undefined ? undefined : Number(clause),
    };
  });

  if (pageTools.length > 0) return decideWithPageTools(request, pageTools, entities, state, contextText, done);
  if (builtinNames.has('read_page')) return decideWithBuiltins(request, tools, builtinNames, done);
  return { kind: 'text', text: offlineIntro(tools) };
}

/** Ends the turn early when a finished call was cancelled or failed. */
function stopped(done: DoneCall[], describe: (d: DoneCall) => string, sentence: (d: DoneCall) => string, hasMore: (i: number) => boolean): string | undefined {
  for (let i = 0; i < done.length; i++) {
    const d = done[i]!;
    const before = done.slice(0, i).map(sentence).filter(Boolean).join(' ');
    if (isCancelled(d.result)) {
      const more = hasMore(i) ? ' or anything after it' : '';
      return [before, `You cancelled the request to ${describe(d)}, so I did not do it${more}.`].filter(Boolean).join(' ');
    }
    if (isFailure(d.result)) {
      const error = safeLabel(describeError(d.result.value['error'], { fallback: 'no reason given' }), 200) || 'no reason given';
      return [before, `I couldn't ${describe(d)}: “${error}”. Nothing after that was done.`].filter(Boolean).join(' ');
    }
  }
  return undefined;
}

function decideWithPageTools(request: string, tools: ToolView[], entities: Entity[], state: unknown, contextText: string | null, done: DoneCall[]): OfflineDecision {
  const clauses = splitClauses(request);
  const toolByName = new Map(tools.map((t) => [t.name, t]));
  const sentence = (d: DoneCall): string => {
    const tool = toolByName.get(d.call.name);
    const target = Object.entries(d.call.arguments).find(([k]) => ID_PARAM.test(k) || Array.isArray(tool?.properties[k]?.['enum']))?.[1];
    const entity = target !== undefined ? entities.find((e) => String(e.id) === String(target)) : undefined;
    const subject = d.call.subject || entity?.label || (tool && Object.keys(tool.properties).length === 0 ? tool.nouns.join(' ') : '');
    return sentenceFor({ ...d.call, subject }, d.result.value, tool, entities);
  };
  const describe = (d: DoneCall): string => {
    const tool = toolByName.get(d.call.name);
    const target = Object.entries(d.call.arguments).find(([k]) => ID_PARAM.test(k) || Array.isArray(tool?.properties[k]?.['enum']))?.[1];
    const entity = target !== undefined ? entities.find((e) => String(e.id) === String(target)) : undefined;
    const verb = tool?.action ? BASE[tool.action] : 'run';
    if (entity) return `${verb} “${safeLabel(entity.label, 60)}”`;
    if (d.call.subject) return `${verb} “${safeLabel(d.call.subject, 60)}”`;
    // "buy the cat sticker pack", "complete the checkout"
    if (tool?.nouns.length) return `${verb} the ${safeLabel(tool.nouns.join(' '), 60)}`;
    return `complete the ${safeLabel((tool?.name ?? d.call.name).replace(/_/g, ' '), 60)}`;
  };
  const plans = withCarriedVerbs(clauses, tools).map((c) => planClause(c, tools, entities));
  // Whether the plan had more calls after the i-th finished one.
  const hasMore = (i: number): boolean => {
    const k = done[i]?.clause;
    if (k === undefined) return i < done.length - 1;
    const nth = done.slice(0, i + 1).filter((d) => d.clause === k).length;
    const here = plans[k];
    return (here?.kind === 'calls' && here.calls.length > nth) || plans.slice(k + 1).some((p) => p.kind === 'calls' && p.calls.length > 0);
  };
  const stop = stopped(done, describe, sentence, hasMore);
  if (stop) return { kind: 'text', text: stop };

  const summary = (): string =>
    done.map((d) => sentence(d) + (toolByName.get(d.call.name)?.action === 'list' ? listFromResult(d.result.value) : '')).join(' ') || 'Done.';

  if (done.length === 0) {
    const ask = plans.find((p): p is Extract<ClausePlan, { kind: 'ask' }> => p.kind === 'ask');
    if (ask) return { kind: 'text', text: ask.text };
    const first = plans.findIndex((p) => p.kind === 'calls' && p.calls.length > 0);
    if (first >= 0) {
      const call = (plans[first] as Extract<ClausePlan, { kind: 'calls' }>).calls[0]!;
      return { kind: 'tool_call', name: call.name, arguments: call.arguments, clause: first };
    }
    const cannot = plans.find((p): p is Extract<ClausePlan, { kind: 'none' }> => p.kind === 'none' && p.cannot !== undefined);
    const isQuestion = /\?|^(?:what|which|who|how|list|show|tell)\b/i.test(request);
    if (isQuestion) {
      const answer = answerFromState(request, state, entities, contextText && entities.length === 0 && state === undefined ? contextText : null);
      if (answer) return { kind: 'text', text: answer };
      const asked = contentWords(request);
      const reader = tools.find((t) => t.action === 'list' && t.required.length === 0 && t.nameWords.some((w) => asked.some((a) => sameWord(a, w))));
      if (reader) return { kind: 'tool_call', name: reader.name, arguments: {}, clause: 0 };
    }
    if (cannot?.cannot) return { kind: 'text', text: cannotDo(cannot.cannot, tools) };
    if (plans.some((p) => p.kind === 'none' && p.declined)) return { kind: 'text', text: "All right, I won't do that. Nothing was changed." };
    return { kind: 'text', text: offlineIntro(tools) };
  }

  // A read tool called for a question: answer from its result.
  const lastDone = done.at(-1)!;
  const lastTool = toolByName.get(lastDone.call.name);
  if (done.length === 1 && lastTool?.action === 'list' && plans.every((p) => p.kind !== 'calls' || p.calls.length === 0)) {
    return { kind: 'text', text: `From ${safeLabel(lastTool.name.replace(/_/g, ' '))}:${listFromResult(lastDone.result.value) || ' nothing to list.'}` };
  }

  let k = lastDone.clause;
  let inClause = 0;
  if (k === undefined) {
    // Calls without a clause mark (another client): walk the flat plan.
    const flat = plans.flatMap((p, i) => (p.kind === 'calls' ? p.calls.map((c) => ({ c, i })) : []));
    const next = flat[done.length];
    if (next) return { kind: 'tool_call', name: next.c.name, arguments: next.c.arguments, clause: next.i };
    return { kind: 'text', text: summary() };
  }
  inClause = done.filter((d) => d.clause === k).length;
  for (let j = k; j < clauses.length; j++) {
    const plan = plans[j]!;
    const skip = j === k ? inClause : 0;
    if (plan.kind === 'calls' && plan.calls.length > skip) {
      const call = plan.calls[skip]!;
      return { kind: 'tool_call', name: call.name, arguments: call.arguments, clause: j };
    }
    if (plan.kind === 'ask' && j > k) return { kind: 'text', text: `${summary()} ${plan.text}` };
  }
  k = clauses.length;
  return { kind: 'text', text: summary() };
}

function decideWithBuiltins(request: string, tools: ToolView[], builtinNames: Set<string>, done: DoneCall[]): OfflineDecision {
  const question = /\?\s*$|^(?:what|which|who|where|when|how|is|are|does|do)\b/i.test(request);
  const wantsAction = actionsIn(request).some((a) => a !== 'list') || FILL_INTENT.test(request) || /\b(?:page|form|section|button|link)\b/i.test(request);
  if (!wantsAction && !question && !/\b(?:summar|read|describe)\b/i.test(request)) return { kind: 'text', text: offlineIntro(tools) };
  const clauses = splitClauses(request);
  if (clauses.length > 0 && clauses.every(negated)) return { kind: 'text', text: "All right, I won't do that. Nothing was changed." };
  if (done.length === 0) return { kind: 'tool_call', name: 'read_page', arguments: {} };

  const first = done[0]!;
  const sentence = (d: DoneCall): string => sentenceFor(d.call, d.result.value, undefined, []);
  if (first.call.name !== 'read_page' || isFailure(first.result) || isCancelled(first.result)) {
    return { kind: 'text', text: `I couldn't read the page: “${safeLabel(describeError(first.result.value['error'], { fallback: 'no reason given' }), 200)}”.` };
  }
  const outline = typeof first.result.value['outline'] === 'string' ? (first.result.value['outline'] as string) : '';
  const plan = question && !FILL_INTENT.test(request) ? ({ kind: 'calls', calls: [] } as BuiltinPlan) : planBuiltin(request, outline, builtinNames);
  if (plan.kind === 'ask') return { kind: 'text', text: plan.text };
  const calls = plan.calls;
  // Pair the finished calls (after read_page) with the plan, for their subjects.
  const later = done.slice(1).map((d, i) => ({ ...d, call: { ...d.call, action: calls[i]?.action ?? d.call.action, subject: calls[i]?.subject ?? '' } }));
  const describe = (d: DoneCall): string => `${d.call.action ? BASE[d.call.action] : 'run'} “${safeLabel((d.call.subject || d.call.name).split('|')[0], 60)}”`;
  const stop = stopped(later, describe, sentence, (i) => i < calls.length - 1);
  if (stop) return { kind: 'text', text: stop };
  const next = calls[later.length];
  if (next) return { kind: 'tool_call', name: next.name, arguments: next.arguments };
  if (later.length > 0) return { kind: 'text', text: later.map(sentence).join(' ') };
  if (question) {
    const answer = answerFromOutline(request, outline);
    if (answer) return { kind: 'text', text: answer };
  }
  const headings = parseOutlineHeadings(outline);
  return { kind: 'text', text: headings ? `I read the page but found nothing I could do for that request. Its main sections:\n${headings}` : 'I read the page but found nothing I could act on for that request.' };
}

function parseOutlineHeadings(outline: string): string {
  const headings: string[] = [];
  for (const e of parseOutline(outline)) {
    if (e.kind === 'heading' && e.text.trim()) headings.push(`- ${safeLabel(e.text)}`);
    if (headings.length >= 10) break;
  }
  return headings.join('\n');
}

// ---------------------------------------------------------------- the provider

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * The offline demo model: deterministic, no key, no network. Streams its text word by word.
 *
 * @example
 * const provider = new OfflineModel({ delayMs: 0 });
 * for await (const event of provider.step(input, signal)) console.log(event);
 */
export class OfflineModel implements ModelProvider {
  readonly name = 'offline';
  readonly model = 'offline demo model';
  readonly offline = true;
  readonly #delayMs: number;

  constructor(options: { delayMs?: number } = {}) {
    const delay = options.delayMs ?? 12;
    this.#delayMs = Number.isFinite(delay) && delay > 0 ? delay : 0;
  }

  async *step(input: ProviderStepInput, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    if (signal.aborted) return;
    const decision = decideOfflineStep(input);
    if (decision.kind === 'tool_call') {
      const previous = (Array.isArray(input.messages) ? input.messages : []).reduce(
        (n, m) => n + (m.role === 'assistant' && Array.isArray(m.toolCalls) ? m.toolCalls.length : 0),
        0,
      );
      // The id carries the request clause the call serves, so the next step knows where the plan stands.
      const id = `call_${previous + 1}${decision.clause === undefined ? '' : `_c${decision.clause}`}`;
      yield { type: 'tool_call', id, name: decision.name, arguments: JSON.stringify(decision.arguments) };
      yield { type: 'end', reason: 'tool_calls' };
      return;
    }
    // Words with their trailing whitespace, so the deltas concatenate to the exact text.
    const pieces = decision.text.match(/\S+\s*|\s+/g) ?? [];
    for (const [i, piece] of pieces.entries()) {
      if (signal.aborted) return;
      if (this.#delayMs > 0 && i > 0) await sleep(this.#delayMs, signal);
      if (signal.aborted) return;
      yield { type: 'text', delta: piece };
    }
    yield { type: 'end', reason: 'stop' };
  }
}
