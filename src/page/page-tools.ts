/**
 * The built-in page-reading tools (SPEC §8), offered only when the page registered none:
 * `read_page`, `click_element`, `fill_field`, `select_option`, `scroll_to`, `navigate`.
 */
import type { BuiltinToolDefinition, HandlerContext } from '../tools/types.js';
import { chooseOption, fillEditable, fillText, revealElement, simulateClick } from './actions.js';
import {
  Role,
  accessibleName,
  controlInfo,
  isInOwnUi,
  isLiveDocument,
  isShownNow,
  isWaveChatElement,
  type ControlInfo,
} from './dom.js';
import { buildOutline, fieldValue, flattenOutline, isDisabled, paginate } from './outline.js';
import { RefRegistry } from './ref-registry.js';
import { collapseWhitespace } from './text.js';

export type { BuiltinToolDefinition } from '../tools/types.js';

/** Options of {@link createPageTools}. */
export interface PageToolsOptions {
  /** The document to read and act on. Default: `document`. */
  root?: Document;
  /** The assistant's own UI, never read nor acted on. Default: any `<wave-chat>` element. */
  isOwnUi?: (el: Element) => boolean;
  /** Characters per `read_page` page. Default 4,000. */
  pageBudgetChars?: number;
  /** Performs a confirmed navigation. Default: `location.assign`. */
  navigate?: (url: URL) => void;
}

/** A failed tool call, as the model receives it. */
interface Failure {
  success: false;
  error: string;
}

const DEFAULT_BUDGET = 4000;

const fail = (error: string): Failure => ({ success: false, error });

const staleRef = (ref: string): Failure =>
  fail(`Unknown or stale ref "${ref}": call read_page again to get fresh refs.`);

const refSchema = {
  type: 'string',
  description: 'A ref from the latest read_page outline, e.g. "e12" or "f1e3".',
  minLength: 1,
  maxLength: 32,
} as const;

function argString(args: unknown, key: string): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const value = (args as Record<string, unknown>)[key];
  if (typeof value === 'string') return value;
  // Models sometimes send 3 for "3" or true for "true": take what a visitor would type.
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function resultField(result: unknown, key: string): unknown {
  return typeof result === 'object' && result !== null ? (result as Record<string, unknown>)[key] : undefined;
}

function succeeded(result: unknown): boolean {
  return resultField(result, 'success') === true;
}

function failureText(result: unknown): string {
  const error = resultField(result, 'error');
  return typeof error === 'string' ? error : 'Failed';
}

function nameOf(result: unknown, fallback: string): string {
  const name = resultField(result, 'name');
  return typeof name === 'string' && name ? `“${name}”` : fallback;
}

/** Whether clicking `el` submits a form. */
function isSubmitControl(el: Element): boolean {
  if (el.localName === 'button' || el.localName === 'input') {
    const control = el as HTMLButtonElement | HTMLInputElement;
    const type = control.type;
    return (type === 'submit' || type === 'image') && control.form !== null;
  }
  return false;
}

/** Whether clicking `el` follows a link to another document (not a jump within this one). */
function isLeavingLink(el: Element): boolean {
  const link = el.closest('a[href], area[href]');
  if (!link) return false;
  const href = link.getAttribute('href') ?? '';
  let target: URL;
  try {
    target = new URL(href, link.ownerDocument.baseURI);
  } catch {
    return false;
  }
  if (target.protocol === 'javascript:') return false;
  const here = new URL(link.ownerDocument.URL);
  target.hash = '';
  here.hash = '';
  return target.href !== here.href || link.getAttribute('target') === '_blank';
}

/**
 * Checks a navigation URL: http(s) and the page's own origin only.
 *
 * @example
 * checkNavigationUrl('/pricing', document); // URL https://shop.example/pricing
 * checkNavigationUrl('javascript:alert(1)', document); // { success: false, error: 'Refused: javascript: URLs …' }
 */
export function checkNavigationUrl(raw: string, doc: Document): URL | Failure {
  let url: URL;
  try {
    url = new URL(raw.trim(), doc.baseURI);
  } catch {
    return fail(`"${raw}" is not a valid URL.`);
  }
  const origin = new URL(doc.URL).origin;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return fail(`Refused: ${url.protocol} URLs are never opened (javascript:, data: and other schemes are blocked); navigate only opens pages of ${origin}.`);
  }
  if (url.origin !== origin) {
    return fail(`Refused: ${url.origin} is another site; navigate only opens pages of this site (${origin}).`);
  }
  return url;
}

/**
 * Creates the built-in page tools over one document. They share one ref registry, so refs read
 * by `read_page` stay valid for the actions, and the same element keeps its ref across reads.
 *
 * @example
 * const tools = createPageTools({ isOwnUi: (el) => el.localName === 'wave-chat' });
 * const page = await tools.read_page.handler({}, context);
 * // page.outline: '- heading(1) "Checkout"\n- textbox "Email" [ref=e1] required\n…'
 * await tools.fill_field.handler({ ref: 'e1', value: 'ann@example.com' }, context);
 */
export function createPageTools(options: PageToolsOptions = {}): Record<string, BuiltinToolDefinition> {
  const root = options.root ?? document;
  const isOwnUi = options.isOwnUi ?? isWaveChatElement;
  const budget = Math.max(200, options.pageBudgetChars ?? DEFAULT_BUDGET);
  const navigateTo = options.navigate ?? ((url: URL) => root.defaultView?.location.assign(url.href));
  const refs = new RefRegistry();

  /** The element behind a ref, if it is still on the page and the assistant may touch it. */
  const resolve = (args: unknown): { el: Element; ref: string; info: ControlInfo } | Failure => {
    const ref = (argString(args, 'ref') ?? '').trim().replace(/^\[?ref=/, '').replace(/\]$/, '');
    const el = ref ? refs.lookup(ref) : undefined;
    if (!el || !el.isConnected || !isLiveDocument(el.ownerDocument, root)) return staleRef(ref);
    if (isInOwnUi(el, isOwnUi)) return fail(`Ref "${ref}" belongs to the assistant's own window; it cannot be used.`);
    const info = controlInfo(el);
    if (!info) return staleRef(ref);
    if (info.password) return fail('Password fields are never read or filled by the assistant; the visitor types the password.');
    if (!isShownNow(el)) return fail(`The element "${ref}" is hidden now: call read_page again to see the page as it is.`);
    return { el, ref, info };
  };

  const describe = (el: Element, ref: string, info: ControlInfo) => ({
    ref,
    role: info.role,
    name: accessibleName(el, info),
  });

  const aborted = (context: HandlerContext | undefined): void => context?.signal?.throwIfAborted();

  /** A handler acting on the element behind `args.ref`: stops if aborted, refuses a stale or forbidden ref. */
  const onRef =
    (act: (target: { el: Element; ref: string; info: ControlInfo }, args: Record<string, unknown>) => unknown) =>
    (args: Record<string, unknown>, context: HandlerContext): unknown => {
      aborted(context);
      const found = resolve(args);
      return 'el' in found ? act(found, args) : found;
    };

  const readPage: BuiltinToolDefinition = {
    description:
      'Read what the visitor currently sees on this page, as a compact outline with one node per line. ' +
      'Headings read `- heading(2) "Title"`, text `- text "…"` (long paragraphs shortened, figures kept), ' +
      'landmarks `- region main` or `- region nav "Primary"` and forms `- form "Contact"` with their content indented. ' +
      'Every link, button and form field reads `- <role> "<name>" [ref=<ref>]`, maybe followed by value="…", href="…", ' +
      'options=[…], checked, required, disabled. Roles: link, button, textbox, textarea, checkbox, radio, combobox, searchbox, slider. ' +
      'Pass a ref to click_element, fill_field, select_option or scroll_to; refs stay valid while the page is unchanged. ' +
      'Frames from this site are included (refs like f1e3); other sites\' frames are listed as cross-origin. ' +
      'Long pages come in parts: the result gives `page` and `pages`; call read_page with { "page": 2 } for the next part. ' +
      'Password values are never shown.',
    parameters: {
      type: 'object',
      properties: {
        page: { type: 'integer', minimum: 1, description: 'Which part of a long page to read (default 1).' },
      },
      additionalProperties: false,
    },
    runningLabel: 'Reading the page…',
    handler: (args: Record<string, unknown> | undefined, context: HandlerContext) => {
      aborted(context);
      const requested = Number(args?.['page'] ?? 1);
      const pageNo = Number.isInteger(requested) && requested >= 1 ? requested : 1;
      refs.prune();
      const pages = paginate(flattenOutline(buildOutline(root, { refs, isOwnUi })), budget);
      if (pageNo > pages.length) {
        return fail(`This page's outline has ${pages.length} part${pages.length === 1 ? '' : 's'}; there is no part ${pageNo}.`);
      }
      return {
        success: true,
        title: collapseWhitespace(root.title),
        url: root.URL,
        page: pageNo,
        pages: pages.length,
        outline: pages[pageNo - 1] ?? '',
      };
    },
    summary: (_args: unknown, result: unknown) => {
      if (!succeeded(result)) return failureText(result);
      const pages = Number(resultField(result, 'pages'));
      const title = resultField(result, 'title');
      const part = pages > 1 ? ` (part ${String(resultField(result, 'page'))} of ${pages})` : '';
      return `Read ${typeof title === 'string' && title ? `“${title}”` : 'the page'}${part}`;
    },
  };

  const clickElement: BuiltinToolDefinition = {
    description:
      'Click a link, button, checkbox, radio or other control from the latest read_page outline, as the visitor would ' +
      '(pointer, mouse and click events). Clicking a submit button or a link to another page asks the visitor first.',
    parameters: {
      type: 'object',
      properties: { ref: refSchema },
      required: ['ref'],
      additionalProperties: false,
    },
    runningLabel: 'Clicking…',
    confirmIf: (args) => {
      const found = resolve(args);
      return 'el' in found && (isSubmitControl(found.el) || isLeavingLink(found.el));
    },
    handler: onRef(({ el, ref, info }) => {
      if (isDisabled(el)) return fail(`"${accessibleName(el, info)}" is disabled; it cannot be clicked now.`);
      const described = describe(el, ref, info);
      const notCancelled = simulateClick(el);
      const result: Record<string, unknown> = { success: true, ...described };
      if (el.localName === 'input' && (info.role === Role.checkbox || info.role === Role.radio)) {
        result['checked'] = (el as HTMLInputElement).checked;
      }
      if (!notCancelled) result['note'] = 'The page handled the click itself (its default action was prevented).';
      return result;
    }),
    summary: (_args: unknown, result: unknown) =>
      succeeded(result) ? `Clicked ${nameOf(result, 'the element')}` : failureText(result),
  };

  const fillField: BuiltinToolDefinition = {
    description:
      'Type a value into a text field, text area, search box or slider from the latest read_page outline, replacing what ' +
      'is there, as the visitor would (input and change events fire). It never submits the form. For a checkbox or radio ' +
      'pass "true" or "false"; for a select it picks the option with that value or visible text. Password fields cannot be filled.',
    parameters: {
      type: 'object',
      properties: {
        ref: refSchema,
        value: { type: 'string', maxLength: 10000, description: 'The text to enter.' },
      },
      required: ['ref', 'value'],
      additionalProperties: false,
    },
    runningLabel: 'Filling in a field…',
    handler: onRef(({ el, ref, info }, args) => {
      const value = argString(args, 'value');
      if (value === undefined) return fail('fill_field needs a text "value".');
      const name = accessibleName(el, info);
      if (isDisabled(el)) return fail(`"${name}" is disabled; it cannot be filled now.`);
      if (info.role === Role.combobox && el.localName === 'select') return selectIn(el as HTMLSelectElement, ref, info, value);
      if (info.role === Role.checkbox || info.role === Role.radio) return toggle(el, ref, info, value);
      if (info.role === Role.link || info.role === Role.button) {
        return fail(`"${name}" is a ${info.role}, not a field: use click_element.`);
      }
      if (el.localName === 'input' || el.localName === 'textarea') {
        const field = el as HTMLInputElement | HTMLTextAreaElement;
        if (field.readOnly) return fail(`"${name}" is read-only.`);
        // A visitor cannot type past maxlength; neither does the assistant.
        const text = field.maxLength >= 0 && value.length > field.maxLength ? value.slice(0, field.maxLength) : value;
        fillText(field, text);
        return filled(el, ref, info, text, text !== value ? `Cut to the field's limit of ${field.maxLength} characters.` : undefined);
      }
      if ((el as HTMLElement).isContentEditable) {
        fillEditable(el as HTMLElement, value);
        return filled(el, ref, info, value);
      }
      return fail(`"${name}" cannot be typed into: use click_element or select_option.`);
    }),
    summary: (_args: unknown, result: unknown) =>
      succeeded(result) ? `Filled in ${nameOf(result, 'a field')}` : failureText(result),
  };

  /** The outcome of a fill, read back from the field (which the page may have replaced). */
  const filled = (el: Element, ref: string, info: ControlInfo, value: string, note?: string) => {
    const result: Record<string, unknown> = { success: true, ...describe(el, ref, info) };
    if (!el.isConnected) {
      result['note'] = 'The page re-rendered this field after the input; call read_page for its new ref.';
      return result;
    }
    const now = fieldValue(el);
    result['value'] = now;
    if (note) result['note'] = note;
    else if (now !== value) result['note'] = 'The page changed the value after it was entered (formatting or validation).';
    return result;
  };

  const toggle = (el: Element, ref: string, info: ControlInfo, value: string) => {
    const want = /^(true|on|yes|checked|1|x|check|select(ed)?)$/i.test(value.trim());
    const wantOff = /^(false|off|no|unchecked|0|uncheck|clear|)$/i.test(value.trim());
    if (!want && !wantOff) return fail(`For a ${info.role} pass "true" or "false", not "${value}".`);
    const isOn = (): boolean =>
      el.localName === 'input' ? (el as HTMLInputElement).checked : el.getAttribute('aria-checked') === 'true';
    if (info.role === Role.radio && wantOff && isOn()) {
      return fail('A radio button cannot be cleared: choose another option in its group instead.');
    }
    if (isOn() !== want) simulateClick(el);
    return { success: true, ...describe(el, ref, info), checked: isOn() };
  };

  const selectIn = (select: HTMLSelectElement, ref: string, info: ControlInfo, value: string) => {
    const wanted = collapseWhitespace(value).toLowerCase();
    const options = Array.from(select.options);
    const option =
      options.find((o) => o.value === value) ??
      options.find((o) => collapseWhitespace(o.label || o.text).toLowerCase() === wanted) ??
      options.find((o) => o.value.toLowerCase() === wanted);
    if (!option) {
      const listed = options.map((o) => collapseWhitespace(o.label || o.text)).slice(0, 40);
      return fail(`"${accessibleName(select, info)}" has no option "${value}". Options: ${JSON.stringify(listed)}.`);
    }
    if (option.disabled) return fail(`The option "${collapseWhitespace(option.text)}" is disabled.`);
    chooseOption(select, option);
    return {
      success: true,
      ...describe(select, ref, info),
      value: option.value,
      selected: collapseWhitespace(option.label || option.text),
    };
  };

  const selectOption: BuiltinToolDefinition = {
    description:
      'Choose an option of a select (combobox) from the latest read_page outline, by the option\'s value or its visible text, ' +
      'as the visitor would (input and change events fire). For a radio button, pass its ref to pick it.',
    parameters: {
      type: 'object',
      properties: {
        ref: refSchema,
        value: { type: 'string', description: 'The option\'s value or its visible text.' },
      },
      required: ['ref', 'value'],
      additionalProperties: false,
    },
    runningLabel: 'Choosing an option…',
    handler: onRef(({ el, ref, info }, args) => {
      const value = argString(args, 'value');
      if (value === undefined) return fail('select_option needs a "value".');
      if (isDisabled(el)) return fail(`"${accessibleName(el, info)}" is disabled; nothing can be chosen now.`);
      if (el.localName === 'select') return selectIn(el as HTMLSelectElement, ref, info, value);
      if (info.role === Role.radio) return toggle(el, ref, info, 'true');
      return fail(`"${accessibleName(el, info)}" is a ${info.role}, not a select: use click_element or fill_field.`);
    }),
    summary: (_args: unknown, result: unknown) => {
      if (!succeeded(result)) return failureText(result);
      const selected = resultField(result, 'selected');
      return typeof selected === 'string' ? `Chose “${selected}”` : `Chose ${nameOf(result, 'an option')}`;
    },
  };

  const scrollTo: BuiltinToolDefinition = {
    description: 'Scroll the page so the element with this ref (from the latest read_page outline) is in view for the visitor.',
    parameters: {
      type: 'object',
      properties: { ref: refSchema },
      required: ['ref'],
      additionalProperties: false,
    },
    runningLabel: 'Scrolling…',
    handler: onRef(({ el, ref, info }) => {
      revealElement(el);
      return { success: true, ...describe(el, ref, info) };
    }),
    summary: (_args: unknown, result: unknown) =>
      succeeded(result) ? `Scrolled to ${nameOf(result, 'the element')}` : failureText(result),
  };

  const navigate: BuiltinToolDefinition = {
    description:
      'Open another page of this same site (a path like "/pricing" or a full URL on this origin). The visitor is asked first. ' +
      'Other sites, javascript: and data: URLs are refused.',
    parameters: {
      type: 'object',
      properties: { url: { type: 'string', minLength: 1, maxLength: 2048, description: 'Path or same-origin URL.' } },
      required: ['url'],
      additionalProperties: false,
    },
    confirm: true,
    runningLabel: 'Opening the page…',
    handler: (args: Record<string, unknown>, context: HandlerContext) => {
      aborted(context);
      const raw = argString(args, 'url');
      if (!raw) return fail('navigate needs a "url".');
      const url = checkNavigationUrl(raw, root);
      if (!(url instanceof URL)) return url;
      navigateTo(url);
      return { success: true, url: url.href };
    },
    summary: (_args: unknown, result: unknown) => {
      if (!succeeded(result)) return failureText(result);
      const url = resultField(result, 'url');
      return typeof url === 'string' ? `Opened ${new URL(url).pathname}` : 'Opened the page';
    },
  };

  return {
    read_page: readPage,
    click_element: clickElement,
    fill_field: fillField,
    select_option: selectOption,
    scroll_to: scrollTo,
    navigate,
  };
}
