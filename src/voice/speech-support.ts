/** Whether this browser has Web Speech recognition (the browser voice engine needs it). */
export function hasSpeechRecognition(): boolean {
  const g = globalThis as unknown as Record<string, unknown>;
  return typeof g['SpeechRecognition'] === 'function' || typeof g['webkitSpeechRecognition'] === 'function';
}
