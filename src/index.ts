/**
 * wave-chat's framework-free core: page tools, consent, context, the conversation loop and its
 * transport. The `<wave-chat>` element lives in `components/`; the wave server in `src/server/`.
 */
export { WaveSession } from './agent/wave-session.js';
export type { WaveSessionOptions, SessionLoop, SessionLoopDeps } from './agent/wave-session.js';
export { SessionShell } from './agent/session-shell.js';
export type { SessionShellOptions, SessionParts, LoadedSession } from './agent/session-shell.js';
export { createBrowserSession, createVoiceEngine, hasSpeechRecognition, voiceLevelSource, VoicePreference } from './agent/browser-session.js';
export type { BrowserSessionOptions, VoiceEngineFactoryOptions, VoiceEngineSession } from './agent/browser-session.js';
export { ConversationLoop } from './agent/conversation-loop.js';
export type { ConversationLoopOptions, LoopUpdate } from './agent/conversation-loop.js';
export { ChipStatus, ConversationStatus, NoticeKind } from './agent/types.js';
export { VoiceFailure } from './voice/voice-failure.js';
export type {
  NoticeFact,
  PageToolsApi,
  SessionState,
  ToolPart,
  TranscriptItem,
  Unsubscribe,
  WaveCoreEvent,
  WaveCoreEventType,
  WaveSessionApi,
} from './agent/types.js';

export { ToolRegistry } from './tools/registry.js';
export type { RegisteredTool, ToolRegistryOptions } from './tools/registry.js';
export { ArgumentValidator } from './tools/validator.js';
export type { ValidationResult } from './tools/validator.js';
export { ToolDeferral } from './tools/deferral.js';
export { ToolRunner } from './tools/runner.js';
export type { BuiltinToolDefinition, ToolRunOptions, ToolRunnerOptions } from './tools/runner.js';
export { sanitizeResult, isFailure } from './tools/sanitize.js';
export { checkParametersSchema } from './tools/schema-check.js';
export { RESERVED_TOOL_NAMES, ToolFailure, ToolLimits, ToolOutcomeStatus } from './tools/types.js';
export { keyArgument, readableToolName, toolTitle } from './tools/tool-title.js';
export type {
  HandlerContext,
  HostToolSchema,
  PageToolSchema,
  JsonSchema,
  SanitizedResult,
  ToolCall,
  ToolDefinition,
  ToolOutcome,
} from './tools/types.js';

export { ConfirmationGate } from './consent/confirmation-gate.js';
export { SpendGrant, SpendGrantLimits } from './consent/spend-grant.js';
export { CancelReason, ConfirmDecision } from './consent/types.js';
export type { ConfirmationRequest, SpendGrantState, VisitorEvidence } from './consent/types.js';

export { PageContext } from './context/page-context.js';
export { createPageTools, createLazyPageTools } from './page/index.js';
export type { LazyPageTools, PageToolsOptions } from './page/index.js';
export { VoiceState, VoiceEngineKind, VoiceEndReason, classifyVoiceAnswer, createLevelMeter } from './voice/index.js';
export type { VoiceEngine, VoiceStartOptions } from './voice/index.js';

export { createSseTransport, TransportError } from './transport/sse-client.js';
export type { ModelTransport, SseTransportOptions } from './transport/sse-client.js';
export { PROTOCOL_VERSION } from './transport/protocol.js';
export type { WaveMessage, WaveRequest, WaveStreamEvent, WaveToolCall } from './transport/protocol.js';

export { systemClock } from './clock.js';
export type { Clock } from './clock.js';
export { MemoryStorage, sessionStorageOrMemory, sessionStorageOnFirstUse } from './storage.js';
export type { KeyValueStorage } from './storage.js';
