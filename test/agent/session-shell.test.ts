import { expect } from '@open-wc/testing';
import { SessionShell, type LoadedSession, type SessionParts } from '../../src/agent/session-shell.js';
import type { SessionState, WaveCoreEvent } from '../../src/agent/types.js';
import { WaveSession } from '../../src/agent/wave-session.js';
import type { BuiltinToolDefinition } from '../../src/tools/types.js';

/** A shell whose session code arrives when the test says (or fails to). */
function gatedShell(options: { builtinTools?: Record<string, BuiltinToolDefinition> } = {}) {
  const warnings: string[] = [];
  const loads: Array<{ resolve: () => void; reject: (e: unknown) => void }> = [];
  let made: WaveSession | null = null;
  const shell = new SessionShell({
    warn: (m) => warnings.push(m),
    load: (parts: SessionParts) =>
      new Promise<LoadedSession>((resolve, reject) => {
        loads.push({
          resolve: () => resolve((made = new WaveSession({ ...parts, warn: (m) => warnings.push(m), ...(options.builtinTools ? { builtinTools: options.builtinTools } : {}) }))),
          reject,
        });
      }),
  });
  return { shell, warnings, loads, made: () => made };
}

const addTask = {
  description: 'Add a task.',
  parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
  handler: ({ title }: { title: string }) => ({ title }),
};

describe('SessionShell (the page-tool API before the session code has loaded)', () => {
  it('registers, lists and unregisters tools at once with the full session\'s checks and warnings, loading nothing', () => {
    const { shell, warnings, loads } = gatedShell();
    expect(shell.registerTool('add_task', addTask)).to.equal(true);
    expect(shell.registerTool('Bad Name!', { handler: () => ({}) })).to.equal(false);
    expect(shell.registerTool('no_handler', { description: 'x' } as never)).to.equal(false);
    expect(warnings).to.have.length(2);
    expect(shell.registerTools({ a_tool: { handler: () => 1 }, 'b tool': { handler: () => 2 } })).to.equal(1);
    expect(shell.getHostToolSchemas().map((s) => s.name)).to.deep.equal(['add_task', 'a_tool']);
    expect(shell.getHostToolSchemas()[0]).to.include({ name: 'add_task', description: 'Add a task.', confirm: false });
    expect(shell.unregisterTool('a_tool')).to.equal(true);
    shell.setContext({ board: 'Launch' });
    expect(shell.getContext()).to.contain('Launch');
    expect(loads, 'nothing loaded').to.have.length(0);
    expect(shell.loaded).to.equal(false);
  });

  it('answers the same schemas before and after the session code arrives, and hands over the registry, context and conversation id', async () => {
    const { shell, loads, made } = gatedShell();
    shell.registerTool('add_task', addTask);
    shell.setContext({ board: 'Launch' });
    const before = shell.getHostToolSchemas();
    const idBefore = shell.state.conversationId;
    const loading = shell.load();
    loads[0]!.resolve();
    await loading;
    expect(made()!.registry).to.equal(shell.registry);
    expect(shell.getHostToolSchemas()).to.deep.equal(before);
    expect(made()!.getContext()).to.contain('Launch');
    expect(shell.state.conversationId).to.equal(idBefore);
    expect(shell.state).to.equal(made()!.state);
  });

  it('with a catalogue over the limits, answers the active set and load_tools before and after the session code arrives', async () => {
    const { shell, loads } = gatedShell();
    for (let i = 0; i < 21; i++) shell.registerTool(`tool_${i}`, { description: `Tool ${i}.`, handler: () => ({}) });
    const before = shell.getHostToolSchemas();
    expect(before).to.have.length(21);
    expect(before.at(-1)!.name).to.equal('load_tools');
    expect(shell.ownToolSchemas().map((s) => s.name), 'the other tabs are offered no load_tools').to.not.include('load_tools');
    const loading = shell.load();
    loads[0]!.resolve();
    await loading;
    expect(shell.getHostToolSchemas()).to.deep.equal(before);
  });

  it('a callTool before the code arrives waits for it, then runs with events heard through the shell', async () => {
    const { shell, loads } = gatedShell();
    shell.registerTool('add_task', addTask);
    const events: WaveCoreEvent['type'][] = [];
    const states: SessionState[] = [];
    shell.onEvent((e) => events.push(e.type));
    shell.subscribe((s) => states.push(s));
    let settled = false;
    const call = shell.callTool('add_task', { title: 'Milk' }).finally(() => (settled = true));
    await Promise.resolve();
    expect(settled).to.equal(false);
    expect(loads).to.have.length(1);
    loads[0]!.resolve();
    expect(await call).to.deep.equal({ success: true, title: 'Milk' });
    expect(events).to.include.members(['tool-call-requested', 'tool-call-started', 'tool-call-succeeded']);
    expect(states.at(-1)!.items.some((i) => i.kind === 'tool' && i.name === 'add_task')).to.equal(true);
  });

  it('a failed load rejects with a clear error, keeps the tools, and the next call loads again and works', async () => {
    const { shell, loads } = gatedShell();
    shell.registerTool('add_task', addTask);
    const first = shell.callTool('add_task', { title: 'Milk' });
    loads[0]!.reject(new TypeError('Failed to fetch dynamically imported module'));
    let error: unknown;
    await first.catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(Error);
    expect((error as Error).message).to.match(/could not load the conversation code.*Failed to fetch.*tries again on the next call/);
    expect(shell.loaded).to.equal(false);
    expect(shell.getHostToolSchemas().map((s) => s.name)).to.deep.equal(['add_task']);
    const second = shell.callTool('add_task', { title: 'Eggs' });
    expect(loads).to.have.length(2);
    loads[1]!.resolve();
    expect(await second).to.deep.equal({ success: true, title: 'Eggs' });
  });

  it('with no page tool, asking for the schemas starts the load and lists the built-in tools once it is done', async () => {
    const builtinTools = { read_page: { description: 'Read the page.', handler: () => ({}) } } as unknown as Record<string, BuiltinToolDefinition>;
    const { shell, loads } = gatedShell({ builtinTools });
    expect(shell.getHostToolSchemas()).to.deep.equal([]);
    expect(loads).to.have.length(1);
    const loading = shell.load();
    loads[0]!.resolve();
    await loading;
    expect(shell.getHostToolSchemas().map((s) => s.name)).to.deep.equal(['read_page']);
  });

  it('settles nothing and stops nothing before the session exists; a restart starts a new conversation', () => {
    const { shell, loads } = gatedShell();
    expect(shell.answerConfirmation('x', 'confirm', { isTrusted: true, source: 'pointer' })).to.equal(false);
    expect(shell.revokeGrant({ isTrusted: true, source: 'pointer' })).to.equal(false);
    shell.stop();
    shell.close();
    shell.endVoice('stopped');
    const id = shell.state.conversationId;
    const states: SessionState[] = [];
    shell.subscribe((s) => states.push(s));
    shell.restart();
    expect(shell.state.conversationId).to.not.equal(id);
    expect(states).to.have.length(1);
    expect(shell.state.grant.active).to.equal(false);
    expect(loads).to.have.length(0);
  });

  it('a restored conversation loads the session and reaches its record', async () => {
    const { shell, loads, made } = gatedShell();
    shell.restore([{ kind: 'message', id: 'm1', role: 'user', text: 'Earlier', streaming: false }]);
    expect(loads).to.have.length(1);
    const loading = shell.load();
    loads[0]!.resolve();
    await loading;
    expect(made()!.state.earlier?.map((i) => i.id)).to.deep.equal(['m1']);
  });
});
