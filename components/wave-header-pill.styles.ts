import { css } from 'lit';

export const headerPillStyles = css`
  :host {
    display: inline-flex;
    min-inline-size: 0;
  }
  :host([hidden]) {
    display: none;
  }
  button {
    border-radius: 999px;
    font-size: 0.8em;
    min-block-size: 1.75rem;
    padding-block: 0.15em;
    padding-inline: 0.75em;
    background: var(--_pill-bg, var(--wave-pill-bg, #fff8c5));
    color: var(--_pill-text, var(--wave-pill-text, #3d2e00));
    border-color: var(--_pill-border, var(--wave-pill-border, #d4a72c));
    white-space: nowrap;
    overflow: hidden;
    text-overflow: ellipsis;
    max-inline-size: 100%;
  }
`;
