import { svg } from 'lit';

/**
 * The launcher's two icons, in the widget's first chunk; icons.ts (with the panel's code) holds
 * the rest. Inline SVG (stroke in `currentColor`), decorative (`aria-hidden`): the button that
 * holds one carries the accessible name.
 */
export function icon(body: ReturnType<typeof svg>, name: string) {
  return svg`<svg class="wave-icon" data-icon=${name} viewBox="0 0 24 24" width="1.25em" height="1.25em" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${body}</svg>`;
}

export const launcherIcons = {
  /** Speech bubble: the launcher while closed. */
  chat: icon(svg`<path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1.1-4.6A8 8 0 1 1 21 12Z"/>`, 'chat'),
  /** Cross: close. */
  close: icon(svg`<path d="M6 6l12 12M18 6L6 18"/>`, 'close'),
} as const;
