/**
 * Safe Markdown for model text: `marked`'s lexer tokens turned into lit templates. No string
 * ever becomes HTML: raw HTML tokens render as literal text, URLs are checked, and every
 * value reaches the DOM through lit text or attribute bindings (Trusted-Types clean).
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { DirectiveResult } from 'lit/directive.js';
import { guard } from 'lit/directives/guard.js';
import { Lexer, type Links, type MarkedOptions, type Token, type Tokens } from 'marked';
import { characterEntities } from 'character-entities';

export interface MarkdownOptions {
  /** Origins (e.g. `https://cdn.example.com`) images may load from; default none. */
  allowedImageOrigins?: readonly string[];
  /** Base for relative links; default `document.baseURI`. */
  baseUrl?: string;
  /** Text of a blocked image's label; `{label}` is the alt text. */
  imageLabel?: (alt: string) => string;
}

type Renderable = TemplateResult | DirectiveResult | string | typeof nothing | Renderable[];

/**
 * Decodes the HTML character references a Markdown text may carry, without an HTML parser:
 * numeric ones, and every HTML5 named one (the maintained `character-entities` table), each
 * with its semicolon as CommonMark requires.
 *
 * @example
 * decodeEntities('Fish &amp; chips &#x2764;'); // "Fish & chips ❤"
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      // NUL, surrogates and out-of-range code points become U+FFFD, as the HTML parser does.
      if (!Number.isFinite(code) || code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
      return String.fromCodePoint(code);
    }
    return Object.hasOwn(characterEntities, ref) ? characterEntities[ref]! : whole;
  });
}

// What a URL may carry unencoded (as CommonMark's reference implementations normalise).
const URI_UNRESERVED = /[A-Za-z0-9;/?:@&=+$,\-_.!~*'()#]/;

/**
 * Percent-encodes a link destination as CommonMark does before use: characters outside the
 * URI set are encoded as UTF-8, valid `%XX` escapes are kept, so `foo\bar` stays one path
 * segment (`foo%5Cbar`) instead of the URL parser turning the backslash into a slash.
 *
 * @example
 * encodeDestination('foo\\bar'); // "foo%5Cbar"
 */
export function encodeDestination(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '%' && /^[0-9a-fA-F]{2}$/.test(raw.slice(i + 1, i + 3))) {
      out += raw.slice(i, i + 3);
      i += 2;
    } else if (URI_UNRESERVED.test(c)) {
      out += c;
    } else {
      const code = raw.codePointAt(i)!;
      if (code > 0xffff) i++;
      // A lone surrogate cannot be encoded: it becomes U+FFFD, as the URL parser would.
      out += code >= 0xd800 && code <= 0xdfff ? '%EF%BF%BD' : encodeURIComponent(String.fromCodePoint(code));
    }
  }
  return out;
}

/**
 * A destination resolved against `baseUrl`, or null unless its scheme is allowed both as a
 * browser would read the raw text (so control characters cannot smuggle `javascript:` past
 * the check) and after CommonMark's percent-encoding.
 */
function resolveDestination(raw: string, baseUrl: string, schemes: readonly string[]): URL | null {
  const decoded = decodeEntities(raw).trim();
  try {
    if (!schemes.includes(new URL(decoded, baseUrl).protocol)) return null;
    const url = new URL(encodeDestination(decoded), baseUrl);
    return schemes.includes(url.protocol) ? url : null;
  } catch {
    return null;
  }
}

function defaultBase(): string {
  return typeof document !== 'undefined' ? document.baseURI : 'http://localhost/';
}

/**
 * A link target the transcript may render: http(s), mailto, or relative, resolved to an
 * absolute URL; anything else (javascript:, data:, vbscript:, file:…) is null.
 *
 * @example
 * safeLinkHref('javascript:alert(1)'); // null
 * safeLinkHref('/pricing', 'https://shop.example/'); // "https://shop.example/pricing"
 */
export function safeLinkHref(raw: string, baseUrl: string = defaultBase()): string | null {
  return resolveDestination(raw, baseUrl, ['http:', 'https:', 'mailto:'])?.href ?? null;
}

/**
 * An image source only when its origin is on the allow-list (and it is http/https).
 *
 * @example
 * safeImageSrc('https://cdn.example/a.png', ['https://cdn.example']); // "https://cdn.example/a.png"
 */
export function safeImageSrc(raw: string, allowedOrigins: readonly string[], baseUrl: string = defaultBase()): string | null {
  if (allowedOrigins.length === 0) return null;
  const url = resolveDestination(raw, baseUrl, ['http:', 'https:']);
  return url && allowedOrigins.includes(url.origin) ? url.href : null;
}

/** Plain text of inline tokens (for alt text and titles). */
function plainText(tokens: readonly Token[] | undefined, fallback: string): string {
  if (!tokens) return decodeEntities(fallback);
  let out = '';
  for (const t of tokens) {
    if ('tokens' in t && Array.isArray(t.tokens) && t.type !== 'text') out += plainText(t.tokens, '');
    else if (t.type === 'codespan' || t.type === 'code' || t.type === 'html' || t.type === 'escape') out += t.text;
    else if ('text' in t && typeof t.text === 'string') out += decodeEntities(t.text);
  }
  return out;
}

/** `cache`'s value for `key`, computed once. */
function remembered<T>(cache: Map<string, T>, key: string, compute: () => T): T {
  if (cache.has(key)) return cache.get(key)!;
  const value = compute();
  cache.set(key, value);
  return value;
}

class Renderer {
  readonly #origins: readonly string[];
  readonly #base: string;
  readonly #imageLabel: (alt: string) => string;
  /**
   * Checked link and image targets by raw destination: a streaming message renders its open
   * block again with many deltas, its URLs need parsing once.
   */
  readonly #hrefs = new Map<string, string | null>();
  readonly #srcs = new Map<string, string | null>();

  constructor(options: MarkdownOptions) {
    this.#origins = options.allowedImageOrigins ?? [];
    this.#base = options.baseUrl ?? defaultBase();
    this.#imageLabel = options.imageLabel ?? ((alt) => alt);
  }

  blocks(tokens: readonly Token[]): Renderable[] {
    return tokens.map((t) => this.block(t));
  }

  block(token: Token): Renderable {
    switch (token.type) {
      case 'space':
      case 'def':
        return nothing;
      case 'paragraph':
        return html`<p>${this.inline(token.tokens ?? [])}</p>`;
      case 'heading':
        return this.heading(token as Tokens.Heading);
      case 'code':
        return this.code(token as Tokens.Code);
      case 'blockquote':
        return html`<blockquote>${this.blocks(token.tokens ?? [])}</blockquote>`;
      case 'hr':
        return html`<hr />`;
      case 'list':
        return this.list(token as Tokens.List);
      case 'table':
        return this.table(token as Tokens.Table);
      case 'html':
        // Raw HTML from the model is shown as the characters it is, never parsed.
        return html`<p class="raw">${token.text}</p>`;
      case 'text':
        // A block-level text token (inside a tight list item) carries inline tokens.
        return token.tokens ? this.inline(token.tokens) : decodeEntities(token.text);
      default:
        return this.#unknown(token);
    }
  }

  /** A token kind we don't render specially: its inline children, else its raw text (as text). */
  #unknown(token: Token): Renderable {
    if ('tokens' in token && Array.isArray(token.tokens)) return this.inline(token.tokens as Token[]);
    return typeof token.raw === 'string' ? token.raw : nothing;
  }

  code(token: Tokens.Code): Renderable {
    // The info string's first word names the language, as a class (`language-ruby`) a host may style.
    const language = decodeEntities(token.lang ?? '').trim().split(/\s+/)[0];
    return html`<pre><code class=${language ? `language-${language}` : nothing}>${token.text}</code></pre>`;
  }

  heading(token: Tokens.Heading): Renderable {
    const content = this.inline(token.tokens);
    switch (token.depth) {
      case 1:
        return html`<h1>${content}</h1>`;
      case 2:
        return html`<h2>${content}</h2>`;
      case 3:
        return html`<h3>${content}</h3>`;
      case 4:
        return html`<h4>${content}</h4>`;
      case 5:
        return html`<h5>${content}</h5>`;
      default:
        return html`<h6>${content}</h6>`;
    }
  }

  list(token: Tokens.List): Renderable {
    const items = token.items.map((item) => {
      const body = item.loose ? this.blocks(item.tokens) : item.tokens.map((t) => this.block(t));
      return html`<li>${body}</li>`;
    });
    if (!token.ordered) return html`<ul>${items}</ul>`;
    const start = typeof token.start === 'number' && Number.isFinite(token.start) ? token.start : 1;
    return html`<ol start=${start}>${items}</ol>`;
  }

  table(token: Tokens.Table): Renderable {
    const cls = (i: number) => {
      const a = token.align[i];
      return a === 'left' || a === 'center' || a === 'right' ? `align-${a}` : '';
    };
    return html`<div class="table-wrap">
      <table>
        <thead>
          <tr>${token.header.map((c, i) => html`<th class=${cls(i)}>${this.inline(c.tokens)}</th>`)}</tr>
        </thead>
        <tbody>
          ${token.rows.map((row) => html`<tr>${row.map((c, i) => html`<td class=${cls(i)}>${this.inline(c.tokens)}</td>`)}</tr>`)}
        </tbody>
      </table>
    </div>`;
  }

  inline(tokens: readonly Token[]): Renderable[] {
    return tokens.map((t) => this.inlineToken(t));
  }

  inlineToken(token: Token): Renderable {
    switch (token.type) {
      case 'text':
        return token.tokens ? this.inline(token.tokens) : decodeEntities(token.text);
      case 'escape':
        return token.text;
      case 'strong':
        return html`<strong>${this.inline(token.tokens ?? [])}</strong>`;
      case 'em':
        return html`<em>${this.inline(token.tokens ?? [])}</em>`;
      case 'del':
        return html`<del>${this.inline(token.tokens ?? [])}</del>`;
      case 'codespan':
        return html`<code>${token.text}</code>`;
      case 'br':
        return html`<br />`;
      case 'html':
        return token.text;
      case 'checkbox':
        return html`<input type="checkbox" disabled .checked=${Boolean((token as Tokens.Checkbox).checked)} aria-hidden="true" /> `;
      case 'link':
        return this.link(token as Tokens.Link);
      case 'image':
        return this.image(token as Tokens.Image);
      default:
        return this.#unknown(token);
    }
  }

  link(token: Tokens.Link): Renderable {
    const content = this.inline(token.tokens);
    const href = remembered(this.#hrefs, token.href, () => safeLinkHref(token.href, this.#base));
    if (href === null) return html`<span class="link-blocked">${content}</span>`;
    const title = token.title ? decodeEntities(token.title) : nothing;
    return html`<a href=${href} title=${title} target="_blank" rel="noopener noreferrer nofollow">${content}</a>`;
  }

  image(token: Tokens.Image): Renderable {
    const alt = plainText(token.tokens, token.text);
    const src = remembered(this.#srcs, token.href, () => safeImageSrc(token.href, this.#origins, this.#base));
    if (src === null) return html`<span class="image-alt">${this.#imageLabel(alt)}</span>`;
    const title = token.title ? decodeEntities(token.title) : nothing;
    return html`<img src=${src} alt=${alt} title=${title} loading="lazy" referrerpolicy="no-referrer" />`;
  }
}

const LEX_OPTIONS: MarkedOptions = { gfm: true, breaks: true };

/** A line no list item starts or continues with (after a blank line, which ends lazy continuation). */
const LIST_ENDED = /^[^\s*+\-\d]/;

function newLinks(tokens: readonly Token[] & { links?: Links }, known: Links): boolean {
  return Object.keys(tokens.links ?? {}).some((key) => !Object.hasOwn(known, key));
}

/**
 * Lexes a text that grows at its end (a streamed reply), re-lexing only what follows the last
 * closed block: blocks before the last blank line that has content after it (and is not the
 * end of a list, which a later item may continue) cannot change as text is appended, so each delta costs the tail, not the whole message. A text that is not an
 * extension of the last one, or a tail that defines a link reference (which may resolve a link
 * in a closed block), is lexed whole; the result is always what `Lexer.lex` gives for the text.
 *
 * @example
 * const lexer = new IncrementalLexer();
 * lexer.lex('# Title\n\nPara'); lexer.lex('# Title\n\nParagraph'); // re-lexes "Paragraph" only
 */
export class IncrementalLexer {
  #text = '';
  #tokens: Token[] = [];
  /** Closed blocks: a prefix of `#tokens` covering `#closedLength` characters of `#text`. */
  #closed = 0;
  #closedLength = 0;
  #links: Links = Object.create(null);

  /** Tokens of `text`, equal to `Lexer.lex(text, { gfm: true, breaks: true })`. */
  lex(text: string): Token[] {
    // marked's own preprocessing, applied first so that offsets agree.
    const source = text.includes('\r') ? text.replace(/\r\n|\r/g, '\n') : text;
    if (!source.startsWith(this.#text)) this.#reset();
    else if (source === this.#text) return this.#tokens;
    const lexer = new Lexer(LEX_OPTIONS);
    Object.assign(lexer.tokens.links, this.#links);
    const tail = lexer.lex(source.slice(this.#closedLength));
    if (this.#closed > 0 && newLinks(tail, this.#links)) {
      this.#reset();
      return this.lex(source);
    }
    this.#text = source;
    this.#tokens = [...this.#tokens.slice(0, this.#closed), ...tail];
    this.#advance(tail.links ?? {});
    return this.#tokens;
  }

  #advance(links: Links): void {
    let last = -1;
    for (let i = this.#tokens.length - 2; i >= this.#closed; i--) {
      if (this.#tokens[i]!.type !== 'space') continue;
      // A list is not closed by a blank line alone: a later line may still become its next item
      // or continue one. A block after it that starts a line with what no list line starts with
      // (not indented, no bullet, no digit) has ended it.
      if (this.#tokens[i - 1]?.type === 'list' && !LIST_ENDED.test(this.#tokens[i + 1]!.raw)) continue;
      last = i;
      break;
    }
    if (last < 0) return;
    // Only when the newly closed blocks' raw text really is what follows the closed text (else
    // keep lexing it whole).
    let raw = '';
    for (let i = this.#closed; i <= last; i++) raw += this.#tokens[i]!.raw;
    if (!this.#text.startsWith(raw, this.#closedLength)) return;
    const length = this.#closedLength + raw.length;
    // Only definitions inside closed blocks carry over: one still being written may change, and
    // while a closed block may have used it, those blocks are not closed yet. The blocks closed
    // before carry `#links` already; only the newly closed ones are looked through.
    const closedLinks: Links = Object.assign(Object.create(null) as Links, this.#links);
    const visit = (tokens: readonly Token[]): void => {
      for (const token of tokens) {
        if (token.type === 'def') {
          const def = token as Tokens.Def;
          const key = def.tag.toLowerCase().replace(/\s+/g, ' ');
          if (Object.hasOwn(links, key) && !Object.hasOwn(closedLinks, key)) closedLinks[key] = links[key]!;
        }
        if ('tokens' in token && Array.isArray(token.tokens)) visit(token.tokens as Token[]);
        if (token.type === 'list') for (const item of (token as Tokens.List).items) visit(item.tokens);
      }
    };
    visit(this.#tokens.slice(this.#closed, last + 1));
    if (Object.keys(closedLinks).length !== Object.keys(links).length) return;
    this.#closed = last + 1;
    this.#closedLength = length;
    this.#links = closedLinks;
  }

  #reset(): void {
    this.#text = '';
    this.#tokens = [];
    this.#closed = 0;
    this.#closedLength = 0;
    this.#links = Object.create(null);
  }
}

/**
 * Renders model Markdown as a lit template. Safe for any input: nothing executes, only
 * http(s)/mailto/relative links, images only from `allowedImageOrigins`.
 *
 * @example
 * render(html`<div>${renderMarkdown('**Done** — see [the cart](/cart)')}</div>`, host);
 */
export function renderMarkdown(markdown: string, options: MarkdownOptions = {}): Renderable {
  let tokens: Token[];
  try {
    tokens = Lexer.lex(markdown, LEX_OPTIONS);
  } catch {
    // A lexer failure must not lose the message: show it as plain text.
    return html`<p>${markdown}</p>`;
  }
  return new Renderer(options).blocks(tokens);
}

/** Blocks per page of a streamed message: lit walks pages, and only the last page's blocks. */
const PAGE = 32;

/**
 * Characters that, appended to plain text, cannot change how Markdown reads what is before them
 * or make anything but more of that text: letters, digits, spaces and `, . ? ' " :` (no line
 * break, no emphasis, code, link, HTML, entity, escape, table or list character). Words with
 * `@` or `www` are further excluded where they are used (GFM autolinks).
 */
const PLAIN = /^[\p{L}\p{N} ,.?'":]+$/u;
/** A line whose block cannot change by text added to its end: a letter starts its content. */
const PLAIN_LINE = /^ {0,3}\p{L}/u;
const PLAIN_HEADING_LINE = /^ {0,3}#{1,6} /;
const PLAIN_ITEM_LINE = /^ *(?:(?:[-+*]|\d{1,9}[.)]) +)?\p{L}/u;
/** A line that closes, or may close, a fenced code block. */
const FENCE_LINE = /^ {0,3}[`~]{3,}/m;

/** The text `marked` gives an unclosed fenced code block whose content (after the info line) is `rest`. */
function openFenceText(rest: string): string {
  if (rest === '') return '';
  const content = rest.endsWith('\n') ? rest.slice(0, -1) : rest;
  return content === '' || content.endsWith('\n') ? `${content}\n` : content;
}

/** How the end of the last rendered text may grow in the DOM without a render (see `appendInPlace`). */
interface OpenEnd {
  /** Plain text at the end of a paragraph, heading or list item, or the content of an open fence. */
  kind: 'inline' | 'code';
  /** The text shown: the last render's, and what was appended in place since. */
  text: string;
  /** Tags from the message's last element down to the one whose last child is the Text node. */
  path: readonly string[];
  /** What that Text node showed after the render. */
  data: string;
  /** Where the fence's content starts in `text` (code). */
  contentStart: number;
}

/**
 * One message's Markdown as it streams: the text is lexed incrementally and each closed block
 * keeps its rendering, so a delta costs the tail of the reply, not the whole of it. Blocks are
 * grouped in pages of {@link PAGE} by their position, each page behind one `guard` over its
 * tokens: an update walks the pages (n / 32) and the blocks of the page that changed (≤ 32),
 * never every block; a block keeps its DOM node as it goes from open to closed (positions do
 * not move), so a live region hears nothing twice. Create one per message and call `render`
 * with the text so far. Text that only adds plain characters to the end of the last block can
 * instead be appended to the DOM with `appendInPlace`, with no lexing or templating at all.
 *
 * @example
 * const view = new MarkdownView({ allowedImageOrigins: [] });
 * render(html`${view.render('**Hel')}`, host);
 * render(html`${view.render('**Hello**, world')}`, host); // re-lexes and re-renders one block
 */
export class MarkdownView {
  readonly #lexer = new IncrementalLexer();
  readonly #renderer: Renderer;
  readonly #rendered = new WeakMap<Token, Renderable>();
  #end: OpenEnd | null = null;
  /** The Text node edited in place since the last render, and what lit last put in it. */
  #edited: Text | null = null;
  #committed = '';
  /**
   * How many times text was appended in place: a template that renders this view should depend
   * on it (e.g. in its `guard`), so that a render after such appends is never skipped.
   */
  edits = 0;

  constructor(options: MarkdownOptions = {}) {
    this.#renderer = new Renderer(options);
  }

  render(markdown: string): Renderable {
    // The DOM goes back to what lit committed, so that lit's next commit makes it exactly the
    // rendering of the new text.
    this.restore();
    let tokens: Token[];
    try {
      tokens = this.#lexer.lex(markdown);
    } catch {
      this.#end = null;
      return html`<p>${markdown}</p>`;
    }
    this.#end = openEnd(markdown, tokens);
    const pages: Renderable[] = [];
    for (let start = 0; start < tokens.length; start += PAGE) {
      const page = tokens.slice(start, start + PAGE);
      // A page re-renders only when one of its tokens changed (closed tokens never do); inside
      // it, each block is guarded by its token, so only the changed blocks are rebuilt.
      pages.push(guard(page, () => page.map((token) => guard([token], () => this.#block(token)))));
    }
    return pages;
  }

  /**
   * Shows `markdown`, the last rendered text plus more, by appending to the DOM that `host` (the
   * element the last render was committed into, its last element being the last block) holds,
   * when what was added cannot change what Markdown makes of the text: plain characters (see
   * {@link PLAIN}) at the end of a paragraph, heading or list item whose last line starts with a
   * letter and ends in plain text, or anything but a backtick or tilde in a top-level fenced code
   * block not closed yet. Returns false, changing nothing, when it cannot: then `render`. With
   * `check`, only says whether it can, changing nothing.
   */
  appendInPlace(markdown: string, host: Element, check = false): boolean {
    const end = this.#end;
    if (!end || !markdown.startsWith(end.text)) return false;
    const added = markdown.slice(end.text.length);
    if (added === '') return true;
    if (end.kind === 'inline') {
      // A space last only in a paragraph: a heading or list item drops its trailing spaces.
      if (!PLAIN.test(added) || (added.endsWith(' ') && end.path[0] !== 'P')) return false;
      // GFM autolinks (www.…, e-mail addresses) may start or grow with plain characters.
      const word = Math.max(end.text.lastIndexOf(' '), end.text.lastIndexOf('\n')) + 1;
      if (end.text.length - word > 256 || /www|@|:\/\//i.test(end.text.slice(word) + added)) return false;
    } else if (/[`~\r\0]/.test(added)) {
      return false;
    }
    const node = this.#edited ?? endNode(host, end);
    if (!node) {
      this.#end = null;
      return false;
    }
    if (check) return true;
    if (!this.#edited) {
      this.#edited = node;
      this.#committed = node.data;
    }
    if (end.kind === 'inline') node.appendData(added);
    else node.data = openFenceText(markdown.slice(end.contentStart));
    end.text = markdown;
    this.edits++;
    return true;
  }

  /** Puts back what lit last committed where text was appended in place (before lit renders again). */
  restore(): void {
    if (this.#edited) this.#edited.data = this.#committed;
    this.#edited = null;
    this.#end = null;
  }

  #block(token: Token): Renderable {
    let block = this.#rendered.get(token);
    if (block === undefined) {
      block = this.#renderer.block(token);
      this.#rendered.set(token, block);
    }
    return block;
  }
}

/** Where the rendering of `tokens` (for `source`) may grow in place, or null (see `appendInPlace`). */
function openEnd(source: string, tokens: readonly Token[]): OpenEnd | null {
  const last = tokens[tokens.length - 1];
  if (!last || last.raw === '' || !source.endsWith(last.raw)) return null;
  const line = source.slice(source.lastIndexOf('\n') + 1);
  if (last.type === 'code') {
    // A top-level fence, not indented, past its info line, with no line that closes (or may).
    const info = last.raw.indexOf('\n');
    if (!/^(?:```|~~~)/.test(last.raw) || info < 0) return null;
    const contentStart = source.length - last.raw.length + info + 1;
    const rest = source.slice(contentStart);
    if (FENCE_LINE.test(rest) || openFenceText(rest) !== (last as Tokens.Code).text) return null;
    return { kind: 'code', text: source, path: ['PRE', 'CODE'], data: (last as Tokens.Code).text, contentStart };
  }
  if (!PLAIN.test(source[source.length - 1]!)) return null;
  let path: string[];
  let inline: readonly Token[] | undefined;
  let raw = last.raw;
  if (last.type === 'paragraph' && PLAIN_LINE.test(line)) {
    path = ['P'];
    inline = last.tokens;
  } else if (last.type === 'heading' && PLAIN_HEADING_LINE.test(line)) {
    path = [`H${(last as Tokens.Heading).depth}`];
    inline = last.tokens;
  } else if (last.type === 'list' && PLAIN_ITEM_LINE.test(line)) {
    const list = last as Tokens.List;
    const item = list.items[list.items.length - 1];
    const body = item?.tokens[item.tokens.length - 1];
    if (!item || !body || !list.raw.endsWith(item.raw) || !item.raw.endsWith(body.raw)) return null;
    if (body.type === 'text') path = [list.ordered ? 'OL' : 'UL', 'LI'];
    else if (body.type === 'paragraph') path = [list.ordered ? 'OL' : 'UL', 'LI', 'P'];
    else return null;
    inline = body.tokens;
    raw = body.raw;
  } else {
    return null;
  }
  const text = inline?.[inline.length - 1];
  if (!text || text.type !== 'text' || text.tokens || text.raw !== text.text || !raw.endsWith(text.raw)) return null;
  return { kind: 'inline', text: source, path, data: text.text, contentStart: 0 };
}

/** The Text node at the end of the last block in `host`, if it shows what the render left there. */
function endNode(host: Element, end: OpenEnd): Text | null {
  let element = host.lastElementChild;
  for (let i = 0; element && element.tagName === end.path[i]; i++) {
    if (i === end.path.length - 1) {
      // lit's markers (comments) follow the text it rendered.
      let node = element.lastChild;
      while (node instanceof Comment) node = node.previousSibling;
      return node instanceof Text && node.data === end.data ? node : null;
    }
    element = element.lastElementChild;
  }
  return null;
}
