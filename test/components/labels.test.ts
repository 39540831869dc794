import { expect } from '@open-wc/testing';
import { chipText, defaultLabels, formatLabel, noticeText, resolveLabels } from '../../components/labels.js';
import type { NoticeFact, ToolPart } from '../../src/agent/types.js';
import { frenchLabels } from './labels-fr.js';

describe('labels', () => {
  it('fills templates and calls functions; a typo stays visible', () => {
    expect(formatLabel('Cost: {cost} {unit}', { cost: 40, unit: 'cr' })).to.equal('Cost: 40 cr');
    expect(formatLabel('{cots} {unit}', { cost: 40, unit: 'cr' })).to.equal('{cots} cr');
    expect(formatLabel(({ steps }) => `${steps} étape${Number(steps) > 1 ? 's' : ''}`, { steps: 1 })).to.equal('1 étape');
  });

  it('a label function that throws or returns no string falls back to the English default, never breaks the chip', () => {
    const labels = resolveLabels({
      done: () => {
        throw new Error('bad');
      },
      cancelled: (() => 42) as unknown as () => string,
    });
    const part: ToolPart = { kind: 'tool', id: 'a', name: 'add_task', status: 'succeeded' };
    expect(chipText(part, labels, 'cr')).to.equal('Done: Add task');
    expect(chipText({ ...part, status: 'cancelled' }, labels, 'cr')).to.equal('Cancelled: Add task');
  });

  it('a call running in another tab says which tab, and that the visitor is asked there; a tab gone says so (SPEC §13)', () => {
    const part: ToolPart = { kind: 'tool', id: 'a', name: 'add_task', title: 'Add task', subject: 'Milk', status: 'running', elsewhere: { tab: 'Task board' } };
    expect(chipText(part, defaultLabels, 'cr')).to.equal('Add task “Milk”… (in the tab “Task board”)');
    expect(chipText({ ...part, elsewhere: { tab: 'Task board', waiting: true } }, defaultLabels, 'cr')).to.equal('Confirm Add task “Milk” in the tab “Task board”.');
    expect(chipText({ ...part, status: 'failed', failure: 'tab-gone', elsewhere: { tab: ' ' } }, defaultLabels, 'cr')).to.equal(
      'Add task “Milk” did not finish: another tab closed or stopped answering.',
    );
    // The page's own running label is this tab's words for a run here, not for one elsewhere.
    expect(chipText({ ...part, label: 'Adding…' }, defaultLabels, 'cr')).to.contain('Task board');
  });

  it('resolveLabels takes strings for every key, functions only for keys with values, and ignores the rest', () => {
    const labels = resolveLabels({ send: 'Envoyer', done: ({ action }) => `Fait : ${action}`, retry: (() => 'x') as unknown as string, cancel: 5 as unknown as string });
    expect(labels.send).to.equal('Envoyer');
    expect(typeof labels.done).to.equal('function');
    expect(labels.retry).to.equal(defaultLabels.retry);
    expect(labels.cancel).to.equal(defaultLabels.cancel);
    expect(resolveLabels(null)).to.deep.equal(defaultLabels);
  });

  it('words every notice kind from the labels, never from the fact\'s own message', () => {
    const facts: NoticeFact[] = [
      { kind: 'busy' },
      { kind: 'reply-truncated' },
      { kind: 'step-limit', steps: 8 },
      { kind: 'not-connected' },
      { kind: 'invalid-arguments', name: 'delete_task', title: 'Delete task', source: 'model', reason: 'property "task_id"' },
      { kind: 'step-failed', code: 'network', message: 'ENGLISH_MESSAGE' },
      { kind: 'step-failed', code: 'something_new', message: 'ENGLISH_MESSAGE' },
      { kind: 'tools-unavailable', tools: ['delete_all', 'drop_table'] },
      { kind: 'voice-failed', reason: 'mic-denied' },
      { kind: 'voice-failed', reason: 'whatever', message: 'ENGLISH_MESSAGE' },
    ];
    const texts = facts.map((f) => noticeText(f, defaultLabels));
    expect(texts).to.deep.equal([
      defaultLabels.noticeBusy,
      defaultLabels.noticeReplyTruncated,
      "Stopped after 8 steps so the assistant doesn't run on. Retry to let it continue.",
      defaultLabels.noticeNotConnected,
      'The assistant sent an invalid request to Delete task; it will try again.',
      defaultLabels.errorNetwork,
      defaultLabels.errorGeneric,
      "The assistant asked for something this page doesn't offer (Delete all, Drop table), so nothing was done.",
      defaultLabels.voiceMicDenied,
      defaultLabels.voiceError,
    ]);
    expect(noticeText({ kind: 'nonsense' } as unknown as NoticeFact, defaultLabels)).to.equal(defaultLabels.errorGeneric);
  });
});

describe('labels for every tool part status', () => {
  const part: ToolPart = { kind: 'tool', id: 'a', name: 'delete_task', title: 'Delete task', subject: 'Draft', status: 'requested' };
  const statuses = ['requested', 'awaiting-confirmation', 'running', 'succeeded', 'failed', 'cancelled', 'declined'] as const;

  it('words each status in English: declined reads cancelled (SPEC §5), requested is not yet running', () => {
    const text = (status: ToolPart['status']) => chipText({ ...part, status }, defaultLabels, 'cr');
    expect(text('requested')).to.equal('Preparing Delete task “Draft”…');
    expect(text('running')).to.equal('Delete task “Draft”…');
    expect(text('declined')).to.equal('Cancelled: Delete task “Draft”');
    expect(text('cancelled')).to.equal('Cancelled: Delete task “Draft”');
  });

  it('a page can tell declined from cancelled, and every status has its own French wording', () => {
    const seen = statuses.map((status) => chipText({ ...part, status }, resolveLabels(frenchLabels), 'cr'));
    expect(seen).to.deep.equal([
      'Préparation : Delete task « Draft »…',
      'Delete task « Draft » ?',
      'En cours : Delete task « Draft »…',
      'Fait : Delete task « Draft »',
      'Échec de Delete task « Draft ».',
      'Annulé : Delete task « Draft »',
      'Refusé : Delete task « Draft »',
    ]);
    expect(new Set(seen).size).to.equal(statuses.length);
  });
});
