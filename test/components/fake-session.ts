/** A scriptable `WaveSessionApi` so element tests do not depend on the real core. */
import {
  ChipStatus,
  ConversationStatus,
  type SessionState,
  type TranscriptItem,
  type Unsubscribe,
  type WaveCoreEvent,
  type WaveSessionApi,
} from '../../src/agent/types.js';
import { keptKey } from '../../src/agent/record.js';
import type { ConfirmDecision, ConfirmationRequest, SpendGrantState, VisitorEvidence } from '../../src/consent/types.js';
import type { PageToolSchema, SanitizedResult, ToolDefinition } from '../../src/tools/types.js';

export const inactiveGrant: SpendGrantState = { active: false, spent: 0, cap: 200, grantedAt: 0, expiresAt: 0 };

export function activeGrant(spent: number, cap = 200): SpendGrantState {
  return { active: true, spent, cap, grantedAt: 1, expiresAt: 1 + 30 * 60_000 };
}

export function confirmation(id: string, over: Partial<ConfirmationRequest> = {}): ConfirmationRequest {
  return {
    id,
    toolName: 'add_scene',
    label: 'Add this scene?',
    cost: 40,
    tier3: false,
    offersSessionApproval: true,
    args: {},
    ...over,
  };
}

export function awaitingChip(id: string, over: Partial<ConfirmationRequest> = {}): Extract<TranscriptItem, { kind: 'tool' }> {
  const c = confirmation(id, over);
  return { kind: 'tool', id, name: c.toolName, status: ChipStatus.awaitingConfirmation, ...(c.label !== undefined ? { label: c.label } : {}), confirmation: c };
}

export interface RecordedAnswer {
  id: string;
  decision: ConfirmDecision;
  evidence: VisitorEvidence;
  accepted: boolean;
}

export class FakeSession implements WaveSessionApi {
  state: SessionState;
  readonly answers: RecordedAnswer[] = [];
  readonly revokes: VisitorEvidence[] = [];
  readonly sent: string[] = [];
  readonly calls: string[] = [];
  readonly tools = new Map<string, ToolDefinition>();
  context: unknown = null;
  #listeners = new Set<(s: SessionState) => void>();
  #eventListeners = new Set<(e: WaveCoreEvent) => void>();

  constructor(initial: Partial<SessionState> = {}) {
    this.state = {
      conversationId: 'c1',
      status: ConversationStatus.idle,
      items: [],
      grant: inactiveGrant,
      model: null,
      ...initial,
    };
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  /** Replaces the state (never mutates) and notifies like the core does. */
  update(patch: Partial<SessionState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.#listeners) l(this.state);
  }

  emit(event: WaveCoreEvent): void {
    for (const l of this.#eventListeners) l(event);
  }

  subscribe(listener: (state: SessionState) => void): Unsubscribe {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  onEvent(listener: (event: WaveCoreEvent) => void): Unsubscribe {
    this.#eventListeners.add(listener);
    return () => this.#eventListeners.delete(listener);
  }
  async send(text: string): Promise<void> {
    this.sent.push(text);
    this.calls.push('send');
  }
  async retry(): Promise<void> {
    this.calls.push('retry');
  }
  stop(): void {
    this.calls.push('stop');
  }
  restart(): void {
    this.calls.push('restart');
    // Like the core: a new conversation forgets the restored turns and this page's rows.
    this.update({ items: [], earlier: [] });
  }
  /**
   * Like the core: restored turns go before this page's rows in the record (`state.earlier`);
   * this page's rows the restored record holds (several tabs keep one) move into it.
   */
  restore(items: readonly TranscriptItem[]): void {
    this.calls.push('restore');
    const kept = new Set(items.map(keptKey));
    this.update({ earlier: [...items], items: this.state.items.filter((i) => !kept.has(keptKey(i))) });
  }
  close(): void {
    this.calls.push('close');
  }
  answerConfirmation(id: string, decision: ConfirmDecision, evidence: VisitorEvidence): boolean {
    // Mirrors the contract: only a trusted visitor action settles a confirmation.
    const accepted = evidence.isTrusted === true;
    this.answers.push({ id, decision, evidence, accepted });
    return accepted;
  }
  revokeGrant(evidence: VisitorEvidence): boolean {
    this.revokes.push(evidence);
    return evidence.isTrusted === true;
  }
  registerTool(name: string, definition: ToolDefinition): boolean {
    this.calls.push(`registerTool:${name}`);
    this.tools.set(name, definition);
    return true;
  }
  registerTools(map: Record<string, ToolDefinition>): number {
    let n = 0;
    for (const [k, v] of Object.entries(map)) if (this.registerTool(k, v)) n++;
    return n;
  }
  unregisterTool(name: string): boolean {
    this.calls.push(`unregisterTool:${name}`);
    return this.tools.delete(name);
  }
  getHostToolSchemas(): PageToolSchema[] {
    return [...this.tools.entries()].map(([name, def]) => ({
      name,
      description: typeof def.description === 'string' ? def.description : '',
      parameters: { type: 'object' },
      confirm: false,
      cost: 0,
      tier3: false,
    }));
  }
  async callTool(name: string, args?: unknown): Promise<SanitizedResult> {
    this.calls.push(`callTool:${name}`);
    return { success: true, name, args };
  }
  setContext(value: unknown): void {
    this.calls.push('setContext');
    this.context = value;
  }
}

/** Clicks the centre of an element with a real (trusted) mouse event. */
export async function realClick(el: Element): Promise<void> {
  const { sendMouse } = await import('@web/test-runner-commands');
  // Instantly: a smooth scroll would move the target under a click aimed at where it was. Measure
  // once layout has settled (a panel opening, focus moving or a viewport listener may still shift
  // it), and scroll again while the target's centre is still outside the viewport.
  let x = 0;
  let y = 0;
  for (let attempt = 0; attempt < 5; attempt++) {
    el.scrollIntoView({ block: 'center', behavior: 'instant' });
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const r = el.getBoundingClientRect();
    x = Math.round(r.left + r.width / 2);
    y = Math.round(r.top + r.height / 2);
    if (x >= 0 && y >= 0 && x < window.innerWidth && y < window.innerHeight) break;
  }
  await sendMouse({ type: 'click', position: [x, y] });
}

/** The element focused now, looking through shadow roots. */
export function deepActiveElement(): Element | null {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}
