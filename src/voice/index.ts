/** Voice engines behind one interface (SPEC §9), voice consent and the level meter. */
export { VoiceState, VoiceEngineKind, VoiceEndReason, VoiceToolWaitMs, VoiceStartTimeoutMs, VoiceAudioError, audioFailureReason } from './types.js';
export type { VoiceEngine, VoiceStartOptions, VoiceTranscriptEvent, UtteranceHandling, VoiceHeard, VoiceQuestion } from './types.js';
export { VoiceConsentDesk } from './voice-consent.js';
export type { VoiceConsentDeps } from './voice-consent.js';
export { withVoiceWait, voiceWaitResult } from './tool-wait.js';
export { createRealtimeEngine, createVoiceSessionClient } from './realtime-engine.js';
export type { RealtimeEngineOptions, VoiceSessionParams, WebSocketLike, WebSocketConstructorLike } from './realtime-engine.js';
export { createBrowserEngine, speakableText } from './browser-engine.js';
export type {
  BrowserEngineOptions,
  MicLevel,
  SpeechRecognitionLike,
  SpeechRecognitionConstructorLike,
  SpeechRecognitionEventLike,
  SpeechSynthesisLike,
  SpeechUtteranceLike,
  SpeechUtteranceConstructorLike,
} from './browser-engine.js';
export { createBrowserAudio, openMicrophone } from './browser-audio.js';
export type { RealtimeAudio, RealtimeAudioStartOptions, BrowserAudioOptions } from './browser-audio.js';
export { createLevelMeter } from './level-meter.js';
export type { LevelMeter } from './level-meter.js';
export { classifyVoiceAnswer, handleVoiceAnswer, grantAnswerable, VoiceAnswerKind, VOICE_EVIDENCE } from './voice-answer.js';
export type { VoiceAnswerTarget, VoiceAnswerHandling } from './voice-answer.js';
export { buildRealtimeSessionConfig, capVoiceContext, frameAsData, DEFAULT_VOICE_INSTRUCTIONS, VOICE_CONTEXT_MAX_CHARS } from './session-config.js';
export type { RealtimeFunctionTool, RealtimeSessionConfigOptions } from './session-config.js';
