/**
 * Text folding with an index map back to the original, so guards can match on a canonical
 * skeleton of what a model reads and still rewrite only the matched span of the original,
 * leaving every other character identical.
 *
 * The skeleton (UTS #39 in spirit, with a compact table):
 * - escapes a model reads through are decoded: JSON/JS backslash escapes (`\n`, `\"`, `\u0069`…)
 *   and HTML character references (`&#105;`, `&lt;`…), so `Order shipped.\nIgnore…` starts a line;
 * - invisible and formatting characters are dropped (zero-width, bidi controls, soft hyphen,
 *   variation selectors, tags, interlinear annotation, musical formatting U+1D173–1D17A…);
 * - an underscore at a word's edge (Markdown emphasis) reads as a space;
 * - each character is NFKC-normalised (fullwidth and mathematical letters become ASCII);
 * - with `latin`, combining marks are dropped and Latin, Greek and Cyrillic look-alikes, dashes,
 *   angle brackets and quotes fold to their ASCII skeleton.
 */

/** A folded view of a text: `text[i]` came from `source.slice(start[i], end[i])`. */
export interface FoldedText {
  readonly text: string;
  /** Null when the folded text is the source itself (the plain-ASCII fast path). */
  readonly start: Int32Array | null;
  readonly end: Int32Array | null;
}

/** Code points dropped from the skeleton: invisible or formatting characters. */
function isInvisible(cp: number): boolean {
  return (
    cp === 0x00ad || cp === 0x034f || cp === 0x061c || cp === 0x115f || cp === 0x1160 || cp === 0x17b4 || cp === 0x17b5 ||
    (cp >= 0x180b && cp <= 0x180f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2060 && cp <= 0x206f) || cp === 0x3164 || (cp >= 0xfe00 && cp <= 0xfe0f) || cp === 0xfeff ||
    cp === 0xffa0 || (cp >= 0xfff9 && cp <= 0xfffb) || (cp >= 0x1d173 && cp <= 0x1d17a) ||
    (cp >= 0xe0000 && cp <= 0xe007f) || (cp >= 0xe0100 && cp <= 0xe01ef) || cp === 0x1bca0 || cp === 0x1bca1 ||
    cp === 0x1bca2 || cp === 0x1bca3
  );
}

/** Combining marks dropped when folding to Latin (a stray accent must not hide a word). */
const COMBINING = /[\u0300-\u036F\u0483-\u0489\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F]/;

/** Latin, Greek and Cyrillic look-alikes of ASCII, dashes, brackets and quotes. */
const CONFUSABLES: ReadonlyMap<string, string> = (() => {
  const pairs: Array<[string, string]> = [
    // Cyrillic lower / upper
    ['аеорсухіјѕԁԛԝӏһԍгпьтѵүҽԍոսհ', 'aeopcyxijsdqwlhgrnbtvyegnuh'],
    ['АВЕКМНОРСТХУІЈЅԌӀԜѴҮ', 'ABEKMHOPCTXYIJSGIWVY'],
    ['вкмнщш', 'bkmhww'],
    // Greek lower / upper
    ['αβεικνορτυχωςγϲϳϱϵ', 'abeiknoptuxwsycjpe'],
    ['ΑΒΕΖΗΙΚΜΝΟΡΤΥΧϹϒ', 'ABEZHIKMNOPTYXCY'],
    // Latin look-alikes: IPA, small capitals, dotless, script
    ['ɑɡɩɪɾʀʏᴀʙᴄᴅᴇғɢʜᴊᴋʟᴍɴᴏᴘǫꜱᴛᴜᴠᴡᴢıȷℓİƖǀ໐০٥߀', 'agiirryabcdefghjklmnopqstuvwzijlIlloooo'],
    // Dashes and hyphens (U+1806 Mongolian todo soft hyphen included)
    ['‐‑‒–—―−﹘﹣－⁃˗᠆‧・', '---------------'],
    // Angle brackets and quotes that read as the ASCII ones
    ['‹›〈〉⟨⟩＜＞﹤﹥❮❯', '<><><><><><>'],
    ['“”„‟″＂«»', '""""""""'],
    ['‘’‚‛′＇´', "'''''''"],
  ];
  const table = new Map<string, string>();
  for (const [from, to] of pairs) {
    const f = [...from];
    const t = [...to];
    f.forEach((ch, i) => table.set(ch, t[i] ?? ch));
  }
  return table;
})();

// Non-ASCII, an escape, or an underscore at a word's edge (Markdown emphasis: "_Ignore…_").
const NEEDS_FOLD = /[^\x00-\x7F]|\\|&|(?:^|[^A-Za-z0-9])_|_(?![A-Za-z0-9])/;
const ALNUM = /[A-Za-z0-9]/;
const ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v', '"': '"', "'": "'", '\\': '\\', '/': '/', '`': '`' };
const NAMED_ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: ' ', lsqb: '[', rsqb: ']', lbrack: '[', rbrack: ']', lpar: '(', rpar: ')', lcub: '{', rcub: '}', sol: '/', bsol: '\\', colon: ':', num: '#', vert: '|', hyphen: '-', dash: '-', shy: '\u00AD', zwj: '\u200D', zwnj: '\u200C' };
const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]{2,8}));?/y;
const UNICODE_ESCAPE = /\\(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2}))/y;

/** Decodes the escape at `i` (backslash or HTML reference): the code point and where it ends, or null. */
function decodeAt(source: string, i: number): [number, number] | null {
  const c = source.charCodeAt(i);
  if (c === 0x5c) {
    const next = source[i + 1];
    if (next === undefined) return null;
    const simple = ESCAPES[next];
    if (simple !== undefined) return [simple.charCodeAt(0), i + 2];
    UNICODE_ESCAPE.lastIndex = i;
    const m = UNICODE_ESCAPE.exec(source);
    if (!m) return null;
    let cp = parseInt(m[1] ?? m[2] ?? m[3] ?? '', 16);
    let end = i + m[0].length;
    // A JSON surrogate pair written as two escapes.
    if (cp >= 0xd800 && cp <= 0xdbff) {
      UNICODE_ESCAPE.lastIndex = end;
      const low = UNICODE_ESCAPE.exec(source);
      const lowCp = low?.[2] !== undefined ? parseInt(low[2], 16) : -1;
      if (low && lowCp >= 0xdc00 && lowCp <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lowCp - 0xdc00);
        end += low[0].length;
      }
    }
    return cp <= 0x10ffff ? [cp, end] : null;
  }
  if (c === 0x26) {
    ENTITY.lastIndex = i;
    const m = ENTITY.exec(source);
    if (!m) return null;
    if (m[3] !== undefined) {
      const named = NAMED_ENTITIES[m[3].toLowerCase()];
      return named === undefined ? null : [named.charCodeAt(0), i + m[0].length];
    }
    const cp = m[1] !== undefined ? parseInt(m[1], 10) : parseInt(m[2] ?? '', 16);
    return cp > 0 && cp <= 0x10ffff ? [cp, i + m[0].length] : null;
  }
  return null;
}

/**
 * Fold `source` for matching. `latin: true` also folds look-alikes to ASCII and drops combining
 * marks (for Latin-script rules); `latin: false` only decodes escapes, strips invisibles and
 * applies NFKC (for rules written in other scripts).
 *
 * @example
 * foldText('ig\u200Bnоre', { latin: true }).text; // 'ignore' (a zero-width space, a Cyrillic о)
 * foldText('shipped.\\nIgnore', { latin: true }).text; // 'shipped.\nIgnore'
 */
export function foldText(source: string, options: { latin: boolean }): FoldedText {
  // Most tool results are plain ASCII: match the source itself, no map needed.
  if (!NEEDS_FOLD.test(source)) return shortenRuns({ text: source, start: null, end: null });
  const out: string[] = [];
  const start: number[] = [];
  const end: number[] = [];
  const push = (piece: string, from: number, to: number) => {
    for (let k = 0; k < piece.length; k++) {
      out.push(piece[k] as string);
      start.push(from);
      end.push(to);
    }
  };
  let i = 0;
  while (i < source.length) {
    const decoded = decodeAt(source, i);
    const cp = decoded ? decoded[0] : (source.codePointAt(i) ?? 0);
    const next = decoded ? decoded[1] : i + (cp > 0xffff ? 2 : 1);
    if (cp < 0x80) {
      push(String.fromCharCode(cp), i, next);
    } else if (cp === 0x2028 || cp === 0x2029 || cp === 0x85) {
      push('\n', i, next);
    } else if (!isInvisible(cp)) {
      const ch = String.fromCodePoint(cp);
      if (!(options.latin && COMBINING.test(ch))) {
        for (const piece of ch.normalize('NFKC')) {
          if (options.latin && COMBINING.test(piece)) continue;
          push(options.latin ? (CONFUSABLES.get(piece) ?? piece) : piece, i, next);
        }
      }
    }
    i = next;
  }
  // Markdown emphasis underscores read as spaces ("_Ignore previous instructions_"); an
  // underscore inside a word ("im_start", "system_message") stays.
  for (let k = 0; k < out.length; k++) {
    if (out[k] === '_' && !(ALNUM.test(out[k - 1] ?? '') && ALNUM.test(out[k + 1] ?? ''))) out[k] = ' ';
  }
  return shortenRuns({ text: out.join(''), start: Int32Array.from(start), end: Int32Array.from(end) });
}

/** A run of more than RUN_KEEP × 2 characters that are neither letters nor digits (spaces, "#", "[", "_"…). */
const LONG_RUN = /[^\p{L}\p{N}]{65,}/gu;
const RUN_KEEP = 32;

/**
 * The folded text with every run of more than 64 characters that are neither letters nor digits
 * read as its first 32 and its last 32 (the middle maps to the source between them). No reading
 * looks further than a few such characters, but a reading that looks back over spaces or "#" from
 * every character of a long run costs the square of its length: 20 KB of spaces took 7 s, 5 KB of
 * "#" longer than 20 s (2026-12-02). Letters and digits are never shortened.
 */
function shortenRuns(folded: FoldedText): FoldedText {
  const text = folded.text;
  LONG_RUN.lastIndex = 0;
  if (!LONG_RUN.test(text)) return folded;
  LONG_RUN.lastIndex = 0;
  const pieces: Array<{ text: string; from: number; to: number }> = [];
  let at = 0;
  for (let m = LONG_RUN.exec(text); m !== null; m = LONG_RUN.exec(text)) {
    const from = m.index;
    const to = from + m[0].length;
    if (from > at) pieces.push({ text: text.slice(at, from), from: at, to: from });
    pieces.push({ text: text.slice(from, from + RUN_KEEP), from, to: from + RUN_KEEP });
    // The middle of the run, dropped: its source stays inside the span of the kept end's first character.
    pieces.push({ text: text[to - RUN_KEEP] as string, from: from + RUN_KEEP, to: to - RUN_KEEP + 1 });
    pieces.push({ text: text.slice(to - RUN_KEEP + 1, to), from: to - RUN_KEEP + 1, to });
    at = to;
  }
  if (at < text.length) pieces.push({ text: text.slice(at), from: at, to: text.length });
  return refold(folded, pieces);
}

/** Map a `[from, to)` span of the folded text back to a span of the source. */
export function sourceSpan(folded: FoldedText, from: number, to: number): [number, number] {
  if (folded.start === null || folded.end === null) return [from, to];
  if (folded.start.length === 0) return [0, 0];
  if (to <= from) {
    const at = from < folded.start.length ? (folded.start[from] as number) : (folded.end[folded.end.length - 1] ?? 0);
    return [at, at];
  }
  return [folded.start[from] as number, folded.end[to - 1] as number];
}

/**
 * A further view of a folded text, built from pieces of it (each piece replaces `[from, to)` of
 * `folded.text`); the map still points into the original source.
 */
export function refold(folded: FoldedText, pieces: Iterable<{ text: string; from: number; to: number }>): FoldedText {
  const out: string[] = [];
  const start: number[] = [];
  const end: number[] = [];
  for (const piece of pieces) {
    const [s, e] = sourceSpan(folded, piece.from, piece.to);
    for (let k = 0; k < piece.text.length; k++) {
      out.push(piece.text[k] as string);
      // One-to-one pieces keep their per-character map; others span the whole source range.
      if (piece.text.length === piece.to - piece.from) {
        const [cs, ce] = sourceSpan(folded, piece.from + k, piece.from + k + 1);
        start.push(cs);
        end.push(ce);
      } else {
        start.push(s);
        end.push(e);
      }
    }
  }
  return { text: out.join(''), start: Int32Array.from(start), end: Int32Array.from(end) };
}

/**
 * The folded text without whitespace (for envelope markers split by a newline or spaces).
 *
 * @example
 * squeezeWhitespace(foldText('wa\nve-data', { latin: true })).text; // 'wave-data'
 */
export function squeezeWhitespace(folded: FoldedText): FoldedText {
  if (!/\s/.test(folded.text)) return folded;
  const pieces: Array<{ text: string; from: number; to: number }> = [];
  const re = /\S+/g;
  for (let m = re.exec(folded.text); m !== null; m = re.exec(folded.text)) pieces.push({ text: m[0], from: m.index, to: m.index + m[0].length });
  return refold(folded, pieces);
}
