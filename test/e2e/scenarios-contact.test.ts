/**
 * Scenario table, contact page (no page tools: the built-in read_page, fill_field,
 * click_element, select_option, navigate). Rows assert the calls, the values typed, the fields
 * afterwards, that the newsletter box is never ticked unasked, and that sending asks first.
 */
import { describeScenarios, type Scenario } from './scenarios.js';

const field = (name: string) => `document.querySelector('[name="${name}"]').value`;
const newsletter = 'document.querySelector(\'[name="newsletter"]\').checked';
const read = { name: 'read_page' };
const untouched: Array<[string, unknown]> = [[field('name'), ''], [field('email'), ''], [field('message'), ''], [newsletter, false], ['location.search', '']];

const table: Array<[string, Scenario]> = [
  ['the index page\'s suggestion, word for word', {
    say: 'fill in the contact form with the name Ada Lovelace',
    calls: [read, { name: 'fill_field', argsLike: { value: 'Ada Lovelace' } }],
    reply: /Your name.*Ada Lovelace/,
    state: [[field('name'), 'Ada Lovelace'], [field('email'), ''], [newsletter, false]],
  }],
  ['two fields in one request', {
    say: 'set the email to ada@example.com and the message to Hello from the demo',
    calls: [read, { name: 'fill_field', argsLike: { value: 'ada@example.com' } }, { name: 'fill_field', argsLike: { value: 'Hello from the demo' } }],
    state: [[field('email'), 'ada@example.com'], [field('message'), 'Hello from the demo'], [field('name'), ''], [newsletter, false]],
  }],
  ['"my name is … and my email is …"', {
    say: 'my name is Grace Hopper and my email is grace@navy.mil',
    calls: [read, { name: 'fill_field', argsLike: { value: 'Grace Hopper' } }, { name: 'fill_field', argsLike: { value: 'grace@navy.mil' } }],
    state: [[field('name'), 'Grace Hopper'], [field('email'), 'grace@navy.mil'], [newsletter, false]],
  }],
  ['value before the field', {
    say: 'type hello there into the message box',
    calls: [read, { name: 'fill_field', argsLike: { value: 'hello there' } }],
    state: [[field('message'), 'hello there'], [field('name'), '']],
  }],
  ['"use … as my email"', {
    say: 'use ada@example.com as my email',
    calls: [read, { name: 'fill_field', argsLike: { value: 'ada@example.com' } }],
    state: [[field('email'), 'ada@example.com']],
  }],
  ['"send the form" with the required name empty: ask for it, tick nothing', {
    say: 'send the form',
    calls: [read],
    reply: /Your name/,
    state: untouched,
  }],
  ['"fill in the form" with no values: ask what to put', {
    say: 'fill in the form',
    calls: [read],
    reply: /Your name.*Email.*Message/s,
    state: untouched,
  }],
  ['fill and send: sending asks first, then the form goes', {
    say: 'fill in the name Ada Lovelace and send the form',
    answers: ['confirm'],
    navigatesTo: /contact\.html\?name=Ada\+Lovelace/,
    calls: [read, { name: 'fill_field', argsLike: { value: 'Ada Lovelace' } }, { name: 'click_element' }],
    confirmedTools: ['click_element'],
    state: [['new URLSearchParams(location.search).get("name")', 'Ada Lovelace'], ['new URLSearchParams(location.search).has("newsletter")', false]],
  }],
  ['fill and send, then cancel the send', {
    say: 'put Ada Lovelace in the name field and submit it',
    answers: ['cancel'],
    calls: [read, { name: 'fill_field', argsLike: { value: 'Ada Lovelace' } }, { name: 'click_element' }],
    confirmedTools: ['click_element'],
    reply: /cancel/i,
    state: [[field('name'), 'Ada Lovelace'], ['location.search', ''], [newsletter, false]],
  }],
  ['the page\'s two suggestions in a row, word for word', {
    say: [{ say: 'fill in the contact form with the name Ada Lovelace' }, { say: 'send the form', answers: ['confirm'], navigatesTo: /name=Ada\+Lovelace/ }],
    calls: [read, { name: 'fill_field', argsLike: { value: 'Ada Lovelace' } }, read, { name: 'click_element' }],
    confirmedTools: ['click_element'],
    state: [['new URLSearchParams(location.search).get("name")', 'Ada Lovelace'], ['new URLSearchParams(location.search).has("newsletter")', false]],
  }],
  ['fill, then send in a second message', {
    say: [{ say: 'put Alan Turing in the name field' }, { say: 'send it', answers: ['confirm'], navigatesTo: /name=Alan\+Turing/ }],
    calls: [read, { name: 'fill_field', argsLike: { value: 'Alan Turing' } }, read, { name: 'click_element' }],
    confirmedTools: ['click_element'],
    state: [['new URLSearchParams(location.search).get("name")', 'Alan Turing']],
  }],
  ['pick a topic by its text', {
    say: 'choose Billing as the topic',
    calls: [read, { name: 'select_option', argsLike: { value: 'Billing' } }],
    state: [['document.querySelector("#topic").value', 'billing'], [newsletter, false]],
  }],
  ['a quoted topic', {
    say: "pick the 'Something is broken' topic",
    calls: [read, { name: 'select_option', argsLike: { value: 'Something is broken' } }],
    state: [['document.querySelector("#topic").value', 'bug']],
  }],
  ['the newsletter only when asked', {
    say: 'sign me up for the newsletter',
    calls: [read, { name: 'click_element' }],
    confirmedTools: [],
    state: [[newsletter, true], ['location.search', '']],
  }],
  ['"tick the newsletter box"', {
    say: 'tick the newsletter box',
    calls: [read, { name: 'click_element' }],
    state: [[newsletter, true]],
  }],
  ['a question about the page', {
    say: 'what are the opening hours?',
    calls: [read],
    reply: /Monday to Friday, 9:00 to 17:30/,
    state: untouched,
  }],
  ['a link asks before leaving', {
    say: 'go to the shop',
    answers: ['confirm'],
    navigatesTo: /\/shop\.html$/,
    calls: [read, { name: 'navigate', args: { url: '/shop.html' } }],
    confirmedTools: ['navigate'],
    state: [['location.pathname', '/shop.html']],
  }],
];

describeScenarios('contact page scenarios (built-in tools, offline model, end to end)', '/contact.html', 6, table);
