import { css } from 'lit';

export const voiceBubbleStyles = css`
  :host {
    display: flex;
    flex-direction: column;
    align-items: center;
    gap: 0.75rem;
    padding: 1rem;
    --_level: 0;
  }
  .status {
    min-block-size: 1.5em;
    text-align: center;
    overflow-wrap: anywhere;
  }
  .waves {
    display: flex;
    align-items: center;
    justify-content: center;
    gap: 6px;
    block-size: 72px;
    inline-size: 120px;
  }
  .bar {
    inline-size: 10px;
    block-size: 100%;
    border-radius: 5px;
    background: var(--_accent, var(--wave-accent, #2563eb));
    transform-origin: center;
    /* Rest at a small dot; scale with the live level, each bar with its own gain. */
    transform: scaleY(calc(0.12 + var(--_level) * var(--_gain)));
    transition: transform 80ms linear;
  }
  .bar:nth-child(1),
  .bar:nth-child(5) {
    --_gain: 0.45;
  }
  .bar:nth-child(2),
  .bar:nth-child(4) {
    --_gain: 0.7;
  }
  .bar:nth-child(3) {
    --_gain: 0.88;
  }
  @media (prefers-reduced-motion: reduce) {
    .bar {
      transform: none;
      transition: none;
      block-size: 30%;
      opacity: 0.4;
    }
    :host([speaking]) .bar {
      opacity: 1;
    }
  }
  .confirm {
    align-self: stretch;
  }
`;
