/** Both voice engines, one lazily loaded chunk: imported when the visitor first starts voice. */
export { createRealtimeEngine, createVoiceSessionClient } from './realtime-engine.js';
export { createBrowserEngine } from './browser-engine.js';
