/**
 * Scenario table, the element page (`<wave-chat>` inline, tools registered on the element):
 * numbers in words and digits, chains, a confirming reset whose chip names the values, and
 * requests the page's tools cannot do or that leave the amount open (no call).
 */
import { describeScenarios, type Scenario } from './scenarios.js';

const shown = "document.querySelector('#counter').textContent";
const inc = (by: number) => ({ name: 'increment_counter', args: { by } });

const table: Array<[string, Scenario]> = [
  ['the page\'s suggestion, word for word', {
    say: 'add 5 to the counter',
    calls: [inc(5)],
    reply: /Counter.*5/i,
    state: [[shown, '5']],
  }],
  ['no amount: the schema default of one', {
    say: 'increment the counter',
    calls: [inc(1)],
    state: [[shown, '1']],
  }],
  ['a number word', {
    say: 'bump the counter by three',
    calls: [inc(3)],
    state: [[shown, '3']],
  }],
  ['"increase the count"', {
    say: 'increase the count by 2',
    calls: [inc(2)],
    state: [[shown, '2']],
  }],
  ['"one" is a number', {
    say: 'add one to the counter',
    calls: [inc(1)],
    state: [[shown, '1']],
  }],
  ['"count up by ten"', {
    say: 'count up by ten',
    calls: [inc(10)],
    state: [[shown, '10']],
  }],
  ['no object named: the only tool that takes a number', {
    say: 'please add 12',
    calls: [inc(12)],
    state: [[shown, '12']],
  }],
  ['two steps in one message', {
    say: 'add 2 to the counter, then add 3',
    calls: [inc(2), inc(3)],
    state: [[shown, '5']],
  }],
  ['a question is answered from the page state', {
    say: 'what is the counter at?',
    calls: [],
    reply: /0/,
    state: [[shown, '0']],
  }],
  ['reset asks first and names the values', {
    say: [{ say: 'add 7 to the counter' }, { say: 'reset the counter', answers: ['confirm'] }],
    calls: [inc(7), { name: 'reset_counter', args: {} }],
    confirmations: [/^Reset the counter from 7 to 0\?$/],
    state: [[shown, '0']],
  }],
  ['a cancelled reset keeps the count', {
    say: [{ say: 'add 7 to the counter' }, { say: 'set the counter back to zero', answers: ['cancel'] }],
    calls: [inc(7), { name: 'reset_counter', args: {} }],
    reply: /cancel/i,
    state: [[shown, '7']],
  }],
  ['increment then reset in one message', {
    say: 'increment by 4 and then reset',
    answers: ['confirm'],
    calls: [inc(4), { name: 'reset_counter', args: {} }],
    state: [[shown, '0']],
  }],
  ['a vague amount: ask how much', {
    say: 'add a bunch to the counter',
    calls: [],
    reply: /How (much|many)/i,
    state: [[shown, '0']],
  }],
  ['no tool subtracts: explain, change nothing', {
    say: 'subtract 2 from the counter',
    calls: [],
    reply: /can't|cannot/i,
    state: [[shown, '0']],
  }],
  ['below the minimum: explain, change nothing', {
    say: 'add 0 to the counter',
    calls: [],
    reply: /at least 1/i,
    state: [[shown, '0']],
  }],
  ['a greeting gets what the page can do', {
    say: 'hello',
    calls: [],
    reply: /increment counter/i,
    state: [[shown, '0']],
  }],
];

describeScenarios('element page scenarios (offline model, end to end)', '/element.html', 2, table);
