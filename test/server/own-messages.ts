/**
 * The widget's own messages to the model (what a tool result says when the visitor declined, a tab
 * closed, a wait ran out…): read by guard-own-messages.test.ts, which holds the guard to leave each
 * unchanged, and by the classifier's training (test/guard-model/train.ts), which learns them as
 * benign.
 */
import { RunnerText } from '../../src/tools/runner.js';
import { TabText } from '../../src/tabs/tab-router.js';
import { voiceWaitResult } from '../../src/voice/tool-wait.js';
import { unknownBuiltinText } from '../../src/tools/resolve.js';
import { schemaUnusable, mustBeOneOf } from '../../src/tools/validation-reasons.js';
import { STOPPED_RESULT } from '../../src/agent/conversation-loop.js';

const names = ['save_note', 'place_order', 'delete_task', 'buy_item'];

export const OWN_MESSAGES: readonly string[] = [
  RunnerText.cancelled,
  RunnerText.withdrawn,
  RunnerText.stopped,
  RunnerText.timedOut(30_000),
  RunnerText.failed,
  ...names.map((n) => RunnerText.unreadableCost(n)),
  ...names.map((n) => RunnerText.unknownBuiltin(n, ['read_page', 'navigate'])),
  ...names.map((n) => TabText.notAvailable(n)),
  TabText.gone('Orders', true),
  TabText.gone('Orders', false),
  TabText.stopped,
  String(voiceWaitResult(true).error),
  String(voiceWaitResult(false).error),
  unknownBuiltinText('navigate', []),
  schemaUnusable(new Error('Unresolved $ref "#/definitions/x".')),
  mustBeOneOf(['standard', 'express']),
  String(STOPPED_RESULT.error),
];
