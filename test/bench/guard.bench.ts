/**
 * Guard benchmark: neutralise throughput (MB/s) on realistic inputs and per-family
 * neutralisation / false-positive figures over the corpora in test/corpora.
 * and the adversarial generator's figures through the real server (issue 10), per family,
 * mutation and position. Run: npm run bench -- guard (or node --import tsx test/bench/guard.bench.ts)
 */
import { readFileSync, readdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createNonce, envelope, neutralizeInstructions } from '../../src/guard/index.js';
import { BENIGN_PAGE_SETS, OWN_ATTACK_SETS, bfclDescriptions, runAdversarial } from '../server/guard-adversarial.js';

const CORPORA = new URL('../corpora/', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, CORPORA), 'utf8');
type Row = Record<string, unknown>;
const rows = (path: string): Row[] => JSON.parse(read(path)) as Row[];
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** MB/s of CPU time (not wall time: the machine may be shared), best of 5 rounds of at least 200 ms. */
function throughput(label: string, texts: string[], fn: (t: string) => unknown): void {
  const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
  for (const t of texts.slice(0, 200)) fn(t); // warm-up
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    let runs = 0;
    const start = process.cpuUsage();
    let spent = 0;
    while (spent < 200_000) {
      for (const t of texts) fn(t);
      runs++;
      const used = process.cpuUsage(start);
      spent = used.user + used.system;
    }
    best = Math.min(best, spent / 1e6 / runs);
  }
  console.log(`${label.padEnd(44)} ${(bytes / best / 1e6).toFixed(1).padStart(7)} MB/s  (${texts.length} texts, ${(bytes / 1024).toFixed(0)} KB, CPU time)`);
}

const cse = rows('cyberseceval-prompt-injection/prompt_injection.json');
const ml = rows('cyberseceval-prompt-injection/prompt_injection_multilingual_machine_translated.json');
const wildguard = rows('wildguard-benign/wildguard.json').map((x) => str(x['prompt']));
const notinject = ['one', 'two', 'three'].flatMap((n) => rows(`notinject/NotInject_${n}.json`).map((x) => str(x['prompt'])));
const bfcl = bfclDescriptions([
  'BFCL_v4_live_simple.jsonl',
  'BFCL_v4_simple_javascript.jsonl',
  ...readdirSync(new URL('bfcl-tool-docs/multi_turn_func_doc/', CORPORA)).map((x) => `multi_turn_func_doc/${x}`),
]);
// A typical tool result: JSON of a task list, ASCII, ~3 KB.
const result = JSON.stringify({ success: true, tasks: Array.from({ length: 40 }, (_, i) => ({ id: `t${i}`, title: `Task number ${i} for the launch`, status: 'todo', price: `$${i}.99` })) });

console.log('# neutralizeInstructions throughput');
throughput('tool result JSON (ASCII, 3 KB)', [result], neutralizeInstructions);
throughput('bfcl tool docs (benign, short)', bfcl, neutralizeInstructions);
throughput('wildguard (benign prompts)', wildguard, neutralizeInstructions);
throughput('cyberseceval attacks (English)', cse.map((x) => str(x['user_input'])), neutralizeInstructions);
throughput('cyberseceval attacks (machine-translated)', ml.map((x) => str(x['user_input'])), neutralizeInstructions);
// A long example chat: every speaker's label is read against the others (linear, not one scan per label).
const transcript = Array.from({ length: 2000 }, (_, i) => (i % 2 ? `Assistant: Item ${i} is in stock. Shall I add it?` : `Customer: Is item ${i} in stock?`)).join('\n');
throughput('a written dialogue of 2,000 turns', [transcript], neutralizeInstructions);
// The same with an e-mail address in each turn: ".com" reads as Portuguese to the gloss's quick test,
// and every address is a place the assistant's turn may send something (src/guard/neutralize.ts).
const mailTranscript = Array.from({ length: 2000 }, (_, i) => (i % 2 ? `Assistant: Done, I have sent it to a${i}@example.com.` : `Customer: please send the receipt to a${i + 1}@example.com`)).join('\n');
throughput('the same, an e-mail address in each turn', [mailTranscript], neutralizeInstructions);
// One long sentence with thousands of weak readings in it: each was confirmed by scoring the whole
// sentence again (53 s for this text at 78d42c9); the score is kept per sentence now.
throughput('one 111 KB sentence of 3,000 weak readings', ['the assistant must send the file and '.repeat(3000)], neutralizeInstructions);
// 200 KB of 22,000 fake role headers: the redacted text was built with += and its end read back per span,
// which flattened it each time (7 s for this text at 3c6e916); it is built in parts now.
throughput('200 KB of 22,000 fake headers, each redacted', ['[SYSTEM] '.repeat(22_223)], neutralizeInstructions);
// One long run with no space, as a page can send it: an e-mail address's local part once made every
// reading that skips addresses go back over the whole run from each of its letters (8 s per 100 KB).
throughput('one 100 KB word, an "@" after it', ['a'.repeat(100_000) + '@'], neutralizeInstructions);
throughput('100 KB of "a-" and of "ab." (cut words, disguised)', ['a-'.repeat(50_000), 'ab.'.repeat(33_000) + '@'], neutralizeInstructions);
throughput('100 KB of "1gn0r3 " (digits for letters)', ['1gn0r3 '.repeat(14_300)], neutralizeInstructions);
// Long runs of one kind of punctuation or space: readings that look back over them from each of their
// characters once cost the square of their length (20 KB of spaces 7 s, 5 KB of "#" over 20 s).
throughput('100 KB of spaces, of "#", of "[(" and of newlines', [' '.repeat(100_000) + 'x', '#'.repeat(100_000), '[('.repeat(50_000), '\n'.repeat(100_000)], neutralizeInstructions);
const nonce = createNonce();
throughput('envelope (tool result JSON)', [result], (t) => envelope('tool_result', t, nonce));

console.log('\n# neutralised per family (attacks)');
const families = new Map<string, [number, number]>();
for (const [prefix, list] of [['cyberseceval', cse], ['cyberseceval-multilingual', ml]] as const) {
  for (const x of list) {
    const key = `${prefix}:${str(x['injection_variant'])}`;
    const s = families.get(key) ?? [0, 0];
    s[0] += neutralizeInstructions(str(x['user_input'])).changed ? 1 : 0;
    s[1]++;
    families.set(key, s);
  }
}
for (const [k, [hit, n]] of [...families].sort()) console.log(`${k.padEnd(62)} ${String(hit).padStart(4)}/${String(n).padEnd(4)} ${((100 * hit) / n).toFixed(1)}%`);

console.log('\n# altered (benign, false positives)');
for (const [name, list] of [['bfcl-tool-docs', bfcl], ['notinject', notinject], ['wildguard-benign', wildguard]] as const) {
  const altered = list.filter((t) => neutralizeInstructions(t).changed).length;
  console.log(`${name.padEnd(62)} ${String(altered).padStart(4)}/${String(list.length).padEnd(4)} ${((100 * altered) / list.length).toFixed(2)}%`);
}

// Our own sets, plain lines, one figure each (SOURCE.txt of each says how it was written and used).
const roles = `dev: tuned and trained on after their first reading; read: ${OWN_ATTACK_SETS.read.join(', ')}, their misses read and tuned on after their first reading, trained on at a tenth of a development set's weight since 2026-12-03, held to no target; held-out: ${OWN_ATTACK_SETS['held-out'].join(', ')}, its plain lines never tuned on (the misses among its generated variants were read on 2026-12-02, and the typo and heading readings written from them); fresh: ${OWN_ATTACK_SETS.fresh.join(', ')}, written blind, never tuned or trained on; languages: ${OWN_ATTACK_SETS.languages.join(', ')}, in Spanish, French, German, Italian and Portuguese, tuned on, held to no target`;
console.log(`\n# own phrasings, plain lines fully neutralised (${roles})`);
const numbered = (folder: string) => Number(/-(\d+)$/.exec(folder)?.[1] ?? 1);
const ownSets = Object.entries(OWN_ATTACK_SETS).flatMap(([set, folders]) => folders.map((folder) => [folder, set] as const));
for (const [folder, set] of ownSets.sort((a, b) => numbered(a[0]) - numbered(b[0]))) {
  const list = rows(`${folder}/attacks.json`);
  const hit = list.filter((x) => !neutralizeInstructions(str(x['text'])).text.includes(str(x['core']))).length;
  console.log(`${`${folder} (${set})`.padEnd(62)} ${String(hit).padStart(4)}/${String(list.length).padEnd(4)} ${((100 * hit) / list.length).toFixed(1)}%`);
}
for (const folder of [...BENIGN_PAGE_SETS.trained, ...BENIGN_PAGE_SETS.languages, ...BENIGN_PAGE_SETS.fresh]) {
  const list = rows(`${folder}/benign.json`).map(str);
  const altered = list.filter((t) => neutralizeInstructions(t).changed).length;
  console.log(`${`${folder} (benign, altered)`.padEnd(62)} ${String(altered).padStart(4)}/${String(list.length).padEnd(4)} ${((100 * altered) / list.length).toFixed(2)}%`);
}

// The generator through the real wave handler over HTTP to a fake OpenAI-compatible upstream.
const seed = Number(process.env['GUARD_SEED'] ?? 20261130);
const started = performance.now();
const run = await runAdversarial({ attackRuns: 1500, benignRuns: 600, escapeRuns: 600, seed, benignCorpusLines: true });
console.log(`\n# adversarial variants through the server (seed ${seed}, ${((performance.now() - started) / 1000).toFixed(1)} s)`);
console.log('\n## attacks with an explicit override phrase, fully neutralised: per position and family');
console.log(`(generated: corpus attack lines and the issue's examples, mutated; ${roles})`);
for (const line of run.neutralised.lines()) console.log(line);
console.log('\n## same, per position and mutation');
for (const line of run.byMutation.lines()) console.log(line);
console.log('\n## benign texts altered, per position and corpus (corpus lines plus generated wrappings)');
for (const line of run.benignAltered.lines()) console.log(line);
console.log('\n## variants whose numbers, prices, URLs or currency signs changed');
for (const line of run.protectedChanged.lines()) console.log(line);
console.log('\n## envelope escapes (forged look-alike markers that survived)');
for (const line of run.escapes.lines()) console.log(line);
console.log('\n## some attacks that got through');
for (const line of run.misses.slice(0, 20)) console.log(`  ${line}`);
