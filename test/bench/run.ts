/**
 * `npm run bench`: runs every benchmark script in this folder, one after the other, each in its
 * own process, and prints their figures. Benchmarks print numbers; they never pass or fail on speed.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const scripts = readdirSync(here)
  .filter((f) => /\.bench\.(ts|mjs)$/.test(f))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

let failed = 0;
for (const script of scripts) {
  console.log(`\n## ${script}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', `${here}${script}`], { stdio: 'inherit', env: process.env });
  if (run.status !== 0) {
    failed++;
    console.log(`(${script} exited with ${run.status ?? run.signal})`);
  }
}
process.exitCode = failed ? 1 : 0;
