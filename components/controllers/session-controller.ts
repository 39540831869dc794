import type { ReactiveControllerHost } from 'lit';
import type { WaveSessionApi } from '../../src/agent/types.js';
import { toDomEvent } from '../events.js';
import { SessionBinding, type SessionControllerOptions } from './session-binding.js';

export type { SessionControllerOptions } from './session-binding.js';

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
export class SessionController extends SessionBinding {
  constructor(host: ReactiveControllerHost & EventTarget, session: WaveSessionApi, options: SessionControllerOptions = {}) {
    super(host, session, { ...options, toDomEvent });
  }
}
