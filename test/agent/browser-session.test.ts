import { expect } from '@open-wc/testing';
import { createBrowserSession, createVoiceEngine } from '../../src/agent/browser-session.js';
import { VoiceState, type VoiceStartOptions } from '../../src/voice/types.js';

function startOptions(ended: string[]): VoiceStartOptions {
  return {
    signal: new AbortController().signal,
    tools: [],
    context: null,
    runTool: () => Promise.reject(new Error('not called')),
    isConfirming: () => false,
    onState: () => undefined,
    onTranscript: () => undefined,
    onEnd: (reason) => ended.push(reason),
  };
}

describe('createBrowserSession', () => {
  it('tells the visitor clearly when no endpoint is set, and keeps callTool working', async () => {
    const session = createBrowserSession({ siteId: 'demo', endpoint: () => null });
    session.registerTool('ping', { handler: () => ({ pong: true }) });
    expect(await session.callTool('ping', {})).to.deep.equal({ success: true, pong: true });
    await session.send('hello');
    const notice = session.state.items.find((i) => i.kind === 'notice');
    expect(notice && notice.kind === 'notice' && notice.notice).to.deep.include({ kind: 'step-failed', code: 'no_endpoint' });
  });
});

describe('createVoiceEngine', () => {
  it('returns an engine whose code loads on start; stopping before it loads ends without starting', async () => {
    const session = { state: { conversationId: 'c1', items: [] }, send: () => Promise.resolve() };
    const engine = createVoiceEngine(session, { endpoint: '/wave', siteId: 'demo', prefer: 'realtime' });
    expect(engine?.kind).to.equal('realtime');
    expect(engine?.state).to.equal(VoiceState.idle);
    expect(engine?.inputLevel()).to.equal(0);
    const ended: string[] = [];
    const started = engine!.start(startOptions(ended));
    engine!.stop('stopped');
    await started;
    expect(ended).to.deep.equal(['stopped']);
    expect(engine?.state).to.equal(VoiceState.ended);
  });
});
