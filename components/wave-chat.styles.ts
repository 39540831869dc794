import { css } from 'lit';

/** The dark palette, one copy: for theme="dark", and for theme="auto" under a dark colour scheme. */
const darkTokens = css`
  --_accent: var(--wave-dark-accent, #6ea8fe);
  --_on-accent: var(--wave-dark-on-accent, #0b1220);
  --_surface: var(--wave-dark-surface, #16181d);
  --_surface-2: var(--wave-dark-surface-2, #23262d);
  --_text: var(--wave-dark-text, #e6e8eb);
  --_muted: var(--wave-dark-muted, #9aa4b2);
  --_border: var(--wave-dark-border, #3a3f48);
  --_danger: var(--wave-dark-danger, #ff8182);
  --_success: var(--wave-dark-success, #56d364);
  --_focus: var(--wave-dark-focus, #6ea8fe);
  --_pill-bg: var(--wave-dark-pill-bg, #3b2f00);
  --_pill-text: var(--wave-dark-pill-text, #f8e3a1);
  --_pill-border: var(--wave-dark-pill-border, #9e6a03);
`;

// Inline, the panel fits the element's box: a host with a set height (less the launcher) caps it.
// Floating: launcher and panel are placed from the visual viewport (--_vv-*, kept by the element
// from window.visualViewport), so a page wider than the screen, pinch zoom or an on-screen
// keyboard never pushes them off screen; before the script has measured, 100vw / 100dvh.
// (Comments inside the css template would ship in the bundle.)
export const waveChatStyles = css`
  :host {
    /* Public --wave-* properties mapped once to private tokens the sub-elements read. */
    --_accent: var(--wave-accent, #2563eb);
    --_on-accent: var(--wave-on-accent, #ffffff);
    --_surface: var(--wave-surface, #ffffff);
    --_surface-2: var(--wave-surface-2, #f3f4f6);
    --_text: var(--wave-text, #1f2328);
    --_muted: var(--wave-muted, #57606a);
    --_border: var(--wave-border, #d0d7de);
    --_danger: var(--wave-danger, #b42318);
    --_success: var(--wave-success, #1a7f37);
    --_focus: var(--wave-focus, #2563eb);
    --_radius: var(--wave-radius, 12px);
    --_font: var(--wave-font, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    --_z-index: var(--wave-z-index, 2147483000);
    --_panel-width: var(--wave-panel-width, 380px);
    --_panel-height: var(--wave-panel-height, 600px);
    --_offset: var(--wave-offset, 20px);
    --_shadow: var(--wave-shadow, 0 12px 32px rgba(0, 0, 0, 0.18));
    --_pill-bg: var(--wave-pill-bg, #fff8c5);
    --_pill-text: var(--wave-pill-text, #3d2e00);
    --_pill-border: var(--wave-pill-border, #d4a72c);
    display: block;
    font-size: var(--wave-font-size, 15px);
  }
  :host([theme='dark']) {
    ${darkTokens}
  }
  @media (prefers-color-scheme: dark) {
    :host([theme='auto']),
    :host(:not([theme])) {
      ${darkTokens}
    }
  }
  .launcher {
    inline-size: 56px;
    block-size: 56px;
    border-radius: 50%;
    padding: 0;
    display: inline-grid;
    place-items: center;
    font-size: 24px;
    box-shadow: var(--_shadow);
    position: relative;
  }
  .launcher-badge {
    position: absolute;
    inset-block-start: 2px;
    inset-inline-end: 2px;
    inline-size: 14px;
    block-size: 14px;
    border-radius: 50%;
    background: var(--_danger);
    border: 2px solid var(--_surface);
  }
  .panel {
    display: flex;
    flex-direction: column;
    inline-size: min(var(--_panel-width), 100%);
    block-size: var(--_panel-height);
    max-block-size: calc(100% - 56px);
    background: var(--_surface);
    color: var(--_text);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    overflow: hidden;
  }
  :host([floating]) .launcher {
    position: fixed;
    inset-block-start: calc(var(--_vv-y, 0px) + var(--_vv-h, 100dvh) - var(--_offset));
    left: calc(var(--_vv-x, 0px) + var(--_vv-w, 100vw) - var(--_offset));
    transform: translate(-100%, -100%);
    z-index: var(--_z-index);
  }
  :host([floating]) .panel {
    position: fixed;
    inset-block-start: calc(var(--_vv-y, 0px) + var(--_vv-h, 100dvh) - var(--_offset) - 68px);
    left: calc(var(--_vv-x, 0px) + var(--_vv-w, 100vw) - var(--_offset));
    transform: translate(-100%, -100%);
    inline-size: min(var(--_panel-width), calc(var(--_vv-w, 100vw) - 2 * var(--_offset)));
    block-size: min(var(--_panel-height), calc(var(--_vv-h, 100dvh) - 2 * var(--_offset) - 68px));
    max-block-size: none;
    z-index: var(--_z-index);
    box-shadow: var(--_shadow);
  }
  :host([floating]:dir(rtl)) .launcher,
  :host([floating]:dir(rtl)) .panel {
    left: calc(var(--_vv-x, 0px) + var(--_offset));
    transform: translate(0, -100%);
  }
  @media (max-width: 480px) {
    :host([floating]) .panel,
    :host([floating]:dir(rtl)) .panel {
      inset-block-start: var(--_vv-y, 0px);
      left: var(--_vv-x, 0px);
      transform: none;
      inline-size: var(--_vv-w, 100vw);
      block-size: var(--_vv-h, 100dvh);
      border-radius: 0;
      border: none;
    }
    :host([floating][open]) .launcher {
      display: none;
    }
  }
  header {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    padding-block: 0.5rem;
    padding-inline: 0.75rem;
    border-block-end: 1px solid var(--_border);
    flex-wrap: wrap;
  }
  .title {
    font-weight: 600;
  }
  .model {
    font-size: 0.8em;
    color: var(--_muted);
  }
  .badge {
    font-size: 0.75em;
    border: 1px solid var(--_border);
    border-radius: 999px;
    padding-inline: 0.5em;
    color: var(--_muted);
  }
  .spacer {
    flex: 1;
  }
  header button.icon {
    padding: 0;
    inline-size: 2.25rem;
    block-size: 2.25rem;
    display: inline-grid;
    place-items: center;
    border: none;
    background: transparent;
  }
  .launcher .wave-icon {
    inline-size: 26px;
    block-size: 26px;
  }
  wave-transcript {
    flex: 1;
    min-block-size: 0;
  }
  wave-voice-bubble {
    flex: 1;
    justify-content: center;
  }
`;
