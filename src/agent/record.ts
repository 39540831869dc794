/**
 * Writing the transcript, the one record of the conversation: how a conversation-loop update
 * lands in it. Pure functions over immutable item arrays, shared by the session (whose record
 * is what the visitor sees) and a stand-alone `ConversationLoop` (which keeps its own).
 */
import { sanitizeResult } from '../tools/sanitize.js';
import type { SanitizedResult } from '../tools/types.js';
import type { LoopUpdate } from './conversation-loop.js';
import { ChipStatus, canMove, isSettled, type ToolPart, type TranscriptItem } from './types.js';

/**
 * What the model reads for a result: its JSON text. Never throws.
 *
 * @example
 * modelOutput({ success: true, id: 't1' }); // '{"success":true,"id":"t1"}'
 */
export function modelOutput(result: SanitizedResult): string {
  try {
    return JSON.stringify(result) ?? '{"success":false,"error":"The tool returned nothing."}';
  } catch {
    // The runner sanitizes results; this guards a runTool that did not.
    return JSON.stringify({ success: false, error: 'The tool result could not be serialized.' });
  }
}

/**
 * A kept result read back (from storage, another page): parsed and re-capped with the same
 * sanitizer as a fresh one, so a stored row can never carry more than a live call could.
 *
 * @example
 * recapOutput('{"success":true,"notes":"…50,000 chars…"}'); // capped to the result limit
 */
export function recapOutput(output: string): string {
  try {
    return modelOutput(sanitizeResult(JSON.parse(output) as unknown));
  } catch {
    return modelOutput({ success: false, error: 'The earlier result could not be read.' });
  }
}

/**
 * The record after one loop update (the same array when the update writes nothing).
 *
 * @example
 * items = applyLoopUpdate(items, { type: 'user-message', id: 'u1', text: 'Hi' });
 */
export function applyLoopUpdate(items: readonly TranscriptItem[], update: LoopUpdate): readonly TranscriptItem[] {
  switch (update.type) {
    case 'user-message':
      return [...items, { kind: 'message', id: update.id, role: 'user', text: update.text, streaming: false }];
    case 'assistant-delta': {
      const existing = items.find((i) => i.id === update.id);
      const text = (existing?.kind === 'message' ? existing.text : '') + update.delta;
      return upsert(items, { kind: 'message', id: update.id, role: 'assistant', text, streaming: true });
    }
    case 'assistant-done':
      return upsert(items, {
        kind: 'message',
        id: update.id,
        role: 'assistant',
        text: update.text,
        streaming: false,
        ...(update.discarded ? { discarded: true } : {}),
      });
    case 'tool-result':
      return withToolResult(items, update);
    default:
      return items;
  }
}

/**
 * Files a settled call under its model step: the tool part with its id (the newest one not yet
 * filed) gains the step, the model's arguments and the output; a call that never had a part
 * (refused before it reached the visitor) gets a silent one.
 */
function withToolResult(items: readonly TranscriptItem[], update: Extract<LoopUpdate, { type: 'tool-result' }>): readonly TranscriptItem[] {
  const facts = { step: update.step, input: { ...update.call.arguments }, output: modelOutput(update.result) };
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as TranscriptItem;
    if (item.kind === 'tool' && item.id === update.call.id && item.step === undefined) {
      const next = items.slice();
      next[i] = { ...item, ...facts };
      return next;
    }
  }
  const part: ToolPart = {
    kind: 'tool',
    id: update.call.id,
    name: update.call.name,
    status: update.result.cancelled === true ? ChipStatus.cancelled : update.result.success === false ? ChipStatus.failed : ChipStatus.succeeded,
    silent: true,
    ...facts,
  };
  return [...items, part];
}

/**
 * A tool part's new facts from the runner: replaces the newest part with its id not yet filed
 * under a model step (it keeps its position), or appends. A filed, settled part is history: a later
 * call that reuses its id (some models number calls per request) gets a part of its own. A move the
 * status machine forbids (`canMove`: a settled part never runs again) leaves the record as it is.
 *
 * @example
 * upsertPart(items, { ...part, status: 'running' }); // the same array when `part` had succeeded
 */
export function upsertPart(items: readonly TranscriptItem[], part: ToolPart): readonly TranscriptItem[] {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as TranscriptItem;
    if (item.id !== part.id) continue;
    if (item.kind !== 'tool') break;
    // Filed and settled: history. Filed but not settled (a voice wait gave the model its answer
    // while the call was still waiting): the same call, which keeps what the model was told.
    if (item.step !== undefined && isSettled(item.status)) break;
    if (!canMove(item.status, part.status)) return items;
    const next = items.slice();
    next[i] = item.step !== undefined ? { ...part, step: item.step, ...(item.input ? { input: item.input } : {}), ...(item.output !== undefined ? { output: item.output } : {}) } : part;
    return next;
  }
  return [...items, part];
}

/** Replaces the item with the same id in place (chips keep their position), or appends. */
export function upsert(items: readonly TranscriptItem[], item: TranscriptItem): readonly TranscriptItem[] {
  const index = items.findIndex((i) => i.id === item.id);
  if (index === -1) return [...items, item];
  const next = items.slice();
  next[index] = item;
  return next;
}

/**
 * A kept row's identity across the tabs of a site: a message by its id; a tool part by its call
 * id and the model step it is filed under (some models number calls per request, so a call id
 * alone repeats across turns). Kept rows never change once settled, so equal keys are one row.
 *
 * @example
 * keptKey({ kind: 'tool', id: 'call_1', name: 'add_task', status: 'succeeded', step: 'm7' }); // 'tool call_1 m7'
 */
export function keptKey(item: TranscriptItem): string {
  return item.kind === 'tool' ? `tool ${item.id} ${item.step ?? ''}` : `${item.kind} ${item.id}`;
}
