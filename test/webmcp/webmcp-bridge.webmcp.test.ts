/**
 * The WebMCP bridge against Chromium's real `document.modelContext` (this file runs only in the
 * `webmcp` group: Chromium with `--enable-features=WebMCP`). The browser agent's side is played
 * through the real `executeTool`, exactly as the browser's agent reaches a page tool.
 */
import { expect, fixture, html, nextFrame } from '@open-wc/testing';
import '../../components/define.js';
import { WaveChat } from '../../components/wave-chat.js';
import { WaveSession } from '../../src/agent/wave-session.js';
import { MemoryStorage } from '../../src/storage.js';
import { findModelContext, type ModelContext, type RegisteredModelContextTool } from '../../src/webmcp/model-context.js';
import { realClick } from '../components/fake-session.js';

type Updatable = HTMLElement & { updateComplete: Promise<unknown> };
const originalFactory = WaveChat.createSession;

/** Waits for a state (sync or async probe), however many turns it takes; the bound only fails with a message. */
async function waitFor<T>(probe: () => T | null | undefined | false | Promise<T | null | undefined | false>, what: string, bound = 8_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() - start > bound) throw new Error(`never happened: ${what}`);
    await nextFrame();
  }
}

function chips(el: WaveChat): Updatable[] {
  const t = el.shadowRoot!.querySelector('wave-transcript')!;
  return [...t.shadowRoot!.querySelectorAll<Updatable>('wave-tool-chip')];
}
const inChip = (chip: Element, part: string) => chip.shadowRoot!.querySelector<HTMLElement>(`[part~="${part}"]`);
const confirmButton = (el: WaveChat) => waitFor(() => chips(el).map((c) => inChip(c, 'confirm-button')).find(Boolean), 'a Confirm button');
const cancelButton = (el: WaveChat) => waitFor(() => chips(el).map((c) => inChip(c, 'cancel-button')).find(Boolean), 'a Cancel button');

describe('WebMCP bridge (Chromium with WebMCP)', () => {
  let mc: ModelContext;
  // Registrations the page itself makes directly with the model context, undone after each test.
  let direct: AbortController[];

  const agentTools = async () => mc.getTools();
  const agentTool = async (name: string) => (await agentTools()).find((t) => t.name === name);
  const agentNames = async () => (await agentTools()).map((t) => t.name).sort();
  /** The browser's agent calling a tool, as it does: `executeTool` with the listed tool. */
  async function agentCall(name: string, input: object, signal?: AbortSignal): Promise<unknown> {
    const tool = await waitFor(() => agentTool(name), `"${name}" offered to the agent`);
    return JSON.parse(String(await mc.executeTool(tool, input, signal ? { signal } : {})));
  }
  async function registerDirect(tool: Parameters<ModelContext['registerTool']>[0]): Promise<AbortController> {
    const controller = new AbortController();
    direct.push(controller);
    await mc.registerTool(tool, { signal: controller.signal });
    return controller;
  }

  before(() => {
    const found = findModelContext();
    if (!found) throw new Error('this group needs Chromium with --enable-features=WebMCP');
    mc = found;
  });
  beforeEach(() => {
    direct = [];
    WaveChat.createSession = (el) =>
      new WaveSession({ siteId: el.siteId || 'webmcp', storage: new MemoryStorage(), validatorEngine: 'interpreter', costUnit: 'cr' });
  });
  afterEach(async () => {
    for (const c of direct) c.abort();
    WaveChat.createSession = originalFactory;
    document.querySelectorAll('wave-chat').forEach((el) => el.remove());
    await waitFor(async () => (await agentTools()).length === 0, 'the model context emptied');
  });

  const chat = () => fixture<WaveChat>(html`<wave-chat open webmcp site-id="webmcp"></wave-chat>`);

  describe('out: page tools offered to the browser agent', () => {
    it('mirrors registration and unregistration, with the description and schema', async () => {
      const el = await chat();
      const parameters = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };
      el.registerTool('add_task', { description: 'Add a task to the board.', parameters, handler: ({ title }) => ({ title }) });
      const tool = await waitFor(() => agentTool('add_task'), 'add_task mirrored');
      expect(tool.description).to.equal('Add a task to the board.');
      expect(tool.inputSchema).to.deep.equal(parameters);
      el.unregisterTool('add_task');
      await waitFor(async () => !(await agentTool('add_task')), 'add_task unregistered from the agent');
    });

    it('readOnlyHint only for tools that neither confirm nor cost', async () => {
      const el = await chat();
      const handler = () => ({});
      let price = 0;
      el.registerTools({
        list_tasks: { description: 'List.', handler },
        delete_task: { description: 'Delete.', confirm: true, handler },
        add_scene: { description: 'Paid.', cost: 40, handler },
        wire_money: { description: 'Tier 3.', tier3: true, handler },
        // Free now, but a getter may start costing: never advertised as read-only.
        render_clip: {
          description: 'Priced later.',
          get cost() {
            return price;
          },
          handler,
        },
      });
      await waitFor(async () => (await agentTools()).length === 5, 'five tools mirrored');
      const hints = Object.fromEntries((await agentTools()).map((t) => [t.name, t.annotations?.readOnlyHint === true]));
      expect(hints).to.deep.equal({ list_tasks: true, delete_task: false, add_scene: false, wire_money: false, render_clip: false });
      price = 1;
    });

    it("an agent's call runs through callTool: the chip asks, and only a real click runs the handler", async () => {
      const el = await chat();
      let runs = 0;
      const shown: string[] = [];
      el.addEventListener('wave-confirmation-shown', (e) => shown.push(e.detail.request.toolName));
      el.registerTool('delete_task', {
        description: 'Delete a task.',
        confirm: true,
        parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        handler: ({ id }) => {
          runs++;
          return { deleted: id, secret: '<img src=x onerror=alert(1)>'.repeat(1) };
        },
      });
      const result = agentCall('delete_task', { id: 't1' });
      const confirm = await confirmButton(el);
      expect(shown).to.deep.equal(['delete_task']);
      expect(runs).to.equal(0);
      confirm.click(); // a script's click settles nothing
      await nextFrame();
      expect(runs).to.equal(0);
      await realClick(confirm);
      const answer = (await result) as { success: boolean; deleted: string };
      expect(runs).to.equal(1);
      expect(answer).to.include({ success: true, deleted: 't1' });
    });

    it('the visitor cancelling tells the agent it was declined; the handler never runs', async () => {
      const el = await chat();
      let runs = 0;
      el.registerTool('empty_trash', { description: 'Empty.', confirm: true, handler: () => ++runs });
      const result = agentCall('empty_trash', {});
      await realClick(await cancelButton(el));
      const answer = (await result) as { success: boolean };
      expect(answer.success).to.equal(false);
      expect(JSON.stringify(answer)).to.match(/declin|cancel/i);
      expect(runs).to.equal(0);
    });

    it("arguments are validated against the schema before the agent's call can run", async () => {
      const el = await chat();
      let runs = 0;
      el.registerTool('set_price', {
        description: 'Set a price.',
        parameters: { type: 'object', properties: { amount: { type: 'number', minimum: 0 } }, required: ['amount'] },
        handler: () => ++runs,
      });
      const answer = (await agentCall('set_price', { amount: 'lots' })) as { success: boolean; error?: string };
      expect(answer.success).to.equal(false);
      expect(runs).to.equal(0);
      expect((await agentCall('set_price', { amount: 3 })) as object).to.include({ success: true });
      expect(runs).to.equal(1);
    });

    it("a cost-bearing call is covered by the visitor's session grant, and tier3 always asks", async () => {
      const el = await chat();
      let paid = 0;
      el.registerTool('add_scene', { description: 'Add a scene.', cost: 40, handler: () => ++paid });
      el.registerTool('wire_money', { description: 'Wire.', tier3: true, cost: 1, handler: () => 'sent' });
      const first = agentCall('add_scene', {});
      const approve = await waitFor(() => chips(el).map((c) => inChip(c, 'approve-button')).find(Boolean), 'Approve for this session');
      await realClick(approve);
      await first;
      expect(el.state.grant.active).to.equal(true);
      // Covered by the grant: no chip asks, it runs.
      expect((await agentCall('add_scene', {})) as object).to.include({ success: true });
      expect(paid).to.equal(2);
      const wire = agentCall('wire_money', {});
      await realClick(await cancelButton(el));
      expect(((await wire) as { success: boolean }).success).to.equal(false);
    });

    it("the agent cancelling its call cancels the confirmation", async () => {
      const el = await chat();
      let runs = 0;
      el.registerTool('delete_task', { description: 'Delete.', confirm: true, handler: () => ++runs });
      const tool = await waitFor(() => agentTool('delete_task'), 'mirrored');
      const stop = new AbortController();
      const call = mc.executeTool(tool, {}, { signal: stop.signal });
      await confirmButton(el);
      stop.abort();
      let error: unknown = null;
      await call.catch((e: unknown) => (error = e));
      expect((error as Error).name).to.equal('AbortError');
      await waitFor(() => !chips(el).some((c) => inChip(c, 'confirm-button')), 'the chip no longer asks');
      expect(runs).to.equal(0);
    });

    it('replacing a tool updates what the agent sees; leaving the page or dropping the attribute unregisters all', async () => {
      const el = await chat();
      el.registerTool('list_tasks', { description: 'First.', handler: () => 1 });
      await waitFor(async () => (await agentTool('list_tasks'))?.description === 'First.', 'first');
      el.registerTool('list_tasks', { description: 'Second.', confirm: true, handler: () => 2 });
      await waitFor(async () => (await agentTool('list_tasks'))?.description === 'Second.', 'replaced');
      expect((await agentTool('list_tasks'))!.annotations?.readOnlyHint).to.not.equal(true);
      el.webmcp = false;
      await waitFor(async () => (await agentNames()).length === 0, 'attribute dropped');
      el.webmcp = true;
      await waitFor(async () => (await agentNames()).includes('list_tasks'), 'attribute set again');
      el.remove();
      await waitFor(async () => (await agentNames()).length === 0, 'element removed');
    });
  });

  describe("in: the page's own WebMCP tools offered to the widget's model", () => {
    const schemas = (el: WaveChat) => Object.fromEntries(el.getHostToolSchemas().map((s) => [s.name, s]));

    it('a read-only tool is offered without confirmation and runs through executeTool', async () => {
      const seen: unknown[] = [];
      await registerDirect({
        name: 'lookup_stock',
        description: 'Stock level of a product.',
        inputSchema: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
        annotations: { readOnlyHint: true },
        execute: (input) => {
          seen.push(input);
          return { sku: input.sku, level: 7 };
        },
      });
      const activated: string[] = [];
      mc.addEventListener('toolactivated', (e) => activated.push((e as Event & { toolName: string }).toolName));
      const el = await chat();
      const schema = await waitFor(() => schemas(el).lookup_stock, 'lookup_stock offered to the widget');
      expect(schema).to.deep.include({ description: 'Stock level of a product.', confirm: false, cost: 0 });
      expect(schema.parameters).to.deep.equal({ type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] });
      const result = await el.callTool('lookup_stock', { sku: 'A1' });
      expect(result).to.deep.include({ success: true, sku: 'A1', level: 7 });
      expect(seen).to.deep.equal([{ sku: 'A1' }]);
      expect(activated).to.deep.equal(['lookup_stock']);
      // The widget validates the model's arguments against the page's schema first.
      expect((await el.callTool('lookup_stock', {})).success).to.equal(false);
      expect(seen.length).to.equal(1);
    });

    it('a tool not marked read-only waits behind a confirmation (its cost is unknown)', async () => {
      let runs = 0;
      await registerDirect({ name: 'Place-Order', description: 'Place the order.', execute: () => ++runs });
      const el = await chat();
      const schema = await waitFor(() => schemas(el).place_order, 'place_order offered');
      expect(schema.confirm).to.equal(true);
      const result = el.callTool('place_order', {});
      const confirm = await confirmButton(el);
      expect(runs).to.equal(0);
      await realClick(confirm);
      expect(await result).to.include({ success: true });
      expect(runs).to.equal(1);
    });

    it("follows toolchange: a tool the page unregisters is withdrawn, a new one appears", async () => {
      const el = await chat();
      const first = await registerDirect({ name: 'get_weather', description: 'Weather.', annotations: { readOnlyHint: true }, execute: () => 'sunny' });
      await waitFor(() => schemas(el).get_weather, 'get_weather offered');
      expect(await el.callTool('get_weather', {})).to.include({ success: true });
      first.abort();
      await waitFor(() => !schemas(el).get_weather, 'get_weather withdrawn');
      await registerDirect({ name: 'get_time', description: 'Time.', annotations: { readOnlyHint: true }, execute: () => 'noon' });
      await waitFor(() => schemas(el).get_time, 'get_time offered');
      expect(el.getHostToolSchemas().map((s) => s.name)).to.not.include('get_weather');
    });

    it("the widget's own mirrored tools are not offered back to it, nor to another widget", async () => {
      const el = await chat();
      const other = await fixture<WaveChat>(html`<wave-chat webmcp site-id="other"></wave-chat>`);
      el.registerTool('add_task', { description: 'Add.', confirm: true, handler: () => 1 });
      await waitFor(() => agentTool('add_task'), 'mirrored out');
      await registerDirect({ name: 'page_search', description: 'Search.', annotations: { readOnlyHint: true }, execute: () => [] });
      await waitFor(() => schemas(el).page_search && schemas(other).page_search, 'page_search offered to both');
      expect(el.getHostToolSchemas().map((s) => s.name).sort()).to.deep.equal(['add_task', 'page_search']);
      expect(other.getHostToolSchemas().map((s) => s.name)).to.deep.equal(['page_search']);
      // Incoming tools are not mirrored back out either: the agent sees each once.
      expect(await agentNames()).to.deep.equal(['add_task', 'page_search']);
    });

    it("a widget tool of the same name replaces the page's direct one in the widget (and stays the widget's)", async () => {
      const el = await chat();
      const warnings: string[] = [];
      const warn = console.warn;
      console.warn = (m: unknown) => warnings.push(String(m));
      try {
        await registerDirect({ name: 'search', description: 'Page search.', annotations: { readOnlyHint: true }, execute: () => 'page' });
        await waitFor(() => schemas(el).search, 'the page search offered');
        el.registerTool('search', { description: 'Widget search.', handler: () => 'widget' });
        await waitFor(() => warnings.some((w) => w.includes('"search"')), 'a warning that it cannot be mirrored out');
        // A later toolchange does not take it back.
        await registerDirect({ name: 'other', description: 'Other.', annotations: { readOnlyHint: true }, execute: () => 1 });
        await waitFor(() => schemas(el).other, 'other offered');
        expect(schemas(el).search!.description).to.equal('Widget search.');
        expect(await el.callTool('search', {})).to.deep.include({ success: true, data: 'widget' });
      } finally {
        console.warn = warn;
      }
    });
  });
});

describe('WebMCP bridge: listing of tools from getTools', () => {
  it('the registered tool shape the bridge reads is what Chromium lists', async () => {
    const mc = findModelContext()!;
    const c = new AbortController();
    await mc.registerTool(
      { name: 'shape_probe', title: 'Probe', description: 'd', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true }, execute: () => 1 },
      { signal: c.signal },
    );
    const tool = (await mc.getTools()).find((t) => t.name === 'shape_probe') as RegisteredModelContextTool;
    expect(tool).to.deep.include({ name: 'shape_probe', description: 'd', origin: location.origin });
    expect(tool.annotations?.readOnlyHint).to.equal(true);
    c.abort();
  });
});
