import { expect } from '@open-wc/testing';
import { createLazyPageTools } from '../../src/page/lazy-page-tools.js';
import { WaveSession } from '../../src/agent/wave-session.js';

describe('createLazyPageTools', () => {
  it('fills the same record with the six built-in tools once loaded, and a session offers them from then on', async () => {
    const { tools, ready } = createLazyPageTools();
    const session = new WaveSession({ builtinTools: tools, validatorEngine: 'interpreter' });
    await ready;
    expect(Object.keys(tools).sort()).to.deep.equal(['click_element', 'fill_field', 'navigate', 'read_page', 'scroll_to', 'select_option']);
    expect(session.getHostToolSchemas().map((s) => s.name)).to.include('read_page');
    const page = await session.callTool('read_page', {});
    expect(page['success']).to.equal(true);
    expect(page['outline']).to.be.a('string');
  });
});
