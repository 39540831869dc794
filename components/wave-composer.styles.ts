import { css } from 'lit';

export const composerStyles = css`
  :host {
    display: block;
    padding: 0.5rem;
    border-block-start: 1px solid var(--_border, var(--wave-border, #d0d7de));
  }
  form {
    display: flex;
    align-items: flex-end;
    gap: 0.4rem;
  }
  textarea {
    flex: 1;
    min-inline-size: 0;
    resize: none;
    font: inherit;
    color: inherit;
    background: var(--_surface, var(--wave-surface, #fff));
    border: 1px solid var(--_border, var(--wave-border, #d0d7de));
    border-radius: calc(var(--_radius, var(--wave-radius, 12px)) / 2);
    padding: 0.45rem 0.6rem;
    max-block-size: 8rem;
    field-sizing: content;
    min-block-size: 2.25rem;
  }

  form button {
    flex: none;
    min-block-size: 2.25rem;
    min-inline-size: 2.25rem;
    display: inline-grid;
    place-items: center;
    padding: 0;
  }
  .notice {
    margin: 0.4rem 0 0;
    font-size: 0.85em;
    color: var(--_danger, var(--wave-danger, #b42318));
  }
`;
