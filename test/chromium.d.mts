/** Path of this machine's Chromium (CHROMIUM_PATH, /usr/bin/chromium or /usr/bin/chromium-browser). */
export function chromiumPath(): string;
/** Launch flags for headless Chromium as root on a closed network. */
export const chromiumArgs: string[];
