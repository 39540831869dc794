/**
 * The realtime engine: a speech-to-speech session compatible with OpenAI's Realtime API over a
 * WebSocket, with credentials minted by the wave server (the browser never sees the provider key).
 */
import { systemClock } from '../clock.js';
import type { Clock } from '../clock.js';
import { neutralizeInstructions } from '../guard/neutralize.js';
import { neutralizeValue } from '../guard/structured.js';
import { guardResult } from '../guard/truncate.js';
import { LOAD_TOOLS_NAME } from '../tools/deferral.js';
import type { SanitizedResult, ToolCall } from '../tools/types.js';
import { PROTOCOL_VERSION } from '../transport/protocol.js';
import type { VoiceSessionRequest, VoiceSessionResponse } from '../transport/protocol.js';
import { createBrowserAudio } from './browser-audio.js';
import { REALTIME_SAMPLE_RATE } from './pcm.js';
import type { RealtimeAudio } from './browser-audio.js';
import { audioFailureReason, beginVoiceStart, VoiceAudioError, VoiceEndReason, VoiceStartTimeoutMs, VoiceState, withTimeout } from './types.js';
import type { VoiceEngine, VoiceQuestion, VoiceStartOptions } from './types.js';
import { voiceWaitResult, withVoiceWait } from './tool-wait.js';
import { toRealtimeTools } from './session-config.js';
import { describeError } from '../util/describe-error.js';

/** The part of the WebSocket API the engine uses (the browser's, or `ws` in Node). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}
export type WebSocketConstructorLike = new (url: string, protocols?: string | string[]) => WebSocketLike;

/** What the engine asks the wave server for (see {@link createVoiceSessionClient}). */
export interface VoiceSessionParams {
  tools: VoiceStartOptions['tools'];
  context: string | null;
  signal: AbortSignal;
}

export interface RealtimeEngineOptions {
  /** Mints the session through the wave server (`POST {endpoint}/voice/session`). */
  createSession(params: VoiceSessionParams): Promise<VoiceSessionResponse>;
  /** Default: the browser's global WebSocket. Node tests pass `ws`. */
  WebSocketImpl?: WebSocketConstructorLike;
  /** Default: microphone and speakers via {@link createBrowserAudio}; `null` runs without audio. */
  audio?: RealtimeAudio | null;
  clock?: Clock;
  /** Subprotocols carrying the ephemeral secret (browsers cannot set an Authorization header). */
  protocols?: (clientSecret: string) => string[];
}

const OPEN = 1;

type ServerEvent = { type: string; [key: string]: unknown };

interface PartialCall {
  callId: string;
  name: string;
  args: string;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Returns the `createSession` function for {@link createRealtimeEngine}, posting a
 * `VoiceSessionRequest` to the wave server.
 *
 * @example
 * const createSession = createVoiceSessionClient({ endpoint: 'https://example.com/wave', siteId: 'demo', conversationId });
 */
export function createVoiceSessionClient(options: {
  endpoint: string;
  siteId: string;
  conversationId: string;
  fetch?: typeof fetch;
}): (params: VoiceSessionParams) => Promise<VoiceSessionResponse> {
  return async ({ tools, context, signal }) => {
    const body: VoiceSessionRequest = { v: PROTOCOL_VERSION, siteId: options.siteId, conversationId: options.conversationId, tools, context };
    const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    const res = await doFetch(`${options.endpoint.replace(/\/+$/, '')}/voice/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
    if (!res.ok) {
      const detail = await res.text().catch(() => '');
      throw new Error(`voice session refused (${res.status})${detail ? `: ${detail.slice(0, 200)}` : ''}`);
    }
    return (await res.json()) as VoiceSessionResponse;
  };
}

// Input audio marks kept for speech timing: ~5 minutes of 100 ms chunks.
const MAX_AUDIO_MARKS = 3000;

/** Milliseconds of 24 kHz PCM16 audio in a base64 chunk, without decoding it. */
export function base64AudioMs(chunk: string): number {
  const padding = chunk.endsWith('==') ? 2 : chunk.endsWith('=') ? 1 : 0;
  const bytes = Math.max(0, Math.floor((chunk.length * 3) / 4) - padding);
  return (bytes / 2 / REALTIME_SAMPLE_RATE) * 1000;
}

/** The instructions of a response that asks one waiting confirmation aloud. */
function askInstructions(base: string, question: VoiceQuestion): string {
  const label = neutralizeInstructions(question.label).text.slice(0, 300);
  const cost = question.cost > 0 ? ` It costs ${question.cost} credits.` : '';
  const again =
    question.reason === 'again'
      ? ' The visitor used a blanket approval, which cannot answer this action: it needs its own yes or no.'
      : '';
  return `${base ? `${base}\n\n` : ''}A confirmation is waiting on screen for this action: "${label}".${cost}${again} Ask the visitor now, in one short sentence, whether to go ahead. Do not call any tool.`;
}

/** What a tool result may hold for the model in voice, as the server caps it in text (SPEC §10). */
export const VOICE_RESULT_MAX_CHARS = 8000;

/**
 * In voice the browser hands results to the provider itself, so it applies the server's result
 * guards here, in the same order: every string and key neutralised, then the text capped at the
 * site's `maxResultChars` (sent with the session).
 */
export function guardVoiceResult(result: SanitizedResult, maxChars: number = VOICE_RESULT_MAX_CHARS): string {
  return guardResult(result, maxChars);
}

/**
 * Creates the realtime voice engine. `start()` resolves once the socket is open and the opening
 * `session.update` frame is sent; it rejects (after `onEnd`) when the session cannot start.
 *
 * @example
 * const engine = createRealtimeEngine({ createSession: createVoiceSessionClient({ endpoint, siteId, conversationId }) });
 * await engine.start({ signal, tools, context, runTool, isConfirming, onState, onTranscript, onEnd });
 */
export function createRealtimeEngine(options: RealtimeEngineOptions): VoiceEngine {
  const clock = options.clock ?? systemClock;
  const protocols = options.protocols ?? ((secret: string) => ['realtime', `openai-insecure-api-key.${secret}`]);
  let state: VoiceState = VoiceState.idle;
  let start: VoiceStartOptions | null = null;
  let ws: WebSocketLike | null = null;
  let audio: RealtimeAudio | null = null;
  let ready = false;
  let responseActive = false;
  let outputsWaiting = false;
  const running = new Map<string, AbortController>();
  const handled = new Set<string>();
  const partial = new Map<string, PartialCall>();
  const assistantText = new Map<string, string>();
  let removeAbort: (() => void) | null = null;
  // The site's result cap, as the wave server sent it with the session.
  let resultCap = VOICE_RESULT_MAX_CHARS;
  // Speech timing (SPEC §9): which audio went out when, and when each input item's speech began.
  let sentMs = 0;
  const sentAt: Array<{ endMs: number; at: number }> = [];
  const speechStarts = new Map<string, number>();
  let pendingAsk: VoiceQuestion | null = null;
  let instructions = '';
  const now = () => start?.now?.() ?? clock.now();
  const recordSent = (chunk: string) => {
    sentMs += base64AudioMs(chunk);
    sentAt.push({ endMs: sentMs, at: now() });
    if (sentAt.length > MAX_AUDIO_MARKS) sentAt.splice(0, sentAt.length - MAX_AUDIO_MARKS);
  };
  /** The session-clock time at which input audio offset `offsetMs` was captured, or null if not sent yet. */
  const audioTime = (offsetMs: number): number | null => {
    for (const mark of sentAt) if (mark.endMs >= offsetMs) return mark.at - (mark.endMs - offsetMs);
    return null;
  };

  const setState = (next: VoiceState) => {
    if (state === next) return;
    state = next;
    start?.onState(next);
  };
  const isOver = () => state === VoiceState.ended || state === VoiceState.error;
  const send = (event: Record<string, unknown>) => {
    if (ws && ws.readyState === OPEN) ws.send(JSON.stringify(event));
  };

  const end = (reason: string, final: VoiceState = VoiceState.ended) => {
    if (isOver()) return;
    ready = false;
    for (const controller of running.values()) controller.abort(new Error(`voice ended: ${reason}`));
    running.clear();
    removeAbort?.();
    const socket = ws;
    ws = null;
    if (socket) {
      socket.onclose = null;
      socket.onmessage = null;
      socket.onerror = null;
      try {
        socket.close(1000, reason);
      } catch {
        // Closing a socket that never opened can throw in some implementations.
      }
    }
    audio?.close();
    setState(final);
    start?.onEnd(reason);
  };

  // One response at a time: marked active as soon as it is asked for, until response.done (or an error).
  let awaitingCreated = false;
  const createResponse = (event: Record<string, unknown>) => {
    responseActive = true;
    awaitingCreated = true;
    send(event);
  };

  const maybeCreateResponse = () => {
    if (running.size === 0 && !responseActive && outputsWaiting) {
      outputsWaiting = false;
      createResponse({ type: 'response.create' });
    }
  };

  /** Asks the waiting confirmation aloud once no response is under way (one response at a time). */
  const flushAsk = () => {
    if (!pendingAsk || !ready || responseActive) return;
    const question = pendingAsk;
    pendingAsk = null;
    createResponse({ type: 'response.create', response: { tool_choice: 'none', instructions: askInstructions(instructions, question) } });
  };

  const runCall = async (callId: string, name: string, args: string) => {
    if (!start || !callId || handled.has(callId) || isOver()) return;
    handled.add(callId);
    const opts = start;
    const confirming = opts.isConfirming(name);
    const controller = new AbortController();
    running.set(callId, controller);
    setState(VoiceState.thinking);
    const call: ToolCall = { id: callId, name, arguments: args };
    // The same waits as every engine (SPEC §9); past them the run is aborted and its chip cancelled.
    const waited = await withVoiceWait(
      clock,
      confirming,
      (signal) =>
        opts.runTool(call, signal).then(
          (outcome) => outcome.result,
          (error: unknown): SanitizedResult => ({ success: false, error: describeError(error) }),
        ),
      controller.signal,
    );
    const result: SanitizedResult = waited.timedOut ? voiceWaitResult(confirming) : waited.value;
    if (running.get(callId) !== controller || isOver()) return;
    running.delete(callId);
    if (name === LOAD_TOOLS_NAME && result['success'] !== false && opts.toolsAfterLoad) {
      // Deferral in voice: the loaded schemas join the session before the model answers (SPEC §7).
      // The browser sends this frame itself, so it applies the server's description guard here too.
      const tools = opts
        .toolsAfterLoad()
        .map((t) => ({ ...t, description: neutralizeInstructions(t.description).text, parameters: neutralizeValue(t.parameters).value }));
      send({ type: 'session.update', session: { type: 'realtime', tools: toRealtimeTools(tools) } });
    }
    send({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: callId, output: guardVoiceResult(result, resultCap) } });
    outputsWaiting = true;
    maybeCreateResponse();
  };

  const onSpeechStarted = (event: ServerEvent) => {
    // The API's own offset into the input audio, mapped to when that audio was captured here;
    // it includes the prefix padding, so it is never later than the speech. Without an offset
    // (or audio) the event's arrival is the nearest bound the engine has.
    const offset = event['audio_start_ms'];
    const mapped = typeof offset === 'number' && Number.isFinite(offset) ? audioTime(offset) : null;
    const at = Math.min(mapped ?? now(), now());
    speechStarts.set(str(event['item_id']), at);
    if (speechStarts.size > 64) speechStarts.delete(speechStarts.keys().next().value as string);
  };

  const onUserTranscript = (event: ServerEvent) => {
    const text = str(event['transcript']).trim();
    const itemId = str(event['item_id']);
    // Whatever order transcripts arrive in, an item's speech began when its speech_started said.
    const speechStartedAt = speechStarts.get(itemId) ?? null;
    speechStarts.delete(itemId);
    if (!text || !start) return;
    start.onTranscript({ role: 'user', text, final: true });
    // Only the input transcription reaches the consent hook: it is the visitor's own voice.
    // The response the server made for these words (if any); not one the answer itself asked for
    // (a blanket phrase a chip cannot take asks the question again with a response of its own).
    const replying = responseActive;
    if (start.onUserUtterance?.(text, { speechStartedAt }) === 'consumed') {
      if (itemId) send({ type: 'conversation.item.delete', item_id: itemId });
      if (replying) send({ type: 'response.cancel' });
      audio?.interrupt();
    }
  };

  const onAssistantText = (event: ServerEvent, final: boolean) => {
    if (!start) return;
    const key = `${str(event['item_id'])}:${String(event['content_index'] ?? 0)}`;
    if (final) {
      const text = str(event['transcript']) || str(event['text']) || assistantText.get(key) || '';
      assistantText.delete(key);
      if (text) start.onTranscript({ role: 'assistant', text, final: true });
      return;
    }
    const text = (assistantText.get(key) ?? '') + str(event['delta']);
    assistantText.set(key, text);
    start.onTranscript({ role: 'assistant', text, final: false });
  };

  const onFunctionCallItem = (item: unknown) => {
    if (!item || typeof item !== 'object') return;
    const record = item as Record<string, unknown>;
    if (record['type'] !== 'function_call') return;
    void runCall(str(record['call_id']), str(record['name']), str(record['arguments']));
  };

  const onServerEvent = (event: ServerEvent) => {
    switch (event.type) {
      case 'input_audio_buffer.speech_started':
        onSpeechStarted(event);
        audio?.interrupt();
        setState(VoiceState.listening);
        break;
      case 'input_audio_buffer.speech_stopped':
        setState(VoiceState.thinking);
        break;
      case 'conversation.item.input_audio_transcription.delta':
        if (start && str(event['delta'])) start.onTranscript({ role: 'user', text: str(event['delta']), final: false });
        break;
      case 'conversation.item.input_audio_transcription.completed':
        onUserTranscript(event);
        break;
      case 'error':
        // A refused response.create: no response is under way after all.
        if (awaitingCreated) {
          awaitingCreated = false;
          responseActive = false;
        }
        break;
      case 'response.created':
        awaitingCreated = false;
        responseActive = true;
        setState(VoiceState.thinking);
        break;
      case 'response.audio.delta':
      case 'response.output_audio.delta':
        if (audio) audio.play(str(event['delta']));
        setState(VoiceState.speaking);
        break;
      case 'response.audio_transcript.delta':
      case 'response.output_audio_transcript.delta':
      case 'response.text.delta':
      case 'response.output_text.delta':
        onAssistantText(event, false);
        break;
      case 'response.audio_transcript.done':
      case 'response.output_audio_transcript.done':
      case 'response.text.done':
      case 'response.output_text.done':
        onAssistantText(event, true);
        break;
      case 'response.output_item.added': {
        const item = event['item'] as Record<string, unknown> | undefined;
        if (item?.['type'] === 'function_call') {
          const id = str(item['id']) || str(item['call_id']);
          partial.set(id, { callId: str(item['call_id']), name: str(item['name']), args: '' });
        }
        break;
      }
      case 'response.function_call_arguments.delta': {
        const id = str(event['item_id']) || str(event['call_id']);
        const entry = partial.get(id) ?? { callId: str(event['call_id']), name: str(event['name']), args: '' };
        entry.args += str(event['delta']);
        partial.set(id, entry);
        break;
      }
      case 'response.function_call_arguments.done': {
        const id = str(event['item_id']) || str(event['call_id']);
        const entry = partial.get(id);
        partial.delete(id);
        const callId = str(event['call_id']) || entry?.callId || '';
        const name = str(event['name']) || entry?.name || '';
        const args = typeof event['arguments'] === 'string' ? event['arguments'] : (entry?.args ?? '');
        // Without a name (older servers omit it here) wait for output_item.done, which carries it.
        if (name) void runCall(callId, name, args);
        break;
      }
      case 'response.output_item.done':
        onFunctionCallItem(event['item']);
        break;
      case 'response.done': {
        responseActive = false;
        const response = event['response'] as Record<string, unknown> | undefined;
        const output = response?.['output'];
        if (Array.isArray(output)) output.forEach(onFunctionCallItem);
        if (running.size === 0 && state !== VoiceState.speaking) setState(VoiceState.listening);
        maybeCreateResponse();
        flushAsk();
        break;
      }
      default:
        break;
    }
  };

  return {
    kind: 'realtime',
    get state() {
      return state;
    },
    inputLevel: () => audio?.inputLevel() ?? 0,
    outputLevel: () => audio?.outputLevel() ?? 0,
    stop(reason: string = VoiceEndReason.stopped) {
      end(reason);
    },
    ask(question: VoiceQuestion | null) {
      // The first confirmation of a response is asked by the model as it calls the tool; one
      // that waited its turn, or must be asked again, gets a response of its own.
      pendingAsk = question && question.reason !== 'shown' ? question : null;
      // After the current event is handled: an answer that led here is deleted from the
      // conversation before the question is put again.
      queueMicrotask(flushAsk);
    },
    async start(startOptions: VoiceStartOptions): Promise<void> {
      if (state !== VoiceState.idle) throw new Error(`voice engine already ${state}`);
      start = startOptions;
      const { signal } = startOptions;
      removeAbort = beginVoiceStart(signal, () => end(VoiceEndReason.aborted), () => setState(VoiceState.connecting));
      audio = options.audio === undefined ? createBrowserAudio() : options.audio;
      try {
        // The microphone first: a refusal costs no minted credentials.
        await audio?.start({
          signal,
          onChunk: (chunk) => {
            if (!ready) return;
            send({ type: 'input_audio_buffer.append', audio: chunk });
            recordSent(chunk);
          },
          onPlaybackIdle: () => {
            if (state === VoiceState.speaking && !responseActive) setState(VoiceState.listening);
          },
        });
      } catch (error) {
        // Each cause ends with its own reason: refused, no microphone, no audio output, timed out, error.
        end(audioFailureReason(error), VoiceState.error);
        throw error;
      }
      let session: VoiceSessionResponse;
      try {
        // Minting and connecting may not hang "connecting" forever either.
        const timeout = () => new VoiceAudioError(VoiceEndReason.timedOut, 'the voice connection did not open in time');
        const deadline = clock.now() + VoiceStartTimeoutMs.connect;
        session = await withTimeout(clock, options.createSession({ tools: startOptions.tools, context: startOptions.context, signal }), VoiceStartTimeoutMs.connect, timeout);
        if (typeof session.maxResultChars === 'number' && session.maxResultChars >= 1) resultCap = Math.floor(session.maxResultChars);
        if (isOver()) throw signal.reason ?? new Error('voice ended');
        const opening = new Promise<void>((resolve, reject) => {
          const Impl = options.WebSocketImpl ?? (globalThis.WebSocket as unknown as WebSocketConstructorLike);
          const socket = new Impl(session.url, protocols(session.clientSecret));
          ws = socket;
          socket.onopen = () => resolve();
          socket.onerror = () => reject(new Error('voice connection failed'));
          socket.onclose = (e) => reject(new Error(`voice connection closed (${e.code})`));
        });
        await withTimeout(clock, opening, Math.max(0, deadline - clock.now()), timeout);
      } catch (error) {
        end(isOver() ? VoiceEndReason.aborted : error instanceof VoiceAudioError ? error.reason : VoiceEndReason.error, VoiceState.error);
        throw error;
      }
      if (isOver() || !ws) throw new Error('voice ended');
      const socket: WebSocketLike = ws;
      socket.onmessage = (e) => {
        if (typeof e.data !== 'string') return;
        let event: unknown;
        try {
          event = JSON.parse(e.data);
        } catch {
          return;
        }
        if (event && typeof event === 'object' && typeof (event as ServerEvent).type === 'string') onServerEvent(event as ServerEvent);
      };
      socket.onclose = () => end(VoiceEndReason.connectionLost);
      socket.onerror = () => undefined;
      // The one context frame; after it the tool set is fixed for the session (SPEC §9).
      send({ type: 'session.update', session: session.sessionConfig });
      const configured = (session.sessionConfig as { instructions?: unknown } | undefined)?.instructions;
      instructions = typeof configured === 'string' ? configured : '';
      ready = true;
      setState(VoiceState.listening);
    },
  };
}
