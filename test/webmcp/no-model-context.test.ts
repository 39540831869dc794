/**
 * Where the browser has no `document.modelContext` (Firefox, Chromium without WebMCP), the
 * `webmcp` attribute changes nothing: the widget works as without it, and the bridge's code is
 * never even loaded.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../components/define.js';
import { WaveChat } from '../../components/wave-chat.js';
import { WaveSession } from '../../src/agent/wave-session.js';
import { MemoryStorage } from '../../src/storage.js';
import { findModelContext } from '../../src/webmcp/model-context.js';
import { boot } from '../../components/cdn.js';

const originalFactory = WaveChat.createSession;

describe('WebMCP bridge without the API', () => {
  beforeEach(() => {
    WaveChat.createSession = (el) => new WaveSession({ siteId: el.siteId || 'plain', storage: new MemoryStorage(), validatorEngine: 'interpreter' });
  });
  afterEach(() => {
    WaveChat.createSession = originalFactory;
  });

  it('finds no model context here', () => {
    expect('modelContext' in document).to.equal(false);
    expect(findModelContext()).to.equal(null);
  });

  it('does not take a partial or hostile look-alike for the API', () => {
    const hostile = {};
    Object.defineProperty(hostile, 'modelContext', {
      get() {
        throw new Error('no');
      },
    });
    expect(findModelContext(hostile)).to.equal(null);
    expect(findModelContext({ modelContext: { registerTool() {} } })).to.equal(null);
    expect(findModelContext({ modelContext: null })).to.equal(null);
  });

  it('a webmcp widget registers and runs page tools as usual, warns nothing, and loads no bridge', async () => {
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args);
    try {
      const el = await fixture<WaveChat>(html`<wave-chat webmcp site-id="plain"></wave-chat>`);
      expect(el.webmcp).to.equal(true);
      expect(el.registerTool('list_tasks', { description: 'List.', handler: () => ['a'] })).to.equal(true);
      expect(await el.callTool('list_tasks', {})).to.deep.equal({ success: true, data: ['a'] });
      expect(el.getHostToolSchemas().map((s) => s.name)).to.deep.equal(['list_tasks']);
      el.webmcp = false;
      await el.updateComplete;
      el.webmcp = true;
      await el.updateComplete;
      el.remove();
      expect(warnings).to.deep.equal([]);
      const loaded = performance.getEntriesByType('resource').map((e) => e.name);
      expect(loaded.some((url) => url.includes('webmcp-bridge'))).to.equal(false);
    } finally {
      console.warn = warn;
    }
  });

  it("the CDN script's data-webmcp turns the bridge on (any value but \"false\")", async () => {
    const cases: Array<[string | null, boolean]> = [['', true], ['true', true], ['false', false], [null, false]];
    for (const [value, expected] of cases) {
      const script = document.createElement('script');
      script.src = new URL('/dist/wave-chat.js', location.href).href;
      if (value !== null) script.dataset.webmcp = value;
      const el = await boot(script);
      try {
        expect(el.webmcp, `data-webmcp=${JSON.stringify(value)}`).to.equal(expected);
      } finally {
        el.remove();
        delete window.VAWaveWidget;
      }
    }
  });
});
