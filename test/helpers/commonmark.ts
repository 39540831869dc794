/**
 * The CommonMark spec examples (test/corpora/commonmark-spec) and a forgiving comparison of
 * rendered HTML with the spec's, shared by the Markdown conformance test and its bench.
 *
 * Forgiven, because the transcript chooses them on purpose: soft line breaks rendered as
 * `<br>` (any line break compares as a space), link `target`/`rel`, unsafe links shown as
 * text, images from origins not on the allow-list shown as their alt text, the table wrapper
 * and classes other than a code block's language. Everything else must match.
 */

export interface CommonMarkExample {
  number: number;
  section: string;
  markdown: string;
  html: string;
}

/** Base URL the renderer resolves relative links against in the comparison. */
export const COMMONMARK_BASE = 'https://md.test/';

const MARKDOWN_TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'code', 'blockquote', 'ul', 'ol', 'li', 'em', 'strong', 'a', 'img', 'br', 'hr']);
const BLOCK_TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'blockquote', 'ul', 'ol', 'li', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'div']);

/** True when the expected output carries raw HTML passed through (the renderer never does that). */
export function hasRawHtml(example: CommonMarkExample): boolean {
  const tags = [...example.html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => m[1]!.toLowerCase());
  if (tags.some((tag) => !MARKDOWN_TAGS.has(tag)) || /<!--|<\?|<!\[CDATA|<![A-Z]/.test(example.html)) return true;
  // A tag written in the Markdown (not an autolink) that reaches the output as a tag.
  return [...example.markdown.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)(?=[\s/>]|$)/gm)].some((m) => tags.includes(m[1]!.toLowerCase()));
}

/** The examples whose expected output has no raw HTML. */
export async function loadCommonMarkExamples(url = '/test/corpora/commonmark-spec/examples.json'): Promise<CommonMarkExample[]> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot read ${url}: ${response.status}`);
  const all = (await response.json()) as CommonMarkExample[];
  return all.filter((example) => !hasRawHtml(example));
}

function safeUrl(raw: string, allowed: (url: URL) => boolean): string | null {
  try {
    const url = new URL(raw, COMMONMARK_BASE);
    return allowed(url) ? url.href : null;
  } catch {
    return null;
  }
}

const linkAllowed = (url: URL) => url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:';
const imageAllowed = (url: URL) => url.origin === new URL(COMMONMARK_BASE).origin;

const PROTECTED = { ' ': '\uE000', '\n': '\uE001', '\t': '\uE002' } as const;
const UNPROTECTED: Record<string, string> = { '\uE000': ' ', '\uE001': '\n', '\uE002': '\t' };

/** A canonical string for a rendered fragment (see the file comment for what is forgiven). */
export function canonical(root: Node): string {
  const out: string[] = [];
  const walk = (node: Node, inPre: boolean): void => {
    if (node.nodeType === Node.TEXT_NODE) {
      // Whitespace inside <pre> is kept exactly (protected from the collapsing below).
      const text = node.textContent ?? '';
      out.push(inPre ? text.replace(/[ \t\n]/g, (c) => PROTECTED[c as ' ']) : text);
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return; // comments (lit markers)
    const el = node as Element;
    const tag = el.localName;
    const children = () => el.childNodes.forEach((child) => walk(child, inPre || tag === 'pre'));
    if (tag === 'br') {
      out.push(' ');
      return;
    }
    if ((tag === 'span' && (el.classList.contains('link-blocked') || el.classList.contains('image-alt'))) || (tag === 'div' && el.classList.contains('table-wrap'))) {
      children();
      return;
    }
    const attrs: string[] = [];
    if (tag === 'a') {
      const href = safeUrl(el.getAttribute('href') ?? '', linkAllowed);
      if (href === null) {
        children();
        return;
      }
      attrs.push(`href="${href}"`);
      if (el.getAttribute('title')) attrs.push(`title="${el.getAttribute('title')}"`);
    } else if (tag === 'img') {
      const src = safeUrl(el.getAttribute('src') ?? '', imageAllowed);
      if (src === null) {
        out.push(el.getAttribute('alt') ?? '');
        return;
      }
      attrs.push(`src="${src}"`, `alt="${el.getAttribute('alt') ?? ''}"`);
      if (el.getAttribute('title')) attrs.push(`title="${el.getAttribute('title')}"`);
    } else if (tag === 'ol') {
      const start = el.getAttribute('start');
      if (start !== null && start !== '1') attrs.push(`start="${start}"`);
    } else if (tag === 'code') {
      const language = [...el.classList].find((c) => c.startsWith('language-'));
      if (language) attrs.push(`class="${language}"`);
    } else if (tag === 'input') {
      attrs.push(`type="${el.getAttribute('type')}"`);
    }
    out.push(`<${tag}${attrs.length ? ' ' + attrs.join(' ') : ''}>`);
    children();
    out.push(`</${tag}>`);
  };
  root.childNodes.forEach((child) => walk(child, false));
  let text = out.join('').replace(/\s+/g, ' ');
  // Whitespace next to block boundaries carries no meaning; inside <pre>, a trailing newline neither.
  const blocks = [...BLOCK_TAGS].join('|');
  text = text.replace(new RegExp(`\\s*(</?(?:${blocks})(?: [^>]*)?>)\\s*`, 'g'), '$1');
  text = text.replace(/\uE001+(<\/code><\/pre>)/g, '$1');
  return text.trim().replace(/[\uE000-\uE002]/g, (c) => UNPROTECTED[c]!);
}

/** Canonical form of the spec's expected HTML. */
export function canonicalExpected(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  return canonical(template.content);
}
