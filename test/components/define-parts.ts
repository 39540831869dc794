/** Defines the sub-elements only, so their tests do not load the core session (wave-chat.ts). */
import { WaveComposer } from '../../components/wave-composer.js';
import { WaveHeaderPill } from '../../components/wave-header-pill.js';
import { WaveToolChip } from '../../components/wave-tool-chip.js';
import { WaveTranscript } from '../../components/wave-transcript.js';
import { WaveVoiceBubble } from '../../components/wave-voice-bubble.js';

const parts: ReadonlyArray<[string, CustomElementConstructor]> = [
  ['wave-tool-chip', WaveToolChip],
  ['wave-header-pill', WaveHeaderPill],
  ['wave-transcript', WaveTranscript],
  ['wave-composer', WaveComposer],
  ['wave-voice-bubble', WaveVoiceBubble],
];
for (const [name, ctor] of parts) if (!customElements.get(name)) customElements.define(name, ctor);
