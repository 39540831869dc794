import { expect } from '@open-wc/testing';
import { createPageTools } from '../../src/page/index.js';
import { call, clearStage, outline, refOn, stage } from './helpers.js';

const SHOP = `
  <header><nav aria-label="Primary"><a href="/">Home</a> <a href="/cart">Cart (2)</a></nav></header>
  <main>
    <h1>Garden tools</h1>
    <p>Everything for your <strong>garden</strong>, shipped   in 2 days.</p>
    <section aria-label="Products">
      ${Array.from(
        { length: 12 },
        (_, i) => `<article><h2>Spade model ${i + 1}</h2><p>Steel blade, ash handle. <b>$${(19.5 + i).toFixed(2)}</b></p>
          <button type="button">Add to cart</button></article>`,
      ).join('')}
    </section>
    <form aria-label="Newsletter">
      <label for="email">Email</label><input id="email" type="email" value="ann@example.com" required>
      <label><input type="checkbox" name="weekly" checked> Weekly digest</label>
      <select name="country" aria-label="Country"><option value="fr">France</option><option value="de" selected>Germany</option></select>
      <textarea placeholder="Anything else?"></textarea>
      <button>Subscribe</button>
    </form>
  </main>
  <footer><p>© 2024 Garden Co.</p></footer>`;

describe('read_page', () => {
  afterEach(clearStage);

  it('returns { success, title, url, page, pages, outline } for the visible page', async () => {
    stage('<h1>Hello</h1>');
    const result = await call(createPageTools(), 'read_page');
    expect(result).to.include({ success: true, title: document.title, url: document.URL, page: 1, pages: 1 });
    expect(result['outline']).to.equal('- heading(1) "Hello"');
  });

  it('outlines landmarks, headings, text, links, buttons and form fields in the contract format', async () => {
    stage(SHOP);
    const text = await outline(createPageTools());
    const lines = text.split('\n');
    expect(lines[0]).to.equal('- region header');
    expect(lines[1]).to.equal('  - region nav "Primary"');
    expect(lines[2]).to.match(/^ {4}- link "Home" \[ref=e\d+\] href="\/"$/);
    expect(lines[3]).to.match(/^ {4}- link "Cart \(2\)" \[ref=e\d+\] href="\/cart"$/);
    expect(lines[4]).to.equal('- region main');
    expect(lines[5]).to.equal('  - heading(1) "Garden tools"');
    expect(lines[6]).to.equal('  - text "Everything for your garden, shipped in 2 days."');
    expect(lines[7]).to.equal('  - region section "Products"');
    expect(lines[8]).to.equal('    - heading(2) "Spade model 1"');
    expect(lines[9]).to.equal('    - text "Steel blade, ash handle. $19.50"');
    expect(lines[10]).to.match(/^ {4}- button "Add to cart" \[ref=e\d+\]$/);
    expect(text).to.contain('  - form "Newsletter"\n');
    expect(text).to.match(/\n {4}- textbox "Email" \[ref=e\d+\] value="ann@example.com" required\n/);
    expect(text).to.match(/\n {4}- checkbox "Weekly digest" \[ref=e\d+\] checked\n/);
    expect(text).to.match(/\n {4}- combobox "Country" \[ref=e\d+\] value="Germany" options=\["France","Germany"\]\n/);
    expect(text).to.match(/\n {4}- textarea "Anything else\?" \[ref=e\d+\]\n/);
    expect(text).to.match(/\n {4}- button "Subscribe" \[ref=e\d+\]\n/);
    expect(lines[lines.length - 1]).to.equal('  - text "© 2024 Garden Co."');
    expect(lines[lines.length - 2]).to.equal('- region footer');
  });

  it('keeps a typical shop page in one part under 4,000 chars', async () => {
    stage(SHOP);
    const result = await call(createPageTools(), 'read_page');
    expect(result['pages']).to.equal(1);
    expect(String(result['outline']).length).to.be.below(4000);
    expect(String(result['outline'])).to.contain('$30.50');
  });

  it('resolves field names: aria-labelledby, aria-label, label for, wrapping label, placeholder, title, text, name', async () => {
    stage(`<form>
      <span id="lbl">Promo code</span><input aria-labelledby="lbl">
      <input aria-label="Quantity" type="number" value="3">
      <label for="city">City</label><input id="city">
      <label>Phone <input type="tel"></label>
      <input placeholder="Search the shop" type="search">
      <input title="Postal code">
      <input name="nickname">
      <button><img src="data:," alt="Close"></button>
      <input type="submit" value="Send order">
    </form>`);
    const text = await outline(createPageTools());
    for (const line of [
      /- textbox "Promo code" \[ref=e\d+\]/,
      /- textbox "Quantity" \[ref=e\d+\] value="3"/,
      /- textbox "City" \[ref=e\d+\]/,
      /- textbox "Phone" \[ref=e\d+\]/,
      /- searchbox "Search the shop" \[ref=e\d+\]/,
      /- textbox "Postal code" \[ref=e\d+\]/,
      /- textbox "nickname" \[ref=e\d+\]/,
      /- button "Close" \[ref=e\d+\]/,
      /- button "Send order" \[ref=e\d+\]/,
    ]) {
      expect(text).to.match(line);
    }
    // Label text is the field's name, not a separate text line.
    expect(text).not.to.contain('- text "City"');
  });

  it('never shows hidden nodes: display:none, visibility:hidden, hidden, aria-hidden, zero-size, inert, off-page', async () => {
    stage(`
      <p>Shown text</p>
      <p style="display:none">secret-display</p>
      <p style="visibility:hidden">secret-visibility <span style="visibility:visible">but this child shows</span></p>
      <p hidden>secret-hidden</p>
      <div aria-hidden="true"><button>secret-aria</button></div>
      <div style="width:0;height:0;overflow:hidden"><a href="/x">secret-zero</a></div>
      <div inert><button>secret-inert</button></div>
      <span style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)">secret-sr-only</span>
      <div style="position:absolute;left:-10000px">secret-offpage</div>
      <details><summary>More</summary><p>secret-closed-details</p></details>
      <template><p>secret-template</p></template>`);
    const text = await outline(createPageTools());
    expect(text).to.contain('- text "Shown text"');
    expect(text).to.contain('- text "but this child shows"');
    expect(text).to.match(/- button "More" \[ref=e\d+\]/);
    expect(text).not.to.contain('secret');
  });

  it("never shows the widget's own UI: a <wave-chat> element, its light DOM and its shadow tree", async () => {
    const host = stage('<p>Page text</p><wave-chat><button>light-child</button></wave-chat>');
    const chat = host.querySelector('wave-chat') as HTMLElement;
    chat.attachShadow({ mode: 'open' }).innerHTML = '<button>Send to assistant</button><slot></slot>';
    const text = await outline(createPageTools());
    expect(text).to.equal('- text "Page text"');
  });

  it('honours a custom isOwnUi test', async () => {
    stage('<p>Page text</p><div class="my-assistant"><button>Assistant button</button></div>');
    const tools = createPageTools({ isOwnUi: (el) => el.classList.contains('my-assistant') });
    expect(await outline(tools)).to.equal('- text "Page text"');
  });

  it('never shows a password value and gives a password field no ref', async () => {
    stage('<form aria-label="Sign in"><input aria-label="User" value="ann"><input type="password" aria-label="Password" value="hunter2-secret"></form>');
    const text = await outline(createPageTools());
    expect(text).to.contain('  - textbox "Password" password');
    expect(text).not.to.contain('hunter2');
    expect(text.split('\n').find((l) => l.includes('Password'))).not.to.contain('[ref=');
  });

  it('includes open shadow DOM content of page components, slotted content in place', async () => {
    const host = stage('<product-card><span slot="title">Blue kettle</span></product-card>');
    const card = host.querySelector('product-card') as HTMLElement;
    card.attachShadow({ mode: 'open' }).innerHTML = '<h3><slot name="title"></slot></h3><p>Price: €45</p><button>Buy now</button>';
    const text = await outline(createPageTools());
    expect(text).to.match(/^- heading\(3\) "Blue kettle"\n- text "Price: €45"\n- button "Buy now" \[ref=e\d+\]$/);
  });

  it('keeps refs stable across reads while the DOM is unchanged, and the same element keeps its ref', async () => {
    const host = stage('<button>One</button><button>Two</button>');
    const tools = createPageTools();
    const first = await outline(tools);
    expect(await outline(tools)).to.equal(first);
    const two = refOn(first, '"Two"');
    host.insertAdjacentHTML('afterbegin', '<button>Zero</button>');
    const after = await outline(tools);
    expect(refOn(after, '"Two"')).to.equal(two);
    expect(refOn(after, '"One"')).to.equal(refOn(first, '"One"'));
    expect(refOn(after, '"Zero"')).not.to.be.oneOf([two, refOn(first, '"One"')]);
  });

  it('puts table rows on one line, cells separated by bars', async () => {
    stage('<table><tr><th>Plan</th><th>Price</th></tr><tr><td>Basic</td><td>$9/mo</td></tr></table>');
    expect(await outline(createPageTools())).to.equal('- text "Plan | Price"\n- text "Basic | $9/mo"');
  });

  it('answers a part number past the end with a clear error', async () => {
    stage('<p>Short page</p>');
    const result = await call(createPageTools(), 'read_page', { page: 3 });
    expect(result).to.deep.equal({ success: false, error: "This page's outline has 1 part; there is no part 3." });
  });
});

describe('read_page on a long article', () => {
  afterEach(clearStage);

  const paragraphs = Array.from(
    { length: 60 },
    (_, i) => `Paragraph ${i + 1} opens here and talks about gardening in some detail, with soil and seeds and water.`,
  );
  const article = `<main><article><h1>The long guide</h1>${paragraphs
    .map((p, i) => (i % 10 === 0 ? `<h2>Chapter ${i / 10 + 1}</h2>` : '') + `<p>${p}</p>`)
    .join('')}</article></main>`;

  it('is paged within the budget, every line whole, all content reachable with read_page({ page: n })', async () => {
    stage(article);
    const tools = createPageTools();
    const first = await call(tools, 'read_page');
    const pages = Number(first['pages']);
    expect(pages).to.be.greaterThan(1);
    const all: string[] = [];
    for (let page = 1; page <= pages; page++) {
      const result = await call(tools, 'read_page', { page });
      expect(result).to.include({ success: true, page, pages });
      const text = String(result['outline']);
      expect(text.length).to.be.at.most(4000);
      all.push(...text.split('\n'));
    }
    for (const line of all) expect(line).to.match(/^( {2})*- (region main|heading\(\d\) "[^"]+"|text "[^"]+")$/);
    for (const p of paragraphs) expect(all.filter((l) => l === `  - text "${p}"`)).to.have.length(1);
  });

  it('repeats the landmark line at the top of a continued part, and breaks before a heading when nearly full', async () => {
    stage(article);
    const tools = createPageTools({ pageBudgetChars: 1200 });
    const two = await outline(tools, 2);
    expect(two.split('\n')[0]).to.equal('- region main');
    const first = (await outline(tools, 1)).split('\n');
    // A page never ends on a heading with its content on the next page.
    expect(first[first.length - 1]).not.to.match(/heading/);
  });

  it('shortens a long paragraph with … but keeps its numbers and prices', async () => {
    const filler = 'The quick brown fox jumps over the lazy dog again and again in the meadow. ';
    stage(`<p>${filler.repeat(5)}The early-bird price is $149.99 until 12 March. ${filler.repeat(3)}Delivery takes 3-5 days.</p>`);
    const text = await outline(createPageTools());
    expect(text.length).to.be.below(700);
    expect(text).to.contain('…');
    expect(text).to.contain('$149.99');
    expect(text).to.contain('12 March');
    expect(text).to.contain('3-5 days');
    expect(text).to.match(/^- text "The quick brown fox/);
  });
});
