import { css } from 'lit';

/**
 * Shared base for every element: private `--_*` tokens read with a fallback, so a sub-element
 * works standalone and inherits `<wave-chat>`'s theme when inside it.
 */
export const baseStyles = css`
  :host {
    box-sizing: border-box;
    font-family: var(--_font, var(--wave-font, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif));
    color: var(--_text, var(--wave-text, #1f2328));
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  :host([hidden]),
  [hidden] {
    display: none !important;
  }
  button {
    font: inherit;
    cursor: pointer;
    border-radius: calc(var(--_radius, var(--wave-radius, 12px)) / 2);
    border: 1px solid var(--_border, var(--wave-border, #d0d7de));
    background: var(--_surface-2, var(--wave-surface-2, #f6f8fa));
    color: inherit;
    padding-block: 0.35em;
    padding-inline: 0.8em;
    min-block-size: 2.25rem;
  }
  button:focus-visible,
  [tabindex]:focus-visible,
  textarea:focus-visible,
  a:focus-visible {
    outline: 2px solid var(--_focus, var(--wave-focus, var(--_accent, #2563eb)));
    outline-offset: 2px;
  }
  button.primary {
    background: var(--_accent, var(--wave-accent, #2563eb));
    border-color: var(--_accent, var(--wave-accent, #2563eb));
    color: var(--_on-accent, var(--wave-on-accent, #fff));
  }
  .visually-hidden {
    position: absolute !important;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  @media (prefers-reduced-motion: reduce) {
    *,
    *::before,
    *::after {
      animation: none !important;
      transition: none !important;
    }
  }
`;
