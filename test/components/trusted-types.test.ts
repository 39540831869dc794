import { expect } from '@open-wc/testing';

interface Report {
  type: 'wave-tt-report';
  enforced: boolean;
  violations: string[];
  rendered: number;
  error: string | null;
}

function loadFixture(src: string): Promise<Report> {
  return new Promise((resolve) => {
    const iframe = document.createElement('iframe');
    const onMessage = (e: MessageEvent) => {
      if (e.source !== iframe.contentWindow || (e.data as Report)?.type !== 'wave-tt-report') return;
      window.removeEventListener('message', onMessage);
      resolve(e.data as Report);
      iframe.remove();
    };
    window.addEventListener('message', onMessage);
    iframe.src = src;
    document.body.append(iframe);
  });
}

describe('<wave-chat> under Trusted Types and a strict CSP', () => {
  it('renders messages, Markdown, chips, the pill and the voice bubble with zero violations', async () => {
    const report = await loadFixture('/test/fixtures/tt/wave-chat.html');
    expect(report.error).to.equal(null);
    // The page really enforces Trusted Types (a raw innerHTML throws there).
    expect(report.enforced).to.equal(true);
    expect(report.rendered).to.be.greaterThan(40);
    expect(report.violations).to.deep.equal([]);
  });
});
