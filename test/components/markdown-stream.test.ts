/**
 * Streaming Markdown (issue 13): the incremental lexer re-lexes only the tail after the last
 * closed block, and its tokens always equal a whole lex of the text so far, however the reply
 * is cut into deltas.
 */
import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { Lexer } from 'marked';
import { IncrementalLexer } from '../../components/markdown.js';
import { loadCommonMarkExamples } from '../helpers/commonmark.js';

const whole = (text: string) => JSON.stringify(Lexer.lex(text, { gfm: true, breaks: true }));

function streamMatches(text: string, cuts: readonly number[]): string | null {
  const lexer = new IncrementalLexer();
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  for (const end of [...points, text.length]) {
    const sofar = text.slice(0, end);
    const got = JSON.stringify(lexer.lex(sofar));
    if (got !== whole(sofar)) return sofar;
  }
  return null;
}

/**
 * Streams `reply` through an IncrementalLexer in deltas of `step` characters (the first cut at
 * `first`), recording every source marked's lexer is given; `last` is the final tokens as JSON.
 */
function streamWatchingLexer(reply: string, step: number, first = step): { lexed: string[]; last: string } {
  const lexed: string[] = [];
  const original = Lexer.prototype.lex;
  Lexer.prototype.lex = function (this: Lexer, src: string) {
    lexed.push(src);
    return original.call(this, src);
  };
  try {
    const lexer = new IncrementalLexer();
    for (let end = first; end < reply.length; end += step) lexer.lex(reply.slice(0, end));
    return { lexed, last: JSON.stringify(lexer.lex(reply)) };
  } finally {
    Lexer.prototype.lex = original;
  }
}

const BLOCKS = [
  '# Heading', 'Heading\n===', 'para with *em* and [link][r] and `code`', 'lazy\ncontinuation', '- a\n- b', '- a\n\n- b', '1. one\n2. two',
  '- a\n\n  more a', '> quote\nlazy', '```js\nlet a = 1;\n\nlet b;\n```', '```\nunclosed', '    indented\n\n    code', '---', '| a | b |\n|---|---|\n| 1 | 2 |',
  '[r]: https://example.com/r "T"', '  2. b', '2) two', '   - nested', '  continued', '> a\n> b', '+ plus', '10. ten', 'a  \nhard break', '<div>\nhtml\n</div>', 'text with\\\nbackslash', '* * *', '- [ ] task\n- [x] done', '&copy; &AElig;',
  // What may or may not end a list after a blank line (a list closes early only when it cannot go on).
  '* star', '1) p', ' - space bullet', '\tTabbed', '___', '#nospace', '~~~\nfence\n~~~', 'x',
];

describe('markdown: streaming', () => {
  // Every cut of every CommonMark example (652 in the spec, those with raw HTML left out), in four parts
  // by example number: whole, it took 7–10 s in Firefox on a loaded machine and once hit mocha's 10 s
  // limit. The parts together read every example, which the last part asserts.
  const parts: Array<[number, number]> = [[1, 163], [164, 326], [327, 489], [490, Infinity]];
  let examples: Awaited<ReturnType<typeof loadCommonMarkExamples>> = [];
  let read = 0;
  before(async () => {
    examples = await loadCommonMarkExamples('/test/corpora/commonmark-spec/examples.json');
  });
  for (const [first, last] of parts) {
    it(`gives the same tokens as a whole lex at every cut of every CommonMark example (${first} to ${last === Infinity ? 'the end' : last})`, () => {
      for (const example of examples.filter((e) => e.number >= first && e.number <= last)) {
        const every = Array.from({ length: example.markdown.length }, (_, i) => i);
        expect(streamMatches(example.markdown, every), `example ${example.number}`).to.equal(null);
        read++;
      }
      if (last === Infinity) {
        expect(examples.length, 'CommonMark examples loaded').to.be.greaterThan(500);
        expect(read, 'examples read by the four parts').to.equal(examples.length);
      }
    });
  }

  it('gives the same tokens as a whole lex for generated documents cut anywhere', () => {
    const doc = fc
      .array(fc.tuple(fc.constantFrom(...BLOCKS), fc.constantFrom('\n\n', '\n', '\n\n\n', '\n\n  ', '\n\n\t', '\n \n')), { minLength: 1, maxLength: 12 })
      .map((parts) => parts.map(([block, sep]) => block + sep).join(''));
    fc.assert(
      fc.property(doc, fc.array(fc.nat(), { maxLength: 30 }), (text, cuts) => streamMatches(text, cuts) === null),
      { numRuns: 1000 },
    );
  });

  it('re-lexes only the tail: a long reply streamed in small deltas lexes far less than it would whole', () => {
    const reply = Array.from({ length: 120 }, (_, i) => `Paragraph ${i} with **bold** text and a [link](https://example.com/${i}).`).join('\n\n');
    const { lexed, last } = streamWatchingLexer(reply, 8);
    expect(last).to.equal(whole(reply));
    const total = lexed.reduce((a, b) => a + b.length, 0);
    // Whole re-lexing would read ~reply.length² / 16 characters; the tail alone stays linear.
    expect(total).to.be.lessThan(reply.length * 20);
    expect(Math.max(...lexed.map((src) => src.length))).to.be.lessThan(200);
  });

  it('closes a list once a line that cannot continue it follows: the block after it streams without re-lexing the list', () => {
    const reply = `- first\n- second\n\n\`\`\`js\n${'let x = 1;\n'.repeat(40)}\`\`\`\n\nDone.`;
    const { lexed, last } = streamWatchingLexer(reply, 5, 1);
    expect(last).to.equal(whole(reply));
    // The list is lexed with the fence's first characters once, when it closes; never again.
    expect(lexed.filter((src) => src.startsWith('- first') && src.includes('```'))).to.have.length(1);
  });

  it('starts again when the text is replaced rather than extended', () => {
    const lexer = new IncrementalLexer();
    lexer.lex('# One\n\nfirst paragraph\n\nsecond');
    expect(JSON.stringify(lexer.lex('Other\n\ntext'))).to.equal(whole('Other\n\ntext'));
    expect(JSON.stringify(lexer.lex('Other\r\n\r\ntext and more'))).to.equal(whole('Other\r\n\r\ntext and more'));
  });
});
