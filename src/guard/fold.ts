/**
 * Text folding with an index map back to the original, so guards can match on a
 * canonical form (no zero-width characters, NFKC, Latin look-alikes folded) and still
 * rewrite only the matched span of the original, leaving every other byte identical.
 */

/** A folded view of a text: `text[i]` came from `source.slice(start[i], end[i])`. */
export interface FoldedText {
  readonly text: string;
  /** Null when the folded text is the source itself (the ASCII fast path). */
  readonly start: Int32Array | null;
  readonly end: Int32Array | null;
}

/** Invisible or formatting characters an attacker can sprinkle inside a word. */
const INVISIBLE =
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]|\uDB40[\uDC00-\uDC7F]/;

/** Combining marks dropped when folding to Latin (a stray accent must not hide a word). */
const COMBINING = /[\u0300-\u036F\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F]/;

/** Cyrillic, Greek, small-capital and dash look-alikes of ASCII. */
const CONFUSABLES: Readonly<Record<string, string>> = (() => {
  const pairs: Array<[string, string]> = [
    // Cyrillic lower / upper
    ['аеорсухіјѕԁԛԝӏһԍ', 'aeopcyxijsdqwlhg'],
    ['АВЕКМНОРСТХУІЈЅԌӀ', 'ABEKMHOPCTXYIJSGI'],
    ['вкмнтгпшщ', 'bkmhtrnww'],
    // Greek lower / upper
    ['αβεικνορτυχωςγ', 'abeiknoptuxwsy'],
    ['ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ', 'ABEZHIKMNOPTYX'],
    // Small capitals and other Latin look-alikes
    ['ᴀʙᴄᴅᴇғɢʜɪᴊᴋʟᴍɴᴏᴘǫʀꜱᴛᴜᴠᴡʏᴢıȷℓİ', 'abcdefghijklmnopqrstuvwyzijlI'],
    // Dashes and hyphens
    ['‐‑‒–—―−﹘﹣－⁃', '-----------'],
    // Angle brackets and quotes that read as the ASCII ones
    ['‹›〈〉⟨⟩＜＞﹤﹥', '<><><><><>'],
    ['“”„‟″＂', '""""""'],
    ['‘’‚‛′＇', "''''''"],
  ];
  const table: Record<string, string> = {};
  for (const [from, to] of pairs) {
    const f = [...from];
    const t = [...to];
    f.forEach((ch, i) => {
      table[ch] = t[i] ?? ch;
    });
  }
  return table;
})();

const NON_ASCII = /[^\x00-\x7F]/;

/**
 * Fold `source` for matching. `latin: true` also folds look-alikes to ASCII and drops
 * combining marks (for Latin-script rules); `latin: false` only strips invisibles and
 * applies NFKC (for rules written in other scripts).
 *
 * @example
 * const f = foldText('ig\u200Bnore', { latin: true });
 * f.text; // 'ignore'
 */
export function foldText(source: string, options: { latin: boolean }): FoldedText {
  // Most tool results are ASCII: match the source itself, no map needed.
  if (!NON_ASCII.test(source)) return { text: source, start: null, end: null };
  const out: string[] = [];
  const start: number[] = [];
  const end: number[] = [];
  let i = 0;
  while (i < source.length) {
    const cp = source.codePointAt(i) ?? 0;
    const width = cp > 0xffff ? 2 : 1;
    const ch = source.slice(i, i + width);
    const next = i + width;
    if (cp < 0x80) {
      out.push(ch);
      start.push(i);
      end.push(next);
    } else if (!INVISIBLE.test(ch) && !(options.latin && COMBINING.test(ch))) {
      const normal = ch.normalize('NFKC');
      for (const piece of normal) {
        if (options.latin && COMBINING.test(piece)) continue;
        const mapped = options.latin ? (CONFUSABLES[piece] ?? piece) : piece;
        for (let k = 0; k < mapped.length; k++) {
          out.push(mapped[k] as string);
          start.push(i);
          end.push(next);
        }
      }
    }
    i = next;
  }
  return { text: out.join(''), start: Int32Array.from(start), end: Int32Array.from(end) };
}

/** Map a `[from, to)` span of the folded text back to a span of the source. */
export function sourceSpan(folded: FoldedText, from: number, to: number): [number, number] {
  if (folded.start === null || folded.end === null) return [from, to];
  if (to <= from) {
    const at = from < folded.start.length ? (folded.start[from] as number) : (folded.end[folded.end.length - 1] ?? 0);
    return [at, at];
  }
  return [folded.start[from] as number, folded.end[to - 1] as number];
}
