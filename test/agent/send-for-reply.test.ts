import { expect } from '@open-wc/testing';
import { sendForReply, type ReplySession } from '../../src/agent/send-for-reply.js';
import type { TranscriptItem } from '../../src/agent/types.js';

/** A scripted session: `send` appends the visitor's message and the given replies. */
function scripted(replies: string[], hold?: (signal: AbortSignal | undefined) => Promise<void>) {
  const signals: Array<AbortSignal | undefined> = [];
  const session: ReplySession & { state: { items: TranscriptItem[] } } = {
    state: { items: [{ kind: 'message', id: 'old', role: 'assistant', text: 'Earlier answer', streaming: false }] },
    async send(text, options) {
      signals.push(options?.signal);
      session.state.items = [...session.state.items, { kind: 'message', id: `u${signals.length}`, role: 'user', text, streaming: false }];
      await hold?.(options?.signal);
      for (const [i, r] of replies.entries()) session.state.items = [...session.state.items, { kind: 'message', id: `a${signals.length}-${i}`, role: 'assistant', text: r, streaming: false }];
    },
  };
  return { session, signals };
}

describe('sendForReply (the one implementation, any session)', () => {
  it("resolves with the turn's last non-empty assistant message, never an earlier turn's", async () => {
    const { session } = scripted(['Working on it.', 'Added the scene.', '  ']);
    expect(await sendForReply(session, 'add a scene', new AbortController().signal)).to.equal('Added the scene.');
    const silent = scripted([]);
    expect(await sendForReply(silent.session, 'hm', new AbortController().signal)).to.equal('');
  });

  it('hands its signal to send, and an aborted turn resolves empty', async () => {
    const turn = new AbortController();
    const { session, signals } = scripted(['Too late'], (signal) => new Promise((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true })));
    const pending = sendForReply(session, 'hi', turn.signal);
    turn.abort();
    expect(await pending).to.equal('');
    expect(signals).to.deep.equal([turn.signal]);
  });

  it('an already aborted signal sends nothing', async () => {
    const turn = new AbortController();
    turn.abort();
    const { session, signals } = scripted(['x']);
    expect(await sendForReply(session, 'hi', turn.signal)).to.equal('');
    expect(signals).to.deep.equal([]);
  });
});
