/** Defines every wave-chat element once (safe to import more than once, or beside another copy). */
import { WaveChat } from './wave-chat.js';
import { WaveComposer } from './wave-composer.js';
import { WaveHeaderPill } from './wave-header-pill.js';
import { WaveToolChip } from './wave-tool-chip.js';
import { WaveTranscript } from './wave-transcript.js';
import { WaveVoiceBubble } from './wave-voice-bubble.js';

const elements: ReadonlyArray<[string, CustomElementConstructor]> = [
  ['wave-tool-chip', WaveToolChip],
  ['wave-header-pill', WaveHeaderPill],
  ['wave-transcript', WaveTranscript],
  ['wave-composer', WaveComposer],
  ['wave-voice-bubble', WaveVoiceBubble],
  ['wave-chat', WaveChat],
];

for (const [name, ctor] of elements) {
  if (!customElements.get(name)) customElements.define(name, ctor);
}

declare global {
  interface HTMLElementTagNameMap {
    'wave-chat': WaveChat;
    'wave-transcript': WaveTranscript;
    'wave-tool-chip': WaveToolChip;
    'wave-header-pill': WaveHeaderPill;
    'wave-composer': WaveComposer;
    'wave-voice-bubble': WaveVoiceBubble;
  }
}
