/**
 * Prints the dictionary words one edit from a key word of src/guard/typos.ts that it does not list as
 * real words yet (to paste into DICTIONARY_NEIGHBOURS after changing the key words). Reads Debian's
 * word lists (`apt-get install wamerican wbritish`); not part of the tests.
 *
 *   node --import tsx test/guard-model/typo-neighbours.ts
 */
import { existsSync, readFileSync } from 'node:fs';
import { KEY_WORDS, keyWordFor, listedRealWord } from '../../src/guard/typos.js';

const LISTS = ['/usr/share/dict/american-english', '/usr/share/dict/british-english'];
const found = LISTS.filter((f) => existsSync(f));
if (found.length === 0) {
  console.error(`none of ${LISTS.join(', ')}: apt-get install wamerican wbritish`);
  process.exit(1);
}
const keys = new Set(KEY_WORDS);
const words = new Set<string>();
for (const f of found) for (const w of readFileSync(f, 'utf8').split('\n')) if (/^[A-Za-z]{5,}$/.test(w)) words.add(w.toLowerCase());
// keyWordFor answers null for listed words and for a key word's own -s/-d/-r form: what it still
// corrects is what is missing.
const missing = [...words].filter((w) => !keys.has(w) && !listedRealWord(w) && keyWordFor(w) !== null).sort();
console.log(missing.length === 0 ? 'every dictionary neighbour of a key word is listed' : `${missing.length} to add:\n${missing.join(' ')}`);
process.exit(missing.length === 0 ? 0 : 1);
