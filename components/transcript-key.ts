/**
 * Where a site's kept conversation lives (IndexedDB key, and the tabs' channel name): in a
 * module of its own, so the widget's first chunk names it without the store's code.
 *
 * @example
 * transcriptKey('demo'); // 'wave-chat:transcript:demo'
 */
export function transcriptKey(siteId: string): string {
  return `wave-chat:transcript:${siteId || 'default'}`;
}

/** The BroadcastChannel on which a site's tabs say they changed its kept conversation (`key` from `transcriptKey`). */
export function keptChannelName(key: string): string {
  return `wave-chat:kept:${key}`;
}
