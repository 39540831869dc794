/** Text helpers for the page outline: whitespace, quoting and shortening that keeps figures. */

/** Collapses every run of whitespace (including non-breaking spaces) to one space and trims. */
export function collapseWhitespace(text: string): string {
  return text.replace(/[\s\u00a0\u200b]+/g, ' ').trim();
}

/** Quotes a string for the outline: JSON string syntax, so a `"` in page text cannot end the field. */
export function quote(text: string): string {
  return JSON.stringify(text);
}

/** Cuts `text` to at most `max` characters at a word boundary, marking the cut with `…`. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  // Cutting mid-word only when the word is itself most of the budget.
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Lengths used by {@link shortenText}. */
export interface ShortenOptions {
  /** Texts up to this length are kept whole. */
  keepWhole?: number;
  /** Length of the opening kept from a longer text. */
  head?: number;
  /** Most snippets kept around figures after the opening. */
  maxSnippets?: number;
}

const FIGURE = /\d/;

/**
 * Shortens a long paragraph: keeps its opening, then every figure after it (prices, numbers,
 * dates) with a few words of context, joined by `…`, so facts a visitor might ask about survive.
 *
 * @example
 * shortenText(longText); // 'Our shop opens … costs $12.50 per month … from 9:00 to 17:00 …'
 */
export function shortenText(text: string, options: ShortenOptions = {}): string {
  const { keepWhole = 400, head = 240, maxSnippets = 12 } = options;
  if (text.length <= keepWhole) return text;
  const words = text.split(' ');
  let opening = '';
  let i = 0;
  for (; i < words.length; i++) {
    const next = opening ? `${opening} ${words[i]}` : (words[i] ?? '');
    if (next.length > head && opening) break;
    opening = next;
  }
  if (opening.length > head) opening = clip(opening, head).replace(/…$/, '');
  // Word windows around each figure in the rest, merged when they touch.
  const windows: Array<[number, number]> = [];
  for (let w = i; w < words.length; w++) {
    if (!FIGURE.test(words[w] ?? '')) continue;
    const start = Math.max(i, w - 3);
    const end = Math.min(words.length, w + 3);
    const last = windows[windows.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else windows.push([start, end]);
  }
  const kept = windows.slice(0, maxSnippets).map(([s, e]) => clip(words.slice(s, e).join(' '), 120));
  const parts = [opening, ...kept];
  const dropped = windows.length > maxSnippets;
  const endsAtText = windows.length > 0 && !dropped && windows[windows.length - 1]?.[1] === words.length;
  return `${parts.join(' … ')}${endsAtText ? '' : ' …'}`;
}
