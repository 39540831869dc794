/**
 * Acting on the page as a visitor would: the event sequences frameworks listen to, and value
 * writes through the native setter so React's value tracker and Vue's v-model see the change.
 */
import { viewOf } from './dom.js';

/** Scrolls `el` (and the frames holding it) into the middle of the view, at once. */
export function revealElement(el: Element): void {
  const frame = el.ownerDocument.defaultView?.frameElement;
  if (frame) revealElement(frame);
  el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
}

/** Focuses `el` without scrolling again, as a pointer press or a tab would. */
function focusElement(el: Element): void {
  const focusable = el as HTMLElement;
  if (typeof focusable.focus === 'function') focusable.focus({ preventScroll: true });
}

/**
 * Clicks like a mouse: pointer and mouse events at the element's centre, focus on press, then a
 * `click` whose default action toggles checkboxes, follows links and submits forms.
 *
 * @example
 * simulateClick(document.querySelector('button')!); // true unless a listener prevented the default
 */
export function simulateClick(el: Element): boolean {
  revealElement(el);
  const view = viewOf(el);
  const rect = el.getBoundingClientRect();
  const at = {
    bubbles: true,
    cancelable: true,
    composed: true,
    view,
    clientX: rect.left + rect.width / 2,
    clientY: rect.top + rect.height / 2,
    button: 0,
    detail: 1,
  };
  const pointer = { ...at, pointerId: 1, pointerType: 'mouse', isPrimary: true };
  el.dispatchEvent(new view.PointerEvent('pointerover', pointer));
  el.dispatchEvent(new view.PointerEvent('pointerenter', { ...pointer, bubbles: false, cancelable: false }));
  el.dispatchEvent(new view.MouseEvent('mouseover', at));
  el.dispatchEvent(new view.MouseEvent('mouseenter', { ...at, bubbles: false, cancelable: false }));
  el.dispatchEvent(new view.PointerEvent('pointermove', pointer));
  el.dispatchEvent(new view.MouseEvent('mousemove', at));
  el.dispatchEvent(new view.PointerEvent('pointerdown', { ...pointer, buttons: 1 }));
  const pressed = el.dispatchEvent(new view.MouseEvent('mousedown', { ...at, buttons: 1 }));
  // A mousedown listener that prevents default also prevents the focus change, as in a browser.
  if (pressed) focusElement(el);
  el.dispatchEvent(new view.PointerEvent('pointerup', pointer));
  el.dispatchEvent(new view.MouseEvent('mouseup', at));
  return el.dispatchEvent(new view.MouseEvent('click', at));
}

/** Writes `value` through the prototype's setter, bypassing any instance-level override. */
export function setNativeValue(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void {
  const view = viewOf(el);
  const proto =
    el.localName === 'textarea'
      ? view.HTMLTextAreaElement.prototype
      : el.localName === 'select'
        ? view.HTMLSelectElement.prototype
        : view.HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  if (setter) setter.call(el, value);
  else el.value = value;
}

/** Dispatches the bubbling `input` then `change` events a typed or chosen value produces. */
export function dispatchValueEvents(el: Element, data: string | null): void {
  const view = viewOf(el);
  el.dispatchEvent(new view.InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data }));
  el.dispatchEvent(new view.Event('change', { bubbles: true }));
}

/**
 * Types into a text field: focus, select what is there, native value write, `input`, `change`.
 * Never presses Enter, so the field's form is never submitted.
 */
export function fillText(el: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  revealElement(el);
  focusElement(el);
  try {
    el.select();
  } catch {
    // Some input types (number, date) cannot be selected; the write below replaces the value anyway.
  }
  setNativeValue(el, value);
  dispatchValueEvents(el, value);
}

/** Replaces a contenteditable host's text through the editing pipeline (beforeinput/input fire). */
export function fillEditable(el: HTMLElement, value: string): void {
  revealElement(el);
  focusElement(el);
  const doc = el.ownerDocument;
  const selection = doc.getSelection();
  const range = doc.createRange();
  range.selectNodeContents(el);
  selection?.removeAllRanges();
  selection?.addRange(range);
  // execCommand is the one way to go through the editor's own input handling.
  const inserted = doc.execCommand('insertText', false, value);
  if (!inserted) {
    el.textContent = value;
    dispatchValueEvents(el, value);
  }
}

/** Chooses options of a `<select>` and fires `input` and `change` like a visitor's pick. */
export function chooseOption(select: HTMLSelectElement, option: HTMLOptionElement): void {
  revealElement(select);
  focusElement(select);
  if (select.multiple) option.selected = true;
  else setNativeValue(select, option.value);
  // Duplicate values: make sure the exact option chosen is the selected one.
  if (!option.selected) option.selected = true;
  dispatchValueEvents(select, null);
}
