import { expect } from '@open-wc/testing';
import { boot } from '../../components/cdn.js';

describe('CDN boot', () => {
  afterEach(() => {
    window.VAWaveWidget?.remove();
    delete window.VAWaveWidget;
  });

  it('passes data-confirm-opens="false" to the floating widget', async () => {
    const script = document.createElement('script');
    script.dataset.siteId = 'cdn-test';
    script.dataset.endpoint = '/nowhere';
    script.dataset.confirmOpens = 'false';
    const el = await boot(script);
    expect(el.getAttribute('confirm-opens')).to.equal('false');
    expect(el.confirmOpens).to.equal(false);
    expect(el.hasAttribute('floating')).to.equal(true);
  });

  it('opens on confirmations by default', async () => {
    const script = document.createElement('script');
    script.dataset.siteId = 'cdn-test';
    script.dataset.endpoint = '/nowhere';
    const el = await boot(script);
    expect(el.confirmOpens).to.equal(true);
  });
});
