import { expect } from '@open-wc/testing';
import { createPageTools } from '../../src/page/index.js';
import { call, clearStage, context, outline, refOn, stage, staleError } from './helpers.js';

describe('click_element', () => {
  afterEach(clearStage);

  it('fires the pointer and mouse events frameworks listen to, focus on press, then click', async () => {
    const host = stage('<button>Save</button>');
    const button = host.querySelector('button') as HTMLButtonElement;
    const seen: string[] = [];
    for (const type of ['pointerdown', 'mousedown', 'focus', 'pointerup', 'mouseup', 'click']) {
      button.addEventListener(type, () => seen.push(type));
    }
    const tools = createPageTools();
    const ref = refOn(await outline(tools), '"Save"');
    const result = await call(tools, 'click_element', { ref });
    expect(result).to.deep.equal({ success: true, ref, role: 'button', name: 'Save' });
    expect(seen).to.deep.equal(['pointerdown', 'mousedown', 'focus', 'pointerup', 'mouseup', 'click']);
  });

  it('toggles a checkbox and reports its new state', async () => {
    const host = stage('<label><input type="checkbox"> Gift wrap</label>');
    const tools = createPageTools();
    const ref = refOn(await outline(tools), '"Gift wrap"');
    expect(await call(tools, 'click_element', { ref })).to.include({ success: true, checked: true });
    expect((host.querySelector('input') as HTMLInputElement).checked).to.equal(true);
  });

  it('answers an unknown ref and a removed element with the stale-ref error', async () => {
    const host = stage('<button>Gone soon</button>');
    const tools = createPageTools();
    const ref = refOn(await outline(tools), '"Gone soon"');
    host.querySelector('button')?.remove();
    expect(await call(tools, 'click_element', { ref })).to.deep.equal({ success: false, error: staleError(ref) });
    expect(await call(tools, 'click_element', { ref: 'x' })).to.deep.equal({ success: false, error: staleError('x') });
  });

  it('refuses an element hidden since the read, and a disabled one', async () => {
    const host = stage('<button id="a">Later hidden</button><button disabled>Off</button>');
    const tools = createPageTools();
    const text = await outline(tools);
    expect(text).to.match(/- button "Off" \[ref=e\d+\] disabled/);
    (host.querySelector('#a') as HTMLElement).style.display = 'none';
    const hidden = await call(tools, 'click_element', { ref: refOn(text, '"Later hidden"') });
    expect(hidden['success']).to.equal(false);
    expect(String(hidden['error'])).to.contain('hidden now');
    const disabled = await call(tools, 'click_element', { ref: refOn(text, '"Off"') });
    expect(disabled).to.deep.equal({ success: false, error: '"Off" is disabled; it cannot be clicked now.' });
  });

  it("never acts on the widget's own UI, even an element moved into it after the read", async () => {
    const host = stage('<button>Moved</button><wave-chat></wave-chat>');
    let clicks = 0;
    const button = host.querySelector('button') as HTMLButtonElement;
    button.addEventListener('click', () => clicks++);
    const tools = createPageTools();
    const ref = refOn(await outline(tools), '"Moved"');
    host.querySelector('wave-chat')?.append(button);
    const result = await call(tools, 'click_element', { ref });
    expect(result['success']).to.equal(false);
    expect(String(result['error'])).to.contain("assistant's own window");
    expect(clicks).to.equal(0);
  });

  it('asks for confirmation (confirmIf) for submit controls and links leaving the page, not for plain buttons or jumps', async () => {
    stage(`<form><input aria-label="Name"><button>Send</button><input type="submit" value="Go"><button type="button">Preview</button></form>
      <a href="/other/page">Other page</a><a href="#faq">FAQ</a><a href="https://elsewhere.example/">Partner</a>`);
    const tools = createPageTools();
    const text = await outline(tools);
    const confirmIf = tools['click_element']?.confirmIf;
    if (!confirmIf) throw new Error('click_element has no confirmIf');
    expect(confirmIf({ ref: refOn(text, '"Send"') })).to.equal(true);
    expect(confirmIf({ ref: refOn(text, '"Go"') })).to.equal(true);
    expect(confirmIf({ ref: refOn(text, '"Other page"') })).to.equal(true);
    expect(confirmIf({ ref: refOn(text, '"Partner"') })).to.equal(true);
    expect(confirmIf({ ref: refOn(text, '"Preview"') })).to.equal(false);
    expect(confirmIf({ ref: refOn(text, '"FAQ"') })).to.equal(false);
    expect(confirmIf({ ref: refOn(text, '"Name"') })).to.equal(false);
  });

  it('throws the abort reason when the call is already aborted', async () => {
    stage('<button>Save</button>');
    const tools = createPageTools();
    const ref = refOn(await outline(tools), '"Save"');
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    expect(() => tools['click_element']?.handler({ ref }, context(controller.signal))).to.throw('stopped');
  });
});

describe('fill_field', () => {
  afterEach(clearStage);

  it('fills a labelled field, fires bubbling input and change, and never submits its form', async () => {
    const host = stage('<form><label for="q">Quantity</label><input id="q" value="1"></form>');
    const form = host.querySelector('form') as HTMLFormElement;
    const events: string[] = [];
    let submits = 0;
    form.addEventListener('input', () => events.push('input'));
    form.addEventListener('change', () => events.push('change'));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      submits++;
    });
    const tools = createPageTools();
    const ref = refOn(await outline(tools), '"Quantity"');
    const result = await call(tools, 'fill_field', { ref, value: '4' });
    expect(result).to.deep.equal({ success: true, ref, role: 'textbox', name: 'Quantity', value: '4' });
    expect((host.querySelector('input') as HTMLInputElement).value).to.equal('4');
    expect(events).to.deep.equal(['input', 'change']);
    expect(submits).to.equal(0);
    expect(await outline(tools)).to.contain(`- textbox "Quantity" [ref=${ref}] value="4"`);
  });

  it('lands in a React-style controlled input (value tracker on the instance, state reset on re-render)', async () => {
    const host = stage('<input aria-label="City">');
    const input = host.querySelector('input') as HTMLInputElement;
    // React's tracker: an instance `value` property remembering the last value it was given.
    const native = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
    let tracked = '';
    Object.defineProperty(input, 'value', {
      configurable: true,
      get: () => native?.get?.call(input) as string,
      set: (v: string) => {
        tracked = v;
        native?.set?.call(input, v);
      },
    });
    let state = 'Paris';
    const render = (): void => {
      input.value = state;
    };
    render();
    // onChange fires only when the DOM value differs from the tracked one; otherwise the render resets it.
    input.addEventListener('input', () => {
      const current = native?.get?.call(input) as string;
      if (current !== tracked) state = current;
      render();
    });

    // Control: a plain assignment is swallowed by the tracker, as in React.
    input.value = 'Lyon';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    expect(state).to.equal('Paris');
    expect(input.value).to.equal('Paris');

    const tools = createPageTools();
    const ref = refOn(await outline(tools), '"City"');
    const result = await call(tools, 'fill_field', { ref, value: 'Berlin' });
    expect(state).to.equal('Berlin');
    render();
    expect(input.value).to.equal('Berlin');
    expect(result).to.include({ success: true, value: 'Berlin' });
  });

  it('lands in a component that replaces its input on every input event; the old ref then goes stale', async () => {
    const host = stage('<div id="field"></div>');
    const box = host.querySelector('#field') as HTMLElement;
    let state = '';
    const render = (): void => {
      const input = document.createElement('input');
      input.setAttribute('aria-label', 'Coupon');
      input.value = state;
      input.addEventListener('input', () => {
        state = input.value;
        render();
      });
      box.replaceChildren(input);
    };
    render();
    const tools = createPageTools();
    const ref = refOn(await outline(tools), '"Coupon"');
    const result = await call(tools, 'fill_field', { ref, value: 'SPRING24' });
    expect(result).to.include({ success: true, name: 'Coupon' });
    expect(String(result['note'])).to.contain('re-rendered');
    expect(state).to.equal('SPRING24');
    expect((box.querySelector('input') as HTMLInputElement).value).to.equal('SPRING24');
    expect(await call(tools, 'fill_field', { ref, value: 'X' })).to.deep.equal({ success: false, error: staleError(ref) });
    const fresh = await outline(tools);
    expect(refOn(fresh, '"Coupon"')).not.to.equal(ref);
    expect(fresh).to.contain('value="SPRING24"');
  });

  it('updates a Vue-style v-model bound to the input event', async () => {
    const host = stage('<textarea aria-label="Message"></textarea>');
    const area = host.querySelector('textarea') as HTMLTextAreaElement;
    const model = { message: '' };
    area.addEventListener('input', (e) => {
      model.message = (e.target as HTMLTextAreaElement).value;
    });
    const tools = createPageTools();
    const ref = refOn(await outline(tools), '"Message"');
    await call(tools, 'fill_field', { ref, value: 'Hello there' });
    expect(model.message).to.equal('Hello there');
  });

  it('ticks and unticks checkboxes with "true" and "false"', async () => {
    const host = stage('<label><input type="checkbox" name="terms"> I agree</label>');
    const box = host.querySelector('input') as HTMLInputElement;
    let changes = 0;
    box.addEventListener('change', () => changes++);
    const tools = createPageTools();
    const ref = refOn(await outline(tools), '"I agree"');
    expect(await call(tools, 'fill_field', { ref, value: 'true' })).to.include({ success: true, checked: true });
    expect(await call(tools, 'fill_field', { ref, value: 'true' })).to.include({ success: true, checked: true });
    expect(await call(tools, 'fill_field', { ref, value: 'false' })).to.include({ success: true, checked: false });
    expect(box.checked).to.equal(false);
    expect(changes).to.equal(2);
  });

  it('keeps to the field maxlength as typing would', async () => {
    stage('<input aria-label="Code" maxlength="4">');
    const tools = createPageTools();
    const ref = refOn(await outline(tools), '"Code"');
    const result = await call(tools, 'fill_field', { ref, value: 'ABCDEFG' });
    expect(result).to.include({ success: true, value: 'ABCD' });
  });

  it('never fills a password field, even one that was a text field when read', async () => {
    const host = stage('<input aria-label="Secret" value="">');
    const input = host.querySelector('input') as HTMLInputElement;
    const tools = createPageTools();
    const ref = refOn(await outline(tools), '"Secret"');
    input.type = 'password';
    const result = await call(tools, 'fill_field', { ref, value: 'letmein' });
    expect(result['success']).to.equal(false);
    expect(String(result['error'])).to.contain('Password fields are never read or filled');
    expect(input.value).to.equal('');
  });

  it('fills a contenteditable editor through the editing pipeline', async () => {
    const host = stage('<div contenteditable="true" aria-label="Notes">old</div>');
    const tools = createPageTools();
    const ref = refOn(await outline(tools), '"Notes"');
    expect(await call(tools, 'fill_field', { ref, value: 'new notes' })).to.include({ success: true, value: 'new notes' });
    expect(host.querySelector('[contenteditable]')?.textContent).to.equal('new notes');
  });
});

describe('select_option', () => {
  afterEach(clearStage);

  const SELECT = `<label for="size">Size</label><select id="size">
    <option value="s">Small</option><option value="m">Medium</option><option value="l" disabled>Large</option></select>`;

  it('selects by option value and by visible text, firing input and change', async () => {
    const host = stage(SELECT);
    const select = host.querySelector('select') as HTMLSelectElement;
    const events: string[] = [];
    select.addEventListener('input', () => events.push('input'));
    select.addEventListener('change', () => events.push('change'));
    const tools = createPageTools();
    const ref = refOn(await outline(tools), '"Size"');
    expect(await call(tools, 'select_option', { ref, value: 'm' })).to.include({ success: true, value: 'm', selected: 'Medium' });
    expect(select.value).to.equal('m');
    expect(await call(tools, 'select_option', { ref, value: 'small' })).to.include({ success: true, value: 's' });
    expect(select.value).to.equal('s');
    expect(events).to.deep.equal(['input', 'change', 'input', 'change']);
    expect(await outline(tools)).to.contain(`- combobox "Size" [ref=${ref}] value="Small" options=["Small","Medium","Large"]`);
  });

  it('refuses an option that does not exist (listing the options) or is disabled', async () => {
    stage(SELECT);
    const tools = createPageTools();
    const ref = refOn(await outline(tools), '"Size"');
    expect(await call(tools, 'select_option', { ref, value: 'XL' })).to.deep.equal({
      success: false,
      error: '"Size" has no option "XL". Options: ["Small","Medium","Large"].',
    });
    expect(await call(tools, 'select_option', { ref, value: 'Large' })).to.deep.equal({
      success: false,
      error: 'The option "Large" is disabled.',
    });
  });

  it('picks a radio button of a group', async () => {
    const host = stage('<label><input type="radio" name="ship" value="std" checked> Standard</label><label><input type="radio" name="ship" value="exp"> Express</label>');
    const tools = createPageTools();
    const ref = refOn(await outline(tools), '"Express"');
    expect(await call(tools, 'select_option', { ref, value: 'Express' })).to.include({ success: true, checked: true });
    expect((host.querySelector('input[value=exp]') as HTMLInputElement).checked).to.equal(true);
  });
});

describe('scroll_to', () => {
  afterEach(clearStage);

  it('brings the element into the viewport', async () => {
    stage('<div style="height:5000px"></div><button>Far away</button>');
    const tools = createPageTools();
    const ref = refOn(await outline(tools), '"Far away"');
    window.scrollTo(0, 0);
    expect(await call(tools, 'scroll_to', { ref })).to.include({ success: true, name: 'Far away' });
    const rect = document.querySelector('#stage button')?.getBoundingClientRect();
    expect(rect?.top).to.be.within(0, window.innerHeight);
    window.scrollTo(0, 0);
  });
});

describe('navigate', () => {
  it('is a confirming tool', () => {
    expect(createPageTools()['navigate']?.confirm).to.equal(true);
  });

  it('opens a same-origin path through the injected navigate', async () => {
    const opened: string[] = [];
    const tools = createPageTools({ navigate: (url) => opened.push(url.href) });
    const result = await call(tools, 'navigate', { url: '/pricing?plan=pro' });
    const expected = new URL('/pricing?plan=pro', location.href).href;
    expect(result).to.deep.equal({ success: true, url: expected });
    expect(opened).to.deep.equal([expected]);
  });

  it('refuses other origins, javascript: and data: URLs with a clear error, opening nothing', async () => {
    const opened: string[] = [];
    const tools = createPageTools({ navigate: (url) => opened.push(url.href) });
    const other = await call(tools, 'navigate', { url: 'https://evil.example/login' });
    expect(other).to.deep.equal({
      success: false,
      error: `Refused: https://evil.example is another site; navigate only opens pages of this site (${location.origin}).`,
    });
    for (const url of ['javascript:alert(1)', ' JaVa\tScRiPt:alert(1)', 'data:text/html,<script>alert(1)</script>']) {
      const result = await call(tools, 'navigate', { url });
      expect(result['success']).to.equal(false);
      expect(String(result['error'])).to.match(/^Refused: (javascript|data): URLs are never opened/);
    }
    const protocolRelative = await call(tools, 'navigate', { url: '//evil.example/x' });
    expect(String(protocolRelative['error'])).to.contain('another site');
    expect(opened).to.deep.equal([]);
  });
});
