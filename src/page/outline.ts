/**
 * The `read_page` outline: one node per line, landmarks, forms and frames indented, every control
 * with a ref; then split into pages within a size budget, never cutting a line.
 */
import type { RefRegistry } from './ref-registry.js';
import {
  Role,
  accessibleName,
  composedChildren,
  containerName,
  controlInfo,
  headingLevel,
  hidesSubtree,
  isVisibleSelf,
  landmarkOf,
  viewOf,
  LabelLookup,
  type ControlInfo,
  type OwnUiTest,
} from './dom.js';
import { formatOutlineItem, type OutlineControl, type OutlineItem } from './outline-format.js';
import { clip, collapseWhitespace, shortenText } from './text.js';

export type { OutlineItem, OutlineControl, OutlineEntry } from './outline-format.js';

/** One outline node: its data (rendered by `formatOutlineItem`); containers (landmark, form, frame) have children. */
export interface OutlineNode {
  item: OutlineItem;
  children?: OutlineNode[];
}

/** One printed line with the container lines above it (repeated at the top of a continued page). */
export interface OutlineLine {
  text: string;
  context: readonly string[];
  heading: boolean;
}

/** What {@link buildOutline} needs. */
export interface OutlineOptions {
  refs: RefRegistry;
  isOwnUi: OwnUiTest;
  /** Label index for this read (made when absent). */
  labels?: LabelLookup;
}

const VALUE_MAX = 200;
const OPTION_MAX = 60;
const OPTIONS_LISTED = 25;

/** Accumulates inline text until a block boundary ends the line. */
class TextBuffer {
  #text = '';
  append(text: string): void {
    this.#text += text;
  }
  /** Table cells of one row share a line, separated by a bar. */
  cellBreak(): void {
    if (this.#text.trim()) this.#text += ' | ';
  }
  flushInto(out: OutlineNode[]): void {
    const text = collapseWhitespace(this.#text)
      .replace(/(?:\s*\|\s*)+$/, '')
      .replace(/^(?:\s*\|\s*)+/, '')
      .replace(/(?:\s*\|\s*){2,}/g, ' | ');
    this.#text = '';
    if (/[\p{L}\p{N}]/u.test(text)) out.push({ item: { kind: 'text', text: shortenText(text) } });
  }
}

interface WalkContext {
  prefix: string;
  /** Text outside headings and labels becomes `- text` lines; inside them it is the name. */
  textAllowed: boolean;
  /** The nearest element is painted (`visibility`), so its own text shows. */
  painted: boolean;
  buffer: TextBuffer;
}

const INLINE_DISPLAYS = new Set(['inline', 'contents', 'ruby', 'ruby-text']);

/**
 * Builds the outline tree of `doc` (its body, same-origin frames included).
 *
 * @example
 * const nodes = buildOutline(document, { refs: new RefRegistry(), isOwnUi: isWaveChatElement });
 * const lines = flattenOutline(nodes);
 */
export function buildOutline(doc: Document, options: OutlineOptions): OutlineNode[] {
  const out: OutlineNode[] = [];
  const body = doc.body;
  if (!body) return out;
  const ctx: WalkContext = { prefix: '', textAllowed: true, painted: true, buffer: new TextBuffer() };
  walkChildren(body, out, ctx, { ...options, labels: options.labels ?? new LabelLookup() });
  ctx.buffer.flushInto(out);
  return out;
}

function walkChildren(parent: Node, out: OutlineNode[], ctx: WalkContext, options: OutlineOptions): void {
  for (const child of composedChildren(parent)) walk(child, out, ctx, options);
}

function walk(node: Node, out: OutlineNode[], ctx: WalkContext, options: OutlineOptions): void {
  if (node.nodeType === Node.TEXT_NODE) {
    if (ctx.textAllowed && ctx.painted) ctx.buffer.append((node as Text).data);
    return;
  }
  if (node.nodeType !== Node.ELEMENT_NODE) return;
  const el = node as Element;
  if (options.isOwnUi(el)) return;
  const style = viewOf(el).getComputedStyle(el);
  if (hidesSubtree(el, style)) return;
  const painted = isVisibleSelf(style);
  const display = style.display;
  const inline = INLINE_DISPLAYS.has(display) || display.startsWith('inline');
  const cell = display === 'table-cell';
  const block = !inline && !cell;
  if (block) ctx.buffer.flushInto(out);
  else if (cell) ctx.buffer.cellBreak();
  else if (display !== 'inline' && display !== 'contents') ctx.buffer.append(' ');
  if (el.localName === 'br') {
    ctx.buffer.append(' ');
    return;
  }

  if (el.localName === 'iframe' || el.localName === 'frame') {
    ctx.buffer.flushInto(out);
    if (painted) out.push(frameNode(el as HTMLIFrameElement, ctx, options));
    return;
  }

  const info = controlInfo(el);
  if (info) {
    if (!painted) return;
    ctx.buffer.flushInto(out);
    out.push({ item: controlItem(el, info, ctx.prefix, options) });
    return;
  }

  const level = headingLevel(el);
  if (level > 0) {
    ctx.buffer.flushInto(out);
    const name = clip(collapseWhitespace(accessibleName(el, { role: Role.link, password: false })), 160);
    if (painted && name) out.push({ item: { kind: 'heading', level, text: name } });
    // Links or buttons inside a heading still get their lines; its text is already the heading.
    walkChildren(el, out, { ...ctx, textAllowed: false, painted }, options);
    return;
  }

  const landmark = landmarkOf(el);
  if (landmark || el.localName === 'form') {
    const name = containerName(el) || (el.localName === 'form' ? (el.getAttribute('name') ?? '') : '');
    const item: OutlineItem = landmark ? { kind: 'region', landmark, ...(name ? { name } : {}) } : { kind: 'form', ...(name ? { name } : {}) };
    const container: OutlineNode = { item, children: [] };
    const inner: WalkContext = { ...ctx, painted, buffer: new TextBuffer() };
    walkChildren(el, container.children ?? [], inner, options);
    inner.buffer.flushInto(container.children ?? []);
    out.push(container);
    return;
  }

  // A label's text is its control's name; printing it again would only cost budget.
  const labelsControl = el.localName === 'label' && (el as HTMLLabelElement).control !== null;
  walkChildren(el, out, { ...ctx, painted, textAllowed: ctx.textAllowed && !labelsControl }, options);
  if (block) ctx.buffer.flushInto(out);
  else if (display !== 'inline' && display !== 'contents') ctx.buffer.append(' ');
}

function frameNode(frame: HTMLIFrameElement, ctx: WalkContext, options: OutlineOptions): OutlineNode {
  const name = containerName(frame) || frame.getAttribute('name') || '';
  const named = name ? { name } : {};
  let doc: Document | null = null;
  try {
    doc = frame.contentDocument;
  } catch {
    doc = null;
  }
  if (!doc) {
    const src = frame.getAttribute('src');
    let origin = '';
    try {
      origin = src ? new URL(src, frame.ownerDocument.baseURI).origin : '';
    } catch {
      origin = '';
    }
    return { item: { kind: 'iframe', ...named, crossOrigin: true, ...(origin && origin !== 'null' ? { origin } : {}) } };
  }
  const node: OutlineNode = { item: { kind: 'iframe', ...named }, children: [] };
  if (!doc.body) return node;
  const inner: WalkContext = {
    prefix: options.refs.framePrefix(frame, ctx.prefix),
    textAllowed: true,
    painted: true,
    buffer: new TextBuffer(),
  };
  walkChildren(doc.body, node.children ?? [], inner, options);
  inner.buffer.flushInto(node.children ?? []);
  return node;
}

function controlItem(el: Element, info: ControlInfo, prefix: string, { refs, labels }: OutlineOptions): OutlineControl {
  const item: OutlineControl = { kind: 'control', role: info.role, name: accessibleName(el, info, labels) };
  // Password fields: listed so the visitor's form makes sense, but no ref and never a value.
  if (info.password) return { ...item, password: true };
  item.ref = refs.refFor(el, prefix);
  const input = el as HTMLInputElement;
  switch (info.role) {
    case Role.textbox:
    case Role.textarea:
    case Role.searchbox:
    case Role.slider: {
      const value = fieldValue(el);
      if (value) item.value = clip(value, VALUE_MAX);
      break;
    }
    case Role.combobox:
      if (el.localName === 'select') {
        const select = el as HTMLSelectElement;
        const chosen = Array.from(select.selectedOptions, (o) => optionText(o)).join(', ');
        if (chosen) item.value = chosen;
        const all = Array.from(select.options).map(optionText);
        item.options = all.slice(0, OPTIONS_LISTED);
        if (all.length > OPTIONS_LISTED) item.moreOptions = all.length - OPTIONS_LISTED;
      } else {
        const value = fieldValue(el);
        if (value) item.value = clip(value, VALUE_MAX);
      }
      break;
    case Role.checkbox:
    case Role.radio:
      if (el.localName === 'input' ? input.checked : el.getAttribute('aria-checked') === 'true') item.checked = true;
      break;
    case Role.link: {
      const href = displayHref(el);
      if (href) item.href = href;
      break;
    }
    case Role.button:
      break;
  }
  if (input.required === true || el.getAttribute('aria-required') === 'true') item.required = true;
  if (isDisabled(el)) item.disabled = true;
  return item;
}

/** The current value a visitor sees in a field (never called for password fields). */
export function fieldValue(el: Element): string {
  if (el.localName === 'input' || el.localName === 'textarea') return (el as HTMLInputElement).value;
  if ((el as HTMLElement).isContentEditable) return collapseWhitespace(el.textContent ?? '');
  return el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow') ?? '';
}

function optionText(option: HTMLOptionElement): string {
  return clip(collapseWhitespace(option.label || option.text), OPTION_MAX);
}

/** A link's target, short: path for same-origin links, the full URL otherwise. */
function displayHref(el: Element): string {
  const raw = el.getAttribute('href') ?? '';
  let url: URL;
  try {
    url = new URL(raw, el.ownerDocument.baseURI);
  } catch {
    return clip(raw, VALUE_MAX);
  }
  if (url.protocol === 'javascript:') return 'javascript:';
  const here = el.ownerDocument.defaultView?.location;
  const same = here && url.origin === here.origin && url.origin !== 'null';
  return clip(same ? `${url.pathname}${url.search}${url.hash}` : url.href, VALUE_MAX);
}

/** Whether a control is disabled (natively, by its fieldset, or by aria-disabled). */
export function isDisabled(el: Element): boolean {
  return el.matches(':disabled') || el.closest('[aria-disabled="true"]') !== null;
}

/**
 * Flattens the tree to indented lines, dropping containers that hold nothing.
 *
 * @example
 * flattenOutline([{ item: { kind: 'region', landmark: 'main' }, children: [{ item: { kind: 'text', text: 'Hi' } }] }]).map((l) => l.text);
 * // ['- region main', '  - text "Hi"']
 */
export function flattenOutline(nodes: readonly OutlineNode[]): OutlineLine[] {
  const lines: OutlineLine[] = [];
  const visit = (list: readonly OutlineNode[], depth: number, context: readonly string[]): void => {
    for (const node of list) {
      const text = `${'  '.repeat(depth)}${formatOutlineItem(node.item)}`;
      if (node.children) {
        if (!hasLeaf(node.children)) continue;
        lines.push({ text, context, heading: false });
        visit(node.children, depth + 1, [...context, text]);
      } else {
        lines.push({ text, context, heading: node.item.kind === 'heading' });
      }
    }
  };
  visit(nodes, 0, []);
  return lines;
}

function hasLeaf(nodes: readonly OutlineNode[]): boolean {
  return nodes.some((n) => !n.children || hasLeaf(n.children));
}

/**
 * Splits lines into pages of at most `budget` characters (a line longer than the budget gets a
 * page of its own; nothing is cut). A continued page repeats the container lines it sits in, and
 * a page nearly full breaks before a heading rather than after it.
 *
 * @example
 * const parts = paginate(flattenOutline(buildOutline(document, options)), 4000);
 * parts[1]; // '- region main\n  - heading(2) "Chapter 3"\n…'
 */
export function paginate(lines: readonly OutlineLine[], budget: number): string[] {
  const pages: string[][] = [];
  let page: string[] = [];
  let size = 0;
  let fresh = true;
  for (const line of lines) {
    const cost = line.text.length + 1;
    const full = size + cost > budget;
    const niceBreak = line.heading && size > budget * 0.75;
    if (!fresh && (full || niceBreak)) {
      pages.push(page);
      page = [...line.context];
      size = page.reduce((n, l) => n + l.length + 1, 0);
    }
    page.push(line.text);
    size += cost;
    fresh = false;
  }
  if (page.length > 0 || pages.length === 0) pages.push(page);
  return pages.map((p) => p.join('\n'));
}
