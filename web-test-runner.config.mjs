// Browser tests: unit and element tests in real Chromium and Firefox (ESR).
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import * as puppeteer from 'puppeteer-core';
import { build } from 'esbuild';
import { chromiumArgs, chromiumPath } from './test/chromium.mjs';
import { firefoxPath } from './test/firefox.mjs';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, normalize, sep } from 'node:path';
import { execFileSync } from 'node:child_process';

// The public corpora the tests use, copied into the repository with their SOURCE and LICENSE.
const corporaDir = fileURLToPath(new URL('./test/corpora/', import.meta.url));

/** Serves `/corpora/<folder>/<file>` from test/corpora for the XSS and guard tests. */
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

/**
 * ajv ships CommonJS with require cycles and JSON requires, which per-file conversion cannot
 * serve, and its core and vocabularies share internal classes, so they must be one bundle: the
 * source module that wraps it is served as one ES module bundled by esbuild, the same module
 * rollup bundles for the CDN.
 */
function prebundleSource(paths) {
  const cache = new Map();
  return {
    name: 'prebundle-source',
    async serve(context) {
      // Sources import `./x.js`; the file on disk is `./x.ts`.
      const path = context.path.replace(/\.js$/, '.ts');
      if (!paths.includes(path)) return;
      if (!cache.has(path)) {
        const options = { bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent' };
        cache.set(path, build({ ...options, entryPoints: ['.' + path] }).then((r) => r.outputFiles[0].text));
      }
      return { body: await cache.get(path), type: 'js' };
    },
  };
}

/**
 * React ships CommonJS (with `process.env.NODE_ENV` switches), which per-file conversion cannot
 * serve: `react`, `react-dom`, `react-dom/client` and the JSX runtimes are bundled by esbuild
 * into one ES module (one React instance for all of them, development build so StrictMode
 * double-mounts), and each of those paths is served as a module re-exporting its part of it.
 */
function prebundleReact() {
  const parts = {
    '/node_modules/react/index.js': 'react',
    '/node_modules/react/jsx-runtime.js': 'react/jsx-runtime',
    '/node_modules/react/jsx-dev-runtime.js': 'react/jsx-dev-runtime',
    '/node_modules/react-dom/index.js': 'react-dom',
    '/node_modules/react-dom/client.js': 'react-dom/client',
  };
  const bundlePath = '/__react-bundle.js';
  const names = Object.values(parts);
  const id = (name) => name.replace(/[^a-z]/gi, '_');
  let bundle = null;
  let exportNames = null;
  return {
    name: 'prebundle-react',
    async serve(context) {
      if (context.path === bundlePath) {
        bundle ??= build({
          stdin: {
            contents: names.map((n) => `import * as ${id(n)} from '${n}';`).join('\n') + `\nexport { ${names.map(id).join(', ')} };`,
            resolveDir: process.cwd(),
          },
          bundle: true,
          format: 'esm',
          platform: 'browser',
          write: false,
          logLevel: 'silent',
          define: { 'process.env.NODE_ENV': '"development"' },
        }).then((r) => r.outputFiles[0].text);
        return { body: await bundle, type: 'js' };
      }
      const name = parts[context.path];
      if (!name) return;
      // Named exports are those of the CommonJS module, read in a child Node (React's own
      // development build must not patch this process's console).
      exportNames ??= JSON.parse(
        execFileSync(process.execPath, ['-e', `console.log(JSON.stringify(Object.fromEntries(${JSON.stringify(names)}.map((n) => [n, Object.keys(require(n))]))))`], {
          env: { ...process.env, NODE_ENV: 'development' },
        }).toString(),
      );
      const keys = exportNames[name].filter((k) => /^[A-Za-z_$][\w$]*$/.test(k) && k !== 'default');
      const ns = id(name);
      const body =
        `import { ${ns} } from '${bundlePath}';\n` +
        `export default ${ns}.default ?? ${ns};\n` +
        keys.map((k) => `export const ${k} = ${ns}.${k};`).join('\n');
      return { body, type: 'js' };
    },
  };
}

/**
 * `wave-emulate-media` (test/helpers/emulate-media.ts): media features for Chromium and Firefox.
 * Chromium emulates them per page over CDP; puppeteer has no BiDi way, so in Firefox the
 * content preferences are set in the browser's parent process (Firefox is launched with
 * --remote-allow-system-access for this; tests run one file at a time, and reset what they set).
 */
function emulateMediaEverywhere() {
  const chromeContexts = new WeakMap();
  async function firefoxPrefs(page, statements) {
    const session = page.mainFrame().browsingContext.userContext.browser.session;
    if (!chromeContexts.has(session)) {
      const tree = await session.send('browsingContext.getTree', { 'moz:scope': 'chrome' });
      chromeContexts.set(session, tree.result.contexts[0].context);
    }
    const target = { context: chromeContexts.get(session) };
    const result = await session.send('script.evaluate', { expression: statements.join(';'), target, awaitPromise: false });
    if (result.result.type !== 'success') throw new Error(`could not set Firefox preferences: ${JSON.stringify(result.result)}`);
  }
  return {
    name: 'wave-emulate-media',
    async executeCommand({ command, payload, session }) {
      if (command !== 'wave-emulate-media') return undefined;
      const page = session.browser.getPage(session.id);
      const { colorScheme, reducedMotion } = payload ?? {};
      if (session.browser.name !== 'Firefox') {
        const features = [];
        if (colorScheme !== undefined) features.push({ name: 'prefers-color-scheme', value: colorScheme ?? '' });
        if (reducedMotion !== undefined) features.push({ name: 'prefers-reduced-motion', value: reducedMotion ?? '' });
        await page.emulateMediaFeatures(features);
        return true;
      }
      const statements = [];
      const scheme = 'layout.css.prefers-color-scheme.content-override';
      if (colorScheme === null) statements.push(`Services.prefs.clearUserPref('${scheme}')`);
      else if (colorScheme) statements.push(`Services.prefs.setIntPref('${scheme}', ${colorScheme === 'dark' ? 0 : 1})`);
      if (reducedMotion === null) statements.push(`Services.prefs.clearUserPref('ui.prefersReducedMotion')`);
      else if (reducedMotion) statements.push(`Services.prefs.setIntPref('ui.prefersReducedMotion', ${reducedMotion === 'reduce' ? 1 : 0})`);
      if (statements.length) await firefoxPrefs(page, statements);
      return true;
    },
  };
}

const REAL_AUDIO = 'test/voice/browser-audio.test.ts';

const chromium = (extraArgs = []) =>
  chromeLauncher({ launchOptions: { executablePath: chromiumPath(), args: [...chromiumArgs, ...extraArgs], headless: true } });

// Firefox through puppeteer-core over WebDriver BiDi (the same launcher class, another browser).
const firefox = () =>
  chromeLauncher({ puppeteer, launchOptions: { browser: 'firefox', executablePath: firefoxPath(), headless: true, args: ['--remote-allow-system-access'] } });

/**
 * `emulate-phone` command (Chromium, over CDP): a phone's viewport (mobile, touch, device pixel
 * ratio 2) without reloading the page, so a page wider than the screen behaves as on a phone
 * (the layout viewport grows; the visual viewport stays the screen). `payload: { width, height,
 * scale? }` (scale: the page zoom, 1 as after load, 2 as pinch-zoomed); `payload: null` ends it.
 * Firefox has no such emulation: the files using it (`*.phone.test.ts`) run in Chromium only.
 */
const phoneSessions = new WeakMap();
function emulatePhone() {
  return {
    name: 'emulate-phone-command',
    async executeCommand({ command, payload, session }) {
      if (command !== 'emulate-phone') return undefined;
      const page = session.browser.getPage(session.id);
      // An override lasts as long as the CDP session that set it: keep one per page until cleared.
      let cdp = phoneSessions.get(page);
      if (payload) {
        if (!cdp) {
          cdp = await page.createCDPSession();
          phoneSessions.set(page, cdp);
        }
        await cdp.send('Emulation.setDeviceMetricsOverride', { width: payload.width, height: payload.height, deviceScaleFactor: 2, mobile: true });
        if (payload.scale) await cdp.send('Emulation.setPageScaleFactor', { pageScaleFactor: payload.scale });
      } else if (cdp) {
        phoneSessions.delete(page);
        await cdp.send('Emulation.clearDeviceMetricsOverride').catch(() => undefined);
        await cdp.detach().catch(() => undefined);
      }
      return true;
    },
  };
}

export default {
  files: ['test/**/*.test.{ts,tsx}', '!test/**/*.webmcp.test.ts', '!test/**/*.phone.test.ts', `!${REAL_AUDIO}`, '!test/server/**', '!test/e2e/**', '!test/bench/**'],
  nodeResolve: { exportConditions: ['browser', 'production'] },
  concurrency: 1,
  testFramework: { config: { timeout: 10000 } },
  browserStartTimeout: 60000,
  testsFinishTimeout: 600000,
  middleware: [corpora(), cspFixtures()],
  plugins: [
    prebundleSource(['/src/tools/ajv-draft7.ts']),
    prebundleReact(),
    emulateMediaEverywhere(),
    emulatePhone(),
    // .tsx (React tests) compile with the automatic JSX runtime (tsconfig: "jsx": "react-jsx").
    esbuildPlugin({ ts: true, tsx: true, target: 'es2022', tsconfig: './tsconfig.json' }),
  ],
  // WTR_BROWSERS=chromium (or firefox) runs one of them, for a quicker look while working.
  browsers: [chromium(), firefox()].filter((b) => !process.env.WTR_BROWSERS || process.env.WTR_BROWSERS.split(',').includes(b.name === 'Chrome' ? 'chromium' : 'firefox')),
  groups: [
    // document.modelContext exists only in Chromium with WebMCP switched on.
    { name: 'webmcp', files: 'test/**/*.webmcp.test.ts', browsers: [chromium(['--enable-features=WebMCP'])] },
    // Real audio needs a running AudioContext: headless Firefox on a machine without a sound
    // server never leaves 'suspended' (resume() never settles), whatever the preferences.
    { name: 'real-audio', files: REAL_AUDIO, browsers: [chromium()] },
    // A phone's layout and visual viewports, emulated over CDP (see emulatePhone).
    { name: 'phone', files: 'test/**/*.phone.test.ts', browsers: [chromium()] },
  ],
};
