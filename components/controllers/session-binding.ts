import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { SessionState, Unsubscribe, WaveCoreEvent, WaveSessionApi } from '../../src/agent/types.js';

export interface SessionControllerOptions {
  /** Called for each core event after it was re-dispatched as a DOM event. */
  onEvent?: (event: WaveCoreEvent) => void;
  /** Called for each new state, before the host re-renders. */
  onState?: (state: SessionState) => void;
}

export interface SessionBindingOptions extends SessionControllerOptions {
  /**
   * The core event's §11 DOM event (`toDomEvent` of events.ts, given rather than imported), or
   * null when the host dispatches it itself later (in order); `onEvent` is called at once either way.
   */
  toDomEvent: (event: WaveCoreEvent) => Event | null;
}

/**
 * `SessionController` without its own import of the event classes: the launcher's file binds
 * its session with this and hands it `toDomEvent` from the conversation code, so the event
 * classes load with that code. Everything else is `SessionController`'s behaviour.
 */
export class SessionBinding implements ReactiveController {
  readonly host: ReactiveControllerHost & EventTarget;
  readonly session: WaveSessionApi;
  #state: SessionState;
  #unsubscribe: Unsubscribe[] = [];
  readonly #options: SessionBindingOptions;

  constructor(host: ReactiveControllerHost & EventTarget, session: WaveSessionApi, options: SessionBindingOptions) {
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
        const domEvent = this.#options.toDomEvent(event);
        if (domEvent) this.host.dispatchEvent(domEvent);
        this.#options.onEvent?.(event);
      }),
    );
    this.host.requestUpdate();
  }

  hostDisconnected(): void {
    for (const off of this.#unsubscribe.splice(0)) off();
  }
}
