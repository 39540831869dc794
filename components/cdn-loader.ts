/**
 * `dist/wave-chat.js`: the classic `<script async>` a site pastes. It stays tiny: it finds its
 * own URL and imports the widget's ES chunks from beside it, so the page pays only for what
 * the widget uses (the validator and voice load later, on first use).
 */
(() => {
  const script = document.currentScript;
  if (!(script instanceof HTMLScriptElement) || !script.src) {
    console.error('wave-chat: load me with <script src=".../wave-chat.js">');
    return;
  }
  const entry = new URL('cdn/wave-chat.mjs', script.src).href;
  import(/* @vite-ignore */ entry)
    .then((module: { boot(script: HTMLScriptElement): Promise<unknown> }) => module.boot(script))
    .catch((error: unknown) => console.error('wave-chat: failed to load', error));
})();
