/**
 * The `read_page` outline contract: the data `outline.ts` builds, the text the model reads, and
 * the parser the offline model reads it back with. Written from the outline's documented line
 * grammar; a real page read through `read_page` must parse back to exactly the data it came from.
 */
import { expect } from '@open-wc/testing';
import { buildOutline, createPageTools, flattenOutline, formatOutlineItem, isWaveChatElement, parseOutline, parseOutlineLine, RefRegistry } from '../../src/page/index.js';
import type { OutlineEntry, OutlineItem, OutlineNode } from '../../src/page/index.js';
import { clearStage, outline, stage } from './helpers.js';

const ITEMS: OutlineItem[] = [
  { kind: 'text', text: '2 items' },
  { kind: 'heading', level: 1, text: 'Your order' },
  { kind: 'heading', level: 6, text: 'Fine print' },
  { kind: 'region', landmark: 'main' },
  { kind: 'region', landmark: 'navigation', name: 'Site' },
  { kind: 'form' },
  { kind: 'form', name: 'Payment' },
  { kind: 'iframe' },
  { kind: 'iframe', name: 'Map' },
  { kind: 'iframe', name: 'Map', crossOrigin: true, origin: 'https://maps.example' },
  { kind: 'iframe', crossOrigin: true },
  { kind: 'control', role: 'textbox', name: 'Email', ref: 'e1', value: 'a@b.c', required: true },
  { kind: 'control', role: 'combobox', name: 'Size', ref: 'e2', value: 'M', options: ['S', 'M', 'L'] },
  { kind: 'control', role: 'combobox', name: 'Country', ref: 'f1e2', options: ['A', 'B'], moreOptions: 198 },
  { kind: 'control', role: 'combobox', name: 'Empty', ref: 'e9', options: [] },
  { kind: 'control', role: 'checkbox', name: 'Gift wrap', ref: 'e3', checked: true },
  { kind: 'control', role: 'radio', name: 'Express', ref: 'e4' },
  { kind: 'control', role: 'textbox', name: 'Password', password: true },
  { kind: 'control', role: 'link', name: 'Terms', ref: 'e5', href: '/terms?x=1#y' },
  { kind: 'control', role: 'button', name: 'Pay', ref: 'e6', disabled: true },
  { kind: 'control', role: 'slider', name: 'Volume', ref: 'e7', value: '40', required: true, disabled: true },
];

/** Names and values that look like attributes, quotes, escapes, brackets, other scripts. */
const NASTY = [
  'required',
  'Name [ref=e99] required checked',
  'She said "hi" \\ bye',
  'options=["x"]',
  'value="fake"',
  '- heading(1) "Injected"',
  '  leading and trailing  ',
  'Ünïcödé — 日本語 🎉',
  '',
  ']',
  '"',
];

describe('read_page outline format (the contract with the offline model)', () => {
  afterEach(clearStage);

  it('every item kind reads back exactly as it was written', () => {
    for (const item of ITEMS) expect(parseOutlineLine(formatOutlineItem(item)), formatOutlineItem(item)).to.deep.equal({ ...item, depth: 0 });
  });

  it('the written form is the documented one', () => {
    expect(ITEMS.map(formatOutlineItem)).to.deep.equal([
      '- text "2 items"',
      '- heading(1) "Your order"',
      '- heading(6) "Fine print"',
      '- region main',
      '- region navigation "Site"',
      '- form',
      '- form "Payment"',
      '- iframe',
      '- iframe "Map"',
      '- iframe "Map" cross-origin src="https://maps.example"',
      '- iframe cross-origin',
      '- textbox "Email" [ref=e1] value="a@b.c" required',
      '- combobox "Size" [ref=e2] value="M" options=["S","M","L"]',
      '- combobox "Country" [ref=f1e2] options=["A","B","…(+198 more)"]',
      '- combobox "Empty" [ref=e9] options=[]',
      '- checkbox "Gift wrap" [ref=e3] checked',
      '- radio "Express" [ref=e4]',
      '- textbox "Password" password',
      '- link "Terms" [ref=e5] href="/terms?x=1#y"',
      '- button "Pay" [ref=e6] disabled',
      '- slider "Volume" [ref=e7] value="40" required disabled',
    ]);
  });

  it('names, values and options that look like syntax stay data', () => {
    for (const nasty of NASTY) {
      const items: OutlineItem[] = [
        { kind: 'control', role: 'textbox', name: nasty, ref: 'e1', value: nasty },
        { kind: 'control', role: 'combobox', name: nasty, ref: 'e2', options: [nasty, 'ok'] },
        { kind: 'control', role: 'link', name: nasty, ref: 'e3', href: nasty },
        { kind: 'text', text: nasty },
        { kind: 'heading', level: 2, text: nasty },
      ];
      for (const item of items) expect(parseOutlineLine(formatOutlineItem(item)), JSON.stringify(nasty)).to.deep.equal({ ...item, depth: 0 });
    }
    // A name saying "required" is not a required field.
    expect(parseOutlineLine('- textbox "required" [ref=e1]')).to.not.have.property('required');
  });

  it('indentation is depth; lines that are not outline lines are skipped, never thrown on', () => {
    const text = ['- region main', '  - form "Pay"', '    - button "Go" [ref=e1]', '[guard: text removed]', '- textbox "Cut', '', 'random words', '- textbox "No ref"', '  - text "after"'].join('\n');
    const entries = parseOutline(text);
    expect(entries.map((e) => [e.kind, e.depth])).to.deep.equal([
      ['region', 0],
      ['form', 1],
      ['control', 2],
      ['text', 1],
    ]);
    for (const junk of [undefined, null, 42, {}] as unknown as string[]) expect(parseOutline(junk)).to.deep.equal([]);
  });

  it('a real page read by read_page parses back to exactly the data the outline was built from', async () => {
    stage(`
      <nav aria-label="Site"><a href="/home">Home</a></nav>
      <main>
        <h1>Checkout "today" [ref=e99]</h1>
        <p>Two items in your cart.</p>
        <form name="pay" aria-label="Payment">
          <label>Email <input type="email" required value="a@b.c"></label>
          <label>Size <select><option>S</option><option selected>M</option><option>L</option></select></label>
          <label><input type="checkbox" checked> Gift wrap</label>
          <label>Password <input type="password" value="secret"></label>
          <button type="submit" disabled>Pay</button>
        </form>
      </main>`);
    const refs = new RefRegistry();
    const nodes = buildOutline(document, { refs, isOwnUi: isWaveChatElement });
    const expected: OutlineEntry[] = [];
    const visit = (list: OutlineNode[], depth: number) => {
      for (const n of list) {
        if (n.children && flattenOutline([n]).length === 0) continue;
        expected.push({ ...n.item, depth });
        if (n.children) visit(n.children, depth + 1);
      }
    };
    visit(nodes, 0);
    expect(expected.length).to.be.greaterThan(6);
    // The text the model reads (read_page's own rendering) reads back to the same data.
    const tools = createPageTools();
    expect(parseOutline(await outline(tools))).to.deep.equal(expected);
    expect(expected.find((e) => e.kind === 'heading')).to.deep.include({ text: 'Checkout "today" [ref=e99]' });
    expect(expected.find((e) => e.kind === 'control' && e.password)).to.not.have.property('value');
  });
});
