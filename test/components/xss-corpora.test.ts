/**
 * Safe rendering against the public XSS corpora (payloadbox-xss, dompurify, h5sc), served by
 * the dev server at /corpora/<folder>/<file>. Every payload is rendered as model Markdown,
 * inside a Markdown link and image, in a code block, as visitor text and as chip labels.
 */
import { aTimeout, expect, fixture, html, nextFrame } from '@open-wc/testing';
import './define-parts.js';
import type { WaveTranscript } from '../../components/wave-transcript.js';
import { ChipStatus, type TranscriptItem } from '../../src/agent/types.js';
import { awaitingChip } from './fake-session.js';

const ALLOWED_TAGS = new Set(
  'div p span a strong em del code pre h1 h2 h3 h4 h5 h6 ul ol li blockquote hr br table thead tbody tr th td input img button wave-tool-chip'.split(' '),
);
const URL_ATTRS = ['href', 'src', 'xlink:href', 'action', 'formaction', 'srcset', 'poster', 'data', 'background', 'ping'];

interface Sinks {
  executed: string[];
  requests: string[];
  violations: string[];
}

function installSinks(): { sinks: Sinks; restore: () => void } {
  const sinks: Sinks = { executed: [], requests: [], violations: [] };
  const w = window as unknown as Record<string, unknown>;
  const saved = { alert: w.alert, confirm: w.confirm, prompt: w.prompt, print: w.print, fetch: window.fetch };
  for (const name of ['alert', 'confirm', 'prompt', 'print'] as const) {
    w[name] = (...args: unknown[]) => {
      sinks.executed.push(`${name}(${args.map(String).join(',')})`);
    };
  }
  window.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    sinks.requests.push(`fetch ${String(input)}`);
    return saved.fetch.call(window, input, init);
  }) as typeof fetch;
  const xhrOpen = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (this: XMLHttpRequest, ...args: unknown[]) {
    sinks.requests.push(`xhr ${String(args[1])}`);
    return (xhrOpen as (...a: unknown[]) => void).apply(this, args);
  } as typeof xhrOpen;
  const srcDesc = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, 'src')!;
  Object.defineProperty(HTMLImageElement.prototype, 'src', {
    ...srcDesc,
    set(this: HTMLImageElement, v: string) {
      sinks.requests.push(`img.src ${v}`);
      srcDesc.set!.call(this, v);
    },
  });
  const onViolation = (e: SecurityPolicyViolationEvent) => sinks.violations.push(`${e.violatedDirective} ${e.blockedURI}`);
  document.addEventListener('securitypolicyviolation', onViolation);
  return {
    sinks,
    restore: () => {
      Object.assign(w, { alert: saved.alert, confirm: saved.confirm, prompt: saved.prompt, print: saved.print });
      window.fetch = saved.fetch;
      XMLHttpRequest.prototype.open = xhrOpen;
      Object.defineProperty(HTMLImageElement.prototype, 'src', srcDesc);
      document.removeEventListener('securitypolicyviolation', onViolation);
    },
  };
}

/** Every element in a root and in the shadow roots below it. */
function* deepElements(root: ParentNode): Generator<Element> {
  for (const el of root.querySelectorAll('*')) {
    yield el;
    if (el.shadowRoot) yield* deepElements(el.shadowRoot);
  }
}

function audit(root: ShadowRoot, allowedImageOrigins: readonly string[]): string[] {
  const problems: string[] = [];
  for (const el of deepElements(root)) {
    const tag = el.localName;
    // Elements of the chips' own shadow roots are part of our UI; model text only adds the listed tags.
    if (!ALLOWED_TAGS.has(tag)) problems.push(`unexpected <${tag}>`);
    for (const attr of el.getAttributeNames()) {
      if (attr.toLowerCase().startsWith('on')) problems.push(`<${tag} ${attr}>`);
      if (attr === 'style') problems.push(`<${tag} style>`);
    }
    for (const name of URL_ATTRS) {
      const v = el.getAttribute(name);
      if (v === null) continue;
      if (/^\s*(javascript|vbscript|data):/i.test(v.replace(/[\u0000-\u001f\s]/g, ''))) problems.push(`<${tag} ${name}=${v}>`);
      if (name === 'href' && tag === 'a') {
        const u = new URL(v, document.baseURI);
        if (!['http:', 'https:', 'mailto:'].includes(u.protocol)) problems.push(`<a href=${v}>`);
      } else if (name === 'src' && tag === 'img') {
        if (!allowedImageOrigins.includes(new URL(v, document.baseURI).origin)) problems.push(`<img src=${v}>`);
      } else {
        problems.push(`<${tag} ${name}=${v}>`);
      }
    }
  }
  return problems;
}

function itemsFor(payload: string, i: number): TranscriptItem[] {
  // Escape only what would end the Markdown construct early; the payload stays the attack.
  const inParens = payload.replace(/\n/g, ' ');
  return [
    { kind: 'message', id: `m${i}`, role: 'assistant', text: payload, streaming: false },
    { kind: 'message', id: `l${i}`, role: 'assistant', text: `[x](${inParens}) [y](<${inParens}>)`, streaming: false },
    { kind: 'message', id: `i${i}`, role: 'assistant', text: `![x](${inParens}) ![${inParens}](https://evil.example/a.png)`, streaming: false },
    { kind: 'message', id: `c${i}`, role: 'assistant', text: '```\n' + payload + '\n```', streaming: false },
    { kind: 'message', id: `u${i}`, role: 'user', text: payload, streaming: false },
    // Every text fact a chip shows: the page's summary, a handler's error, a title, a key argument from the model.
    i % 2
      ? { kind: 'tool', id: `t${i}`, name: 'tool', title: payload, subject: payload, status: ChipStatus.succeeded, label: payload, spent: 5 }
      : { kind: 'tool', id: `t${i}`, name: 'tool', title: payload, subject: payload, status: ChipStatus.failed, failure: 'handler', error: payload },
    { kind: 'notice', id: `n${i}`, level: 'info', notice: { kind: 'invalid-arguments', name: 'tool', title: payload, source: 'model', reason: payload } },
  ];
}

async function loadCorpus(path: string): Promise<string> {
  const res = await fetch(path);
  expect(res.ok, `${path} must be served by the dev server`).to.equal(true);
  return res.text();
}

async function runCorpus(name: string, payloads: string[]): Promise<void> {
  expect(payloads.length, `${name} payload count`).to.be.greaterThan(100);
  const el = await fixture<WaveTranscript>(html`<wave-transcript style="height:200px"></wave-transcript>`);
  const { sinks, restore } = installSinks();
  const problems: string[] = [];
  try {
    const batch = 150;
    for (let start = 0; start < payloads.length; start += batch) {
      const items = payloads.slice(start, start + batch).flatMap((p, k) => itemsFor(p, start + k));
      // One confirmation chip per batch carries a payload as its question.
      items.push(awaitingChip(`q${start}`, { label: payloads[start]! }));
      el.items = items;
      await el.updateComplete;
      await el.whenFullyRendered();
      expect(el.shadowRoot!.querySelectorAll('.log > *').length).to.equal(items.length);
      await Promise.all([...el.shadowRoot!.querySelectorAll('wave-tool-chip')].map((c) => (c as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete));
      problems.push(...audit(el.shadowRoot!, []));
      if (problems.length > 20) break;
    }
    // Give any handler, timer or load a chance to run before judging.
    await nextFrame();
    await aTimeout(50);
  } finally {
    restore();
  }
  expect(problems.slice(0, 20), `${name}: unsafe DOM`).to.deep.equal([]);
  expect(sinks.executed, `${name}: script executed`).to.deep.equal([]);
  expect(sinks.requests, `${name}: requests`).to.deep.equal([]);
  expect(sinks.violations, `${name}: CSP violations`).to.deep.equal([]);
}

describe('safe rendering (XSS corpora)', function () {
  this.timeout(120_000);

  it('payloadbox-xss: every payload line is inert', async () => {
    const text = await loadCorpus('/corpora/payloadbox-xss/xss-payload-list.txt');
    const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
    expect(lines.length).to.be.greaterThan(6000);
    await runCorpus('payloadbox-xss', lines);
  });

  it('dompurify: every expect.json input is inert', async () => {
    const data = JSON.parse(await loadCorpus('/corpora/dompurify/expect.json')) as { payload: unknown }[];
    const payloads = data.map((d) => d.payload).filter((p): p is string => typeof p === 'string');
    expect(payloads.length).to.be.greaterThan(200);
    await runCorpus('dompurify', payloads);
  });

  it('h5sc: every vector is inert', async () => {
    const text = await loadCorpus('/corpora/h5sc/vectors.txt');
    const vectors = [...text.matchAll(/<div id="\d+">([\s\S]*?)\/\/\["'`-->\]\]>\]<\/div>/g)].map((m) => m[1]!);
    const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
    expect(vectors.length).to.be.greaterThan(130);
    await runCorpus('h5sc', [...vectors, ...lines]);
  });

  it('the audit itself catches unsafe DOM (control)', () => {
    const host = document.createElement('div').attachShadow({ mode: 'open' });
    const a = document.createElement('a');
    a.setAttribute('href', 'javascript:alert(1)');
    const img = document.createElement('span');
    img.setAttribute('onclick', 'x');
    const script = document.createElement('script');
    host.append(a, img, script);
    const found = audit(host, []);
    expect(found.some((p) => p.includes('javascript:'))).to.equal(true);
    expect(found.some((p) => p.includes('onclick'))).to.equal(true);
    expect(found).to.include('unexpected <script>');
  });

  it('allowed image origins are the only image sources', async () => {
    const el = await fixture<WaveTranscript>(
      html`<wave-transcript
        .allowedImageOrigins=${['https://img.allowed.test']}
        .items=${[
          { kind: 'message', id: '1', role: 'assistant', text: '![a](https://img.allowed.test/a.png) ![b](https://evil.test/b.png) ![c](//evil.test/c.png)', streaming: false },
        ]}
      ></wave-transcript>`,
    );
    const srcs = [...el.shadowRoot!.querySelectorAll('img')].map((i) => i.getAttribute('src'));
    expect(srcs).to.deep.equal(['https://img.allowed.test/a.png']);
    expect(audit(el.shadowRoot!, ['https://img.allowed.test'])).to.deep.equal([]);
  });
});
