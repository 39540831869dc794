import { svg } from 'lit';
import { icon, launcherIcons } from './launcher-icons.js';

/**
 * The widget's icons as inline SVG (stroke in `currentColor`), so they draw the same on every
 * machine: no emoji or symbol font is needed. Each is decorative (`aria-hidden`); the button
 * that holds it carries the accessible name. The launcher's own two are launcher-icons.ts's.
 *
 * @example
 * html`<button aria-label="Close">${icons.close}</button>`
 */
export const icons = {
  ...launcherIcons,
  /** Circular arrow: new conversation. */
  restart: icon(svg`<path d="M3 12a9 9 0 1 0 3-6.7"/><path d="M3 4v5h5"/>`, 'restart'),
  /** Microphone: start voice. */
  mic: icon(svg`<rect x="9" y="3" width="6" height="11" rx="3"/><path d="M5 11a7 7 0 0 0 14 0M12 18v3"/>`, 'mic'),
  /** Paper plane: send. */
  send: icon(svg`<path d="M4 12 20 4l-6 16-3-7-7-1Z"/>`, 'send'),
  /** Filled square: stop. */
  stop: icon(svg`<rect x="7" y="7" width="10" height="10" rx="1.5" fill="currentColor"/>`, 'stop'),
} as const;
