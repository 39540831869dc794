/**
 * The widget's own messages to the model (what a tool result says when the visitor declined, a tab
 * closed, a wait ran out…) travel through the same guard as page text. None of them may be redacted:
 * the model must read why an action did not happen, and what not to do next.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { neutralizeInstructions, neutralizeJsonText } from '../../src/guard/index.js';
import { OWN_MESSAGES } from './own-messages.js';

describe("the widget's own messages to the model", () => {
  for (const message of OWN_MESSAGES) {
    it(`pass the guard unchanged: ${message}`, () => {
      assert.equal(neutralizeInstructions(message).text, message);
      // As a tool result carries them: a JSON string inside the result.
      const json = JSON.stringify({ success: false, error: message });
      assert.equal(neutralizeJsonText(json).text, json);
    });
  }
});
