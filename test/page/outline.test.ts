import { expect } from '@open-wc/testing';
import { paginate, shortenText, type OutlineLine } from '../../src/page/index.js';

const line = (text: string, context: string[] = [], heading = false): OutlineLine => ({ text, context, heading });

describe('paginate', () => {
  it('never splits a line, even one longer than the budget', () => {
    const long = `- text "${'a'.repeat(300)}"`;
    const pages = paginate([line('- text "short"'), line(long), line('- text "after"')], 100);
    expect(pages).to.deep.equal(['- text "short"', long, '- text "after"']);
  });

  it('repeats the containers a continued part sits in', () => {
    const ctx = ['- region main', '  - form "Order"'];
    const lines = [line('- region main'), line('  - form "Order"', ['- region main']), ...Array.from({ length: 6 }, (_, i) => line(`    - textbox "Field ${i}" [ref=e${i}]`, ctx))];
    const pages = paginate(lines, 120);
    expect(pages.length).to.be.greaterThan(1);
    for (const page of pages.slice(1)) expect(page.startsWith('- region main\n  - form "Order"\n    - textbox')).to.equal(true);
    for (const page of pages) expect(page.length).to.be.at.most(120);
  });

  it('starts a new part at a heading when the current one is nearly full', () => {
    const pages = paginate([line(`- text "${'x'.repeat(80)}"`), line('- heading(2) "Next"', [], true), line('- text "y"')], 100);
    expect(pages).to.deep.equal([`- text "${'x'.repeat(80)}"`, '- heading(2) "Next"\n- text "y"']);
  });

  it('gives an empty page one empty part', () => {
    expect(paginate([], 4000)).to.deep.equal(['']);
  });
});

describe('shortenText', () => {
  it('keeps short text whole', () => {
    expect(shortenText('Only $5 today.')).to.equal('Only $5 today.');
  });

  it('keeps the opening and every figure of a long text, joined by …', () => {
    const words = 'lorem ipsum dolor sit amet consectetur '.repeat(20);
    const text = `${words}Price €1,299.00 now. ${words}Ships in 48 hours. ${words}`;
    const short = shortenText(text);
    expect(short.length).to.be.below(text.length / 3);
    expect(short.startsWith('lorem ipsum dolor')).to.equal(true);
    expect(short).to.contain('€1,299.00');
    expect(short).to.contain('48 hours');
    expect(short.endsWith('…')).to.equal(true);
  });
});
