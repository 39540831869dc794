/**
 * Scenario table, task board: visitor phrasings (paraphrases included) through the real widget,
 * wave server and offline model. Each row asserts the tool calls with their arguments, the
 * confirmations, the reply and the board afterwards. Rows that do not single out one task, or
 * ask for something the page cannot do, must end in a question or an explanation, not a call.
 */
import { describeScenarios, type Scenario } from './scenarios.js';

const titles = 'board.map((t) => t.title)';
const START = ['Draft launch email', 'Book the venue'];

const table: Array<[string, Scenario]> = [
  ['the index page\'s suggestion, word for word', {
    say: 'add a task for the run-of-show, then delete the draft email one',
    answers: ['confirm'],
    calls: [{ name: 'add_task', args: { title: 'Run-of-show' } }, { name: 'delete_task', args: { task_id: 't1' } }],
    confirmations: [/^Delete task “Draft launch email”\?$/],
    reply: /Added “Run-of-show”.*Deleted “Draft launch email”/s,
    state: [[titles, ['Book the venue', 'Run-of-show']]],
  }],
  ['a quoted title', {
    say: 'Add “Order the banners” to the board',
    calls: [{ name: 'add_task', args: { title: 'Order the banners' } }],
    reply: /Added “Order the banners”/,
    state: [[titles, [...START, 'Order the banners']]],
  }],
  ['a colon form', {
    say: 'new task: call the caterer',
    calls: [{ name: 'add_task', args: { title: 'Call the caterer' } }],
    state: [[titles, [...START, 'Call the caterer']]],
  }],
  ['a named task in a column', {
    say: 'create a task called Print badges in doing',
    calls: [{ name: 'add_task', args: { title: 'Print badges', status: 'doing' } }],
    state: [["board.filter((t) => t.status === 'doing').map((t) => t.title)", ['Book the venue', 'Print badges']]],
  }],
  ['"put … on the board as done"', {
    say: "please put 'Send invites' on the board as done",
    calls: [{ name: 'add_task', args: { title: 'Send invites', status: 'done' } }],
    state: [["board.find((t) => t.title === 'Send invites')?.status", 'done']],
  }],
  ['a title that starts with a verb', {
    say: 'add a task to book the photographer',
    calls: [{ name: 'add_task', args: { title: 'Book the photographer' } }],
    state: [[titles, [...START, 'Book the photographer']]],
  }],
  ['delete by a word of the title', {
    say: 'remove the venue task',
    answers: ['confirm'],
    calls: [{ name: 'delete_task', args: { task_id: 't2' } }],
    confirmations: [/Book the venue/],
    reply: /Deleted “Book the venue”/,
    state: [[titles, ['Draft launch email']]],
  }],
  ['"get rid of"', {
    say: 'get rid of the launch email',
    answers: ['confirm'],
    calls: [{ name: 'delete_task', args: { task_id: 't1' } }],
    state: [[titles, ['Book the venue']]],
  }],
  ['delete by id, then cancel', {
    say: 'delete task t2',
    answers: ['cancel'],
    calls: [{ name: 'delete_task', args: { task_id: 't2' } }],
    reply: /cancel/i,
    state: [[titles, START]],
  }],
  ['"delete a task" names no task: ask which', {
    say: 'delete a task',
    calls: [],
    reply: /Which task.*Draft launch email.*Book the venue/s,
    state: [[titles, START]],
  }],
  ['"delete it" with nothing before: ask which', {
    say: 'delete it',
    calls: [],
    reply: /Which task.*Draft launch email.*Book the venue/s,
    state: [[titles, START]],
  }],
  ['a task with no title: ask for one', {
    say: 'add a task',
    calls: [],
    reply: /(title|called)\?/i,
    state: [[titles, START]],
  }],
  ['an unknown task: say so, delete nothing', {
    say: 'delete the banana task',
    calls: [],
    reply: /banana.*Draft launch email.*Book the venue/s,
    state: [[titles, START]],
  }],
  ['a question is answered from the page state', {
    say: "what's on the board?",
    calls: [],
    reply: /Draft launch email.*Book the venue/s,
    state: [[titles, START]],
  }],
  ['a status question narrows the list', {
    say: 'which tasks are in doing?',
    calls: [],
    reply: /Book the venue/,
    replyNot: /Draft launch email/,
  }],
  ['no tool moves tasks: explain, change nothing', {
    say: 'mark the venue task as done',
    calls: [],
    reply: /can't|cannot/i,
    state: [["board.find((t) => t.id === 't2').status", 'doing']],
  }],
  ['a question, then the answer to it', {
    say: [{ say: 'remove a task' }, { say: 'the draft email one', answers: ['confirm'] }],
    calls: [{ name: 'delete_task', args: { task_id: 't1' } }],
    confirmations: [/Draft launch email/],
    state: [[titles, ['Book the venue']]],
  }],
  ['add and remove in one breath', {
    say: 'create a task called Print badges and then remove the venue one',
    answers: ['confirm'],
    calls: [{ name: 'add_task', args: { title: 'Print badges' } }, { name: 'delete_task', args: { task_id: 't2' } }],
    state: [[titles, ['Draft launch email', 'Print badges']]],
  }],
];

describeScenarios('task board scenarios (offline model, end to end)', '/task-board.html', 3, table);
