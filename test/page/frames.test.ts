import { expect } from '@open-wc/testing';
import { createPageTools } from '../../src/page/index.js';
import { call, clearStage, outline, refOn, stage } from './helpers.js';

function loaded(frame: HTMLIFrameElement): Promise<void> {
  return new Promise((resolve) => frame.addEventListener('load', () => resolve(), { once: true }));
}

/** This test server under its other loopback name: the same pages, another origin. */
function otherOrigin(): string {
  const url = new URL(location.href);
  url.hostname = url.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  return url.origin;
}

describe('read_page with frames', () => {
  afterEach(clearStage);

  it('includes a same-origin iframe with frame-prefixed refs, and acts inside it', async () => {
    const host = stage('<p>Outer page</p><iframe title="Checkout" style="width:400px;height:300px"></iframe>');
    const frame = host.querySelector('iframe') as HTMLIFrameElement;
    const ready = loaded(frame);
    frame.srcdoc = `<h2>Pay</h2><label>Card holder <input name="holder"></label><button>Pay €12.00</button>
      <input type="password" aria-label="PIN" value="1234-secret">`;
    await ready;
    const tools = createPageTools();
    const text = await outline(tools);
    expect(text).to.match(/^- text "Outer page"\n- iframe "Checkout"\n {2}- heading\(2\) "Pay"\n {2}- textbox "Card holder" \[ref=f1e1\]\n {2}- button "Pay €12.00" \[ref=f1e2\]\n {2}- textbox "PIN" password$/);
    expect(text).not.to.contain('1234-secret');

    const doc = frame.contentDocument as Document;
    let clicked = 0;
    doc.querySelector('button')?.addEventListener('click', () => clicked++);
    expect(await call(tools, 'fill_field', { ref: 'f1e1', value: 'Ann Smith' })).to.include({ success: true, value: 'Ann Smith' });
    expect((doc.querySelector('input') as HTMLInputElement).value).to.equal('Ann Smith');
    expect(await call(tools, 'click_element', { ref: 'f1e2' })).to.include({ success: true, name: 'Pay €12.00' });
    expect(clicked).to.equal(1);
  });

  it("makes refs of a frame's old document stale once the frame navigates", async () => {
    const host = stage('<iframe title="Widget"></iframe>');
    const frame = host.querySelector('iframe') as HTMLIFrameElement;
    let ready = loaded(frame);
    frame.srcdoc = '<button>Old</button>';
    await ready;
    const tools = createPageTools();
    const ref = refOn(await outline(tools), '"Old"');
    const oldButton = frame.contentDocument?.querySelector('button');
    ready = loaded(frame);
    frame.srcdoc = '<button>New</button>';
    await ready;
    expect(oldButton?.isConnected).to.equal(true);
    const result = await call(tools, 'click_element', { ref });
    expect(result).to.deep.equal({ success: false, error: `Unknown or stale ref "${ref}": call read_page again to get fresh refs.` });
  });

  it('lists a cross-origin iframe as opaque, with its origin and nothing from inside', async () => {
    const host = stage('<p>Shop</p><iframe title="Payment" style="width:300px;height:200px"></iframe>');
    const frame = host.querySelector('iframe') as HTMLIFrameElement;
    const ready = loaded(frame);
    frame.src = `${otherOrigin()}/test/page/helpers.ts`;
    await ready;
    const text = await outline(createPageTools());
    expect(text).to.equal(`- text "Shop"\n- iframe "Payment" cross-origin src="${otherOrigin()}"`);
  });

  it('lists a sandboxed (opaque-origin) iframe as cross-origin', async () => {
    const host = stage('<iframe title="Ad" sandbox="" style="width:300px;height:200px"></iframe>');
    const frame = host.querySelector('iframe') as HTMLIFrameElement;
    const ready = loaded(frame);
    frame.srcdoc = '<button>Secret ad button</button>';
    await ready;
    expect(await outline(createPageTools())).to.equal('- iframe "Ad" cross-origin');
  });
});
