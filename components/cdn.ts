/**
 * The CDN file (`dist/wave-chat.js`, a classic `<script async>`): defines the elements and boots
 * one floating `<wave-chat>` from the `data-*` attributes of its script tag, then publishes it as
 * `window.VAWaveWidget`. Imported as a module it only defines the elements.
 */
import { LitElement } from 'lit';
import { WaveChat } from './wave-chat.js';

// The launcher's element only: the panel's elements are defined when its code loads (wave-panel.ts).
if (!customElements.get('wave-chat')) customElements.define('wave-chat', WaveChat);

declare global {
  interface Window {
    /** The live widget created by the CDN script (the name the page-tools docs poll for). */
    VAWaveWidget?: WaveChat;
  }
}

const ATTRIBUTES: ReadonlyArray<[dataKey: string, attribute: string]> = [
  ['siteId', 'site-id'],
  ['costUnit', 'cost-unit'],
  ['theme', 'theme'],
  // `data-confirm-opens="false"`: a confirmation behind the closed panel badges the launcher instead.
  ['confirmOpens', 'confirm-opens'],
];

function domReady(): Promise<void> {
  if (document.body) return Promise.resolve();
  return new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }));
}

/**
 * Creates the floating widget for a `<script data-site-id data-endpoint>` tag.
 * Several tags on one page still make one widget: the first wins.
 */
export async function boot(script: HTMLScriptElement): Promise<WaveChat> {
  const existing = window.VAWaveWidget;
  if (existing) return existing;
  await domReady();
  const el = document.createElement('wave-chat') as WaveChat;
  el.setAttribute('floating', '');
  for (const [dataKey, attribute] of ATTRIBUTES) {
    const value = script.dataset[dataKey];
    if (value) el.setAttribute(attribute, value);
  }
  // The endpoint defaults to the wave server beside the script; a relative value resolves against the page.
  const endpoint = script.dataset.endpoint
    ? new URL(script.dataset.endpoint, document.baseURI).href
    : new URL('/wave', script.src).href;
  el.setAttribute('endpoint', endpoint);
  if (script.dataset.open === 'true') el.setAttribute('open', '');
  // Opt-in WebMCP bridge: `data-webmcp` (empty or any value but "false").
  if (script.dataset.webmcp !== undefined && script.dataset.webmcp !== 'false') el.setAttribute('webmcp', '');
  document.body.append(el);
  await customElements.whenDefined('wave-chat');
  // Usable once the launcher has rendered: with data-open the panel's own chunks are not waited for
  // (the element's updateComplete would include their load).
  await (LitElement.prototype as unknown as { getUpdateComplete(this: WaveChat): Promise<boolean> }).getUpdateComplete.call(el);
  window.VAWaveWidget = el;
  // A User Timing mark, so a site (and our bench) can see when the widget became usable.
  performance.mark?.('wave-chat-ready');
  window.dispatchEvent(new CustomEvent('wave-chat-ready', { detail: { widget: el } }));
  return el;
}

// Run as the page's classic script: boot from this tag (a module has no current script).
const current = typeof document !== 'undefined' ? document.currentScript : null;
if (current instanceof HTMLScriptElement) {
  if (current.src) boot(current).catch((error: unknown) => console.error('wave-chat: failed to start', error));
  else console.error('wave-chat: load me with <script src=".../wave-chat.js">');
}
