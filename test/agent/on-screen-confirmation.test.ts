import { expect } from '@open-wc/testing';
import { onScreenConfirmation } from '../../src/agent/on-screen-confirmation.js';
import { ChipStatus, type TranscriptItem } from '../../src/agent/types.js';

const chip = (id: string, status: ChipStatus, withRequest = true): TranscriptItem => ({
  kind: 'tool',
  id,
  name: 'buy',
  status,
  label: 'Buy?',
  ...(withRequest ? { confirmation: { id, toolName: 'buy', label: 'Buy?', cost: 40, tier3: false, offersSessionApproval: true, args: {} } } : {}),
});

describe('onScreenConfirmation', () => {
  it('is the newest chip still awaiting an answer, skipping settled ones and messages', () => {
    const items: TranscriptItem[] = [
      chip('a', ChipStatus.awaitingConfirmation),
      chip('b', ChipStatus.awaitingConfirmation),
      chip('c', ChipStatus.succeeded),
      { kind: 'message', id: 'm', role: 'assistant', text: 'hi', streaming: false },
    ];
    expect(onScreenConfirmation(items)?.id).to.equal('b');
    expect(onScreenConfirmation([chip('x', ChipStatus.cancelled), chip('y', ChipStatus.awaitingConfirmation, false)])).to.equal(null);
  });
});
