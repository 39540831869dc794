/**
 * The `read_page` outline as data, and its one text form. `outline.ts` builds `OutlineItem`s from
 * the DOM and renders them with `formatOutlineItem`; anything that reads an outline back (the
 * offline model, which gets the same tool result a real model gets) uses `parseOutline`. The
 * two are inverse: `parseOutlineLine(formatOutlineItem(item))` gives `item` back (tests pin it).
 *
 * Pure string code: no DOM, safe for the server.
 *
 * A line is `- <head> [<quoted name>] [<attributes>]`, indented two spaces per container:
 *
 * ```
 * - region main "Checkout"
 *   - heading(1) "Your order"
 *   - text "2 items"
 *   - form "Payment"
 *     - textbox "Email" [ref=e1] value="a@b.c" required
 *     - combobox "Size" [ref=e2] value="M" options=["S","M","L"]
 *     - checkbox "Gift wrap" [ref=e3] checked
 *     - textbox "Password" password
 *     - link "Terms" [ref=e4] href="/terms"
 *     - button "Pay" [ref=e5] disabled
 * - iframe "Map" cross-origin src="https://maps.example"
 * ```
 *
 * Names and values are JSON strings, options a JSON array, so a name holding `[ref=…]`, quotes or
 * the word `required` never reads as an attribute.
 */

/** A control's role as the outline names it (`textbox`, `button`, `link`…). */
import { quote } from './text.js';

export type OutlineRole = string;

/** One outline line as data. */
export type OutlineItem =
  | { kind: 'text'; text: string }
  | { kind: 'heading'; level: number; text: string }
  /** A landmark (`main`, `navigation`…), with its accessible name when it has one. */
  | { kind: 'region'; landmark: string; name?: string }
  | { kind: 'form'; name?: string }
  /** A frame; a cross-origin one cannot be read and names the origin it shows, when known. */
  | { kind: 'iframe'; name?: string; crossOrigin?: boolean; origin?: string }
  | OutlineControl;

/** A control the actions can target by `ref` (a password field has none: never filled, never read). */
export interface OutlineControl {
  kind: 'control';
  role: OutlineRole;
  name: string;
  /** Absent on password fields. */
  ref?: string;
  password?: boolean;
  /** The current value (text fields, sliders) or the chosen options (a select). */
  value?: string;
  /** A select's options, the first ones; `moreOptions` counts the rest. */
  options?: string[];
  moreOptions?: number;
  checked?: boolean;
  href?: string;
  required?: boolean;
  disabled?: boolean;
}

/** An item with its indentation depth (containers are one level above what they hold). */
export type OutlineEntry = OutlineItem & { depth: number };

const MORE = /^…\(\+(\d+) more\)$/;

/**
 * The outline's text for one item (without indentation).
 *
 * @example
 * formatOutlineItem({ kind: 'control', role: 'textbox', name: 'Email', ref: 'e1', required: true });
 * // '- textbox "Email" [ref=e1] required'
 */
export function formatOutlineItem(item: OutlineItem): string {
  switch (item.kind) {
    case 'text':
      return `- text ${quote(item.text)}`;
    case 'heading':
      return `- heading(${item.level}) ${quote(item.text)}`;
    case 'region':
      return `- region ${item.landmark}${item.name ? ` ${quote(item.name)}` : ''}`;
    case 'form':
      return `- form${item.name ? ` ${quote(item.name)}` : ''}`;
    case 'iframe': {
      let line = `- iframe${item.name ? ` ${quote(item.name)}` : ''}`;
      if (item.crossOrigin) line += ` cross-origin${item.origin ? ` src=${quote(item.origin)}` : ''}`;
      return line;
    }
    case 'control': {
      if (item.password || item.ref === undefined) return `- ${item.role} ${quote(item.name)} password`;
      let line = `- ${item.role} ${quote(item.name)} [ref=${item.ref}]`;
      if (item.value !== undefined) line += ` value=${quote(item.value)}`;
      if (item.options) {
        const listed = item.moreOptions ? [...item.options, `…(+${item.moreOptions} more)`] : item.options;
        line += ` options=${JSON.stringify(listed)}`;
      }
      if (item.checked) line += ' checked';
      if (item.href !== undefined) line += ` href=${quote(item.href)}`;
      if (item.required) line += ' required';
      if (item.disabled) line += ' disabled';
      return line;
    }
  }
}

/**
 * Reads one outline line back into data, or null when it is not an outline line (a guard's
 * marker, a cut line, free text). Never throws.
 *
 * @example
 * parseOutlineLine('  - checkbox "Gift wrap" [ref=e3] checked');
 * // { kind: 'control', role: 'checkbox', name: 'Gift wrap', ref: 'e3', checked: true, depth: 1 }
 */
export function parseOutlineLine(line: string): OutlineEntry | null {
  const head = /^( *)- ([a-z][\w-]*)(?:\((\d+)\))?(?= |$)/.exec(line);
  if (!head) return null;
  const depth = Math.floor((head[1] ?? '').length / 2);
  const word = head[2] ?? '';
  const tokens = tokenize(line.slice(head[0].length));
  if (!tokens) return null;
  const strings = tokens.filter((t): t is { kind: 'string'; value: string } => t.kind === 'string');
  const flags = new Set(tokens.filter((t) => t.kind === 'flag').map((t) => (t as { name: string }).name));
  const attr = (name: string) => tokens.find((t): t is { kind: 'attr'; name: string; value: unknown } => t.kind === 'attr' && t.name === name)?.value;
  const first = tokens[0];
  const name = first?.kind === 'string' ? first.value : undefined;

  if (word === 'text') return name !== undefined ? { kind: 'text', text: name, depth } : null;
  if (word === 'heading') {
    const level = Number(head[3] ?? 0);
    return name !== undefined && level >= 1 ? { kind: 'heading', level, text: name, depth } : null;
  }
  if (word === 'region') {
    const landmark = first?.kind === 'flag' ? first.name : undefined;
    if (!landmark) return null;
    const label = tokens[1]?.kind === 'string' ? tokens[1].value : undefined;
    return { kind: 'region', landmark, ...(label ? { name: label } : {}), depth };
  }
  if (word === 'form') return { kind: 'form', ...(name ? { name } : {}), depth };
  if (word === 'iframe') {
    const origin = attr('src');
    return {
      kind: 'iframe',
      ...(name ? { name } : {}),
      ...(flags.has('cross-origin') ? { crossOrigin: true } : {}),
      ...(typeof origin === 'string' ? { origin } : {}),
      depth,
    };
  }
  if (name === undefined || strings.length === 0) return null;
  const control: OutlineControl & { depth: number } = { kind: 'control', role: word, name, depth };
  if (flags.has('password')) return { ...control, password: true };
  const ref = tokens.find((t): t is { kind: 'ref'; value: string } => t.kind === 'ref')?.value;
  if (ref === undefined) return null;
  control.ref = ref;
  const value = attr('value');
  if (typeof value === 'string') control.value = value;
  const options = attr('options');
  if (Array.isArray(options)) {
    const listed: string[] = [];
    for (const o of options) {
      if (typeof o !== 'string') continue;
      const more = MORE.exec(o);
      if (more) control.moreOptions = Number(more[1]);
      else listed.push(o);
    }
    control.options = listed;
  }
  if (flags.has('checked')) control.checked = true;
  const href = attr('href');
  if (typeof href === 'string') control.href = href;
  if (flags.has('required')) control.required = true;
  if (flags.has('disabled')) control.disabled = true;
  return control;
}

/**
 * Every outline line of `text` as data, in order; lines that are not outline lines are skipped.
 *
 * @example
 * parseOutline('- heading(1) "Shop"\n- button "Buy" [ref=e1]').map((e) => e.kind); // ['heading', 'control']
 */
export function parseOutline(text: string): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  if (typeof text !== 'string') return out;
  for (const line of text.split('\n')) {
    const entry = parseOutlineLine(line);
    if (entry) out.push(entry);
  }
  return out;
}

type Token =
  | { kind: 'string'; value: string }
  | { kind: 'ref'; value: string }
  | { kind: 'attr'; name: string; value: unknown }
  | { kind: 'flag'; name: string };

/** Splits the rest of a line into JSON strings, `[ref=…]`, `key=<json>` and bare words; null if malformed. */
function tokenize(rest: string): Token[] | null {
  const tokens: Token[] = [];
  let i = 0;
  while (i < rest.length) {
    if (rest[i] === ' ') {
      i++;
      continue;
    }
    if (rest[i] === '"') {
      const end = jsonEnd(rest, i);
      if (end < 0) return null;
      const value = parseJson(rest.slice(i, end));
      if (typeof value !== 'string') return null;
      tokens.push({ kind: 'string', value });
      i = end;
      continue;
    }
    const ref = /^\[ref=([^\]\s]+)\]/.exec(rest.slice(i));
    if (ref) {
      tokens.push({ kind: 'ref', value: ref[1] ?? '' });
      i += ref[0].length;
      continue;
    }
    const key = /^([a-z][\w-]*)=/.exec(rest.slice(i));
    if (key) {
      const start = i + key[0].length;
      const end = rest[start] === '"' ? jsonEnd(rest, start) : rest[start] === '[' ? arrayEnd(rest, start) : -1;
      if (end < 0) return null;
      tokens.push({ kind: 'attr', name: key[1] ?? '', value: parseJson(rest.slice(start, end)) });
      i = end;
      continue;
    }
    const word = /^[^\s"[]+/.exec(rest.slice(i));
    if (!word) return null;
    tokens.push({ kind: 'flag', name: word[0] });
    i += word[0].length;
  }
  return tokens;
}

/** The index just past the JSON string starting at `start`, or -1. */
function jsonEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return -1;
}

/** The index just past the JSON array of strings starting at `start`, or -1. */
function arrayEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      const end = jsonEnd(text, i);
      if (end < 0) return -1;
      i = end;
    } else if (c === ']') return i + 1;
    else i++;
  }
  return -1;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
