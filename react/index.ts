/**
 * `wave-chat/react`: the widget for React 19 apps. `react` and `react-dom` are peer
 * dependencies; nothing of this is in the CDN file.
 */
export { WaveChat, WaveChatContext, WaveChatElementComponent, type WaveChatProps } from './wave-chat.js';
export { useWaveChat, useWaveContext, useWaveTool, type WaveChatTarget, type WaveToolDefinition } from './hooks.js';
export type { WaveChat as WaveChatElement } from '../components/wave-chat.js';
