import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { WaveSessionApi } from '../../src/agent/types.js';
import type { ToolRegistry } from '../../src/tools/registry.js';
import { findModelContext } from '../../src/webmcp/model-context.js';
import type { WebMcpBridge } from '../../src/webmcp/webmcp-bridge.js';

/** What the controller needs of its element. */
export interface WebMcpHost extends ReactiveControllerHost {
  readonly isConnected: boolean;
  /** The `webmcp` attribute: the bridge runs while it is set and the element is connected. */
  readonly webmcp: boolean;
  readonly session: WaveSessionApi;
}

/**
 * Runs the WebMCP bridge (src/webmcp/) for an element with `webmcp` set, while it is connected.
 * Where the browser has no `document.modelContext` it does nothing and loads nothing; the
 * bridge's code is imported only where it will run.
 *
 * @example
 * class MyChat extends LitElement { #webmcp = new WebMcpController(this); }
 */
export class WebMcpController implements ReactiveController {
  readonly #host: WebMcpHost;
  #bridge: WebMcpBridge | null = null;
  #starting: Promise<void> | null = null;

  constructor(host: WebMcpHost) {
    this.#host = host;
    host.addController(this);
  }

  /** The running bridge (null when off or unsupported). */
  get bridge(): WebMcpBridge | null {
    return this.#bridge;
  }

  /** Resolves once the bridge is started or stopped as the host's state asks. */
  get ready(): Promise<void> {
    return this.#starting ?? Promise.resolve();
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

  #sync(): void {
    const wanted = this.#host.webmcp && this.#host.isConnected;
    if (!wanted) {
      this.#bridge?.stop();
      this.#bridge = null;
      return;
    }
    if (this.#bridge || this.#starting) return;
    const modelContext = findModelContext();
    if (!modelContext) return;
    const session = this.#host.session;
    const registry = (session as WaveSessionApi & { registry?: ToolRegistry }).registry;
    if (!registry) return;
    this.#starting = import('../../src/webmcp/webmcp-bridge.js')
      .then(({ WebMcpBridge }) => {
        // The attribute may have gone, or the element left, while the module loaded.
        if (!this.#host.webmcp || !this.#host.isConnected || this.#bridge) return;
        this.#bridge = new WebMcpBridge({
          modelContext,
          registry,
          callTool: (name, args, options) => session.callTool(name, args, options),
        });
        this.#bridge.start();
      })
      .catch((error: unknown) => console.warn('[wave-chat] WebMCP bridge failed to load', error))
      .finally(() => {
        this.#starting = null;
      });
  }
}
