/**
 * Which confirmation is "on screen": the newest chip still awaiting an answer. One rule, used
 * by the voice bubble (what it shows) and by voice consent (what a spoken yes settles).
 */
import { ChipStatus, type TranscriptItem } from './types.js';

export type ToolTranscriptItem = Extract<TranscriptItem, { kind: 'tool' }>;

/**
 * @example
 * const chip = onScreenConfirmation(session.state.items);
 * if (chip?.confirmation) showButtonsFor(chip.confirmation.id);
 */
export function onScreenConfirmation(items: readonly TranscriptItem[]): ToolTranscriptItem | null {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item?.kind === 'tool' && item.status === ChipStatus.awaitingConfirmation && item.confirmation) return item;
  }
  return null;
}
