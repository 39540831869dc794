/**
 * The one truncation helper of the widget and the server (results, strings in results, page
 * state in text and voice): a cut never splits a surrogate pair and is marked `…[truncated]`.
 * No dependencies, so the widget's core can import it without the guard rules.
 */

/** Appended to every cut text (U+2026 + "[truncated]"). */
export const TRUNCATION_SUFFIX = '\u2026[truncated]';

/**
 * Cuts `text` to `max` chars and marks the cut; shorter text is returned unchanged. With
 * `{ within: true }` the suffix counts against `max` (the whole result is at most `max` chars).
 * The cut never leaves half a surrogate pair (the half is dropped, so the text stays well formed).
 *
 * @example
 * capText('abcdef', 3); // 'abc…[truncated]'
 * capText('abcdefghijklmnop', 14, { within: true }); // 'ab…[truncated]'
 */
export function capText(text: string, max: number, options: { within?: boolean } = {}): string {
  if (text.length <= max) return text;
  const keep = Math.max(0, options.within ? max - TRUNCATION_SUFFIX.length : max);
  let head = text.slice(0, keep);
  const last = head.charCodeAt(head.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  return head + TRUNCATION_SUFFIX;
}
