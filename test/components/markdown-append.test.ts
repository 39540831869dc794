/**
 * Streaming Markdown appended in place (issue 13): text that only adds plain characters to the
 * end of the last block goes straight into its DOM text (`MarkdownView.appendInPlace`), with no
 * lexing or templating; everything else renders as usual. Whatever the cuts, the DOM after every
 * delta equals the rendering of the same text at once.
 */
import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { html, render } from 'lit';
import { Lexer } from 'marked';
import { MarkdownView } from '../../components/markdown.js';
import { loadCommonMarkExamples } from '../helpers/commonmark.js';

const OPTIONS = { baseUrl: 'https://md.test/', allowedImageOrigins: ['https://md.test'] };

/** Renders the view's Markdown for `text` into `host` (one template, so lit updates what it rendered before). */
const show = (view: MarkdownView, text: string, host: HTMLElement) => render(html`${view.render(text)}`, host);

/** The DOM of a host without lit's markers. */
const dom = (host: Element) => host.innerHTML.replace(/<!--[^]*?-->/g, '');

function renderedAtOnce(text: string): string {
  const host = document.createElement('div');
  render(html`${new MarkdownView(OPTIONS).render(text)}`, host);
  return dom(host);
}

/**
 * Streams `text` cut at `cuts` into one view, appending in place when it can: null when the DOM
 * after every delta equals the text rendered at once, else the first text where it differs.
 */
function stream(text: string, cuts: readonly number[], counts = { inPlace: 0, rendered: 0 }): string | null {
  const view = new MarkdownView(OPTIONS);
  const host = document.createElement('div');
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  for (const end of [...points, text.length]) {
    const sofar = text.slice(0, end);
    if (view.appendInPlace(sofar, host)) counts.inPlace++;
    else {
      show(view, sofar, host);
      counts.rendered++;
    }
    const expected = renderedAtOnce(sofar);
    if (dom(host) !== expected) return `${JSON.stringify(sofar)}: ${dom(host)} instead of ${expected}`;
  }
  return null;
}

/** Blocks of the kinds models write, with plain words where the fast path applies and where it must not. */
const BLOCKS = [
  '# Heading with words', '## Step 5', 'Heading\n===', 'Setext two\n---', 'para with *em* and [link](https://example.com/x) and `code` then words',
  'a paragraph of plain words, more words: and more', 'lazy\ncontinuation line', 'ends with www', 'mail me at someone', 'see www.example.com now',
  'write to a@b.co today', 'an entity &amp', 'an entity &copy; here', 'escaped \\* star', 'trailing spaces  ', 'under_score_word', 'tilde ~~del~~ end',
  '- a\n- b with words', '- a\n\n- b loose words', '1. one\n2. two words', '2) two', '- [ ] task words\n- [x] done', '   - nested item', '- a\n  continued words',
  '> quote words\nlazy words', '```js\nlet a = 1;\n\nlet b;\n```', '```\nunclosed code words', '~~~\ntilde fence', '    indented\n\n    code', '---', '* * *',
  '| a | b |\n|---|---|\n| 1 | 2 |', 'a | b', '[r]: https://example.com/r "T"', 'link to [r] words', '<div>\nhtml\n</div>', 'text with\\\nbackslash',
  'a  \nhard break', '12', '1', 'x', '**bold words', '_emphasis words_ after', 'http', 'https://example.com/path words',
];
const SEPARATORS = ['\n\n', '\n', '\n\n\n', '\n\n  ', '\n \n', ' ', ''];

describe('markdown: appending in place', () => {
  it('appends plain words to the last paragraph without lexing', () => {
    const view = new MarkdownView(OPTIONS);
    const host = document.createElement('div');
    show(view, '# Title\n\nSome **bold** words', host);
    const text = host.querySelector('p')!.lastChild!;
    let lexed = 0;
    const original = Lexer.prototype.lex;
    Lexer.prototype.lex = function (this: Lexer, src: string) {
      lexed++;
      return original.call(this, src);
    };
    try {
      expect(view.appendInPlace('# Title\n\nSome **bold** words and more', host)).to.equal(true);
      expect(view.appendInPlace('# Title\n\nSome **bold** words and more, then some', host)).to.equal(true);
    } finally {
      Lexer.prototype.lex = original;
    }
    expect(lexed).to.equal(0);
    expect(host.querySelector('p')!.lastChild).to.equal(text);
    expect(dom(host)).to.equal(renderedAtOnce('# Title\n\nSome **bold** words and more, then some'));
    expect(view.edits).to.equal(2);
  });

  it('appends to an open fenced code block, line breaks included, but not a fence character', () => {
    const view = new MarkdownView(OPTIONS);
    const host = document.createElement('div');
    show(view, '```js\nlet a', host);
    expect(view.appendInPlace('```js\nlet a = 1;\n\nlet b = "<b>";\n', host)).to.equal(true);
    expect(dom(host)).to.equal(renderedAtOnce('```js\nlet a = 1;\n\nlet b = "<b>";\n'));
    expect(view.appendInPlace('```js\nlet a = 1;\n\nlet b = "<b>";\n`', host)).to.equal(false);
  });

  it('refuses what may change the Markdown before it, and the render after puts the DOM right', () => {
    const cases: [string, string][] = [
      ['Some words', ' and *em*'], // emphasis
      ['Some words', '\n- item'], // a line break
      ['see www', '.example.com'], // an autolink
      ['mail someone', '@example.com'],
      ['mail a@b', 'c'], // letters that complete an e-mail address
      ['12', '. item'], // an ordered list
      ['Fish &amp', ';'], // an entity
      ['- [ ]', ' task'], // a task
      ['Heading\n===', 'x'], // a setext underline
      ['```\ncode\n```', 'x'], // a closed fence
    ];
    for (const [before, added] of cases) {
      const view = new MarkdownView(OPTIONS);
      const host = document.createElement('div');
      show(view, before, host);
      expect(view.appendInPlace(before + added, host), JSON.stringify(before + added)).to.equal(false);
      show(view, before + added, host);
      expect(dom(host), JSON.stringify(before + added)).to.equal(renderedAtOnce(before + added));
    }
  });

  it('renders what lit committed again after appending in place, even when the text goes back', () => {
    const view = new MarkdownView(OPTIONS);
    const host = document.createElement('div');
    show(view, 'Some words', host);
    expect(view.appendInPlace('Some words and more', host)).to.equal(true);
    show(view, 'Some words', host);
    expect(dom(host)).to.equal(renderedAtOnce('Some words'));
  });

  it('after every delta, shows what rendering the text at once shows, at every cut of every CommonMark example', async function () {
    this.timeout(60_000);
    const examples = await loadCommonMarkExamples('/test/corpora/commonmark-spec/examples.json');
    const counts = { inPlace: 0, rendered: 0 };
    for (const example of examples) {
      const every = Array.from({ length: example.markdown.length }, (_, i) => i);
      expect(stream(example.markdown, every, counts), `example ${example.number}`).to.equal(null);
    }
    // The fast path is really taken (else this test would prove nothing about it).
    expect(counts.inPlace).to.be.greaterThan(800);
  });

  it('after every delta, shows what rendering the text at once shows, for generated replies cut anywhere', function () {
    this.timeout(60_000);
    const counts = { inPlace: 0, rendered: 0 };
    const doc = fc
      .array(fc.tuple(fc.constantFrom(...BLOCKS), fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 10 })
      .map((parts) => parts.map(([block, sep]) => block + sep).join(''));
    fc.assert(
      fc.property(doc, fc.array(fc.nat(), { maxLength: 60 }), (text, cuts) => {
        const failed = stream(text, cuts, counts);
        if (failed) throw new Error(failed);
      }),
      { numRuns: 600 },
    );
    expect(counts.inPlace).to.be.greaterThan(200);
  });

  it('after every delta, shows what rendering the text at once shows, for a long reply streamed in small deltas', function () {
    this.timeout(60_000);
    const parts: string[] = [];
    for (let i = 0; i < 18; i++) {
      parts.push(
        [
          `## Step ${i}`,
          `Here is **item ${i}** with \`code\`, a [link](https://example.com/${i}) and some plain words to read through carefully.`,
          `- first point ${i}\n- second point with _emphasis_\n- third point`,
          '```js\nconst total = items.reduce((a, b) => a + b.price, 0);\nconsole.log(total);\n```',
          `| name | price |\n|---|---|\n| mug ${i} | 12 cr |\n| pack | 30 cr |`,
          `1. first\n2. second with words\n\n> a quote with words\n\nDone &mdash; see [ref].\n\n[ref]: https://example.com/r`,
        ][i % 6]!,
      );
    }
    const reply = parts.join('\n\n');
    const counts = { inPlace: 0, rendered: 0 };
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer(), (size, seed) => {
        const cuts: number[] = [];
        for (let end = 0, s = seed; end < reply.length; end += 1 + (Math.abs((s = (s * 1103515245 + 12345) | 0)) % size)) cuts.push(end);
        const failed = stream(reply, cuts, counts);
        if (failed) throw new Error(failed);
      }),
      { numRuns: 4 },
    );
    expect(counts.inPlace).to.be.greaterThan(100);
  });
});
