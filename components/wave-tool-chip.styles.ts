import { css } from 'lit';

export const toolChipStyles = css`
  :host {
    display: block;
    margin-block: 0.35rem;
  }
  .chip {
    display: flex;
    flex-direction: column;
    gap: 0.4rem;
    padding-block: 0.45rem;
    padding-inline: 0.7rem;
    border-radius: var(--_radius, var(--wave-radius, 12px));
    border: 1px solid var(--_border, var(--wave-border, #d0d7de));
    background: var(--_surface-2, var(--wave-surface-2, #f6f8fa));
    font-size: 0.9em;
    max-inline-size: 100%;
    overflow-wrap: anywhere;
  }
  .line {
    display: flex;
    align-items: center;
    gap: 0.5rem;
  }
  .chip[data-status='succeeded'] {
    border-color: var(--_success, var(--wave-success, #1a7f37));
  }
  .chip[data-status='failed'] {
    border-color: var(--_danger, var(--wave-danger, #cf222e));
    color: var(--_danger, var(--wave-danger, #cf222e));
  }
  .chip[data-status='cancelled'],
  .chip[data-status='declined'] {
    opacity: 0.75;
    font-style: italic;
  }
  .chip[data-status='awaiting-confirmation'] {
    border-color: var(--_accent, var(--wave-accent, #2563eb));
    border-width: 2px;
  }
  .icon {
    flex: none;
    inline-size: 1em;
    block-size: 1em;
    display: inline-grid;
    place-items: center;
  }
  .spinner {
    border: 2px solid currentColor;
    border-inline-end-color: transparent;
    border-radius: 50%;
    animation: spin 0.8s linear infinite;
  }
  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }
  .cost,
  .origin {
    opacity: 0.85;
  }
  .buttons {
    display: flex;
    flex-wrap: wrap;
    gap: 0.4rem;
  }
  [part~='chip']:focus-visible {
    outline: 2px solid var(--_accent, var(--wave-accent, #2563eb));
    outline-offset: 2px;
  }
`;
