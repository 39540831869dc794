// One place that knows where this machine's Firefox is (Debian's firefox-esr).
import { existsSync } from 'node:fs';

export function firefoxPath() {
  const candidates = [process.env.FIREFOX_PATH, '/usr/bin/firefox-esr', '/usr/bin/firefox'];
  const found = candidates.find((p) => p && existsSync(p));
  if (!found) throw new Error('Firefox not found: install it (apt-get install -y firefox-esr) or set FIREFOX_PATH');
  return found;
}
