/**
 * Several tabs of a site keep one conversation (`persist-transcript`): the element's saves merge
 * into what the other tabs kept, a save that changed the record is announced on the site's kept
 * channel, and the other tabs take it in once no turn is under way there. Part of the conversation
 * chunk (the launcher's file carries none of it); an element makes one only with the attribute.
 */
import type { SessionState, WaveSessionApi } from '../src/agent/types.js';
import { keptChannelName } from './transcript-key.js';
import { keptBusy, mergeKept, persistableItems, type TranscriptStore } from './transcript-store.js';

/** The session's record as kept: the restored turns, then this page's. */
const ownRows = (state: SessionState) => persistableItems([...(state.earlier ?? []), ...state.items]);

/** What the sync needs of its element. */
export interface KeptHost {
  readonly persistTranscript: boolean;
  readonly isConnected: boolean;
  readonly state: SessionState;
  /** The element's own session handle (restore and restart are not visitor acts). */
  session(): WaveSessionApi;
  storeKey(): string;
  store(): TranscriptStore;
  /** The read of the kept conversation in progress: nothing is saved or taken in before it. */
  historyLoad(): Promise<void> | null;
}

/**
 * @example
 * const kept = new KeptSync(host);
 * kept.open(); // after the history read
 * await kept.save(); // on a state change
 */
export class KeptSync {
  readonly #host: KeptHost;
  /** The save in progress: the next save, a clear and an adoption wait for it. */
  #saving: Promise<void> = Promise.resolve();
  /** This tab's kept rows as last saved or adopted (JSON): an unchanged record is not written again. */
  #lastKept = '';
  /** Another tab kept newer rows: take them in once no turn is under way here. */
  #adoptWanted = false;
  #adopting = false;
  /** Another tab started a new conversation: start one here too once no turn is under way. */
  #restartWanted = false;
  #channel: { key: string; channel: BroadcastChannel } | null = null;

  constructor(host: KeptHost) {
    this.#host = host;
  }

  /** Saves the session's record merged into what the tabs kept; chained after the save before it. */
  save(): Promise<void> {
    const previous = this.#saving;
    const saving = (async () => {
      await previous;
      const host = this.#host;
      // Another tab started a new conversation: this one's old turns are not kept again.
      if (this.#restartWanted || !host.persistTranscript) return;
      // The session's record is the one source: the kept turns it restored, then this page's.
      const state = host.state;
      const rows = ownRows(state);
      const mine = JSON.stringify(rows);
      // Nothing to keep, or nothing new since the last save: the kept record stands as the
      // tabs left it (a new conversation clears it in restarted()).
      if (rows.length === 0 || mine === this.#lastKept) return;
      const key = host.storeKey();
      const store = host.store();
      // Never drop a row another tab kept (the IndexedDB store merges again inside its write transaction).
      const stored = await store.load(key);
      const merged = mergeKept(stored, rows);
      const result = await store.save(key, merged);
      this.#lastKept = mine;
      const changed = typeof result === 'boolean' ? result : JSON.stringify(merged) !== JSON.stringify(stored);
      if (changed) this.#open(key)?.postMessage({ kind: 'kept' });
    })().catch(() => undefined);
    this.#saving = saving;
    return saving;
  }

  /** This tab started a new conversation: the store is cleared (after the save in flight) and the other tabs follow. */
  restarted(): void {
    this.#lastKept = '';
    this.#restartWanted = false;
    const key = this.#host.storeKey();
    this.#saving = this.#saving
      .then(() => this.#host.store().clear(key))
      .then(() => void this.#open(key)?.postMessage({ kind: 'restarted' }))
      .catch(() => undefined);
  }

  /** Hears the other tabs from now on (after the history read). */
  open(): void {
    this.#open(this.#host.storeKey());
  }

  close(): void {
    if (!this.#channel) return;
    this.#channel.channel.close();
    this.#channel = null;
    window.removeEventListener('pageshow', this.#onPageShow);
  }

  /** The site's kept-conversation channel: a tab that changed the kept record says so there. */
  #open(key: string): BroadcastChannel | null {
    if (this.#channel?.key === key) return this.#channel.channel;
    this.close();
    if (!this.#host.persistTranscript || !this.#host.isConnected || typeof BroadcastChannel !== 'function') return null;
    const channel = new BroadcastChannel(keptChannelName(key));
    channel.onmessage = (event: MessageEvent) => {
      const kind = (event.data as { kind?: unknown } | null)?.kind;
      if (kind === 'restarted') this.#restartWanted = true;
      else if (kind !== 'kept') return;
      this.#adoptWanted = true;
      this.adopt();
    };
    this.#channel = { key, channel };
    window.addEventListener('pageshow', this.#onPageShow);
    return channel;
  }

  /** Back from the back/forward cache: the other tabs may have kept more meanwhile. */
  #onPageShow = (event: PageTransitionEvent): void => {
    if (!event.persisted) return;
    this.#adoptWanted = true;
    this.adopt();
  };

  /**
   * Takes in what the other tabs kept (their turns, a call routed from here) once no turn is
   * under way here: a running turn finishes first, then merges. The record becomes the kept one
   * merged with this tab's own rows, in the kept order (session.restore). Called on every state change.
   */
  adopt(): void {
    const host = this.#host;
    if ((!this.#adoptWanted && !this.#restartWanted) || this.#adopting || !host.persistTranscript || keptBusy(host.state)) return;
    this.#adopting = true;
    void (async () => {
      await host.historyLoad();
      await this.#saving;
      if (keptBusy(host.state)) return;
      if (this.#restartWanted) {
        this.#restartWanted = false;
        this.#lastKept = '';
        host.session().restart();
      }
      this.#adoptWanted = false;
      const stored = await host.store().load(host.storeKey());
      // A turn may have started while the record was read: take it in after that turn.
      if (keptBusy(host.state)) {
        this.#adoptWanted = true;
        return;
      }
      const state = host.state;
      const rows = mergeKept(stored, ownRows(state));
      const json = JSON.stringify(rows);
      // Nothing of this tab's is missing from the kept record: the restore below needs no save.
      if (json === JSON.stringify(stored)) this.#lastKept = json;
      if (json !== JSON.stringify(persistableItems(state.earlier ?? []))) host.session().restore?.(rows);
    })()
      .catch(() => undefined)
      .finally(() => {
        this.#adopting = false;
        if (this.#adoptWanted || this.#restartWanted) this.adopt();
      });
  }
}
