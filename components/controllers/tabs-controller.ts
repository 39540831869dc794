import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { WaveSessionApi } from '../../src/agent/types.js';
import type { ToolRegistry } from '../../src/tools/registry.js';
import type { TabRouter, ToolRouter } from '../../src/tabs/tab-router.js';
import type { PageToolSchema, ToolCall, ToolOutcome } from '../../src/tools/types.js';
import { transcriptKey } from '../transcript-key.js';

/** What the controller needs of its element. */
export interface TabsHost extends ReactiveControllerHost {
  readonly isConnected: boolean;
  /** Tabs join only while the conversation is kept (`persist-transcript`). */
  readonly persistTranscript: boolean;
  readonly siteId: string;
  readonly session: WaveSessionApi;
}

/** The session methods routing needs (`WaveSession` has them; a scripted session may not). */
interface RoutableSession {
  registry: ToolRegistry;
  ownToolSchemas(): PageToolSchema[];
  runCall(call: ToolCall, options: { signal?: AbortSignal; fromTab?: string }): Promise<ToolOutcome>;
  setToolRouter(router: ToolRouter | null): void;
}

function routable(session: WaveSessionApi): (WaveSessionApi & RoutableSession) | null {
  const s = session as WaveSessionApi & Partial<RoutableSession>;
  return typeof s.setToolRouter === 'function' && typeof s.runCall === 'function' && typeof s.ownToolSchemas === 'function' && s.registry
    ? (s as WaveSessionApi & RoutableSession)
    : null;
}

/**
 * Several tabs (SPEC §13): while `persist-transcript` is on, the element's tab joins the other
 * tabs of its site on a BroadcastChannel named by the store key; the model's calls go to the
 * most recently active tab that has the tool (src/tabs/tab-router.ts). The visitor's own
 * trusted acts in the page (focus, showing the tab, a pointer or key) make the tab active.
 * The router's code loads only when the attribute is set.
 *
 * @example
 * class MyChat extends LitElement { #tabs = new TabsController(this); }
 */
export class TabsController implements ReactiveController {
  readonly #host: TabsHost;
  #router: TabRouter | null = null;
  #key: string | null = null;
  #starting: Promise<void> | null = null;
  #cleanup: Array<() => void> = [];
  /** The router's code failed to load: not tried again on every update. */
  #failed = false;

  constructor(host: TabsHost) {
    this.#host = host;
    host.addController(this);
  }

  hostConnected(): void {
    this.#sync();
  }

  hostUpdated(): void {
    this.#sync();
  }

  hostDisconnected(): void {
    this.#sync();
  }

  #wantedKey(): string | null {
    const host = this.#host;
    if (!host.persistTranscript || !host.isConnected || typeof BroadcastChannel !== 'function') return null;
    return transcriptKey(host.siteId);
  }

  #sync(): void {
    const key = this.#wantedKey();
    if (this.#router && key === this.#key) return;
    if (this.#router) this.#leave();
    if (key === null || this.#starting || this.#failed) return;
    const session = routable(this.#host.session);
    if (!session) return;
    this.#starting = import('../../src/tabs/tab-router.js')
      .then(({ TabRouter, tabChannelName }) => {
        // The attribute may have gone, or the element left, while the module loaded.
        if (this.#router || this.#wantedKey() !== key) return;
        this.#join(session, key, new TabRouter({
          channel: new BroadcastChannel(tabChannelName(key)),
          siteId: this.#host.siteId || 'default',
          title: () => document.title,
          tools: () => session.ownToolSchemas(),
          runHere: (call, signal, from) => session.runCall(call, { signal, fromTab: from.tab }),
        }));
      })
      .catch((error: unknown) => {
        this.#failed = true;
        console.warn('[wave-chat] could not join the other tabs', error);
      })
      .finally(() => {
        this.#starting = null;
        // The host changed while loading (another site id): follow it.
        if (this.#wantedKey() !== this.#key || (!this.#router && this.#wantedKey() !== null)) this.#sync();
      });
  }

  #join(session: WaveSessionApi & RoutableSession, key: string, router: TabRouter): void {
    this.#router = router;
    this.#key = key;
    const on = <K extends string>(target: EventTarget, type: K, listener: (event: Event) => void, capture = false): void => {
      target.addEventListener(type, listener, { capture, passive: true });
      this.#cleanup.push(() => target.removeEventListener(type, listener, { capture }));
    };
    // Only the visitor's own acts count: a script's synthetic event does not make a tab active.
    const active = (event: Event): void => {
      if (event.isTrusted) router.markActive();
    };
    on(window, 'focus', active);
    on(window, 'pointerdown', active, true);
    on(window, 'keydown', active, true);
    on(document, 'visibilitychange', (event) => {
      if (document.visibilityState === 'visible') active(event);
    });
    // Leaving (closed, navigated, into the back/forward cache, frozen) says goodbye; coming back joins again.
    const leave = (): void => router.stop();
    const back = (): void => {
      router.start();
      if (document.visibilityState === 'visible') router.markActive();
    };
    on(window, 'pagehide', leave);
    on(document, 'freeze', leave);
    on(window, 'pageshow', (event) => {
      if ((event as PageTransitionEvent).persisted) back();
    });
    on(document, 'resume', back);
    this.#cleanup.push(session.registry.onChange(() => router.toolsChanged()));
    this.#cleanup.push(
      session.onEvent((event) => {
        if (event.type === 'confirmation-shown') router.callProgress(event.request.id, true);
        else if (event.type === 'tool-call-started') router.callProgress(event.callId, false);
      }),
    );
    // A tab the visitor is looking at as it joins is the active one.
    if (document.visibilityState === 'visible' && document.hasFocus()) router.markActive();
    router.start();
    session.setToolRouter(router);
    this.#cleanup.push(() => session.setToolRouter(null));
  }

  #leave(): void {
    for (const undo of this.#cleanup.splice(0).reverse()) {
      try {
        undo();
      } catch {
        /* keep leaving */
      }
    }
    this.#router?.dispose();
    this.#router = null;
    this.#key = null;
  }
}
