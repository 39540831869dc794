/**
 * The transcript's Markdown against the CommonMark spec examples whose expected output has no
 * raw HTML (test/corpora/commonmark-spec, CC-BY-SA 4.0), compared as the transcript's
 * deliberate choices allow (test/helpers/commonmark.ts). Issue 16: at least 98 % must match.
 */
import { expect } from '@open-wc/testing';
import { render } from 'lit';
import { renderMarkdown } from '../../components/markdown.js';
import { COMMONMARK_BASE, canonical, canonicalExpected, loadCommonMarkExamples, type CommonMarkExample } from '../helpers/commonmark.js';

function rendered(example: CommonMarkExample): string {
  const host = document.createElement('div');
  render(renderMarkdown(example.markdown, { baseUrl: COMMONMARK_BASE, allowedImageOrigins: [new URL(COMMONMARK_BASE).origin] }), host);
  return canonical(host);
}

describe('markdown: CommonMark conformance', () => {
  it('matches at least 98 % of the spec examples without raw HTML', async () => {
    const examples = await loadCommonMarkExamples();
    expect(examples.length).to.be.greaterThan(550);
    const misses = examples.filter((example) => rendered(example) !== canonicalExpected(example.html));
    for (const miss of misses) console.log(`#${miss.number} ${miss.section}\n${JSON.stringify(miss.markdown)}\n  got  ${rendered(miss)}\n  want ${canonicalExpected(miss.html)}`);
    const share = 1 - misses.length / examples.length;
    console.log(`CommonMark: ${examples.length - misses.length}/${examples.length} (${(share * 100).toFixed(1)} %)`);
    expect(share).to.be.at.least(0.98);
  });
});
