/** Path of this machine's Firefox (FIREFOX_PATH, /usr/bin/firefox-esr or /usr/bin/firefox). */
export function firefoxPath(): string;
