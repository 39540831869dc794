/**
 * The widget's own messages to the model (what a tool result says when the visitor declined, a tab
 * closed, a wait ran out…) travel through the same guard as page text. None of them may be redacted:
 * the model must read why an action did not happen, and what not to do next.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { neutralizeInstructions, neutralizeJsonText } from '../../src/guard/index.js';
import { RunnerText } from '../../src/tools/runner.js';
import { TabText } from '../../src/tabs/tab-router.js';
import { voiceWaitResult } from '../../src/voice/tool-wait.js';
import { unknownBuiltinText } from '../../src/tools/resolve.js';
import { schemaUnusable, mustBeOneOf } from '../../src/tools/validation-reasons.js';
import { STOPPED_RESULT } from '../../src/agent/conversation-loop.js';

const names = ['save_note', 'place_order', 'delete_task', 'buy_item'];

const MESSAGES: string[] = [
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

describe("the widget's own messages to the model", () => {
  for (const message of MESSAGES) {
    it(`pass the guard unchanged: ${message}`, () => {
      assert.equal(neutralizeInstructions(message).text, message);
      // As a tool result carries them: a JSON string inside the result.
      const json = JSON.stringify({ success: false, error: message });
      assert.equal(neutralizeJsonText(json).text, json);
    });
  }
});
