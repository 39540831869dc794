/**
 * `wave-chat/react` with real React 19 and react-dom (development build, so StrictMode
 * double-mounts and double-renders as it does in an app under development).
 */
import { expect } from '@open-wc/testing';
import { StrictMode, act, createRef, useState, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { WaveChat as WaveChatElement } from '../../components/wave-chat.js';
import { WaveSession } from '../../src/agent/wave-session.js';
import { MemoryStorage } from '../../src/storage.js';
import { WaveChat, useWaveChat, useWaveContext, useWaveTool } from '../../react/index.js';
import type { WaveToolCallSucceededEvent } from '../../components/events.js';
import { until } from '../helpers/until.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const originalFactory = WaveChatElement.createSession;
type Made = { siteId: string; costUnit: string | undefined; session: WaveSession };

describe('wave-chat/react', () => {
  let container: HTMLElement;
  let root: Root;
  let made: Made[];
  let registrations: string[];

  beforeEach(() => {
    made = [];
    registrations = [];
    WaveChatElement.createSession = (el) => {
      const session = new WaveSession({ siteId: el.siteId || 'default', costUnit: el.costUnit, storage: new MemoryStorage(), validatorEngine: 'interpreter' });
      const register = session.registerTool.bind(session);
      session.registerTool = (name, definition) => {
        registrations.push(name);
        return register(name, definition);
      };
      made.push({ siteId: el.siteId, costUnit: el.costUnit, session });
      return session;
    };
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });
  afterEach(async () => {
    await act(async () => root.unmount());
    container.remove();
    WaveChatElement.createSession = originalFactory;
  });

  const render = (node: ReactNode) => act(async () => root.render(node));
  const element = () => container.querySelector('wave-chat')!;
  const session = () => made.at(-1)!.session;
  const toolNames = () => element().getHostToolSchemas().map((s) => s.name);

  describe('<WaveChat>', () => {
    it('renders <wave-chat> whose session is made with the siteId and costUnit given as props', async () => {
      // The open element GETs its endpoint for the model label while rendering: answered here as
      // a server without that GET would, so the dev server logs no 404 for a test about props.
      const original = window.fetch;
      window.fetch = async () => new Response('', { status: 404 });
      try {
        await render(<WaveChat siteId="shop" costUnit="pts" endpoint="/wave" open />);
      } finally {
        window.fetch = original;
      }
      const el = element();
      expect(el).to.be.instanceOf(WaveChatElement);
      expect(made.map((m) => [m.siteId, m.costUnit])).to.deep.equal([['shop', 'pts']]);
      expect(el.open).to.equal(true);
      expect(el.endpoint).to.equal('/wave');
    });

    it('events arrive as typed props, and a changed handler replaces the old one', async () => {
      const first: string[] = [];
      const second: string[] = [];
      const onFirst = (e: WaveToolCallSucceededEvent) => first.push(e.detail.outcome.name);
      const onSecond = (e: WaveToolCallSucceededEvent) => second.push(e.detail.outcome.name);
      await render(<WaveChat siteId="ev" onToolSucceeded={onFirst} />);
      element().registerTool('ping', { handler: () => 'pong' });
      await act(() => element().callTool('ping', {}));
      await render(<WaveChat siteId="ev" onToolSucceeded={onSecond} />);
      await act(() => element().callTool('ping', {}));
      expect(first).to.deep.equal(['ping']);
      expect(second).to.deep.equal(['ping']);
    });

    it('forwards a ref to the element, and renders its children beside it', async () => {
      const ref = createRef<WaveChatElement>();
      await render(
        <WaveChat siteId="ref" ref={ref}>
          <p id="app">app</p>
        </WaveChat>,
      );
      expect(ref.current).to.equal(element());
      const app = container.querySelector('#app')!;
      expect(app.parentElement).to.equal(container);
      expect(element().contains(app)).to.equal(false);
    });
  });

  describe('useWaveTool', () => {
    function Tool({ name = 'list_tasks', description = 'List the tasks.' }: { name?: string; description?: string }) {
      useWaveTool(name, { description, handler: () => ['a'] });
      return null;
    }

    it('registers while mounted and unregisters on unmount', async () => {
      await render(
        <WaveChat siteId="t">
          <Tool />
        </WaveChat>,
      );
      expect(toolNames()).to.deep.equal(['list_tasks']);
      expect(await element().callTool('list_tasks', {})).to.deep.equal({ success: true, data: ['a'] });
      await render(<WaveChat siteId="t" />);
      expect(toolNames()).to.not.include('list_tasks');
      expect((await element().callTool('list_tasks', {})).success).to.equal(false);
    });

    it("under StrictMode's double mount (register, unregister, register), ends registered once; unmount unregisters", async () => {
      await render(
        <StrictMode>
          <WaveChat siteId="strict" />
        </StrictMode>,
      );
      // The element is there first, so the newly mounted child's effect really runs twice.
      await render(
        <StrictMode>
          <WaveChat siteId="strict">
            <Tool />
          </WaveChat>
        </StrictMode>,
      );
      expect(made.length).to.equal(1);
      expect(registrations.filter((n) => n === 'list_tasks').length).to.equal(2);
      expect(session().registry.list().map((t) => t.name)).to.deep.equal(['list_tasks']);
      expect(await element().callTool('list_tasks', {})).to.deep.equal({ success: true, data: ['a'] });
      await render(
        <StrictMode>
          <WaveChat siteId="strict" />
        </StrictMode>,
      );
      expect(session().registry.size).to.equal(0);
    });

    it('calls the latest render’s handler (fresh state) without registering again', async () => {
      let bump: () => void = () => undefined;
      function Counter() {
        const [count, setCount] = useState(0);
        bump = () => setCount((c) => c + 1);
        useWaveTool('get_count', { description: 'The count.', handler: () => ({ count }), summary: () => `count ${count}` });
        return <output>{count}</output>;
      }
      await render(
        <StrictMode>
          <WaveChat siteId="fresh">
            <Counter />
          </WaveChat>
        </StrictMode>,
      );
      const before = registrations.length;
      expect(await element().callTool('get_count', {})).to.deep.equal({ success: true, count: 0 });
      await act(async () => bump());
      await act(async () => bump());
      expect(container.querySelector('output')!.textContent).to.equal('2');
      expect(await element().callTool('get_count', {})).to.deep.equal({ success: true, count: 2 });
      expect(registrations.length).to.equal(before);
    });

    it('registers again when the name, a plain field or a dep changes', async () => {
      function Versioned({ version, description }: { version: number; description: string }) {
        useWaveTool('versioned', { description, handler: () => version }, [version]);
        return null;
      }
      await render(
        <WaveChat siteId="deps">
          <Versioned version={1} description="One." />
        </WaveChat>,
      );
      const count = () => registrations.filter((n) => n === 'versioned').length;
      expect(count()).to.equal(1);
      await render(
        <WaveChat siteId="deps">
          <Versioned version={1} description="One." />
        </WaveChat>,
      );
      expect(count()).to.equal(1);
      await render(
        <WaveChat siteId="deps">
          <Versioned version={2} description="One." />
        </WaveChat>,
      );
      expect(count()).to.equal(2);
      await render(
        <WaveChat siteId="deps">
          <Versioned version={2} description="Two." />
        </WaveChat>,
      );
      expect(count()).to.equal(3);
      expect(element().getHostToolSchemas()[0]!.description).to.equal('Two.');
      await render(
        <WaveChat siteId="deps">
          <Tool name="renamed" />
        </WaveChat>,
      );
      expect(toolNames()).to.deep.equal(['renamed']);
    });

    it('keeps consent: a confirming tool registered by a hook still asks before its handler runs', async () => {
      let runs = 0;
      function Danger() {
        useWaveTool('delete_all', { description: 'Delete everything.', confirm: true, handler: () => ++runs });
        return null;
      }
      await render(
        <WaveChat siteId="consent" open>
          <Danger />
        </WaveChat>,
      );
      expect(element().getHostToolSchemas()[0]!.confirm).to.equal(true);
      const shown: string[] = [];
      element().addEventListener('wave-confirmation-shown', (e) => shown.push(e.detail.request.toolName));
      const pending = element().callTool('delete_all', {});
      // The validator is a lazy chunk: wait for the confirmation, however long it takes to come.
      await until(() => shown.length > 0, 'the confirmation shown');
      expect(shown).to.deep.equal(['delete_all']);
      expect(runs).to.equal(0);
      element().hide(); // closing cancels the confirmation
      expect((await pending).success).to.equal(false);
      expect(runs).to.equal(0);
    });

    it("one component unmounting does not remove another's registration of the same name", async () => {
      function A() {
        useWaveTool('shared', { description: 'A.', handler: () => 'a' });
        return null;
      }
      function B() {
        useWaveTool('shared', { description: 'B.', handler: () => 'b' });
        return null;
      }
      await render(
        <WaveChat siteId="shared">
          <A />
          <B />
        </WaveChat>,
      );
      expect(await element().callTool('shared', {})).to.deep.equal({ success: true, data: 'b' });
      await render(
        <WaveChat siteId="shared">
          <B />
        </WaveChat>,
      );
      expect(await element().callTool('shared', {})).to.deep.equal({ success: true, data: 'b' });
    });

    it('acts on an element passed explicitly (a ref), outside any <WaveChat>', async () => {
      const ref = createRef<WaveChatElement>();
      function Outside() {
        useWaveTool('outside', { description: 'Out.', handler: () => 1 }, [], ref);
        useWaveContext({ page: 'outside' }, ref);
        return null;
      }
      await render(
        <>
          <WaveChat siteId="explicit" ref={ref} />
          <Outside />
        </>,
      );
      expect(toolNames()).to.deep.equal(['outside']);
      expect(session().getContext()).to.equal('{"page":"outside"}');
    });
  });

  describe('useWaveContext', () => {
    it('sets the page state, follows its changes, and clears it on unmount', async () => {
      function Page({ tasks }: { tasks: string[] }) {
        useWaveContext({ board: 'Launch', tasks });
        return null;
      }
      await render(
        <WaveChat siteId="ctx">
          <Page tasks={['a']} />
        </WaveChat>,
      );
      expect(session().getContext()).to.equal('{"board":"Launch","tasks":["a"]}');
      await render(
        <WaveChat siteId="ctx">
          <Page tasks={['a', 'b']} />
        </WaveChat>,
      );
      expect(session().getContext()).to.equal('{"board":"Launch","tasks":["a","b"]}');
      await render(<WaveChat siteId="ctx" />);
      expect(session().getContext()).to.equal(null);
    });

    it('useWaveChat gives the element to the children', async () => {
      let seen: WaveChatElement | null = null;
      function Child() {
        seen = useWaveChat();
        return null;
      }
      await render(
        <WaveChat siteId="ctx2">
          <Child />
        </WaveChat>,
      );
      expect(seen).to.equal(element());
    });
  });
});
