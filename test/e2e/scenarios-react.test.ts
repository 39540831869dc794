/**
 * Scenario table, the React demo (a packing list whose tools come from `useWaveTool`): adds,
 * a confirming remove whose chip names the item, packing, and requests that name no single
 * item (the model must ask). Each row asserts the calls, their arguments and the list afterwards.
 */
import { describeScenarios, type Scenario } from './scenarios.js';

const items = "[...document.querySelectorAll('#items li')].map((li) => li.textContent.trim())";
const packed = "[...document.querySelectorAll('#items li')].filter((li) => li.querySelector('input').checked).map((li) => li.textContent.trim())";
const START = ['Passport', 'Charger'];

const table: Array<[string, Scenario]> = [
  ['the page\'s first suggestion, word for word', {
    say: 'add sunscreen to the list',
    calls: [{ name: 'add_item', args: { title: 'Sunscreen' } }],
    reply: /Added “Sunscreen”/,
    state: [[items, [...START, 'Sunscreen']]],
  }],
  ['the page\'s second suggestion: the chip names the item', {
    say: 'remove the charger',
    answers: ['confirm'],
    calls: [{ name: 'remove_item', args: { item_id: 'i2' } }],
    confirmations: [/^Remove “Charger” from the list\?$/],
    state: [[items, ['Passport']]],
  }],
  ['both suggestions in a row', {
    say: [{ say: 'add sunscreen to the list' }, { say: 'remove the charger', answers: ['confirm'] }],
    calls: [{ name: 'add_item', args: { title: 'Sunscreen' } }, { name: 'remove_item', args: { item_id: 'i2' } }],
    state: [[items, ['Passport', 'Sunscreen']]],
  }],
  ['a cancelled remove keeps the item', {
    say: 'take the charger off the list',
    answers: ['cancel'],
    calls: [{ name: 'remove_item', args: { item_id: 'i2' } }],
    reply: /cancel/i,
    state: [[items, START]],
  }],
  ['the tool\'s own verb', {
    say: 'pack the passport',
    calls: [{ name: 'pack_item', args: { item_id: 'i1' } }],
    state: [[packed, ['Passport', 'Charger']]],
  }],
  ['"mark … as packed"', {
    say: 'mark the passport as packed',
    calls: [{ name: 'pack_item', args: { item_id: 'i1' } }],
    state: [[packed, ['Passport', 'Charger']]],
  }],
  ['"put … on the list"', {
    say: 'put a toothbrush on the list',
    calls: [{ name: 'add_item', args: { title: 'Toothbrush' } }],
    state: [[items, [...START, 'Toothbrush']]],
  }],
  ['a quoted title', {
    say: "add 'Hiking boots'",
    calls: [{ name: 'add_item', args: { title: 'Hiking boots' } }],
    state: [[items, [...START, 'Hiking boots']]],
  }],
  ['two steps in one message', {
    say: 'add sunglasses, then pack the passport',
    calls: [{ name: 'add_item', args: { title: 'Sunglasses' } }, { name: 'pack_item', args: { item_id: 'i1' } }],
    state: [[items, [...START, 'Sunglasses']], [packed, ['Passport', 'Charger']]],
  }],
  ['"remove an item": ask which', {
    say: 'remove an item',
    calls: [],
    reply: /Which item.*Passport.*Charger/s,
    state: [[items, START]],
  }],
  ['"pack something": ask which', {
    say: 'pack something',
    calls: [],
    reply: /Which item.*Passport.*Charger/s,
    state: [[packed, ['Charger']]],
  }],
  ['an item not on the list: say so', {
    say: 'remove the umbrella',
    calls: [],
    reply: /umbrella.*Passport.*Charger/s,
    state: [[items, START]],
  }],
  ['no title: ask for one', {
    say: 'add an item',
    calls: [],
    reply: /called\?/,
    state: [[items, START]],
  }],
  ['told not to', {
    say: "don't remove the passport",
    calls: [],
    reply: /won't/,
    state: [[items, START]],
  }],
  ['a question is answered from the page state', {
    say: "what's on the list?",
    calls: [],
    reply: /Passport.*Charger/s,
  }],
  ['a question, then the answer to it', {
    say: [{ say: 'remove an item' }, { say: 'the passport', answers: ['confirm'] }],
    calls: [{ name: 'remove_item', args: { item_id: 'i1' } }],
    confirmations: [/Passport/],
    state: [[items, ['Charger']]],
  }],
];

describeScenarios('React demo scenarios (offline model, end to end)', '/react.html', 3, table);
