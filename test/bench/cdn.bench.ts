/**
 * `npm run bench -- cdn`: what the CDN embed costs a page, side by side in one run with a bare
 * Lit element this bench builds itself (and, when the npm registry answers, deep-chat 2.4.2 and
 * the ElevenLabs embed 0.5.4), loads interleaved, each in a fresh browser context (cold cache),
 * on a desktop profile (no throttling) and a mobile one (CDP: CPU 4× slower, 150 ms RTT,
 * 1.6 Mbps down / 750 kbps up). Files are served gzip (Content-Encoding: gzip, level 9) by a
 * local HTTP server. What loads is found by watching the network (CDP), never by chunk names,
 * so the figures follow whatever the build is. Then the streaming figures of the Markdown bench.
 *
 * `BENCH_LOADS=n` sets the loads per page and profile (default 7, the median of each is shown);
 * `BENCH_COMPETITORS=0` skips deep-chat and ElevenLabs; `BENCH_BASELINE=<dir>` adds another build's
 * `dist/` (e.g. main's) as a contender, loads interleaved with this build's. Run `npm run build` first (npm run bench does).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, homedir, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../chromium.mjs';
import { median, runInChromium } from './browser-bench.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const LOADS = Math.max(1, Number(process.env.BENCH_LOADS ?? 7));
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const ms = (n: number) => `${n.toFixed(0)} ms`;

// ---------------------------------------------------------------------------------------------
// The pages: wave-chat's classic embed, a bare Lit element, and the two others when available.

const bare = await build({
  stdin: {
    contents: `import { LitElement, html } from 'lit';
class BareLit extends LitElement {
  render() { return html\`<button type="button">Chat</button>\`; }
  firstUpdated() { performance.mark('bare-ready'); }
}
customElements.define('bare-lit', BareLit);`,
    resolveDir: fileURLToPath(new URL('.', import.meta.url)),
    loader: 'js',
  },
  bundle: true,
  minify: true,
  format: 'esm',
  write: false,
});

/** A page of ordinary content, so every contender lays out the same host page. */
const page = (title: string, tail: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body><main><h1>Spring sale</h1>${'<p>Notebooks, mugs and stickers for the studio, shipped in two days. Pay with credits.</p>'.repeat(12)}</main>
${tail}</body></html>`;

/** A contender: its page, the files it needs beside `dist/`, and how the page tells it is usable. */
interface Contender {
  name: string;
  path: string;
  /** A User Timing mark the contender sets itself, or the in-page check an init script polls. */
  mark: string;
  poll?: string;
  /** Extra files (path → bytes) served beside `dist/`. */
  files: Record<string, Buffer>;
}

const contenders: Contender[] = [
  {
    name: 'wave-chat',
    path: '/wave.html',
    mark: 'wave-chat-ready',
    files: {
      '/wave.html': Buffer.from(page('wave-chat', '<script async src="/wave-chat.js" data-site-id="bench" data-endpoint="/wave"></script>')),
    },
  },
  {
    name: 'bare Lit element',
    path: '/bare.html',
    mark: 'bare-ready',
    files: {
      '/bare.html': Buffer.from(page('bare', '<bare-lit></bare-lit><script type="module" src="/bare-lit.mjs"></script>')),
      '/bare-lit.mjs': Buffer.from(bare.outputFiles[0]!.text),
    },
  },
];

/**
 * The npm tarball of `spec`, packed once into a cache directory outside the repository
 * (`~/.cache/wave-chat-bench`); null when the registry cannot be reached.
 */
function packed(spec: string, file: string): Buffer | null {
  const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'wave-chat-bench');
  const dir = join(cache, spec.replace(/[^\w.-]+/g, '_'));
  const target = join(dir, 'package', file);
  if (!existsSync(target)) {
    try {
      mkdirSync(dir, { recursive: true });
      const tgz = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', dir], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 120_000 }).trim().split('\n').pop()!;
      execFileSync('tar', ['xzf', join(dir, tgz), '-C', dir, `package/${file}`], { stdio: 'ignore' });
    } catch {
      return null;
    }
  }
  return readFileSync(target);
}

/**
 * The ElevenLabs widget shows once it has its agent's config, which it fetches from its API (no
 * network here): it is given one inline (`override-config`), which spares it that round trip.
 */
const ELEVENLABS_CONFIG = JSON.stringify({ variant: 'compact', avatar: { type: 'orb' }, feedback_mode: 'none', language: 'en', supported_language_overrides: [], text_input_enabled: true, mic_muting_enabled: false, transcript_enabled: true }).replace(/"/g, '&quot;');

if (process.env.BENCH_COMPETITORS !== '0') {
  const deepChat = packed('deep-chat@2.4.2', 'dist/deepChat.bundle.js');
  if (deepChat) {
    contenders.push({
      name: 'deep-chat 2.4.2',
      path: '/deep-chat.html',
      mark: 'contender-ready',
      poll: `document.querySelector('deep-chat')?.shadowRoot?.querySelector('#text-input')`,
      files: {
        '/deep-chat.html': Buffer.from(page('deep-chat', '<deep-chat></deep-chat><script type="module" src="/vendor/deep-chat.js"></script>')),
        '/vendor/deep-chat.js': deepChat,
      },
    });
  }
  const elevenLabs = packed('@elevenlabs/convai-widget-embed@0.5.4', 'dist/index.js');
  if (elevenLabs) {
    contenders.push({
      name: 'ElevenLabs embed 0.5.4',
      path: '/elevenlabs.html',
      mark: 'contender-ready',
      poll: `document.querySelector('elevenlabs-convai')?.shadowRoot?.querySelector('button')`,
      files: {
        // Its documented embed, with the agent's config inline.
        '/elevenlabs.html': Buffer.from(page('elevenlabs', `<elevenlabs-convai agent-id="bench" override-config="${ELEVENLABS_CONFIG}"></elevenlabs-convai><script src="/vendor/elevenlabs.js" async type="text/javascript"></script>`)),
        '/vendor/elevenlabs.js': elevenLabs,
      },
    });
  }
}

/**
 * `BENCH_BASELINE=<dir>`: another build's `dist/` (main's, say) as one more contender, its loads
 * interleaved with this build's, so a change is measured against what it replaces in one run.
 */
const BASELINE = process.env.BENCH_BASELINE ? join(process.env.BENCH_BASELINE, '/') : null;
if (BASELINE) {
  contenders.push({
    name: `wave-chat of ${process.env.BENCH_BASELINE}`,
    path: '/baseline/wave.html',
    mark: 'wave-chat-ready',
    files: {
      '/baseline/wave.html': Buffer.from(page('wave-chat', '<script async src="/baseline/wave-chat.js" data-site-id="bench" data-endpoint="/wave"></script>')),
    },
  });
}

// ---------------------------------------------------------------------------------------------
// The server: every file gzip, compressed once; a cold cache comes from a fresh context per load.

const TYPES: Record<string, string> = { html: 'text/html; charset=utf-8', js: 'text/javascript', mjs: 'text/javascript', json: 'application/json', map: 'application/json' };
const gzipped = new Map<string, Buffer>();
function body(path: string): Buffer | null {
  let out = gzipped.get(path);
  if (out) return out;
  let raw: Buffer | undefined;
  for (const c of contenders) raw ??= c.files[path];
  if (!raw) {
    // The baseline's files (and the chunks it loads beside its script) from its own dist/.
    const root = BASELINE && path.startsWith('/baseline/') ? BASELINE : dist;
    const file = join(root, decodeURIComponent(root === dist ? path : path.slice('/baseline/'.length)));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) return null;
    raw = readFileSync(file);
  }
  out = gzipSync(raw, { level: 9 });
  gzipped.set(path, out);
  return out;
}

const server: Server = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  res.setHeader('Cache-Control', 'no-store');
  if (path === '/wave' || path.startsWith('/wave/')) {
    // The widget's endpoint: the model label GET, answered empty (no model is asked here).
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    return;
  }
  const bytes = body(path);
  if (!bytes) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'Content-Type': TYPES[path.split('.').pop()!] ?? 'application/octet-stream', 'Content-Encoding': 'gzip', 'Content-Length': bytes.length });
  res.end(bytes);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// ---------------------------------------------------------------------------------------------
// One load: CDP network log of scripts, the usable mark, and for wave-chat idle and intent.

interface Profile {
  name: 'desktop' | 'mobile';
  viewport: { width: number; height: number };
  cpu: number;
  network?: { latency: number; downloadThroughput: number; uploadThroughput: number };
}
const ALL_PROFILES: Profile[] = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, cpu: 1 },
  // Chrome's network emulation takes bytes per second and the round-trip latency in ms.
  { name: 'mobile', viewport: { width: 390, height: 844 }, cpu: 4, network: { latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 } },
];
/** `BENCH_PROFILES=desktop` (or mobile) measures one profile, for a quicker look while working. */
const PROFILES = ALL_PROFILES.filter((p) => !process.env.BENCH_PROFILES || process.env.BENCH_PROFILES.split(',').includes(p.name));

interface ScriptRequest {
  url: string;
  sentAt: number;
  /** Epoch ms at which the last byte arrived (NaN while in flight). */
  doneAt: number;
  /** The gzip body's bytes (what was received, less the response headers). */
  bytes: number;
  /** The response headers' bytes on the wire. */
  headerBytes: number;
}

/** Records every script request of a page over CDP, with wall-clock times. */
async function watchScripts(cdp: CDPSession): Promise<ScriptRequest[]> {
  const byId = new Map<string, ScriptRequest>();
  const list: ScriptRequest[] = [];
  let offset = 0; // epoch seconds − CDP monotonic seconds
  cdp.on('Network.requestWillBeSent', (e) => {
    offset = e.wallTime - e.timestamp;
    const script = e.type === 'Script' || /\.m?js(\?|$)/.test(new URL(e.request.url).pathname);
    if (!script) return;
    const r: ScriptRequest = { url: e.request.url, sentAt: e.wallTime * 1000, doneAt: NaN, bytes: 0, headerBytes: 0 };
    byId.set(e.requestId, r);
    list.push(r);
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = byId.get(e.requestId);
    // At this point what was received is the status line and headers.
    if (r) r.headerBytes = e.response.encodedDataLength;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = byId.get(e.requestId);
    if (!r) return;
    r.bytes = Math.max(0, e.encodedDataLength - r.headerBytes);
    r.doneAt = (e.timestamp + offset) * 1000;
  });
  cdp.on('Network.loadingFailed', (e) => {
    const r = byId.get(e.requestId);
    if (r) r.doneAt = (e.timestamp + offset) * 1000;
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  return list;
}

/** Waits until no script is in flight and none started for `quiet` ms (at most `limit` ms). */
async function scriptsSettled(page: Page, scripts: ScriptRequest[], quiet = 300, limit = 15_000): Promise<void> {
  const end = Date.now() + limit;
  while (Date.now() < end) {
    const last = Math.max(0, ...scripts.map((s) => (Number.isNaN(s.doneAt) ? Infinity : Math.max(s.sentAt, s.doneAt))));
    if (last !== Infinity && Date.now() - last >= quiet) return;
    await page.waitForTimeout(50);
  }
}

interface Load {
  navToUsable: number;
  codeToUsable: number;
  criticalBytes: number;
  criticalRequests: number;
  idleBytes?: number;
  idleRequests?: number;
  intentBytes?: number;
  pressToOpen?: number;
}

/** In the page: the contender's usable time (ms since navigation) and its last script's arrival. */
const readTimes = (mark: string) => `(() => {
  const ready = performance.getEntriesByName(${JSON.stringify(mark)})[0];
  const arrived = performance.getEntriesByType('resource')
    .filter((e) => /\\.m?js(\\?|$)/.test(new URL(e.name).pathname) && e.responseEnd <= ready.startTime)
    .reduce((m, e) => Math.max(m, e.responseEnd), 0);
  return { usable: ready.startTime, arrived, epoch: performance.timeOrigin + ready.startTime };
})()`;

/** Pointerdown on the launcher → the composer's textarea focused in the open panel, then painted. */
const PRESS_TO_OPEN = `window.__openMs = new Promise((resolve) => {
  addEventListener('pointerdown', () => {
    const t0 = performance.now();
    const deep = () => { let a = document.activeElement; while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement; return a; };
    const check = () => {
      const a = deep();
      if (a && a.tagName === 'TEXTAREA' && !a.disabled) requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
      else setTimeout(check, 1);
    };
    check();
  }, { capture: true, once: true });
}); 0`;
const PRESS_TO_PAINT = `window.__openMs = new Promise((resolve) => addEventListener('pointerdown', () => { const t0 = performance.now(); requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0)); }, { capture: true, once: true })); 0`;

async function load(browser: Browser, contender: Contender, profile: Profile): Promise<Load> {
  const context = await browser.newContext({ viewport: profile.viewport });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const scripts = await watchScripts(cdp);
    if (profile.cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu });
    if (profile.network) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile.network });
    if (contender.poll) {
      // Others set no mark: a check every 10 ms (and on every frame) marks the first time they are usable.
      await page.addInitScript(`(() => { const tick = () => { if (${contender.poll}) performance.mark('contender-ready'); else { setTimeout(tick, 10); } }; tick(); })()`);
    }
    await page.goto(origin + contender.path, { waitUntil: 'commit' });
    await page.waitForFunction(`performance.getEntriesByName(${JSON.stringify(contender.mark)}).length > 0`, undefined, { polling: 50, timeout: 60_000 });
    const t = (await page.evaluate(readTimes(contender.mark))) as { usable: number; arrived: number; epoch: number };
    const before = (at: number) => scripts.filter((s) => s.doneAt <= at);
    const critical = before(t.epoch);
    const out: Load = {
      navToUsable: t.usable,
      codeToUsable: t.usable - t.arrived,
      criticalBytes: critical.reduce((n, s) => n + s.bytes, 0),
      criticalRequests: critical.length,
    };
    if (contender.name !== 'wave-chat') {
      if (contender.name === 'bare Lit element') {
        await page.evaluate(PRESS_TO_PAINT);
        await page.click('bare-lit button');
        out.pressToOpen = (await page.evaluate('window.__openMs')) as number;
      }
      return out;
    }
    // No visitor action for 3 s after the widget is usable: what has loaded by then.
    const idleAt = t.epoch + 3000;
    await page.waitForTimeout(Math.max(0, idleAt - Date.now()));
    const idle = before(idleAt);
    out.idleBytes = idle.reduce((n, s) => n + s.bytes, 0);
    out.idleRequests = idle.length;
    // Intent (the pointer over the launcher), what that fetches, then a press.
    const launcher = 'wave-chat [part~="launcher"]';
    await page.hover(launcher);
    await scriptsSettled(page, scripts);
    out.intentBytes = scripts.reduce((n, s) => n + s.bytes, 0) - out.idleBytes;
    await page.evaluate(PRESS_TO_OPEN);
    await page.click(launcher);
    out.pressToOpen = (await page.evaluate('window.__openMs')) as number;
    return out;
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The run: every profile, contenders interleaved load by load.

const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs, headless: true });
const results = new Map<string, Load[]>();
const failures: string[] = [];
try {
  for (let i = 0; i < LOADS; i++) {
    for (const profile of PROFILES) {
      for (const contender of contenders) {
        const key = `${profile.name}|${contender.name}`;
        try {
          const l = await load(browser, contender, profile);
          results.set(key, [...(results.get(key) ?? []), l]);
        } catch (error) {
          failures.push(`${key}: ${String(error).split('\n')[0]}`);
        }
      }
    }
  }
} finally {
  await browser.close();
  server.close();
}

const med = (profile: string, name: string, pick: (l: Load) => number | undefined): number => {
  const values = (results.get(`${profile}|${name}`) ?? []).map(pick).filter((v): v is number => v !== undefined);
  return values.length ? median(values) : NaN;
};

console.log(`load average at the end of the page loads: ${loadavg().map((n) => n.toFixed(1)).join(', ')} (on ${availableParallelism()} cores; wall-clock figures are pessimistic on a busy machine, ratios less so)`);
console.log(`Served gzip (level 9) from a local server, cold cache, ${LOADS} interleaved loads per page and profile (medians).`);
console.log('desktop: no throttling; mobile: CPU 4× slower, 150 ms RTT, 1.6 Mbps down / 750 kbps up (CDP).\n');
const W = 'wave-chat', B = 'bare Lit element';
const rows: Array<[string, string, (p: string) => string]> = [
  ['JS on the critical path (gzip, before ready)', '≤ 20 KB, one request', (p) => `${kb(med(p, W, (l) => l.criticalBytes))} in ${med(p, W, (l) => l.criticalRequests)} request(s); bare ${kb(med(p, B, (l) => l.criticalBytes))}`],
  ['JS with no visitor action, 3 s after ready', '≤ 25 KB', (p) => `${kb(med(p, W, (l) => l.idleBytes))} in ${med(p, W, (l) => l.idleRequests)} request(s)`],
  ['navigation → usable', 'within 1.25× the bare element (mobile)', (p) => `${ms(med(p, W, (l) => l.navToUsable))}; bare ${ms(med(p, B, (l) => l.navToUsable))} (${(med(p, W, (l) => l.navToUsable) / med(p, B, (l) => l.navToUsable)).toFixed(2)}×)`],
  ['code arrived → usable', '≤ 1.5× the bare element (desktop)', (p) => `${med(p, W, (l) => l.codeToUsable).toFixed(1)} ms; bare ${med(p, B, (l) => l.codeToUsable).toFixed(1)} ms (${(med(p, W, (l) => l.codeToUsable) / med(p, B, (l) => l.codeToUsable)).toFixed(2)}×)`],
  ['JS fetched on intent (pointer over the launcher)', '(on intent, not before)', (p) => kb(med(p, W, (l) => l.intentBytes))],
  ['press after intent → panel open, composer focused, painted', '≤ 100 ms (desktop)', (p) => `${med(p, W, (l) => l.pressToOpen).toFixed(1)} ms; bare press → paint ${med(p, B, (l) => l.pressToOpen).toFixed(1)} ms`],
];
for (const [label, target, value] of rows) {
  console.log(`${label} (target ${target})`);
  for (const p of PROFILES) console.log(`  ${p.name.padEnd(8)} ${value(p.name)}`);
}
const others = contenders.filter((c) => c.name !== W && c.name !== B);
if (others.length) {
  console.log('navigation → usable beside others (target: deep-chat ≥ 1.5× slower, ElevenLabs ≥ 3× slower than wave-chat, mobile)');
  for (const p of PROFILES) {
    const w = med(p.name, W, (l) => l.navToUsable);
    const parts = others.map((c) => {
      const o = med(p.name, c.name, (l) => l.navToUsable);
      return `${c.name} ${ms(o)} (${(o / w).toFixed(2)}× wave-chat; JS before usable ${kb(med(p.name, c.name, (l) => l.criticalBytes))}; code arrived → usable ${med(p.name, c.name, (l) => l.codeToUsable).toFixed(1)} ms)`;
    });
    console.log(`  ${p.name.padEnd(8)} ${parts.join('; ')}`);
  }
} else {
  console.log('deep-chat and ElevenLabs: not measured (npm registry unreachable, or BENCH_COMPETITORS=0)');
}
if (failures.length) console.log(`failed loads (${failures.length}): ${[...new Set(failures)].slice(0, 5).join(' | ')}`);

// What a page may load at most: every script in dist/ but the npm package's own folders (the ES
// modules, the server and the demo pages), whatever the CDN build names its chunks.
const cdnFiles = readdirSync(dist, { recursive: true }).map(String)
  .filter((f) => /\.m?js$/.test(f) && !/^(esm|server|demo)[\\/]/.test(f));
const gz = (f: string) => gzipSync(readFileSync(dist + f), { level: 9 }).length;
console.log(`\nEverything the CDN build may load: ${kb(cdnFiles.reduce((n, f) => n + gz(f), 0))} gzip in ${cdnFiles.length} files (the largest: ${cdnFiles.map((f) => [f, gz(f)] as const).sort((a, b) => b[1] - a[1]).slice(0, 3).map(([f, n]) => `${f} ${kb(n)}`).join(', ')})`);

// The streaming figures, measured by the Markdown bench's own page (desktop, then CPU 4× slower).
for (const profile of PROFILES) {
  const s = (await runInChromium('test/bench/markdown.page.ts', { exportName: 'streaming', cpuSlowdown: profile.cpu })) as Record<string, number>;
  console.log(`streaming a ${(s['reply size (chars)']! / 1024).toFixed(1)} KB reply in ${s.deltas} deltas, one per frame, ${profile.name} (target: total ≤ 3× rendering once, no frame over 16 ms): ` +
    `${s['one delta per frame: renders']} renders, total ${s['one delta per frame: total render work (ms)']} ms = ${s['one delta per frame: total ÷ once']}× once (${s['render once (ms, median of 5)']} ms; ` +
    `${s['one delta per frame: total ÷ once after the stream']}× once after it, code warm, ${s['render once after the stream, code warm (ms, median of 5)']} ms); worst update ${s['one delta per frame: worst update (ms)']} ms; ` +
    `the frames' own style + layout (not in the total) ${s["one delta per frame: the frames' own style + layout, not in the total (ms)"]} ms`);
}
