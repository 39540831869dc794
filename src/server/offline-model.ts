/**
 * The built-in offline model (SPEC §10): a deterministic, rule-based stand-in for a real
 * model so the product runs with no key and no network. Generic over the request's tool
 * schemas, the page state and the conversation; stateless (it re-derives its plan from the
 * last user message and the tool results after it on every step).
 */
import { neutralizeInstructions } from '../guard/neutralize.js';
import { unwrapEnvelope } from '../guard/envelope.js';
import type { HostToolSchema } from '../tools/types.js';
import type { WaveMessage } from '../transport/protocol.js';
import { describeError } from '../util/describe-error.js';
import type { ModelProvider, ProviderEvent, ProviderStepInput } from './providers/types.js';

/** What one offline step decides: call a tool, or answer in text. */
export type OfflineDecision =
  | { kind: 'tool_call'; name: string; arguments: Record<string, unknown> }
  | { kind: 'text'; text: string };

/** Canonical actions the synonyms map to. */
const Action = {
  create: 'create',
  delete: 'delete',
  update: 'update',
  buy: 'buy',
  list: 'list',
  fill: 'fill',
  click: 'click',
  select: 'select',
  navigate: 'navigate',
  scroll: 'scroll',
} as const;
type Action = (typeof Action)[keyof typeof Action];

const VERBS: ReadonlyArray<[Action, readonly string[]]> = [
  ['buy', ['buy', 'purchase', 'order', 'checkout', 'check out', 'add to cart', 'add to basket', 'put in cart']],
  ['create', ['add', 'create', 'new', 'make', 'insert', 'register', 'schedule', 'book', 'post', 'write']],
  ['delete', ['delete', 'remove', 'drop', 'erase', 'trash', 'discard', 'clear', 'destroy']],
  ['update', ['move', 'set', 'mark', 'change', 'update', 'rename', 'edit', 'switch', 'toggle', 'complete', 'finish', 'start', 'assign']],
  ['list', ['list', 'show', 'read', 'get', 'display', 'view', 'see', 'find', 'search', 'look up', 'fetch', 'what', 'which', 'how many']],
  ['fill', ['fill', 'enter', 'type', 'input', 'put']],
  ['click', ['click', 'press', 'tap', 'hit', 'submit', 'send']],
  ['select', ['select', 'choose', 'pick']],
  ['navigate', ['go to', 'open', 'navigate', 'visit', 'take me to']],
  ['scroll', ['scroll']],
];

const PAST: Readonly<Record<Action, string>> = {
  create: 'Added',
  delete: 'Deleted',
  update: 'Updated',
  buy: 'Bought',
  list: 'Read',
  fill: 'Filled',
  click: 'Clicked',
  select: 'Selected',
  navigate: 'Opened',
  scroll: 'Scrolled to',
};

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  zero: 0, one: 1, a: 1, an: 1, single: 1, two: 2, couple: 2, pair: 2, three: 3, four: 4, five: 5, six: 6, seven: 7,
  eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, dozen: 12, fifteen: 15, twenty: 20,
};

const STOP = new Set(
  'a an the this that these those one ones it its of for to in on at by with and or then please can could would you me my i we our us is are be as from into onto up down all some any item items thing things also just now new called named titled about'.split(' '),
);

const BUILTIN = new Set(['read_page', 'fill_field', 'click_element', 'select_option', 'scroll_to', 'navigate']);
const LABEL_KEYS = ['title', 'name', 'label', 'text', 'summary', 'subject', 'heading'];
const ID_PARAM = /^(?:id|sku|ref|key|slug|code|uuid)$|_(?:id|sku|ref|key|slug|code|uuid)$/i;
const TEXT_PARAM = /^(?:title|name|text|label|content|body|message|description|note|summary|subject|query|q|value|item|task|comment)$/i;

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

/** Text from a result or page state, safe to echo: no instructions, no Markdown control characters. */
function safeLabel(value: unknown, max = 80): string {
  const raw = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  const plain = raw.replace(/<<[^>]*>>/g, ' ').replace(/[*_`[\]<>#|\\]/g, '').replace(/\s+/g, ' ').trim();
  const clean = neutralizeInstructions(plain).text;
  return clean.length > max ? clean.slice(0, max - 1) + '…' : clean;
}

function hasPhrase(text: string, phrase: string): boolean {
  return new RegExp(`(?:^|[^\\p{L}\\p{N}])${phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')}(?:$|[^\\p{L}\\p{N}])`, 'iu').test(text);
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
      const m = new RegExp(`(?:^|[^\\p{L}])(${s.replace(/\s+/g, '\\s+')})(?:$|[^\\p{L}])`, 'iu').exec(text);
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

// ---------------------------------------------------------------- request views

interface ToolView {
  name: string;
  description: string;
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  nameWords: string[];
  descWords: string[];
  action: Action | undefined;
}

function viewTool(tool: HostToolSchema): ToolView {
  const description = unwrapEnvelope(tool.description) ?? tool.description;
  const params = asRecord(tool.parameters) ?? {};
  const props: Record<string, Record<string, unknown>> = {};
  for (const [key, value] of Object.entries(asRecord(params['properties']) ?? {})) props[key] = asRecord(value) ?? {};
  const required = Array.isArray(params['required']) ? params['required'].filter((r): r is string => typeof r === 'string') : [];
  const nameText = tool.name.replace(/_/g, ' ');
  return {
    name: tool.name,
    description,
    properties: props,
    required,
    nameWords: contentWords(nameText),
    descWords: contentWords(description),
    action: firstAction(nameText) ?? firstAction(description.split(/[.!?]/)[0] ?? ''),
  };
}

interface Entity {
  id: string | number;
  label: string;
  record: Record<string, unknown>;
}

/** Objects with an id and a title/name/label anywhere in the page state. */
function findEntities(value: unknown, out: Entity[] = [], depth = 0): Entity[] {
  if (depth > 8 || out.length > 500) return out;
  if (Array.isArray(value)) {
    for (const item of value) findEntities(item, out, depth + 1);
    return out;
  }
  const record = asRecord(value);
  if (!record) return out;
  const idKey = Object.keys(record).find((k) => ID_PARAM.test(k) && (typeof record[k] === 'string' || typeof record[k] === 'number'));
  const labelKey = LABEL_KEYS.find((k) => typeof record[k] === 'string');
  if (idKey !== undefined && labelKey !== undefined) out.push({ id: record[idKey] as string | number, label: record[labelKey] as string, record });
  for (const child of Object.values(record)) if (typeof child === 'object' && child !== null) findEntities(child, out, depth + 1);
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
      const starts = VERBS.some(([, syn]) => syn.some((s) => new RegExp(`^(?:please\\s+)?${s.replace(/\s+/g, '\\s+')}\\b`, 'i').test(part)));
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

const CART_WORDS = /\b(?:cart|basket|bag|checkout)\b/i;

function scoreTool(tool: ToolView, clause: string, clauseAction: Action | undefined): number {
  const cw = new Set(contentWords(clause));
  const all = new Set(actionsIn(clause));
  // "add two mugs to my cart": a create verb aimed at a cart is a purchase step.
  if (CART_WORDS.test(clause) && (all.has('create') || all.has('fill'))) all.add('buy');
  let score = 0;
  if (clauseAction !== undefined && tool.action === clauseAction) score += 4;
  else if (tool.action !== undefined && all.has(tool.action)) score += 3;
  else if (clauseAction !== undefined && tool.action !== undefined) score -= 2;
  for (const w of tool.nameWords) if (cw.has(w)) score += 2;
  for (const w of new Set(tool.descWords)) if (cw.has(w)) score += 0.5;
  // "add to cart": the buy action also matches tools named for carts and orders.
  if (clauseAction === 'buy' && tool.nameWords.some((w) => ['cart', 'basket', 'buy', 'purchase', 'order', 'checkout'].includes(w))) score += 3;
  return score;
}

function pickTool(tools: ToolView[], clause: string): ToolView | undefined {
  const clauseAction = firstAction(clause.replace(/^(?:please|now|also|and|could you|can you)\s+/i, ''));
  let best: { tool: ToolView; score: number } | undefined;
  for (const tool of tools) {
    const score = scoreTool(tool, clause, clauseAction);
    if (best === undefined || score > best.score) best = { tool, score };
  }
  return best !== undefined && best.score >= 4 ? best.tool : undefined;
}

function numbersIn(clause: string): number[] {
  const out: number[] = [];
  for (const m of clause.matchAll(/(?<![\p{L}\d.])(\d+(?:\.\d+)?)(?![\p{L}\d])|\b(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|dozen|couple|pair)\b/giu)) {
    if (m[1] !== undefined) out.push(Number(m[1]));
    else if (m[2] !== undefined) out.push(NUMBER_WORDS[m[2].toLowerCase()] ?? 0);
  }
  return out;
}

function resolveEntity(entities: Entity[], clause: string, exclude: Set<string>): Entity | undefined {
  const cw = new Set(contentWords(clause).filter((w) => !exclude.has(w)));
  let best: { entity: Entity; score: number } | undefined;
  for (const entity of entities) {
    if (new RegExp(`\\b${String(entity.id).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(clause)) return entity;
    const ew = contentWords(entity.label);
    const overlap = ew.filter((w) => cw.has(w)).length;
    if (overlap === 0) continue;
    const score = overlap + overlap / ew.length;
    if (best === undefined || score > best.score) best = { entity, score };
  }
  return best?.entity;
}

/** The clause's object phrase: "add a task for the run-of-show" → "Run-of-show". */
function objectPhrase(clause: string, tool: ToolView, otherValues: string[]): string {
  const quoted = /["“'‘]([^"”'’]{1,120})["”'’]/.exec(clause);
  if (quoted?.[1]) return quoted[1].trim();
  const named = /\b(?:called|named|titled|saying|that says|reading)\s+(.+)$/i.exec(clause);
  let text = named?.[1] ?? clause;
  if (!named) {
    text = text.replace(/^(?:please\s+|could you\s+|can you\s+|would you\s+|now\s+|also\s+|i want to\s+|i'd like to\s+|let's\s+)*/i, '');
    for (const [, synonyms] of VERBS) {
      for (const s of [...synonyms].sort((a, b) => b.length - a.length)) {
        const re = new RegExp(`^${s.replace(/\s+/g, '\\s+')}\\b\\s*`, 'i');
        if (re.test(text)) {
          text = text.replace(re, '');
          break;
        }
      }
    }
    const nouns = tool.nameWords.filter((w) => firstAction(w) === undefined);
    const nounAlt = nouns.map((n) => `${n}s?`).join('|');
    // Drop "a task", "a new task for", "to the board", "on the list"…
    if (nounAlt) text = text.replace(new RegExp(`^(?:(?:a|an|the|new|another|one|some)\\s+)*(?:${nounAlt})\\b\\s*`, 'i'), '');
    text = text.replace(/^(?:(?:for|about|to|of|on|with|:|-)\s*)+/i, '');
    text = text.replace(/\s+(?:to|on|in|onto|into)\s+(?:the|my|our)\s+(?:board|list|page|cart|basket|todo list|to-do list)\b.*$/i, '');
  }
  for (const v of otherValues) if (v) text = text.replace(new RegExp(`\\s*\\b(?:as|to|with)?\\s*${v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i'), '');
  text = text.replace(/^(?:the|a|an)\s+/i, '').replace(/[\s.,!?]+$/, '').trim();
  return capitalise(text);
}

function fillArguments(tool: ToolView, clause: string, entities: Entity[]): { args: Record<string, unknown>; subject: string } {
  const args: Record<string, unknown> = {};
  let subject = '';
  const used: string[] = [];
  const numbers = numbersIn(clause);
  // Enums first: their words must not leak into text values or entity matching.
  for (const [key, schema] of Object.entries(tool.properties)) {
    const values = Array.isArray(schema['enum']) ? schema['enum'] : undefined;
    if (!values) continue;
    const hit = values.find((v) => typeof v === 'string' && hasPhrase(clause, v.replace(/_/g, ' ')));
    if (hit !== undefined) {
      args[key] = hit;
      used.push(String(hit));
    } else if (tool.required.includes(key)) {
      args[key] = schema['default'] ?? values[0];
    }
  }
  const exclude = new Set([...tool.nameWords, ...used.flatMap(contentWords)]);
  for (const [key, schema] of Object.entries(tool.properties)) {
    if (key in args) continue;
    const type = schema['type'];
    const required = tool.required.includes(key);
    if (ID_PARAM.test(key)) {
      const entity = resolveEntity(entities, clause, exclude);
      if (entity) {
        args[key] = type === 'integer' || type === 'number' ? Number(entity.id) : type === 'string' ? String(entity.id) : entity.id;
        subject ||= entity.label;
      }
    } else if (type === 'integer' || type === 'number') {
      const n = numbers.shift();
      if (n !== undefined) args[key] = type === 'integer' ? Math.round(n) : n;
      else if (schema['default'] !== undefined) args[key] = schema['default'];
      else if (required) args[key] = /qty|quantity|count|amount|number/i.test(key) ? 1 : 0;
    } else if (type === 'boolean') {
      if (schema['default'] !== undefined) args[key] = schema['default'];
      else if (required) args[key] = !/\b(?:not|no|don't|without)\b/i.test(clause);
    } else if (type === 'string' || type === undefined) {
      if (/e-?mail/i.test(key)) {
        const email = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.exec(clause)?.[0];
        if (email) args[key] = email;
      } else if (/url|link|href/i.test(key)) {
        const url = /https?:\/\/\S+|\/[\w\-/]*/.exec(clause)?.[0];
        if (url) args[key] = url;
      } else if (TEXT_PARAM.test(key) || required) {
        const phrase = objectPhrase(clause, tool, used);
        if (phrase) {
          args[key] = phrase;
          subject ||= phrase;
        } else if (schema['default'] !== undefined) {
          args[key] = schema['default'];
        }
      }
    }
  }
  return { args, subject };
}

// ---------------------------------------------------------------- built-in page tools

interface OutlineNode {
  role: string;
  name: string;
  ref: string;
  value?: string;
  href?: string;
  options?: string[];
}

function parseOutline(outline: string): OutlineNode[] {
  const nodes: OutlineNode[] = [];
  for (const line of outline.split('\n')) {
    const m = /^\s*-\s+([\w-]+(?:\(\d+\))?)\s+("(?:[^"\\]|\\.)*")\s*\[ref=([^\]\s]+)\](.*)$/.exec(line);
    if (!m) continue;
    const name = parseJson(m[2] ?? '""');
    const node: OutlineNode = { role: m[1] ?? '', name: typeof name === 'string' ? name : '', ref: m[3] ?? '' };
    const rest = m[4] ?? '';
    const value = /\bvalue=("(?:[^"\\]|\\.)*")/.exec(rest);
    if (value) node.value = String(parseJson(value[1] ?? '""') ?? '');
    const href = /\bhref=("(?:[^"\\]|\\.)*")/.exec(rest);
    if (href) node.href = String(parseJson(href[1] ?? '""') ?? '');
    const options = /\boptions=(\[.*?\])(?:\s|$)/.exec(rest);
    if (options) {
      const list = parseJson(options[1] ?? '[]');
      if (Array.isArray(list)) node.options = list.filter((o): o is string => typeof o === 'string');
    }
    nodes.push(node);
  }
  return nodes;
}

const FIELD_ROLES = new Set(['textbox', 'textarea', 'searchbox', 'combobox', 'slider']);

/** Value for a form field from the request: by kind (email, phone) or "label <value>". */
function valueForField(field: OutlineNode, request: string): string | undefined {
  const label = field.name.toLowerCase();
  if (/e-?mail/.test(label)) return /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.exec(request)?.[0];
  if (/phone|tel|mobile/.test(label)) return /\+?\d[\d\s().-]{5,}\d/.exec(request)?.[0]?.trim();
  const labelWords = contentWords(field.name).filter((w) => w.length > 2);
  for (const w of labelWords) {
    const m = new RegExp(`\\b${w}\\w*\\s*(?:is|of|:|=|as|to)?\\s*(?:["“']([^"”']+)["”']|((?:[\\p{Lu}][\\p{L}'’.-]*\\s*){1,4})|([^,;.]+?))(?=\\s*(?:,|;|\\.(?:\\s|$)|\\band\\b|\\bwith\\b|$))`, 'iu').exec(request);
    const value = (m?.[1] ?? m?.[2] ?? m?.[3])?.trim();
    if (value && !/^(?:the|a|an|form|field)$/i.test(value)) return value;
  }
  return undefined;
}

function overlapNode(nodes: OutlineNode[], text: string, roles: ReadonlySet<string> | null): OutlineNode | undefined {
  const cw = new Set(contentWords(text));
  let best: { node: OutlineNode; score: number } | undefined;
  for (const node of nodes) {
    if (roles && !roles.has(node.role)) continue;
    const nw = contentWords(node.name);
    const score = nw.filter((w) => cw.has(w)).length;
    if (score > 0 && (best === undefined || score > best.score)) best = { node, score };
  }
  return best?.node;
}

function planBuiltin(request: string, outline: string, tools: Set<string>): PlannedCall[] {
  const nodes = parseOutline(outline);
  const calls: PlannedCall[] = [];
  const lower = request.toLowerCase();
  if (tools.has('fill_field') && /\b(?:fill|enter|type|put|complete|sign me up|subscribe|register|write)\b/.test(lower)) {
    for (const field of nodes) {
      if (!FIELD_ROLES.has(field.role) || field.role === 'combobox') continue;
      const value = valueForField(field, request);
      if (value) calls.push({ name: 'fill_field', arguments: { ref: field.ref, value }, action: 'fill', subject: field.name });
    }
  }
  if (tools.has('select_option')) {
    for (const field of nodes) {
      if (field.role !== 'combobox' || !field.options) continue;
      const option = field.options.find((o) => o.length > 1 && hasPhrase(request, o));
      if (option) calls.push({ name: 'select_option', arguments: { ref: field.ref, value: option }, action: 'select', subject: `${option} in ${field.name}` });
    }
  }
  for (const clause of splitClauses(request)) {
    const action = firstAction(clause);
    const target = clause.replace(/^.*?\b(?:click|press|tap|hit|scroll to|scroll down to|go to|open|navigate to|visit|take me to)\b\s*(?:on\s+)?(?:the\s+)?/i, '');
    if (action === 'click' && tools.has('click_element')) {
      const node = overlapNode(nodes, /\bsubmit\b/i.test(clause) && !/\bclick|press|tap\b/i.test(clause) ? 'submit send' : target, new Set(['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem']));
      if (node) calls.push({ name: 'click_element', arguments: { ref: node.ref }, action: 'click', subject: node.name });
    } else if (action === 'scroll' && tools.has('scroll_to')) {
      const node = overlapNode(nodes, target, null);
      if (node) calls.push({ name: 'scroll_to', arguments: { ref: node.ref }, action: 'scroll', subject: node.name });
    } else if (action === 'navigate') {
      const link = overlapNode(nodes, target, new Set(['link']));
      if (link?.href && tools.has('navigate')) calls.push({ name: 'navigate', arguments: { url: link.href }, action: 'navigate', subject: link.name });
      else if (link && tools.has('click_element')) calls.push({ name: 'click_element', arguments: { ref: link.ref }, action: 'navigate', subject: link.name });
    }
  }
  return calls;
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

function answerFromState(request: string, entities: Entity[], contextText: string | null): string | undefined {
  if (entities.length > 0) {
    const cw = new Set(contentWords(request));
    // Narrow by a mentioned field value ("which tasks are done?").
    const filtered = entities.filter((e) => Object.values(e.record).some((v) => typeof v === 'string' && v.length < 30 && cw.has(stem(v.toLowerCase()))));
    const shown = filtered.length > 0 && filtered.length < entities.length ? filtered : entities;
    const lines = shown.slice(0, 20).map(describeEntity);
    const more = shown.length > 20 ? `\n…and ${shown.length - 20} more.` : '';
    return `From the page right now (${shown.length} ${shown.length === 1 ? 'item' : 'items'}):\n${lines.join('\n')}${more}`;
  }
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

function sentenceFor(call: PlannedCall, result: Record<string, unknown>): string {
  const label = resultLabel(call, result);
  const action = call.action;
  if (action === 'update') {
    const changed = Object.entries(call.arguments).find(([k, v]) => !ID_PARAM.test(k) && typeof v === 'string' && k !== 'title' && k !== 'name');
    if (changed) return `Moved **${label}** to **${safeLabel(result[changed[0]] ?? changed[1])}**.`;
  }
  if (action === 'buy') {
    const qty = Object.entries(call.arguments).find(([k, v]) => /qty|quantity|count/i.test(k) && typeof v === 'number');
    const verb = /cart|basket/.test(call.name) ? 'Added to cart:' : 'Bought';
    return `${verb} **${qty ? `${String(qty[1])} × ` : ''}${label}**.`;
  }
  if (action === 'fill') return `Filled **${label}** with “${safeLabel(call.arguments['value'], 60)}”.`;
  if (action === 'list') {
    const list = Object.values(result).find(Array.isArray);
    return list ? `Read ${list.length} ${list.length === 1 ? 'entry' : 'entries'} from **${safeLabel(call.name.replace(/_/g, ' '))}**.` : `Read **${label}**.`;
  }
  if (action !== undefined) return `${PAST[action]} **${label}**.`;
  return `Ran **${safeLabel(call.name.replace(/_/g, ' '))}**${label ? ` for **${label}**` : ''}.`;
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
 * // { kind: 'tool_call', name: 'add_task', arguments: { title: 'Run-of-show' } }
 */
export function decideOfflineStep(input: ProviderStepInput): OfflineDecision {
  try {
    return decide(input);
  } catch {
    return { kind: 'text', text: "Sorry, I couldn't work out that request. I'm the offline demo model: try a short, direct request." };
  }
}

function decide(input: ProviderStepInput): OfflineDecision {
  const messages = Array.isArray(input.messages) ? input.messages : [];
  const tools = (Array.isArray(input.tools) ? input.tools : []).filter((t) => typeof t?.name === 'string').map(viewTool);
  let lastUser = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user') {
      lastUser = i;
      break;
    }
  }
  const userMessage = messages[lastUser];
  const request = userMessage?.role === 'user' && typeof userMessage.content === 'string' ? userMessage.content.trim() : '';
  if (!request) return { kind: 'text', text: offlineIntro(tools) };

  const results = messages.slice(lastUser + 1).filter((m): m is Extract<WaveMessage, { role: 'tool' }> => m.role === 'tool').map(readResult);
  const contextText = typeof input.context === 'string' ? input.context : null;
  const state = contextText ? parseJson(unwrapEnvelope(contextText) ?? contextText) : undefined;
  const entities = findEntities(state);

  const pageTools = tools.filter((t) => !BUILTIN.has(t.name) && t.name !== 'load_tools');
  const builtinNames = new Set(tools.filter((t) => BUILTIN.has(t.name)).map((t) => t.name));

  let plan: PlannedCall[] = [];
  if (pageTools.length > 0) {
    for (const clause of splitClauses(request)) {
      const tool = pickTool(pageTools, clause);
      if (!tool) continue;
      // The ambient snapshot already answers reads: prefer it over calling a read tool (SPEC §6).
      if (tool.action === 'list' && tool.required.length === 0 && entities.length > 0) continue;
      const { args, subject } = fillArguments(tool, clause, entities);
      plan.push({ name: tool.name, arguments: args, action: tool.action, subject });
    }
  } else if (builtinNames.has('read_page')) {
    const wantsAction = actionsIn(request).some((a) => a !== 'list') || /\b(?:page|form|section|button|link)\b/i.test(request);
    if (wantsAction || /\b(?:what|summar|read|describe)\b/i.test(request)) {
      plan = [{ name: 'read_page', arguments: {}, action: 'list', subject: 'the page' }];
      const first = results[0];
      if (first && first.name === 'read_page' && !isFailure(first)) {
        const outline = typeof first.value['outline'] === 'string' ? first.value['outline'] : '';
        plan.push(...planBuiltin(request, outline, builtinNames));
      }
    }
  }

  // Walk the finished calls: a cancellation or failure ends the chain.
  const done: Array<{ call: PlannedCall; result: Record<string, unknown> }> = [];
  for (let i = 0; i < results.length && i < plan.length; i++) {
    const call = plan[i]!;
    const result = results[i]!;
    if (isCancelled(result)) {
      return { kind: 'text', text: [recap(done), `**${capitalise(describeCall(call))}** was cancelled, so I did not do it${plan.length > i + 1 ? ' or anything after it' : ''}.`].filter(Boolean).join(' ') };
    }
    if (isFailure(result)) {
      const error = safeLabel(describeError(result.value['error'], { fallback: 'no reason given' }), 200) || 'no reason given';
      return { kind: 'text', text: [recap(done), `I couldn't ${describeCall(call)}: “${error}”. Nothing after that was done.`].filter(Boolean).join(' ') };
    }
    done.push({ call, result: result.value });
  }

  const next = plan[results.length];
  if (next) return { kind: 'tool_call', name: next.name, arguments: next.arguments };

  if (plan.length > 0) {
    const builtinRead = done.length === 1 && done[0]?.call.name === 'read_page';
    if (builtinRead) {
      const outline = typeof done[0]!.result['outline'] === 'string' ? (done[0]!.result['outline'] as string) : '';
      const headings = parseOutlineHeadings(outline);
      return { kind: 'text', text: headings ? `I read the page. Its main sections:\n${headings}` : 'I read the page but found nothing I could act on for that request.' };
    }
    const summary = done
      .filter((d) => d.call.name !== 'read_page')
      .map((d) => sentenceFor(d.call, d.result) + (d.call.action === 'list' ? listFromResult(d.result) : ''))
      .join(' ');
    return { kind: 'text', text: summary || 'Done.' };
  }

  // No action matched: answer from the page state, or explain what the offline model can do.
  if (/\?|^(?:what|which|who|how|list|show|tell)\b/i.test(request)) {
    const answer = answerFromState(request, entities, contextText && entities.length === 0 && state === undefined ? contextText : null);
    if (answer) return { kind: 'text', text: answer };
    const asked = new Set(contentWords(request));
    const reader = pageTools.find((t) => t.action === 'list' && t.required.length === 0 && t.nameWords.some((w) => asked.has(w)));
    if (reader && results.length === 0) return { kind: 'tool_call', name: reader.name, arguments: {} };
    const read = results[0];
    if (reader && read && !isFailure(read)) return { kind: 'text', text: `From **${safeLabel(reader.name.replace(/_/g, ' '))}**:${listFromResult(read.value) || ' nothing to list.'}` };
  }
  return { kind: 'text', text: offlineIntro(tools) };
}

function describeCall(call: PlannedCall): string {
  const verb = call.action ? PAST[call.action].toLowerCase().replace(/^added$/, 'add').replace(/^deleted$/, 'delete').replace(/^updated$/, 'update').replace(/^bought$/, 'buy').replace(/^read$/, 'read').replace(/^filled$/, 'fill').replace(/^clicked$/, 'click').replace(/^selected$/, 'select').replace(/^opened$/, 'open').replace(/^scrolled to$/, 'scroll to') : 'run';
  const subject = safeLabel(call.subject);
  return subject ? `${verb} “${subject}”` : `${verb} (${call.name.replace(/_/g, ' ')})`;
}

function recap(done: Array<{ call: PlannedCall; result: Record<string, unknown> }>): string {
  return done
    .filter((d) => d.call.name !== 'read_page')
    .map((d) => sentenceFor(d.call, d.result))
    .join(' ');
}

function parseOutlineHeadings(outline: string): string {
  const headings: string[] = [];
  for (const m of outline.matchAll(/^\s*-\s+heading(?:\(\d+\))?\s+("(?:[^"\\]|\\.)*")/gm)) {
    const name = parseJson(m[1] ?? '""');
    if (typeof name === 'string' && name.trim()) headings.push(`- ${safeLabel(name)}`);
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
      yield { type: 'tool_call', id: `call_${previous + 1}`, name: decision.name, arguments: JSON.stringify(decision.arguments) };
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
