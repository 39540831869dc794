/**
 * The request's messages, derived from the transcript (the one record of the conversation).
 * Pure: the same items always give the same messages; nothing else keeps a model history.
 */
import type { WaveMessage, WaveToolCall } from '../transport/protocol.js';
import type { ToolPart, TranscriptItem } from './types.js';

/** How much earlier conversation one request may carry (the server takes 256 KB and 400 messages). */
export const HistoryBudget = {
  /** Serialized characters of all messages together. */
  maxChars: 96_000,
  /** Messages, below the server's 400. */
  maxMessages: 300,
} as const;

export interface ToModelMessagesOptions {
  /** Drop whole turns, oldest first, until the rest fits. The turn in progress always stays. */
  budget?: { maxChars: number; maxMessages: number };
}

interface Step {
  id: string;
  text: string;
  parts: ToolPart[];
}

/**
 * The conversation as a model request carries it: visitor text, assistant text and its tool
 * calls, each call followed by what the model received for it. Notices, a page's own
 * `callTool` calls, voice tool calls, replies that broke off (`discarded`), calls still in
 * flight and empty turns are left out. Consecutive items of one model step (its text and the
 * tool parts carrying its `step` id) become one assistant message.
 *
 * @example
 * toModelMessages([
 *   { kind: 'message', id: 'u1', role: 'user', text: 'Add milk', streaming: false },
 *   { kind: 'tool', id: 'c1', name: 'add_task', status: 'succeeded', step: 's1',
 *     input: { title: 'Milk' }, output: '{"success":true}' },
 *   { kind: 'message', id: 's2', role: 'assistant', text: 'Added.', streaming: false },
 * ]);
 * // [{ role: 'user', content: 'Add milk' },
 * //  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'add_task', arguments: { title: 'Milk' } }] },
 * //  { role: 'tool', toolCallId: 'c1', name: 'add_task', content: '{"success":true}' },
 * //  { role: 'assistant', content: 'Added.' }]
 */
export function toModelMessages(items: readonly TranscriptItem[], options: ToModelMessagesOptions = {}): WaveMessage[] {
  const turns: WaveMessage[][] = [];
  let turn: WaveMessage[] = [];
  let step: Step | null = null;
  const flush = () => {
    if (step) turn.push(...stepMessages(step));
    step = null;
  };
  for (const item of items) {
    if (item.kind === 'message') {
      if (item.streaming || item.discarded === true) continue;
      if (item.role === 'user') {
        if (item.text.trim() === '') continue;
        flush();
        if (turn.length > 0) turns.push(turn);
        turn = [{ role: 'user', content: item.text }];
      } else {
        flush();
        step = { id: item.id, text: item.text, parts: [] };
      }
    } else if (item.kind === 'tool') {
      if (typeof item.step !== 'string' || typeof item.output !== 'string') continue;
      if ((step as Step | null)?.id !== item.step) {
        flush();
        step = { id: item.step, text: '', parts: [] };
      }
      (step as unknown as Step).parts.push(item);
    }
  }
  flush();
  if (turn.length > 0) turns.push(turn);
  return options.budget ? withinBudget(turns, options.budget) : turns.flat();
}

function stepMessages(step: Step): WaveMessage[] {
  // An empty turn is not sent: some providers reject an assistant message with no content.
  if (step.parts.length === 0) return step.text === '' ? [] : [{ role: 'assistant', content: step.text }];
  const calls: WaveToolCall[] = step.parts.map((part) => ({ id: part.id, name: part.name, arguments: { ...(part.input ?? {}) } }));
  return [
    { role: 'assistant', content: step.text, toolCalls: calls },
    ...step.parts.map((part): WaveMessage => ({ role: 'tool', toolCallId: part.id, name: part.name, content: part.output as string })),
  ];
}

/** Keeps the newest turns that fit; the last turn (the one being answered) is always kept. */
function withinBudget(turns: WaveMessage[][], budget: { maxChars: number; maxMessages: number }): WaveMessage[] {
  let chars = 0;
  let count = 0;
  let from = turns.length;
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i] as WaveMessage[];
    const size = turn.reduce((n, m) => n + JSON.stringify(m).length, 0);
    if (i < turns.length - 1 && (chars + size > budget.maxChars || count + turn.length > budget.maxMessages)) break;
    chars += size;
    count += turn.length;
    from = i;
  }
  return turns.slice(from).flat();
}
