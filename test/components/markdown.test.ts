import { expect, fixture, html } from '@open-wc/testing';
import { render } from 'lit';
import { decodeEntities, encodeDestination, renderMarkdown, safeImageSrc, safeLinkHref, type MarkdownOptions } from '../../components/markdown.js';

function md(text: string, options?: MarkdownOptions): HTMLElement {
  const host = document.createElement('div');
  render(renderMarkdown(text, options), host);
  return host;
}

describe('markdown', () => {
  describe('rendering', () => {
    it('renders emphasis, lists, headings, quotes, tables and code as elements', () => {
      const el = md('# Title\n\n**bold** _em_ ~~del~~ `code`\n\n- a\n- b\n\n1. one\n\n> quote\n\n| a | b |\n|:-:|--:|\n| 1 | 2 |\n\n```js\nlet x = 1 < 2;\n```');
      expect(el.querySelector('h1')!.textContent).to.equal('Title');
      expect(el.querySelector('strong')!.textContent).to.equal('bold');
      expect(el.querySelector('em')!.textContent).to.equal('em');
      expect(el.querySelector('del')!.textContent).to.equal('del');
      expect(el.querySelector('p code')!.textContent).to.equal('code');
      expect(el.querySelectorAll('ul li')).to.have.length(2);
      expect(el.querySelector('ol li')!.textContent).to.equal('one');
      expect(el.querySelector('blockquote')!.textContent!.trim()).to.equal('quote');
      expect(el.querySelector('th')!.className).to.equal('align-center');
      expect(el.querySelector('pre code')!.textContent).to.equal('let x = 1 < 2;');
    });

    it('decodes character references in text but not in code', () => {
      const el = md('Fish &amp; chips &#x2764; `&amp;`');
      expect(el.querySelector('p')!.textContent).to.equal('Fish & chips ❤ &amp;');
      expect(decodeEntities('&#0;&#xD800;&bogus;')).to.equal('\ufffd\ufffd&bogus;');
    });

    it('decodes every HTML5 named reference, in text and in link destinations and titles', () => {
      const el = md('&AElig; &frac34; &rsquo;ok&rsquo; 5&euro; 3 &times; 4 caf&eacute; &ngE; [x](/f&ouml;&ouml; "t&eacute;")', { baseUrl: 'https://shop.example/' });
      expect(el.querySelector('p')!.textContent).to.equal('Æ ¾ ’ok’ 5€ 3 × 4 café ≧̸ x');
      expect(el.querySelector('a')!.getAttribute('href')).to.equal('https://shop.example/f%C3%B6%C3%B6');
      expect(el.querySelector('a')!.getAttribute('title')).to.equal('té');
    });

    it('leaves unknown, unterminated and prototype-named references as written', () => {
      expect(decodeEntities('&madeup; &amp &constructor; &toString; &__proto__;')).to.equal('&madeup; &amp &constructor; &toString; &__proto__;');
    });

    it('names a fenced block\'s language as a class, from the first word of its info string', () => {
      const el = md('```ruby startline=3\ndef foo; end\n```\n\n```\nplain\n```');
      const codes = [...el.querySelectorAll('pre code')];
      expect(codes[0]!.className).to.equal('language-ruby');
      expect(codes[1]!.hasAttribute('class')).to.equal(false);
    });

    it('shows raw HTML as literal text, never as elements', () => {
      const el = md('Hi <b onclick="x()">there</b>\n\n<div><img src=x onerror=alert(1)></div>');
      expect(el.querySelector('b, img, div')).to.equal(null);
      expect(el.textContent).to.contain('<b onclick="x()">there</b>');
      expect(el.textContent).to.contain('<img src=x onerror=alert(1)>');
    });
  });

  describe('links', () => {
    it('keeps http(s), mailto and relative links with safe rel and target', () => {
      const el = md('[a](https://example.com/x) [m](mailto:a@b.c) [r](/cart)', { baseUrl: 'https://shop.example/p/' });
      const links = [...el.querySelectorAll('a')];
      expect(links.map((a) => a.getAttribute('href'))).to.deep.equal(['https://example.com/x', 'mailto:a@b.c', 'https://shop.example/cart']);
      for (const a of links) {
        expect(a.getAttribute('target')).to.equal('_blank');
        expect(a.getAttribute('rel')).to.equal('noopener noreferrer nofollow');
      }
    });

    it('drops javascript:, data:, vbscript: and entity-obfuscated schemes, keeping the text', () => {
      const el = md('[a](javascript:alert(1)) [b](data:text/html,x) [c](vbscript:x) [d](javascript&colon;alert(1)) [e](JaVaScRiPt:alert(1))');
      expect(el.querySelectorAll('a')).to.have.length(0);
      expect(el.querySelectorAll('.link-blocked')).to.have.length(5);
      expect(el.textContent).to.contain('a');
      expect(safeLinkHref(' \u0001javascript:alert(1)')).to.equal(null);
      expect(safeLinkHref('java\tscript:alert(1)')).to.equal(null);
    });

    it('percent-encodes a destination before use, so a backslash or bracket stays in its segment', () => {
      const el = md('[a](foo\\bar) [b](<a b>) [c](/p?q=[1]) [d](/50%25off)', { baseUrl: 'https://shop.example/' });
      const hrefs = [...el.querySelectorAll('a')].map((a) => a.getAttribute('href'));
      expect(hrefs).to.deep.equal(['https://shop.example/foo%5Cbar', 'https://shop.example/a%20b', 'https://shop.example/p?q=%5B1%5D', 'https://shop.example/50%25off']);
      expect(encodeDestination('\ud800x')).to.equal('%EF%BF%BDx');
    });
  });

  describe('images', () => {
    it('renders only the alt text when no origin is allowed', () => {
      const el = md('![a cat](https://img.example/cat.png)');
      expect(el.querySelector('img')).to.equal(null);
      expect(el.querySelector('.image-alt')!.textContent).to.equal('a cat');
      expect(el.querySelector('.image-alt a')).to.equal(null);
    });

    it('renders images from allowed origins only', () => {
      const opts = { allowedImageOrigins: ['https://img.example'] };
      const el = md('![ok](https://img.example/cat.png) ![no](https://evil.example/x.png) ![js](javascript:alert(1))', opts);
      const imgs = [...el.querySelectorAll('img')];
      expect(imgs.map((i) => i.getAttribute('src'))).to.deep.equal(['https://img.example/cat.png']);
      expect(imgs[0]!.getAttribute('alt')).to.equal('ok');
      expect(imgs[0]!.hasAttribute('title')).to.equal(false);
      expect(safeImageSrc('http://img.example/cat.png', opts.allowedImageOrigins)).to.equal(null);
    });
  });

  describe('image titles', () => {
    it('keeps an image\'s title, from inline and reference images', () => {
      const opts = { allowedImageOrigins: ['https://img.example'] };
      const el = md('![cat](https://img.example/cat.png "A &amp; B") ![dog][d]\n\n[d]: https://img.example/dog.png "Rex"', opts);
      expect([...el.querySelectorAll('img')].map((i) => i.getAttribute('title'))).to.deep.equal(['A & B', 'Rex']);
    });
  });

  describe('accessibility', function () {
    // The first axe run in a page loads and compiles axe-core (about 500 KB): on a loaded
    // two-core machine with both browsers running, Firefox took over 10 s once.
    this.timeout(30_000);
    it('renders axe-clean markup', async () => {
      const el = await fixture(html`<div>${renderMarkdown('# Hi\n\nSee [docs](https://example.com).\n\n- one\n- two')}</div>`);
      await expect(el).to.be.accessible();
    });
  });
});
