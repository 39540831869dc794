/**
 * Trains the guard's sentence classifier (src/guard/classifier.ts) and writes its weights to
 * src/guard/classifier-weights.ts. Deterministic: the same corpora give the same file.
 *
 *   npm run train:guard            write the weights
 *   npm run train:guard -- --check exit 1 if the committed weights differ from a fresh training
 *
 * Data: positive sentences are the sentences of our own attack sets that carry the injection (`core`);
 * negative sentences are the other sentences of those texts (the page text around an embedded attack)
 * and every sentence of the benign corpora. The held-out set (wave-heldout-6) and the newest blind sets
 * (wave-heldout-38, wave-benign-pages-16) are never trained on: they are what the figures are read
 * on. Model: logistic regression over each sentence's words and word pairs (seen at least twice),
 * attacks weighted up to balance the classes, 30 epochs of SGD with a seeded shuffle, weights under
 * 0.25 in size dropped, rounded to a tenth.
 *
 * Validation (`--validate`: how the threshold is chosen, before the newest sets are read): trained
 * without the last blind round read before this training (now wave-heldout-37 and
 * wave-benign-pages-15) and the odd-numbered wildguard prompts, then that round read through the whole
 * guard with the validation model. Threshold 4: 104 of the 120 validation attacks caught, 4 of the 200
 * pages and 5 of 475 wildguard prompts altered; threshold 3 catches 107 (5 and 8 altered), 2 catches
 * 112 (9 and 11); and at 3 the shipped models of this day read the widget's own "The visitor
 * cancelled this action." (3.4) and a store's "The assistant manager will open…" as instructions (the
 * tests keep them unchanged). On the round before (wave-heldout-34 to -36, wave-benign-pages-13/-14):
 * 271 of 360 and 6 of 500 at 4; without the weak readings of src/guard/neutralize.ts, the same attacks
 * and 8 pages. Pruning at 0.4 instead of 0.25 kept 265 there with 36 % fewer weights but fits our
 * development sets to 94.5 % (the tests ask 95 %). Earlier trainings were validated on -30/-31/-32
 * (260 of 360, 32 of 500 pages), -26/-27 (115 of 150, 8 of 200), -22/-23 (83 of 90, 5 of 150),
 * -20/-21 (72 of 90, 4 of 150) and -16/-17 (73 of 90, 1 of 120): threshold 4 each time.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { foldText } from '../../src/guard/fold.js';
import { correctKeyWords } from '../../src/guard/typos.js';
import { sentenceFeatures, withModel, wordsOf } from '../../src/guard/classifier.js';
import { sentencesOf } from '../../src/guard/clauses.js';
import { neutralizeInstructions } from '../../src/guard/neutralize.js';
import { BENIGN_PAGE_SETS, OWN_ATTACK_SETS, benignTexts } from '../server/guard-adversarial.js';

const CORPORA = new URL('../corpora/', import.meta.url);
const OUT = new URL('../../src/guard/classifier-weights.ts', import.meta.url);
const THRESHOLD = 4;
const PRUNE = 0.25;
const EPOCHS = 30;

type Row = Record<string, unknown>;
const rows = (path: string): Row[] => JSON.parse(readFileSync(new URL(path, CORPORA), 'utf8')) as Row[];
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
/** What the guard reads: the Latin skeleton with key-word typos corrected. */
const fold = (text: string): string => correctKeyWords(foldText(text, { latin: true })).text;

export interface Example {
  features: string[];
  label: 0 | 1;
}

/** Our development attack sets (the fresh and held-out sets are left out on purpose). */
export const TRAINING_ATTACK_SETS = OWN_ATTACK_SETS.dev;
/** Our benign page sets but the fresh one. */
export const TRAINING_BENIGN_PAGES = BENIGN_PAGE_SETS.trained;

/** The words of a stretch of text as training features, if it has any. */
function push(out: Example[], text: string, label: 0 | 1): void {
  const words = wordsOf(text);
  if (words.length > 0) out.push({ features: sentenceFeatures(words), label });
}

/**
 * Positive examples are the sentences that carry an injection (`core`), whole, as the guard will see
 * them; the other sentences of an attack's text (the page text around an embedded attack) are negative,
 * like every sentence of the benign corpora. Words inside e-mail addresses and URLs and currency units
 * are not features (see `wordsOf`): our attack sets name prices in "cr" and send to ".test" addresses,
 * and a model must not learn that from them.
 */
function examples(attackSets: readonly string[], benignTexts: readonly string[]): Example[] {
  const out: Example[] = [];
  for (const folder of attackSets) {
    for (const row of rows(`${folder}/attacks.json`)) {
      const text = fold(str(row['text']));
      const core = fold(str(row['core']));
      const cs = text.indexOf(core);
      if (cs < 0 || core.length === 0) continue;
      const ce = cs + core.length;
      for (const [a, b] of sentencesOf(text)) push(out, text.slice(a, b), a < ce && cs < b ? 1 : 0);
    }
  }
  for (const raw of benignTexts) {
    const text = fold(raw);
    for (const [a, b] of sentencesOf(text)) push(out, text.slice(a, b), 0);
  }
  return out;
}

/** Every benign text trained on: the public benign corpora and our benign page sets. */
function benignTraining(pages: readonly string[], keepWildguard: (i: number) => boolean = () => true): string[] {
  const benign = benignTexts();
  return [
    ...(benign['notinject'] ?? []),
    ...(benign['bfcl-tool-docs'] ?? []),
    ...(benign['wildguard-benign'] ?? []).filter((_, i) => keepWildguard(i)),
    ...pages.flatMap((folder) => rows(`${folder}/benign.json`).map(str)),
  ];
}

/** Weights as `feature=weight×10`, sorted by feature, and the bias. */
export function train(data: Example[]): { bias: number; weights: Array<[string, number]> } {
  const counts = new Map<string, number>();
  for (const e of data) for (const f of e.features) counts.set(f, (counts.get(f) ?? 0) + 1);
  const vocab = new Map<string, number>();
  for (const [f, c] of [...counts].sort((x, y) => (x[0] < y[0] ? -1 : 1))) if (c >= 2) vocab.set(f, vocab.size);
  const rowsIdx = data.map((e) => ({ idx: e.features.map((f) => vocab.get(f)).filter((k): k is number => k !== undefined), label: e.label }));
  const positives = rowsIdx.filter((r) => r.label === 1).length;
  const upweight = (rowsIdx.length - positives) / positives;
  const w = new Float64Array(vocab.size);
  let bias = 0;
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = rowsIdx.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [rowsIdx[i], rowsIdx[j]] = [rowsIdx[j]!, rowsIdx[i]!];
    }
    const rate = 0.1 / (1 + epoch * 0.1);
    for (const r of rowsIdx) {
      let z = bias;
      for (const k of r.idx) z += w[k]!;
      const p = 1 / (1 + Math.exp(-z));
      const g = (p - r.label) * (r.label === 1 ? upweight : 1);
      bias -= rate * g;
      for (const k of r.idx) w[k] = w[k]! - rate * (g + 1e-3 * w[k]!);
    }
  }
  const weights: Array<[string, number]> = [];
  for (const [f, k] of vocab) if (Math.abs(w[k]!) >= PRUNE) weights.push([f, Math.round(w[k]! * 10)]);
  return { bias: Math.round(bias * 10) / 10, weights };
}

function render(model: { bias: number; weights: Array<[string, number]> }): string {
  const lines = [
    '// Generated by `npm run train:guard` (test/guard-model/train.ts): do not edit by hand.',
    '// The guard classifier\'s weights: `feature=weight×10`, a feature being `u:word` or `b:word_word`.',
    `export const BIAS = ${model.bias};`,
    `export const THRESHOLD = ${THRESHOLD};`,
    `export const WEIGHTS =`,
  ];
  // Chunks of ~100 entries per string literal keep lines readable in a diff.
  const entries = model.weights.map(([f, v]) => `${f}=${v}`);
  const chunks: string[] = [];
  for (let i = 0; i < entries.length; i += 100) chunks.push(`  ${JSON.stringify(entries.slice(i, i + 100).join(' '))}`);
  lines.push(`${chunks.join(" + ' ' +\n")};`, '');
  return lines.join('\n');
}

/** The examples the committed weights are trained on. */
export function examplesForTraining(): Example[] {
  return examples(TRAINING_ATTACK_SETS, benignTraining(TRAINING_BENIGN_PAGES));
}

/** The last blind round read before this training: the validation trains without it and reads it. */
const VALIDATION_ATTACKS = ['wave-heldout-37'];
const VALIDATION_PAGES = ['wave-benign-pages-15'];

/**
 * The validation that chose THRESHOLD (and the weak readings of src/guard/neutralize.ts): train
 * without the last blind round (VALIDATION_*) and the odd-numbered wildguard prompts, then read that
 * round and those prompts through the whole guard (phrase rules, clause reading, classifier) with
 * the validation model in place of the shipped one, at several thresholds.
 */
function validate(): void {
  const model = train(
    examples(
      TRAINING_ATTACK_SETS.filter((f) => !VALIDATION_ATTACKS.includes(f)),
      benignTraining(TRAINING_BENIGN_PAGES.filter((f) => !VALIDATION_PAGES.includes(f)), (i) => i % 2 === 0),
    ),
  );
  const attacks = VALIDATION_ATTACKS.flatMap((f) => rows(`${f}/attacks.json`));
  const pages = VALIDATION_PAGES.flatMap((f) => rows(`${f}/benign.json`).map(str));
  const prompts = (benignTexts()['wildguard-benign'] ?? []).filter((_, i) => i % 2 === 1);
  console.log(`validation model: ${model.weights.length} features, read on ${VALIDATION_ATTACKS.join(', ')} and ${VALIDATION_PAGES.join(', ')}`);
  for (const threshold of [2, 3, 4, 5, 6]) {
    withModel({ ...model, threshold }, () => {
      const caught = attacks.filter((r) => !neutralizeInstructions(str(r['text'])).text.includes(str(r['core']))).length;
      const altered = (texts: readonly string[]) => texts.filter((t) => neutralizeInstructions(t).changed).length;
      console.log(
        `threshold ${threshold}, whole guard: attacks ${caught}/${attacks.length}, pages altered ${altered(pages)}/${pages.length}, wildguard altered ${altered(prompts)}/${prompts.length}`,
      );
    });
  }
}

if (process.argv[1]?.endsWith('train.ts')) {
  if (process.argv.includes('--validate')) {
    validate();
  } else {
    const text = render(train(examplesForTraining()));
    if (process.argv.includes('--check')) {
      const committed = readFileSync(OUT, 'utf8');
      if (committed !== text) {
        console.error('src/guard/classifier-weights.ts differs from a fresh training: run `npm run train:guard`');
        process.exit(1);
      }
      console.log('classifier weights match a fresh training');
    } else {
      writeFileSync(OUT, text);
      console.log(`wrote ${OUT.pathname}`);
    }
  }
}

export { render };
