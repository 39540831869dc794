// Browser tests: unit and element tests in real Chromium.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { fromRollup } from '@web/dev-server-rollup';
import rollupCommonjs from '@rollup/plugin-commonjs';
import { chromeLauncher } from '@web/test-runner-chrome';
import { chromiumArgs, chromiumPath } from './test/chromium.mjs';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, normalize, sep } from 'node:path';

// The public corpora live beside the repository (../shared/corpora), read-only.
const corporaDir = fileURLToPath(new URL('../shared/corpora/', import.meta.url));

/** Serves `/corpora/<folder>/<file>` from ../shared/corpora for the XSS and guard tests. */
function corpora() {
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/corpora/')) return next();
    const file = normalize(join(corporaDir, decodeURIComponent(ctx.path.slice('/corpora/'.length))));
    if (!file.startsWith(corporaDir.endsWith(sep) ? corporaDir : corporaDir + sep) || !existsSync(file) || !statSync(file).isFile()) {
      ctx.status = 404;
      return;
    }
    ctx.type = file.endsWith('.json') ? 'application/json' : 'text/plain; charset=utf-8';
    ctx.body = createReadStream(file);
  };
}

// ajv (and its helpers) ship CommonJS only; convert them once here so every test,
// and every fixture page served by the dev server, imports them as ES modules.
const commonjs = fromRollup(rollupCommonjs);
const cjsPackages = ['ajv', 'fast-deep-equal', 'json-schema-traverse', 'fast-uri', 'require-from-string'];

/** Fixture pages under test/fixtures/csp/ are served with a strict CSP (no 'unsafe-eval'). */
function cspFixtures() {
  return async (ctx, next) => {
    await next();
    if (ctx.path.startsWith('/test/fixtures/csp/') && ctx.path.endsWith('.html')) {
      ctx.set('Content-Security-Policy', "script-src 'self'; object-src 'none'");
    }
    if (ctx.path.startsWith('/test/fixtures/tt/') && ctx.path.endsWith('.html')) {
      ctx.set(
        'Content-Security-Policy',
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; object-src 'none'; base-uri 'none'; require-trusted-types-for 'script'; trusted-types lit-html wave-chat",
      );
    }
  };
}

export default {
  files: ['test/**/*.test.ts', '!test/server/**', '!test/e2e/**', '!test/bench/**'],
  nodeResolve: { exportConditions: ['browser', 'production'] },
  concurrency: 1,
  testFramework: { config: { timeout: 10000 } },
  browserStartTimeout: 60000,
  testsFinishTimeout: 600000,
  middleware: [corpora(), cspFixtures()],
  mimeTypes: { '**/node_modules/ajv/**/*.js': 'js' },
  plugins: [
    commonjs({ include: cjsPackages.map((p) => `**/node_modules/${p}/**/*`) }),
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: './tsconfig.json' }),
  ],
  browsers: [
    chromeLauncher({
      launchOptions: { executablePath: chromiumPath(), args: chromiumArgs, headless: true },
    }),
  ],
};
