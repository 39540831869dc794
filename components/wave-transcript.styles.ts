import { css } from 'lit';

// The streaming caret is drawn (a block of currentColor), not a glyph a font might lack.
export const transcriptStyles = css`
  :host {
    display: block;
    overflow-y: auto;
    overscroll-behavior: contain;
    padding: 0.75rem;
    line-height: 1.45;
  }
  /* Scroll anchoring follows the bottom: only the end of the log may be the anchor (see #follow). */
  .log,
  .empty-state {
    overflow-anchor: none;
  }
  .end {
    overflow-anchor: auto;
    block-size: 1px;
  }
  .log {
    display: flex;
    flex-direction: column;
    gap: 0.5rem;
  }
  .message {
    max-inline-size: 88%;
    padding-block: 0.5rem;
    padding-inline: 0.75rem;
    border-radius: var(--_radius, var(--wave-radius, 12px));
    overflow-wrap: anywhere;
  }
  .message.user {
    align-self: flex-end;
    background: var(--_accent, var(--wave-accent, #2563eb));
    color: var(--_on-accent, var(--wave-on-accent, #fff));
    white-space: pre-wrap;
  }
  .message.assistant {
    align-self: flex-start;
    background: var(--_surface-2, var(--wave-surface-2, #f6f8fa));
  }
  .message.assistant > :first-child,
  .message.assistant p:first-child {
    margin-block-start: 0;
  }
  .message.assistant > :last-child,
  .message.assistant p:last-child {
    margin-block-end: 0;
  }
  .message[data-streaming]::after {
    content: '';
    display: inline-block;
    inline-size: 0.45em;
    block-size: 1em;
    vertical-align: text-bottom;
    background: currentColor;
  }
  /* Steady while text arrives; blinking once the reply pauses (see WaveTranscript.caretPauseMs). */
  .message[data-streaming][data-paused]::after {
    animation: blink 1s steps(2) infinite;
  }
  .marker {
    display: block;
    margin-block-start: 0.25rem;
    font-size: 0.8em;
    opacity: 0.85;
  }
  .message.assistant.empty .marker {
    margin: 0;
  }
  .message.assistant[data-stopped] .marker {
    color: var(--_muted, var(--wave-muted, #57606a));
    font-style: italic;
  }
  .message.queued {
    opacity: 0.75;
    border: 1px dashed currentColor;
  }
  .empty-state {
    color: var(--_muted, var(--wave-muted, #57606a));
    margin-block-end: 0.5rem;
  }
  .empty-state p {
    margin-block: 0 0.25rem;
  }
  .empty-state ul {
    margin: 0;
    padding-inline-start: 1.2rem;
  }
  .empty-state strong {
    color: var(--_text, var(--wave-text, #1f2328));
    font-weight: 600;
  }
  @keyframes blink {
    50% {
      opacity: 0;
    }
  }
  /* Assistant text before the Markdown renderer has loaded. */
  p.plain {
    white-space: pre-wrap;
  }
  p.raw {
    white-space: pre-wrap;
    font-family: var(--_mono, var(--wave-mono, ui-monospace, monospace));
    font-size: 0.9em;
  }
  pre {
    overflow-x: auto;
    padding: 0.5rem;
    border-radius: calc(var(--_radius, var(--wave-radius, 12px)) / 2);
    background: var(--_code-bg, var(--wave-code-bg, rgba(127, 127, 127, 0.15)));
    direction: ltr;
  }
  code {
    font-family: var(--_mono, var(--wave-mono, ui-monospace, monospace));
    font-size: 0.9em;
  }
  a {
    color: var(--_link, var(--wave-link, var(--_accent, #2563eb)));
  }
  img {
    max-inline-size: 100%;
    block-size: auto;
  }
  .image-alt,
  .link-blocked {
    font-style: italic;
  }
  .table-wrap {
    overflow-x: auto;
  }
  table {
    border-collapse: collapse;
  }
  th,
  td {
    border: 1px solid var(--_border, var(--wave-border, #d0d7de));
    padding-block: 0.2rem;
    padding-inline: 0.4rem;
    text-align: start;
  }
  .align-center {
    text-align: center;
  }
  .align-right {
    text-align: end;
  }
  blockquote {
    margin-inline: 0;
    padding-inline-start: 0.75rem;
    border-inline-start: 3px solid var(--_border, var(--wave-border, #d0d7de));
  }
  .notice {
    align-self: stretch;
    display: flex;
    align-items: center;
    gap: 0.5rem;
    flex-wrap: wrap;
    padding: 0.5rem 0.75rem;
    border-radius: var(--_radius, var(--wave-radius, 12px));
    background: var(--_surface-2, var(--wave-surface-2, #f6f8fa));
    font-size: 0.9em;
  }
  .notice.error {
    color: var(--_danger, var(--wave-danger, #cf222e));
    border: 1px solid currentColor;
  }
  .restored {
    opacity: 0.85;
  }
  .log > * {
    /* Off-screen rows skip layout and paint: a long transcript costs what is visible. */
    content-visibility: auto;
    contain-intrinsic-size: auto 3rem;
  }
`;
