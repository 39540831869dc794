import { expect } from '@open-wc/testing';
import { createPageTools } from '../../src/page/index.js';
import { RESERVED_TOOL_NAMES } from '../../src/tools/types.js';

describe('createPageTools definitions', () => {
  const tools = createPageTools();

  it('offers exactly the six reserved built-in names', () => {
    expect(Object.keys(tools).sort()).to.deep.equal(
      ['click_element', 'fill_field', 'navigate', 'read_page', 'scroll_to', 'select_option'],
    );
    for (const name of Object.keys(tools)) expect(RESERVED_TOOL_NAMES.has(name)).to.equal(true);
  });

  it('gives each tool a plain description within 2,000 chars, an object schema, a running label and a summary', () => {
    for (const [name, tool] of Object.entries(tools)) {
      expect(tool.description, name).to.be.a('string');
      expect((tool.description ?? '').length, name).to.be.within(20, 2000);
      expect(tool.parameters?.['type'], name).to.equal('object');
      expect(tool.runningLabel, name).to.be.a('string');
      expect(tool.summary, name).to.be.a('function');
    }
  });

  it('summarises outcomes for the chip, and shows the error of a failure', () => {
    expect(tools['read_page']?.summary?.({}, { success: true, title: 'Shop', page: 2, pages: 3 })).to.equal('Read “Shop” (part 2 of 3)');
    expect(tools['click_element']?.summary?.({ ref: 'e1' }, { success: true, name: 'Save' })).to.equal('Clicked “Save”');
    expect(tools['fill_field']?.summary?.({ ref: 'e1' }, { success: false, error: 'Nope' })).to.equal('Nope');
  });

  it('confirms navigate always and click_element only through confirmIf', () => {
    expect(tools['navigate']?.confirm).to.equal(true);
    expect(tools['click_element']?.confirm).to.equal(undefined);
    expect(tools['click_element']?.confirmIf).to.be.a('function');
    expect(tools['click_element']?.confirmIf?.({ ref: 'nothing' })).to.equal(false);
  });
});
