/**
 * DOM knowledge shared by the outline and the actions: what is hidden, what is the widget's own
 * UI, what role and accessible name an element has. Elements may come from same-origin frames
 * (another realm), so checks use `localName` and the element's own window, never `instanceof`.
 */
import { clip, collapseWhitespace } from './text.js';

/** Decides whether an element belongs to the assistant's own UI. */
export type OwnUiTest = (el: Element) => boolean;

/** Default own-UI test: any `<wave-chat>` element (its shadow tree is never entered). */
export const isWaveChatElement: OwnUiTest = (el) => el.localName === 'wave-chat';

/** Elements whose content is never page text. */
const NEVER_SHOWN = new Set([
  'script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link', 'base',
  'svg', 'math', 'canvas', 'datalist', 'object', 'embed', 'audio', 'video', 'map', 'param', 'source', 'track',
]);

/** Roles the outline names (the contract the offline model parses). */
export const Role = {
  link: 'link',
  button: 'button',
  textbox: 'textbox',
  textarea: 'textarea',
  checkbox: 'checkbox',
  radio: 'radio',
  combobox: 'combobox',
  searchbox: 'searchbox',
  slider: 'slider',
} as const;
export type Role = (typeof Role)[keyof typeof Role];

const ARIA_ROLES: Readonly<Record<string, Role>> = {
  link: Role.link,
  button: Role.button,
  tab: Role.button,
  menuitem: Role.button,
  menuitemcheckbox: Role.checkbox,
  menuitemradio: Role.radio,
  option: Role.button,
  switch: Role.checkbox,
  checkbox: Role.checkbox,
  radio: Role.radio,
  textbox: Role.textbox,
  searchbox: Role.searchbox,
  combobox: Role.combobox,
  slider: Role.slider,
  spinbutton: Role.textbox,
};

/** The window an element lives in (a frame's, for frame content). */
export function viewOf(el: Element): Window & typeof globalThis {
  const view = el.ownerDocument.defaultView;
  if (!view) throw new Error('element has no window');
  return view;
}

/** The parent in the flat tree: across shadow roots (to the host) and out of frames. */
export function composedParent(el: Element): Element | null {
  if (el.assignedSlot) return el.assignedSlot;
  if (el.parentElement) return el.parentElement;
  const root = el.getRootNode();
  if (root instanceof viewOf(el).ShadowRoot) return root.host;
  return el.ownerDocument.defaultView?.frameElement ?? null;
}

/** Children in the flat tree: an open shadow root's content, a slot's assigned nodes. */
export function composedChildren(node: Node): Node[] {
  if (node.nodeType === Node.ELEMENT_NODE) {
    const el = node as Element;
    if (el.shadowRoot) return Array.from(el.shadowRoot.childNodes);
    if (el.localName === 'slot') {
      const assigned = (el as HTMLSlotElement).assignedNodes();
      if (assigned.length > 0) return assigned;
    }
  }
  return Array.from(node.childNodes);
}

/** True for `input` types a visitor fills by ticking rather than typing. */
function isToggleInput(el: Element): boolean {
  if (el.localName !== 'input') return false;
  const type = (el as HTMLInputElement).type;
  return type === 'checkbox' || type === 'radio';
}

/**
 * Whether `el` and everything inside it is out of sight: never-shown tags, `hidden`, `aria-hidden`,
 * `inert`, `display:none`, `content-visibility:hidden`, zero-size or visually clipped boxes, boxes
 * pushed off the page. `visibility:hidden` is not here: children may be visible again.
 */
export function hidesSubtree(el: Element, style: CSSStyleDeclaration = viewOf(el).getComputedStyle(el)): boolean {
  if (NEVER_SHOWN.has(el.localName)) return true;
  if (el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true') return true;
  if ((el as HTMLElement).inert) return true;
  if (el.localName === 'input' && (el as HTMLInputElement).type === 'hidden') return true;
  if (style.display === 'none' || style.contentVisibility === 'hidden') return true;
  if (style.display === 'contents') return false;
  // Catches content skipped by an ancestor, such as the body of a closed <details>.
  if (typeof el.checkVisibility === 'function' && !el.checkVisibility()) return true;
  // Custom checkboxes hide the native input by size and show a styled label: keep it actionable.
  if (isToggleInput(el)) return false;
  const rect = el.getBoundingClientRect();
  const clipsOverflow = style.overflow !== 'visible' || style.overflowX !== 'visible' || style.overflowY !== 'visible';
  if (rect.width === 0 && rect.height === 0) return true;
  if ((rect.width === 0 || rect.height === 0 || (rect.width <= 1 && rect.height <= 1)) && clipsOverflow) return true;
  const view = viewOf(el);
  if (rect.right + view.scrollX <= 0 || rect.bottom + view.scrollY <= 0) return true;
  return false;
}

/** Whether `el` is itself painted (`visibility` is inherited and can be undone by a child). */
export function isVisibleSelf(style: CSSStyleDeclaration): boolean {
  return style.visibility === 'visible';
}

/** Whether `el` or any ancestor (across shadow roots and frames) is the assistant's own UI. */
export function isInOwnUi(el: Element, isOwnUi: OwnUiTest): boolean {
  for (let cur: Element | null = el; cur; cur = composedParent(cur)) if (isOwnUi(cur)) return true;
  return false;
}

/** Whether a visitor could see `el` now: itself painted, no ancestor hiding it. */
export function isShownNow(el: Element): boolean {
  if (!isVisibleSelf(viewOf(el).getComputedStyle(el))) return false;
  for (let cur: Element | null = el; cur; cur = composedParent(cur)) {
    if (cur.localName === 'html' || cur.localName === 'body') continue;
    if (hidesSubtree(cur)) return false;
  }
  return true;
}

/** Whether a document is still displayed: the top one, or a frame's current document. */
export function isLiveDocument(doc: Document, root: Document): boolean {
  if (doc === root) return true;
  const view = doc.defaultView;
  const frame = view?.frameElement;
  if (!view || !frame || !frame.isConnected) return false;
  if ((frame as HTMLIFrameElement).contentDocument !== doc) return false;
  return isLiveDocument(frame.ownerDocument, root);
}

/** What kind of control an element is, for the outline and the actions. */
export interface ControlInfo {
  role: Role;
  /** A password field: listed without value or ref, never filled. */
  password: boolean;
}

/** The control role of `el`, or null when it is not a control. */
export function controlInfo(el: Element): ControlInfo | null {
  const aria = el.getAttribute('role')?.trim().split(/\s+/)[0];
  const mapped = aria ? ARIA_ROLES[aria] : undefined;
  if (mapped) return { role: mapped, password: false };
  switch (el.localName) {
    case 'a':
    case 'area':
      return el.hasAttribute('href') ? { role: Role.link, password: false } : null;
    case 'button':
      return { role: Role.button, password: false };
    case 'textarea':
      return { role: Role.textarea, password: false };
    case 'select':
      return { role: Role.combobox, password: false };
    case 'summary':
      return el.parentElement?.localName === 'details' ? { role: Role.button, password: false } : null;
    case 'input': {
      const type = (el as HTMLInputElement).type;
      if (type === 'hidden' || type === 'file') return null;
      if (type === 'password') return { role: Role.textbox, password: true };
      if (type === 'checkbox') return { role: Role.checkbox, password: false };
      if (type === 'radio') return { role: Role.radio, password: false };
      if (type === 'range') return { role: Role.slider, password: false };
      if (type === 'search') return { role: Role.searchbox, password: false };
      if (type === 'button' || type === 'submit' || type === 'reset' || type === 'image') return { role: Role.button, password: false };
      return { role: Role.textbox, password: false };
    }
  }
  // The editing host only, not each paragraph inside it.
  const editable = (el as HTMLElement).isContentEditable;
  if (editable && !(el.parentElement as HTMLElement | null)?.isContentEditable) return { role: Role.textbox, password: false };
  return null;
}

/** Heading level of `el` (h1-h6 or role=heading), or 0. */
export function headingLevel(el: Element): number {
  const match = /^h([1-6])$/.exec(el.localName);
  if (el.getAttribute('role') === 'heading') {
    const level = Number.parseInt(el.getAttribute('aria-level') ?? '', 10);
    return level >= 1 && level <= 9 ? level : match ? Number(match[1]) : 2;
  }
  return match ? Number(match[1]) : 0;
}

const LANDMARK_ROLES: Readonly<Record<string, string>> = {
  main: 'main',
  navigation: 'nav',
  banner: 'header',
  contentinfo: 'footer',
  complementary: 'aside',
  search: 'search',
  region: 'section',
};

/** The landmark kind of `el` (`main`, `nav`, `header`, `footer`, `aside`, `search`, `section`), or null. */
export function landmarkOf(el: Element): string | null {
  const aria = el.getAttribute('role')?.trim().split(/\s+/)[0];
  if (aria && LANDMARK_ROLES[aria]) return aria === 'region' && !hasOwnLabel(el) ? null : (LANDMARK_ROLES[aria] ?? null);
  switch (el.localName) {
    case 'main':
    case 'nav':
    case 'aside':
    case 'search':
      return el.localName;
    case 'header':
    case 'footer':
      // Only page-level headers and footers are landmarks, not an article's.
      return el.parentElement?.closest('article, aside, main, nav, section') ? null : el.localName;
    case 'section':
      return hasOwnLabel(el) ? 'section' : null;
  }
  return null;
}

function hasOwnLabel(el: Element): boolean {
  return Boolean(el.getAttribute('aria-label')?.trim() || el.getAttribute('aria-labelledby')?.trim());
}

/** Text of `node` as a visitor reads it, skipping controls' inner parts and hidden subtrees. */
function textOf(node: Node, skip?: Element): string {
  let out = '';
  const walk = (n: Node): void => {
    if (n.nodeType === Node.TEXT_NODE) {
      out += (n as Text).data;
      return;
    }
    if (n.nodeType !== Node.ELEMENT_NODE) return;
    const el = n as Element;
    if (el === skip) return;
    if (NEVER_SHOWN.has(el.localName) || el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true') return;
    if (el.localName === 'select' || el.localName === 'textarea' || el.localName === 'input') return;
    if (el.localName === 'img') {
      out += ` ${el.getAttribute('alt') ?? ''} `;
      return;
    }
    const style = viewOf(el).getComputedStyle(el);
    if (style.display === 'none') return;
    const block = style.display !== 'inline' && style.display !== 'contents';
    if (block) out += ' ';
    for (const child of composedChildren(el)) walk(child);
    if (block) out += ' ';
  };
  walk(node);
  return collapseWhitespace(out);
}

/** Text of the elements named by an `aria-labelledby` list, looked up in `el`'s tree. */
function labelledByText(el: Element): string {
  const ids = el.getAttribute('aria-labelledby')?.trim();
  if (!ids) return '';
  const root = el.getRootNode() as Document | ShadowRoot;
  return collapseWhitespace(
    ids
      .split(/\s+/)
      .map((id) => root.getElementById?.(id))
      .filter((n): n is HTMLElement => Boolean(n))
      .map((n) => n.textContent ?? '')
      .join(' '),
  );
}

const NAME_MAX = 120;

const LABELABLE = new Set(['input', 'select', 'textarea', 'button', 'meter', 'output', 'progress']);

/**
 * Finds the labels of form controls. `el.labels` scans the whole tree on every call, which made a
 * read quadratic on large pages; this indexes `label[for]` once per tree and reuses it.
 */
export class LabelLookup {
  #byRoot = new Map<Node, Map<string, HTMLLabelElement[]>>();

  labelsOf(el: Element): HTMLLabelElement[] {
    if (!LABELABLE.has(el.localName)) return [];
    const found: HTMLLabelElement[] = [];
    if (el.id) {
      for (const label of this.#index(el.getRootNode()).get(el.id) ?? []) if (label.control === el) found.push(label);
    }
    const wrapping = el.closest('label');
    if (wrapping && wrapping.control === el && !found.includes(wrapping)) found.push(wrapping);
    return found;
  }

  #index(root: Node): Map<string, HTMLLabelElement[]> {
    let index = this.#byRoot.get(root);
    if (!index) {
      index = new Map();
      const labels = (root as ParentNode).querySelectorAll?.('label[for]') ?? [];
      for (const label of Array.from(labels) as HTMLLabelElement[]) {
        const id = label.htmlFor;
        index.set(id, [...(index.get(id) ?? []), label]);
      }
      this.#byRoot.set(root, index);
    }
    return index;
  }
}

/**
 * Accessible name, in this order: aria-labelledby, aria-label, `<label for>` or wrapping label,
 * a button input's value, an image's alt, placeholder, title, the text inside (links, buttons).
 */
export function accessibleName(el: Element, info: ControlInfo | null, lookup?: LabelLookup): string {
  const name = (s: string | null | undefined): string => clip(collapseWhitespace(s ?? ''), NAME_MAX);
  const fromLabelledBy = labelledByText(el);
  if (fromLabelledBy) return name(fromLabelledBy);
  const label = name(el.getAttribute('aria-label'));
  if (label) return label;
  const labels = (lookup ?? new LabelLookup()).labelsOf(el);
  if (labels.length > 0) {
    const text = name(labels.map((l) => textOf(l, el)).join(' '));
    if (text) return text;
  }
  if (el.localName === 'input') {
    const input = el as HTMLInputElement;
    if (input.type === 'submit' || input.type === 'reset' || input.type === 'button') {
      const value = name(input.value);
      if (value) return value;
      if (input.type !== 'button') return input.type === 'submit' ? 'Submit' : 'Reset';
    }
    if (input.type === 'image') {
      const alt = name(input.alt);
      if (alt) return alt;
    }
  }
  const placeholder = name(el.getAttribute('placeholder'));
  if (placeholder) return placeholder;
  const title = name(el.getAttribute('title'));
  if (title) return title;
  const typed = info && (info.role === Role.textbox || info.role === Role.textarea || info.role === Role.searchbox);
  if (info && !typed && info.role !== Role.combobox && info.role !== Role.slider) {
    const text = name(textOf(el));
    if (text) return text;
  }
  // Last resort for a field no visitor-facing text names: its form name.
  return name(el.getAttribute('name'));
}

/** The name of a landmark, form or frame: labelledby, label, then title (frames also their name). */
export function containerName(el: Element): string {
  const name = labelledByText(el) || el.getAttribute('aria-label') || el.getAttribute('title') || '';
  return clip(collapseWhitespace(name), NAME_MAX);
}
