/** The elements of wave-chat, their events and helpers (explicit named exports only). */
export { WaveChat, WaveTheme } from './wave-chat.js';
export { WaveTranscript } from './wave-transcript.js';
export { WaveToolChip, chipText, type ToolItem } from './wave-tool-chip.js';
export { evidenceFrom } from './controllers/visitor-evidence.js';
export { guardVisitorActions, isLiveVisitorEvent } from './controllers/visitor-guard.js';
export { WaveHeaderPill } from './wave-header-pill.js';
export { WaveVoiceBubble } from './wave-voice-bubble.js';
export { WaveComposer, WaveComposerSubmitEvent } from './wave-composer.js';
export { SessionController, type SessionControllerOptions } from './controllers/session-controller.js';
export { renderMarkdown, safeLinkHref, safeImageSrc, decodeEntities, type MarkdownOptions } from './markdown.js';
export { defaultLabels, formatLabel, resolveLabels, chipDoneText, noticeText, type LabelTemplate, type LabelValues, type WaveLabels } from './labels.js';
export { idbTranscriptStore, persistableItems, type TranscriptStore } from './transcript-store.js';
export {
  toDomEvent,
  WaveEvent,
  WaveToolCallRequestedEvent,
  WaveToolCallStartedEvent,
  WaveToolCallSucceededEvent,
  WaveToolCallFailedEvent,
  WaveToolCallCancelledEvent,
  WaveConfirmationShownEvent,
  WaveConfirmationAnsweredEvent,
  WaveGrantStartedEvent,
  WaveGrantRaisedEvent,
  WaveGrantRevokedEvent,
  WaveGrantExpiredEvent,
  WaveMessageSentEvent,
  WaveMessageReceivedEvent,
  WaveVoiceStartedEvent,
  WaveVoiceEndedEvent,
  WaveVoiceRequestEvent,
  type WaveDomEvent,
  type WaveEventDetail,
} from './events.js';
