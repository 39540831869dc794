import { svg } from 'lit';

/**
 * The widget's icons as inline SVG (stroke in `currentColor`), so they draw the same on every
 * machine: no emoji or symbol font is needed. Each is decorative (`aria-hidden`); the button
 * that holds it carries the accessible name.
 *
 * @example
 * html`<button aria-label="Close">${icons.close}</button>`
 */
function icon(body: ReturnType<typeof svg>, name: string) {
  return svg`<svg class="wave-icon" data-icon=${name} viewBox="0 0 24 24" width="1.25em" height="1.25em" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${body}</svg>`;
}

export const icons = {
  /** Speech bubble: the launcher while closed. */
  chat: icon(svg`<path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1.1-4.6A8 8 0 1 1 21 12Z"/>`, 'chat'),
  /** Cross: close. */
  close: icon(svg`<path d="M6 6l12 12M18 6L6 18"/>`, 'close'),
  /** Circular arrow: new conversation. */
  restart: icon(svg`<path d="M3 12a9 9 0 1 0 3-6.7"/><path d="M3 4v5h5"/>`, 'restart'),
  /** Microphone: start voice. */
  mic: icon(svg`<rect x="9" y="3" width="6" height="11" rx="3"/><path d="M5 11a7 7 0 0 0 14 0M12 18v3"/>`, 'mic'),
  /** Paper plane: send. */
  send: icon(svg`<path d="M4 12 20 4l-6 16-3-7-7-1Z"/>`, 'send'),
  /** Filled square: stop. */
  stop: icon(svg`<rect x="7" y="7" width="10" height="10" rx="1.5" fill="currentColor"/>`, 'stop'),
} as const;
