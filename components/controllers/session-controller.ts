import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { SessionState, Unsubscribe, WaveCoreEvent, WaveSessionApi } from '../../src/agent/types.js';
import { toDomEvent } from '../events.js';

export interface SessionControllerOptions {
  /** Called for each core event after it was re-dispatched as a DOM event. */
  onEvent?: (event: WaveCoreEvent) => void;
  /** Called for each new state, before the host re-renders. */
  onState?: (state: SessionState) => void;
}

/**
 * Binds a `WaveSessionApi` to an element: subscribes while the host is connected, exposes
 * the latest `state`, requests an update on each change, and re-dispatches every core event
 * on the host as its §11 DOM event. The one seam between the core and the elements.
 *
 * @example
 * class MyChat extends LitElement {
 *   #ctl = new SessionController(this, new WaveSession());
 *   render() { return html`${this.#ctl.state.items.length} rows`; }
 * }
 */
export class SessionController implements ReactiveController {
  readonly host: ReactiveControllerHost & EventTarget;
  readonly session: WaveSessionApi;
  #state: SessionState;
  #unsubscribe: Unsubscribe[] = [];
  readonly #options: SessionControllerOptions;

  constructor(host: ReactiveControllerHost & EventTarget, session: WaveSessionApi, options: SessionControllerOptions = {}) {
    this.host = host;
    this.session = session;
    this.#state = session.state;
    this.#options = options;
    host.addController(this);
  }

  /** The latest state the session published. */
  get state(): SessionState {
    return this.#state;
  }

  hostConnected(): void {
    if (this.#unsubscribe.length) return;
    this.#state = this.session.state;
    this.#unsubscribe.push(
      this.session.subscribe((state) => {
        this.#state = state;
        this.#options.onState?.(state);
        this.host.requestUpdate();
      }),
      this.session.onEvent((event) => {
        this.host.dispatchEvent(toDomEvent(event));
        this.#options.onEvent?.(event);
      }),
    );
    this.host.requestUpdate();
  }

  hostDisconnected(): void {
    for (const off of this.#unsubscribe.splice(0)) off();
  }
}
