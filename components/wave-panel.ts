/**
 * The chat panel's contents (header, voice bubble, transcript, composer) and the elements they
 * use: loaded when the visitor shows intent (pointer over, focus or press on the launcher),
 * `open` is set or a confirmation must be shown. `<wave-chat>` (first chunk) renders this
 * module's template inside its own panel section, so parts and styles stay where they were.
 */
import { html, nothing } from 'lit';
import { ConversationStatus, type SessionState, type TranscriptItem, type WaveSessionApi } from '../src/agent/types.js';
import { onScreenConfirmation } from '../src/agent/on-screen-confirmation.js';
import type { PageToolSchema, ToolDefinition } from '../src/tools/types.js';
import { readableToolName, toolTitle } from '../src/tools/tool-title.js';
import { icons } from './icons.js';
import { resolveLabels, type WaveLabels } from './labels.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from './wave-chat.js';
import { WaveComposer } from './wave-composer.js';
import { WaveHeaderPill } from './wave-header-pill.js';
import { chipText, WaveToolChip, type ToolItem } from './wave-tool-chip.js';
import { WaveTranscript, type Capability } from './wave-transcript.js';
import { WaveVoiceBubble } from './wave-voice-bubble.js';
// The panel runs on the conversation code (it loads beside it): the code both share lives there.
import './session-code.js';

for (const [name, ctor] of [
  ['wave-tool-chip', WaveToolChip],
  ['wave-header-pill', WaveHeaderPill],
  ['wave-transcript', WaveTranscript],
  ['wave-composer', WaveComposer],
  ['wave-voice-bubble', WaveVoiceBubble],
] as const) {
  if (!customElements.get(name)) customElements.define(name, ctor);
}

/** What the panel shows, from its `<wave-chat>`. */
export interface PanelView {
  labels: Partial<WaveLabels>;
  state: SessionState;
  session: WaveSessionApi;
  open: boolean;
  voice: boolean;
  voiceLevel: number;
  levelSource: (() => number) | null;
  voiceAvailable: boolean;
  costUnit: string;
  allowedImageOrigins: readonly string[];
  serverModel: { name: string; offline: boolean } | null;
  maxBodyBytes: number | null;
  /** The page's tool definitions, by name: titled with the same words as their chips. */
  toolDefs: ReadonlyMap<string, ToolDefinition>;
  restart: () => void;
  hide: () => void;
}

/**
 * What `GET <endpoint>?site=<id>` tells before the first message (the model label, the body
 * limit), or null (an older server, no network: the label comes with the first reply).
 */
export async function fetchServerInfo(
  endpoint: string,
  site: string,
  signal: AbortSignal,
): Promise<{ model: { name: string; offline: boolean } | null; maxBodyBytes: number | null } | null> {
  try {
    const url = new URL(endpoint, document.baseURI);
    url.searchParams.set('site', site);
    const res = await fetch(url, { method: 'GET', headers: { accept: 'application/json' }, signal });
    if (!res.ok) return null;
    const body = (await res.json()) as Record<string, unknown> | null;
    if (signal.aborted || !body || typeof body !== 'object') return null;
    const name = typeof body.model === 'string' ? body.model.slice(0, 200) : '';
    const max = body.maxBodyBytes;
    return {
      model: name ? { name, offline: body.offline === true } : null,
      maxBodyBytes: typeof max === 'number' && Number.isInteger(max) && max > 0 ? max : null,
    };
  } catch {
    return null;
  }
}

let lastLabels: { given: unknown; resolved: WaveLabels } | null = null;

/** The full label set for `given` (resolved once per labels object). */
export function panelLabels(given: Partial<WaveLabels>): WaveLabels {
  if (lastLabels?.given !== given) lastLabels = { given, resolved: resolveLabels(given) };
  return lastLabels.resolved;
}

/** The header, the voice bubble, the transcript and the composer. */
export function renderPanel(view: PanelView) {
  const l = panelLabels(view.labels);
  const state = view.state;
  const busy = state.status === ConversationStatus.streaming || state.status === ConversationStatus.runningTools;
  const lastTool = view.voice ? lastToolOf(state.items) : null;
  const model = state.model ?? view.serverModel ?? null;
  const earlier = state.earlier ?? [];
  const empty = state.items.length === 0 && earlier.length === 0;
  const maxBodyBytes = view.maxBodyBytes;
  return html`
    <header part="header">
      <span class="title" id="title">${l.title}</span>
      ${model
        ? model.offline
          ? html`<span class="badge" part="model-badge">${l.offlineModel}</span>`
          : html`<span class="model" part="model">${model.name}</span>`
        : nothing}
      <span class="spacer"></span>
      <wave-header-pill exportparts="pill" .grant=${state.grant} .session=${view.session} .labels=${l} .costUnit=${view.costUnit}></wave-header-pill>
      <button part="restart-button" class="icon" type="button" aria-label=${l.restart} title=${l.restart} @click=${view.restart}>
        ${icons.restart}
      </button>
      <button part="close-button" class="icon" type="button" aria-label=${l.close} title=${l.close} @click=${view.hide}>
        ${icons.close}
      </button>
    </header>
    ${view.voice
      ? html`<wave-voice-bubble
          exportparts="voice-bubble, waves, status, chip, confirm-button, cancel-button, approve-button"
          .level=${view.voiceLevel}
          .levelSource=${view.levelSource}
          .status=${lastTool ? chipText(lastTool, l, view.costUnit) : ''}
          .confirmation=${onScreenConfirmation(state.items, state.voice?.asking)}
          .session=${view.session}
          .labels=${l}
          .costUnit=${view.costUnit}
        ></wave-voice-bubble>`
      : nothing}
    <wave-transcript
      part="transcript"
      exportparts="log, message, user-message, assistant-message, notice, retry-button, chip, status, confirm-button, cancel-button, approve-button, empty-state, queued-message, stopped-marker"
      ?hidden=${view.voice}
      .items=${state.items}
      .history=${earlier}
      .session=${view.session}
      .labels=${l}
      .costUnit=${view.costUnit}
      .allowedImageOrigins=${view.allowedImageOrigins}
      .autoFocusConfirmations=${view.open && !view.voice}
      .shown=${view.open && !view.voice}
      .queue=${state.queue ?? []}
      .capabilities=${empty ? capabilities(view) : []}
    ></wave-transcript>
    <wave-composer
      exportparts="composer, input, send-button, stop-button, voice-button, composer-notice"
      ?hidden=${view.voice}
      .busy=${busy}
      .maxBytes=${maxBodyBytes ? Math.floor(maxBodyBytes / 2) : DEFAULT_MAX_MESSAGE_BYTES}
      .voiceAvailable=${view.voiceAvailable}
      .labels=${l}
    ></wave-composer>
  `;
}

function lastToolOf(items: readonly TranscriptItem[]): ToolItem | null {
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i];
    if (it?.kind === 'tool') return it;
  }
  return null;
}

/** The built-in page-reading tools: with only these, the empty state says what page reading does. */
const BUILTIN_TOOLS = new Set(['read_page', 'click_element', 'fill_field', 'select_option', 'scroll_to', 'navigate']);

/** What the assistant can do here, from the page's tools (readable names and descriptions). */
function capabilities(view: PanelView): Capability[] {
  let schemas: PageToolSchema[];
  try {
    schemas = view.session.getHostToolSchemas();
  } catch {
    return [];
  }
  const builtin = schemas.length > 0 && schemas.every((s) => BUILTIN_TOOLS.has(s.name));
  if (builtin) return [];
  return schemas
    .filter((s) => s.name !== 'load_tools')
    .slice(0, 8)
    .map((s) => ({
      title: titleOf(s.name, view.toolDefs.get(s.name)),
      description: firstSentence(typeof s.description === 'string' ? s.description : ''),
    }));
}

/** A tool's readable title; its name made readable when the definition cannot say (a hostile getter). */
function titleOf(name: string, definition: ToolDefinition | undefined): string {
  if (!definition) return readableToolName(name);
  try {
    return toolTitle(name, definition);
  } catch {
    return readableToolName(name);
  }
}

/** The first sentence of a description, at most 140 characters. */
function firstSentence(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  const m = /^.+?[.!?](?=\s|$)/.exec(t);
  const s = m ? m[0] : t;
  return s.length > 140 ? `${s.slice(0, 139)}…` : s;
}
