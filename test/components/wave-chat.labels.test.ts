/**
 * Localisation end to end: a whole conversation through the real session, loop and runner
 * (scripted model, fake clock), with a complete French label set. Every chip state, a grant
 * and its re-ask, notices, errors and the voice status line are rendered, and no English word
 * (from the English defaults or from the core's model-facing text) reaches the shadow DOM.
 */
import { expect, fixture, html, nextFrame } from '@open-wc/testing';
import { until as untilState } from '../helpers/until.js';
import '../../components/define.js';
import { defaultLabels, type WaveLabels } from '../../components/labels.js';
import { WaveChat } from '../../components/wave-chat.js';
import { WaveTranscript } from '../../components/wave-transcript.js';
import { ConversationLoop, STOPPED_RESULT } from '../../src/agent/conversation-loop.js';
import type { ToolPart } from '../../src/agent/types.js';
import { WaveSession } from '../../src/agent/wave-session.js';
import { MemoryStorage } from '../../src/storage.js';
import { RunnerText } from '../../src/tools/runner.js';
import type { WaveRequest, WaveStreamEvent } from '../../src/transport/protocol.js';
import { TransportError, type ModelTransport } from '../../src/transport/sse-client.js';
import { VoiceState, type VoiceEngine, type VoiceStartOptions } from '../../src/voice/types.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { realClick } from './fake-session.js';
import { frenchLabels } from './labels-fr.js';

type Step = () => AsyncIterable<WaveStreamEvent>;

/** A model that answers each request with the next scripted step. */
class ScriptedModel implements ModelTransport {
  readonly steps: Step[] = [];
  readonly requests: WaveRequest[] = [];
  step(request: WaveRequest): AsyncIterable<WaveStreamEvent> {
    this.requests.push(structuredClone(request));
    const next = this.steps.shift();
    if (!next) throw new Error('no scripted step left');
    return next();
  }
}

const reply =
  (...events: WaveStreamEvent[]): Step =>
  async function* () {
    yield* events;
  };
const failing =
  (error: Error): Step =>
  // eslint-disable-next-line require-yield
  async function* () {
    throw error;
  };
const call = (id: string, name: string, args: Record<string, unknown> = {}): WaveStreamEvent => ({ type: 'tool_call', id, name, arguments: args });
const text = (delta: string): WaveStreamEvent => ({ type: 'text', delta });
const end = (reason: 'stop' | 'tool_calls' | 'length' = 'stop'): WaveStreamEvent => ({ type: 'end', reason });

class FakeEngine implements VoiceEngine {
  readonly kind = 'browser' as const;
  state: VoiceState = VoiceState.idle;
  options: VoiceStartOptions | null = null;
  async start(options: VoiceStartOptions): Promise<void> {
    this.options = options;
    this.state = VoiceState.listening;
    options.onState(this.state);
  }
  stop(reason = 'stopped'): void {
    if (this.state === VoiceState.ended) return;
    this.state = VoiceState.ended;
    this.options?.onEnd(reason);
  }
  inputLevel = () => 0;
  outputLevel = () => 0;
}

const ATTRIBUTES = ['aria-label', 'title', 'placeholder', 'alt'];

/** Words spelled the same in both languages (fixed here, so an English label slipped into the French set is caught). */
const SAME_IN_FRENCH = ['assistant', 'conversation', 'message', 'messages', 'image', 'page', 'moment', 'session', 'chat', 'long', 'site', 'service'];

/** Every string a visitor can see or hear: text nodes and accessible attributes, through shadow roots. */
function visibleText(node: Node, out: string[] = []): string[] {
  if (node.nodeType === Node.TEXT_NODE) {
    const parent = node.parentElement?.localName;
    if (parent !== 'style' && parent !== 'script') out.push(node.textContent ?? '');
    return out;
  }
  if (node instanceof Element) {
    for (const name of ATTRIBUTES) {
      const value = node.getAttribute(name);
      if (value) out.push(value);
    }
    if (node.shadowRoot) visibleText(node.shadowRoot, out);
  }
  for (const child of node.childNodes) visibleText(child, out);
  return out;
}

function words(textValue: string): string[] {
  return (textValue.toLowerCase().match(/\p{L}{3,}/gu) ?? []).filter((w) => !/^\{/.test(w));
}

function templateWords(labels: WaveLabels): string[] {
  return Object.values(labels).flatMap((v) => (typeof v === 'string' ? words(v.replace(/\{\w+\}/g, ' ')) : []));
}

/** English the visitor must never read: every default label, and every sentence the core writes for the model. */
function englishWords(extra: string[]): Set<string> {
  const core = [
    ...Object.values(RunnerText).map((v) => (typeof v === 'function' ? (v as (...a: unknown[]) => string)('x', ['y']) : v)),
    String(STOPPED_RESULT.error),
    // The core's former chip and notice sentences.
    'Running Done Allow Loading tools Loaded tools Invalid arguments Failed Cancelled',
    ...extra,
  ];
  return new Set([...templateWords(defaultLabels), ...core.flatMap(words)]);
}

describe('<wave-chat> with a complete French label set', () => {
  const originalSession = WaveChat.createSession;
  const originalEngine = WaveChat.createVoiceEngine;
  let clock: FakeClock;
  let model: ScriptedModel;
  let sessions: WaveSession[];

  beforeEach(() => {
    clock = new FakeClock();
    model = new ScriptedModel();
    sessions = [];
    WaveChat.createSession = (el) => {
      const session = new WaveSession({
        siteId: 'fr',
        costUnit: el.costUnit,
        storage: new MemoryStorage(),
        validatorEngine: 'interpreter',
        clock,
        warn: () => undefined,
        createLoop: (deps) => new ConversationLoop({ ...deps, transport: model, maxSteps: 3 }),
      });
      sessions.push(session);
      return session;
    };
  });
  afterEach(() => {
    WaveChat.createSession = originalSession;
    WaveChat.createVoiceEngine = originalEngine;
    for (const s of sessions) s.dispose();
  });

  it('the French set names every label key', () => {
    expect(Object.keys(frenchLabels).sort()).to.deep.equal(Object.keys(defaultLabels).sort());
  });

  it('a whole conversation (every chip state, grant, notices, errors, voice) shows no English word', async () => {
    const el = await fixture<WaveChat>(html`<wave-chat open voice-available site-id="fr" .labels=${frenchLabels}></wave-chat>`);
    await WaveTranscript.markdownReady();
    const session = sessions[0]!;
    const seen: Array<{ at: string; text: string }> = [];
    const transcript = () => el.shadowRoot!.querySelector('wave-transcript')!;
    const chipEl = (id: string) =>
      [...transcript().shadowRoot!.querySelectorAll('wave-tool-chip')].find((c) => (c as unknown as { item: ToolPart }).item?.id === id) ?? null;
    const bubbleChip = () => el.shadowRoot!.querySelector('wave-voice-bubble')?.shadowRoot?.querySelector('wave-tool-chip') ?? null;
    const button = (chip: Element | null, part: string) => chip!.shadowRoot!.querySelector<HTMLElement>(`[part~="${part}"]`)!;
    const part = (id: string) => session.state.items.find((i): i is ToolPart => i.kind === 'tool' && i.id === id);
    // Waits for a state (in tasks: the validator is a lazy chunk); with `tick`, the fake clock
    // moves 200 ms per turn meanwhile (retry delays and tool timeouts run on it).
    const until = async (check: () => unknown, what: string, tick = false) => {
      if (!tick) return void (await untilState(check, what));
      const start = Date.now();
      while (!check()) {
        if (Date.now() - start > 8_000) throw new Error(`never: ${what}`);
        await clock.tickAsync(200);
      }
    };
    const snap = async (at: string) => {
      for (let i = 0; i < 3; i++) {
        await el.updateComplete;
        await nextFrame();
      }
      seen.push({ at, text: visibleText(el).join('\n') });
    };
    const sawText = (needle: string) => seen.some((s) => s.text.includes(needle));

    let releaseNote: () => void = () => undefined;
    const titre = { type: 'object', properties: { titre: { type: 'string' } }, required: ['titre'], additionalProperties: false };
    el.registerTools({
      ajouter_tache: { title: 'Ajouter une tâche', description: 'Ajoute une tâche.', parameters: titre, handler: () => ({ ok: true }) },
      prendre_note: {
        title: 'Prendre une note',
        parameters: { type: 'object', properties: { texte: { type: 'string' } }, required: ['texte'] },
        handler: () => new Promise((resolve) => (releaseNote = () => resolve({ ok: true }))),
      },
      lire_panier: { title: 'Lire le panier', handler: () => ({ articles: 2 }), summary: () => 'Panier lu : 2 articles' },
      reserver_salle: { title: 'Réserver la salle', handler: () => ({ success: false, error: 'Salle déjà prise' }) },
      synchroniser: { title: 'Synchroniser', timeoutMs: 1000, handler: () => new Promise(() => undefined) },
      acheter_pack_autocollants: {
        title: 'Acheter un pack d’autocollants',
        cost: 30,
        parameters: { type: 'object', properties: { nom: { type: 'string' } }, required: ['nom'] },
        handler: () => ({ ok: true }),
      },
      supprimer_tache: { title: 'Supprimer la tâche', confirm: true, parameters: titre, handler: () => ({ ok: true }) },
      vider_panier: { title: 'Vider le panier', tier3: true, handler: () => ({ ok: true }) },
      commander_affiche: { title: 'Commander une affiche', cost: 120, handler: () => ({ ok: true }), summary: () => 'Affiche commandée' },
    });
    await snap('empty panel');

    // 1. A running chip, an invalid call (a notice), a message sent while busy, Markdown with a blocked image.
    model.steps.push(
      reply(
        { type: 'meta', model: 'offline', offline: true },
        text('Je m’en occupe.'),
        call('c1', 'ajouter_tache', { titre: 'Lait' }),
        call('c2', 'ajouter_tache', { titre: 5 }),
        call('c3', 'prendre_note', { texte: 'Acheter du pain' }),
        end('tool_calls'),
      ),
      reply(text('C’est fait. ![Reçu](https://ailleurs.example/recu.png)'), end()),
      // The answer to the message sent while busy (it waits in the queue until the first answer ends).
      reply(text('Oui.'), end()),
    );
    const first = el.send('Ajoute du lait et note le pain');
    await until(() => part('c3')?.status === 'running', 'running chip');
    const queued = el.send('Encore ?');
    await snap('running, invalid arguments, a queued message');
    releaseNote();
    await first;
    await queued;
    await snap('done');
    // The model got the validator's precise reason; the visitor read a plain sentence.
    const invalidResult = model.requests[1]!.messages.find((m) => m.role === 'tool' && m.toolCallId === 'c2');
    const validatorReason = invalidResult && 'content' in invalidResult ? invalidResult.content : '';
    expect(validatorReason).to.match(/Invalid arguments: .*titre/);

    // 2. A failing handler (after its retries), a timeout, a paid confirmation and its receipt.
    model.steps.push(
      reply(call('c4', 'reserver_salle'), call('c5', 'synchroniser'), call('c6', 'acheter_pack_autocollants', { nom: 'Océan' }), end('tool_calls')),
      reply(text('Voilà.'), end()),
    );
    const second = el.send('Réserve la salle puis achète le pack');
    await until(() => part('c6')?.status === 'awaiting-confirmation', 'paid confirmation', true);
    await snap('failed, timed out, paid confirmation');
    expect(button(chipEl('c6'), 'status').textContent!.trim()).to.equal('Acheter un pack d’autocollants « Océan » · 30 cr ?');
    await realClick(button(chipEl('c6'), 'confirm-button'));
    await second;
    await snap('receipt');
    expect(button(chipEl('c6'), 'status').textContent!.trim()).to.equal('Fait : Acheter un pack d’autocollants « Océan » · −30 cr');

    // 3. A cancelled confirmation naming its target, a tier3 confirmation, a reply cut at its length limit.
    model.steps.push(
      reply(call('c7', 'supprimer_tache', { titre: 'Brouillon' }), call('c8', 'vider_panier'), end('tool_calls')),
      reply(text('Je m’arrête là'), { type: 'notice', code: 'unknown_tools', tools: ['effacer_tout', 'delete_everything'] }, end('length')),
    );
    const third = el.send('Supprime le brouillon et vide le panier');
    await until(() => part('c7')?.status === 'awaiting-confirmation', 'confirmation');
    await snap('confirmation with its key argument');
    await realClick(button(chipEl('c7'), 'cancel-button'));
    await until(() => part('c8')?.status === 'awaiting-confirmation', 'tier3 confirmation');
    // The visitor's own no: the part is declined (a Stop or a close would have cancelled it).
    expect(part('c7')?.status).to.equal('declined');
    await snap('tier3 confirmation');
    expect(chipEl('c8')!.shadowRoot!.querySelector('[part~="approve-button"]')).to.equal(null);
    await realClick(button(chipEl('c8'), 'confirm-button'));
    await third;
    await snap('cancelled, tier3 done, truncated');

    // 4. Approve for this session, the pill, the cap re-ask.
    model.steps.push(reply(call('c9', 'commander_affiche'), call('c10', 'commander_affiche'), end('tool_calls')), reply(text('Deux affiches.'), end()));
    const fourth = el.send('Commande deux affiches');
    await until(() => part('c9')?.status === 'awaiting-confirmation', 'first poster');
    await realClick(button(chipEl('c9'), 'approve-button'));
    await until(() => part('c10')?.confirmation?.grantRunningTotal !== undefined, 'cap re-ask');
    await snap('grant re-ask and pill');
    await realClick(button(chipEl('c10'), 'confirm-button'));
    await fourth;
    await snap('pill after the raise');

    // 5. Errors: network (with Retry), rate limit, the server giving up on invalid arguments, any other failure.
    const serverMessages = ["Can't reach the assistant. Check your connection."];
    model.steps.push(failing(new TransportError({ code: 'network', message: serverMessages[0]!, retryable: true })));
    await el.send('Tu es là ?');
    await snap('network error');
    for (const [code, message] of [
      ['rate_limited', 'Too many requests for this site.'],
      ['invalid_tool_arguments', 'The model produced tool arguments that do not match the tool schema.'],
      ['provider_error', 'The model provider failed.'],
    ] as const) {
      serverMessages.push(message);
      model.steps.push(reply({ type: 'error', code, message, retryable: true }));
      await el.send('Et maintenant ?');
    }
    await snap('server errors');

    // 6. The step limit.
    for (const id of ['s1', 's2', 's3']) model.steps.push(reply(call(id, 'lire_panier'), end('tool_calls')));
    await el.send('Lis le panier');
    await snap('step limit');

    // 7. Voice: not available here (a notice), then on: status line, a confirmation in the bubble, a dropped connection.
    WaveChat.createVoiceEngine = () => null;
    await el.startVoice();
    await snap('voice unsupported');
    const engine = new FakeEngine();
    WaveChat.createVoiceEngine = () => engine;
    await el.startVoice();
    await snap('voice status line');
    const spoken = engine.options!.runTool({ id: 'v1', name: 'supprimer_tache', arguments: { titre: 'Courses' } }, new AbortController().signal);
    await until(() => bubbleChip(), 'voice confirmation');
    await snap('voice confirmation');
    await realClick(button(bubbleChip(), 'cancel-button'));
    await spoken;
    await snap('voice declined');
    // A confirmation still open when voice drops is cancelled by the system, not declined.
    const dropped = engine.options!.runTool({ id: 'v2', name: 'supprimer_tache', arguments: { titre: 'Archives' } }, new AbortController().signal);
    await until(() => part('v2')?.status === 'awaiting-confirmation', 'second voice confirmation');
    engine.options!.onEnd('connection-lost');
    await dropped;
    expect(part('v2')?.status).to.equal('cancelled');
    await snap('voice connection lost');
    el.restart();
    const listening = new FakeEngine();
    WaveChat.createVoiceEngine = () => listening;
    await el.startVoice();
    await snap('voice listening');
    el.endVoice();

    // Every state was reached, in French.
    const expected = [
      'Modèle de démonstration hors ligne',
      'En cours : Prendre une note « Acheter du pain »…',
      'L’assistant a envoyé une demande invalide à Ajouter une tâche ; il va réessayer.',
      frenchLabels.queued as string,
      'Fait : Ajouter une tâche « Lait »',
      'Image : Reçu',
      'Échec de Réserver la salle : Salle déjà prise',
      'Synchroniser n’a pas répondu à temps',
      'Supprimer la tâche « Brouillon » ?',
      'Refusé : Supprimer la tâche « Brouillon »',
      'Vider le panier ?',
      'Fait : Vider le panier',
      frenchLabels.noticeReplyTruncated as string,
      'L’assistant a demandé des opérations absentes de cette page (Effacer tout, Delete everything) ; rien n’a été fait.',
      'Vous avez dépensé 120 cr sur 200 avec cette autorisation. Commander une affiche · 120 cr ?',
      'Dépenses autorisées · 120 cr',
      'Dépenses autorisées · 240 cr',
      'Affiche commandée · −120 cr',
      frenchLabels.errorNetwork as string,
      frenchLabels.retry,
      frenchLabels.errorRateLimited as string,
      frenchLabels.errorInvalidToolArguments as string,
      frenchLabels.errorGeneric as string,
      'Panier lu : 2 articles',
      'Arrêté après 3 étapes',
      frenchLabels.voiceUnsupported as string,
      'Supprimer la tâche « Courses » ?',
      'Refusé : Supprimer la tâche « Courses »',
      'Annulé : Supprimer la tâche « Archives »',
      frenchLabels.voiceConnectionLost as string,
      frenchLabels.voiceListening,
      frenchLabels.voiceEnd,
    ];
    for (const needle of expected) expect(sawText(needle), `never shown: ${needle}`).to.equal(true);

    // The facts carried English for developers and the model (transport messages, the validator's reason): never shown.
    const english = englishWords([...serverMessages, validatorReason.replace(/[{}"\\:,]/g, ' ')]);
    for (const w of SAME_IN_FRENCH) english.delete(w);
    const leaks = seen.flatMap(({ at, text: t }) => words(t).filter((w) => english.has(w)).map((w) => `${w} (${at})`));
    expect([...new Set(leaks)]).to.deep.equal([]);
  });

  it('an invalid call to delete_task shows a plain sentence (underscores and all, never Markdown); the model gets the precise reason', async () => {
    const el = await fixture<WaveChat>(html`<wave-chat open site-id="en"></wave-chat>`);
    let runs = 0;
    el.registerTool('delete_task', {
      confirm: true,
      parameters: { type: 'object', properties: { task_id: { type: 'string', pattern: '^t_' } }, required: ['task_id'], additionalProperties: false },
      handler: () => ++runs,
    });
    model.steps.push(reply(call('c1', 'delete_task', { task_id: 'draft_launch_email' }), end('tool_calls')), reply(text('Sorry, let me check.'), end()));
    await el.send('delete the draft task');
    const transcript = el.shadowRoot!.querySelector('wave-transcript')!;
    await el.updateComplete;
    await (transcript as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    const notice = transcript.shadowRoot!.querySelector('[part~="notice"]')!;
    expect(notice.textContent!.trim()).to.equal('The assistant sent an invalid request to Delete task; it will try again.');
    expect(runs).to.equal(0);
    const sent = model.requests[1]!.messages.find((m) => m.role === 'tool' && m.toolCallId === 'c1');
    expect(sent && 'content' in sent ? sent.content : '').to.match(/Invalid arguments: .*task_id/);

    // A page that names the tool and its argument in its own label sees them exactly, underscores included.
    el.labels = { noticeInvalidRequest: '{name}: bad task_id for {title}' };
    await el.updateComplete;
    await (transcript as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    const shown = transcript.shadowRoot!.querySelector('[part~="notice"]')!;
    expect(shown.textContent!.trim()).to.equal('delete_task: bad task_id for Delete task');
    expect(shown.querySelector('em, strong')).to.equal(null);
  });

  it('the English check is not vacuous: the same chips with the default labels are caught', async () => {
    const el = await fixture<WaveChat>(html`<wave-chat open site-id="en"></wave-chat>`);
    el.registerTool('vider_panier', { title: 'Vider le panier', tier3: true, handler: () => ({}) });
    const pending = el.callTool('vider_panier', {});
    const transcript = el.shadowRoot!.querySelector('wave-transcript')!;
    // The confirmation with its buttons, not the requested chip that comes before it.
    const confirmButton = () => transcript.shadowRoot!.querySelector('wave-tool-chip')?.shadowRoot?.querySelector('[part~="confirm-button"]');
    await untilState(confirmButton, 'the confirmation and its buttons');
    const english = englishWords([]);
    const found = words(visibleText(el).join(' ')).filter((w) => english.has(w));
    expect(found).to.include.members(['confirm', 'cancel']);
    el.hide();
    await pending;
  });
});
