/**
 * Which confirmation is "on screen". In voice it is the one being asked aloud (SPEC §9: one
 * at a time, the others wait their turn); otherwise the newest chip still awaiting an answer.
 * One rule, used by the voice bubble (what it shows) and by voice consent (what is asked).
 */
import type { ConfirmationRequest } from '../consent/types.js';
import { ChipStatus, type TranscriptItem } from './types.js';

export type ToolTranscriptItem = Extract<TranscriptItem, { kind: 'tool' }>;

/**
 * @example
 * const chip = onScreenConfirmation(session.state.items);
 * if (chip?.confirmation) showButtonsFor(chip.confirmation.id);
 */
export function onScreenConfirmation(items: readonly TranscriptItem[], asking?: string | null): ToolTranscriptItem | null {
  if (asking) {
    const item = items.find((i) => i.id === asking);
    if (item?.kind === 'tool' && item.status === ChipStatus.awaitingConfirmation && item.confirmation) return item;
  }
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item?.kind === 'tool' && item.status === ChipStatus.awaitingConfirmation && item.confirmation) return item;
  }
  return null;
}

/**
 * Every confirmation still awaiting an answer, in the order shown (oldest first).
 *
 * @example
 * desk.update(waitingConfirmations(session.state.items));
 */
export function waitingConfirmations(items: readonly TranscriptItem[]): ConfirmationRequest[] {
  const out: ConfirmationRequest[] = [];
  for (const item of items) {
    if (item.kind === 'tool' && item.status === ChipStatus.awaitingConfirmation && item.confirmation) out.push(item.confirmation);
  }
  return out;
}
