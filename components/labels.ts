/**
 * The one localisation point: every string the elements show comes from a `WaveLabels` set,
 * and every fact the core reports (tool parts, notices) is worded here. The core writes no
 * sentence a visitor reads; only the page's own text (`title`, `confirmLabel`,
 * `runningLabel`, `summary`, a handler's error) passes through as written.
 */
import { ChipStatus, NoticeKind, type NoticeFact, type ToolPart } from '../src/agent/types.js';
import { readableToolName } from '../src/tools/tool-title.js';
import { ToolFailure } from '../src/tools/types.js';
import { launcherLabels, type LauncherLabels } from './launcher-labels.js';

/** Values a label with placeholders receives. */
export type LabelValues = Readonly<Record<string, string | number>>;

/**
 * A label with values: a template whose `{key}` placeholders are filled, or a function
 * (for grammar a template cannot express, e.g. plurals).
 *
 * @example
 * const stepLimit: LabelTemplate = ({ steps }) => `Arrêté après ${steps} étape${Number(steps) > 1 ? 's' : ''}.`;
 */
export type LabelTemplate = string | ((values: LabelValues) => string);

/** Every string the elements show, for localisation. */
export interface WaveLabels extends LauncherLabels {
  // ── Panel ───────────────────────────────────────────────────────────────────
  title: string;
  close: string;
  restart: string;
  offlineModel: string;
  transcript: string;
  composerPlaceholder: string;
  composerLabel: string;
  send: string;
  stop: string;
  voiceStart: string;
  voiceEnd: string;
  retry: string;
  voiceBubble: string;
  voiceListening: string;
  /** A blocked image in assistant Markdown: `{label}` is its alt text. */
  imageBlocked: LabelTemplate;

  // ── Tool chips: `{action}` is the title with its key argument ──────────────
  /** A title with its key argument: `{title}`, `{subject}`. */
  action: LabelTemplate;
  /** Asked for, not yet checked or started: `{action}`, `{title}`, `{name}`. */
  requested: LabelTemplate;
  /** Running, without the page's runningLabel: `{action}`, `{title}`, `{subject}`, `{attempt}`. */
  running: LabelTemplate;
  /** Done, without the page's summary: `{action}`. */
  done: LabelTemplate;
  /** The receipt of a paid action: `{label}` (the done text), `{spent}`, `{unit}`. */
  receipt: LabelTemplate;
  /** The handler failed with its own message: `{action}`, `{error}`. */
  failed: LabelTemplate;
  /** The handler failed without a message: `{action}`. */
  failedNoReason: LabelTemplate;
  /** The handler did not answer in time: `{action}`. */
  failedTimeout: LabelTemplate;
  /** The tool is not offered: `{action}`. */
  failedUnknownTool: LabelTemplate;
  /** The tool's cost could not be read, so it did not run: `{action}`. */
  failedUnavailable: LabelTemplate;
  /** A call running in another tab of the site (SPEC §13): `{action}`, `{tab}` (tabNamed or tabUntitled). */
  runningElsewhere: LabelTemplate;
  /** It waits there on the visitor's confirmation: `{action}`, `{tab}`. */
  waitingElsewhere: LabelTemplate;
  /** That tab closed or stopped answering before the call finished: `{action}`, `{tab}`. */
  failedTabGone: LabelTemplate;
  /** Another tab, by its page title: `{title}`. */
  tabNamed: LabelTemplate;
  /** Another tab without a title. */
  tabUntitled: string;
  /** Under a chip for a call the conversation in another tab asked for: `{tab}`. */
  fromTab: LabelTemplate;
  /** Cancelled by Stop, closing, restarting or ending voice (while waiting or running): `{action}`. */
  cancelled: LabelTemplate;
  /** The visitor said no to the confirmation (Cancel, Escape, a spoken no): `{action}`. */
  declined: LabelTemplate;
  /** The default question of a free confirmation: `{action}`. */
  confirmQuestion: LabelTemplate;
  /** The default question of a paid confirmation: `{action}`, `{cost}`, `{unit}`. */
  confirmCostQuestion: LabelTemplate;
  /** Under a page's own question on a paid confirmation: `{cost}`, `{unit}`. */
  costLine: LabelTemplate;
  /** The grant's cap re-ask: `{spent}`, `{cap}`, `{unit}`, `{label}` (the question). */
  grantReask: LabelTemplate;
  confirm: string;
  cancel: string;
  approveSession: string;
  /** Accessible name of a chip: `{title}`, `{name}`. */
  chipGroup: LabelTemplate;
  /** The header pill: `{spent}`, `{cap}`, `{unit}`. */
  pill: LabelTemplate;

  // ── Titles of the built-in tools ───────────────────────────────────────────
  toolLoadTools: string;
  toolReadPage: string;
  toolClickElement: string;
  toolFillField: string;
  toolSelectOption: string;
  toolScrollTo: string;
  toolNavigate: string;

  // ── Notices ─────────────────────────────────────────────────────────────────
  noticeBusy: string;
  noticeReplyTruncated: string;
  /** `{steps}`. */
  noticeStepLimit: LabelTemplate;
  noticeNotConnected: string;
  /** The model sent invalid arguments (it retries): `{action}`, `{title}`, `{name}`. */
  noticeInvalidRequest: LabelTemplate;
  /** The page's own `callTool` sent invalid arguments: `{action}`, `{title}`, `{name}`. */
  noticeInvalidPageRequest: LabelTemplate;
  /** The model asked for actions the page does not offer: `{tools}` (their names as words, joined), `{count}`. */
  noticeToolsUnavailable: LabelTemplate;
  errorNetwork: string;
  errorTimeout: string;
  errorUnreadableReply: string;
  errorInterrupted: string;
  errorNoEndpoint: string;
  errorRateLimited: string;
  errorTooLarge: string;
  errorNotAllowed: string;
  /** The server gave up on the model's invalid tool arguments. */
  errorInvalidToolArguments: string;
  /** Any other failed step (server or provider errors, a bug): `{code}`. */
  errorGeneric: LabelTemplate;
  voiceMicDenied: string;
  voiceNoMicrophone: string;
  /** Voice: sound cannot play (no audio output device). */
  voiceNoAudioOutput: string;
  /** Voice: the microphone or the connection did not respond in time. */
  voiceTimedOut: string;
  voiceUnsupported: string;
  voiceConnectionLost: string;
  voiceAudioCapture: string;
  voiceNetwork: string;
  voiceStartFailed: string;
  voiceError: string;

  // ── First run: the panel's own states (the launcher's are in launcher-labels.ts) ──
  /** Marker on a message waiting for the current answer to end. */
  queued: string;
  /** Marker on an answer the visitor stopped. */
  stopped: string;
  /** Composer notice for a message over the size limit: `{length}`, `{limit}` (characters). */
  messageTooLong: LabelTemplate;
  /** Empty state, before the list of what the page's tools do. */
  emptyTools: string;
  /** Empty state when the page registered no tools (the built-in page reading). */
  emptyBuiltin: string;
}

export const defaultLabels: WaveLabels = {
  ...launcherLabels,
  title: 'Assistant',
  close: 'Close',
  restart: 'New conversation',
  offlineModel: 'Offline demo model',
  transcript: 'Conversation',
  composerPlaceholder: 'Ask anything…',
  composerLabel: 'Message',
  send: 'Send',
  stop: 'Stop',
  voiceStart: 'Start voice',
  voiceEnd: 'End voice',
  retry: 'Retry',
  voiceBubble: 'Voice conversation',
  voiceListening: 'Listening…',
  imageBlocked: 'Image: {label}',

  action: '{title} “{subject}”',
  requested: 'Preparing {action}…',
  running: '{action}…',
  done: 'Done: {action}',
  receipt: '{label} · −{spent} {unit}',
  failed: '{action} failed: {error}',
  failedNoReason: '{action} failed.',
  failedTimeout: "{action} didn't answer in time. It may or may not have happened.",
  failedUnknownTool: '{action} is not available on this page.',
  failedUnavailable: '{action} is unavailable right now.',
  runningElsewhere: '{action}… (in {tab})',
  waitingElsewhere: 'Confirm {action} in {tab}.',
  failedTabGone: '{action} did not finish: {tab} closed or stopped answering.',
  tabNamed: 'the tab “{title}”',
  tabUntitled: 'another tab',
  fromTab: 'Asked from {tab}',
  cancelled: 'Cancelled: {action}',
  // SPEC §5: after the visitor's Cancel "the chip reads cancelled".
  declined: 'Cancelled: {action}',
  confirmQuestion: '{action}?',
  confirmCostQuestion: '{action} · {cost} {unit}?',
  costLine: 'Cost: {cost} {unit}',
  grantReask: "You've spent {spent} {unit} of {cap} under this approval. {label}",
  confirm: 'Confirm',
  cancel: 'Cancel',
  approveSession: 'Approve for this session',
  chipGroup: 'Action: {title}',
  pill: 'Spending approved · {spent} {unit} · tap to stop',

  toolLoadTools: 'Look for more actions',
  toolReadPage: 'Read the page',
  toolClickElement: 'Click on the page',
  toolFillField: 'Fill in a field',
  toolSelectOption: 'Choose an option',
  toolScrollTo: 'Scroll the page',
  toolNavigate: 'Open a page',

  noticeBusy: 'Wait for the current reply to finish, or stop it first.',
  noticeReplyTruncated: 'The reply was cut short because it reached its length limit.',
  noticeStepLimit: "Stopped after {steps} steps so the assistant doesn't run on. Retry to let it continue.",
  noticeNotConnected: 'The assistant is not connected yet, so this message was not sent.',
  noticeInvalidRequest: 'The assistant sent an invalid request to {action}; it will try again.',
  noticeInvalidPageRequest: 'The page sent an invalid request to {action}, so nothing was done.',
  noticeToolsUnavailable: "The assistant asked for something this page doesn't offer ({tools}), so nothing was done.",
  errorNetwork: "Can't reach the assistant. Check your connection.",
  errorTimeout: 'The assistant took too long to answer. Try again.',
  errorUnreadableReply: "The assistant sent a reply this page can't read.",
  errorInterrupted: 'The reply was interrupted before it finished. Try again.',
  errorNoEndpoint: 'This chat is not connected to an assistant server.',
  errorRateLimited: 'Too many messages in a short time. Wait a moment, then try again.',
  errorTooLarge: 'This message is too long to send. Shorten it and try again.',
  errorNotAllowed: "This site isn't allowed to use the assistant.",
  errorInvalidToolArguments: 'The assistant sent an invalid request. Try again.',
  errorGeneric: 'Something went wrong while talking to the assistant. Try again.',
  voiceMicDenied: 'Voice needs the microphone, and access to it was refused.',
  voiceNoMicrophone: 'Voice needs a microphone, and none was found.',
  voiceNoAudioOutput: 'Voice could not play sound: no audio output was found.',
  voiceTimedOut: 'Voice could not start: the microphone or the connection did not respond. Try again.',
  voiceUnsupported: "Voice isn't available in this browser.",
  voiceConnectionLost: 'The voice connection was lost.',
  voiceAudioCapture: 'Voice could not hear a microphone.',
  voiceNetwork: 'Voice stopped: the speech service could not be reached.',
  voiceStartFailed: 'Voice could not start.',
  voiceError: 'Voice stopped because of an error.',

  queued: 'Queued: sent when the answer ends',
  stopped: 'Stopped',
  messageTooLong:
    'This message is too long to send ({length} characters; the most is about {limit}). Shorten it or send it in parts.',
  emptyTools: 'On this page I can:',
  emptyBuiltin: 'I can read this page for you, answer questions about it, and help you find and use what is on it.',
};

/**
 * Fills a label: `{key}` placeholders in a template (unknown keys stay as written so a typo is
 * visible, not silent), or the result of a label function. A function that throws or returns
 * no string falls back to `fallback` (the English default), so a bad label never breaks a chip.
 *
 * @example
 * formatLabel('Cost: {cost} {unit}', { cost: 40, unit: 'cr' }); // "Cost: 40 cr"
 * formatLabel(({ cost }) => `${cost} crédits`, { cost: 40 });    // "40 crédits"
 */
export function formatLabel(template: LabelTemplate, values: LabelValues, fallback?: LabelTemplate): string {
  if (typeof template === 'function') {
    try {
      const text: unknown = template(values);
      if (typeof text === 'string') return text;
    } catch {
      /* the default wording below */
    }
    return fallback !== undefined && fallback !== template ? formatLabel(fallback, values) : '';
  }
  return String(template).replace(/\{(\w+)\}/g, (whole, key: string) =>
    Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : whole,
  );
}

/**
 * Merges a partial override over the defaults. A key takes a string; a key with values also
 * takes a function. Anything else is ignored (the default stays).
 *
 * @example
 * resolveLabels({ send: 'Envoyer', done: ({ action }) => `Fait : ${action}` }).send; // "Envoyer"
 */
export function resolveLabels(partial: Partial<WaveLabels> | null | undefined): WaveLabels {
  const out: WaveLabels = { ...defaultLabels };
  if (!partial || typeof partial !== 'object') return out;
  const target = out as unknown as Record<string, LabelTemplate>;
  for (const key of Object.keys(defaultLabels) as (keyof WaveLabels)[]) {
    let v: unknown;
    try {
      v = partial[key];
    } catch {
      continue;
    }
    if (typeof v === 'string' || (typeof v === 'function' && TEMPLATE_KEYS.has(key))) target[key] = v as LabelTemplate;
  }
  return out;
}

/** Keys whose text carries values (and so may be functions). */
const TEMPLATE_KEYS: ReadonlySet<keyof WaveLabels> = new Set(
  (Object.keys(defaultLabels) as (keyof WaveLabels)[]).filter((k) => /\{\w+\}/.test(defaultLabels[k] as string)),
);

/** Fills `key` of `labels` with `values`, falling back to the English default. */
export function label(labels: WaveLabels, key: keyof WaveLabels, values: LabelValues = {}): string {
  return formatLabel(labels[key] ?? defaultLabels[key], values, defaultLabels[key]);
}

const BUILTIN_TITLES: Readonly<Record<string, keyof WaveLabels>> = {
  load_tools: 'toolLoadTools',
  read_page: 'toolReadPage',
  click_element: 'toolClickElement',
  fill_field: 'toolFillField',
  select_option: 'toolSelectOption',
  scroll_to: 'toolScrollTo',
  navigate: 'toolNavigate',
};

/** A tool's title in the page's words: its labels for our built-ins, else the part's title. */
export function toolPartTitle(labels: WaveLabels, part: Pick<ToolPart, 'name' | 'title' | 'builtin'>): string {
  const key = part.builtin ? BUILTIN_TITLES[part.name] : undefined;
  if (key) return label(labels, key);
  return part.title || readableToolName(part.name);
}

/** The values a chip label receives: `{action}`, `{title}`, `{subject}`, `{name}`. */
export function actionValues(labels: WaveLabels, part: Pick<ToolPart, 'name' | 'title' | 'builtin' | 'subject'>): Record<string, string> {
  const title = toolPartTitle(labels, part);
  const subject = part.subject ?? '';
  const action = subject ? label(labels, 'action', { title, subject, name: part.name }) : title;
  return { action, title, subject, name: part.name };
}

/** The receipt text of a finished chip (`Added scene · −40 cr`), or the bare label without spend. */
export function chipDoneText(labels: WaveLabels, text: string, spent: number | undefined, unit: string): string {
  return spent && spent > 0 ? label(labels, 'receipt', { label: text, spent, unit }) : text;
}

/**
 * The question a confirmation asks: the page's `confirmLabel`, or the default built from the
 * tool's title, its key argument and its cost ("Buy wave sticker pack · 30 cr?").
 */
export function confirmationQuestion(labels: WaveLabels, part: ToolPart, unit: string): string {
  const c = part.confirmation;
  const own = c?.label || part.label;
  const values = actionValues(labels, {
    name: c?.toolName ?? part.name,
    ...(c?.title ?? part.title ? { title: c?.title ?? part.title } : {}),
    ...(part.builtin ? { builtin: true } : {}),
    ...(c?.subject ?? part.subject ? { subject: c?.subject ?? part.subject } : {}),
  });
  const cost = c?.cost ?? part.cost ?? 0;
  const question = own || (cost > 0 ? label(labels, 'confirmCostQuestion', { ...values, cost, unit }) : label(labels, 'confirmQuestion', values));
  if (c && typeof c.grantRunningTotal === 'number') {
    return label(labels, 'grantReask', { spent: c.grantRunningTotal, cap: c.grantCap ?? 0, unit, label: question });
  }
  return question;
}

/**
 * The text a chip shows for its state (shared with the voice bubble's status line).
 *
 * @example
 * chipText({ kind: 'tool', id: 'c1', name: 'buy_mug', status: 'succeeded', spent: 30 }, defaultLabels, 'cr');
 * // "Done: Buy mug · −30 cr"
 */
export function chipText(part: ToolPart, labels: WaveLabels, unit: string): string {
  const values = actionValues(labels, part);
  // Sent to another tab (SPEC §13): where it runs, or that the visitor is asked there.
  if (part.elsewhere && (part.status === ChipStatus.requested || part.status === ChipStatus.running || part.status === ChipStatus.awaitingConfirmation)) {
    return label(labels, part.elsewhere.waiting ? 'waitingElsewhere' : 'runningElsewhere', { ...values, tab: tabText(labels, part) });
  }
  switch (part.status) {
    case ChipStatus.requested:
      return label(labels, 'requested', values);
    case ChipStatus.running:
      return part.label || label(labels, 'running', { ...values, attempt: part.attempts ?? 1 });
    case ChipStatus.succeeded:
      return chipDoneText(labels, part.label || label(labels, 'done', values), part.spent, unit);
    case ChipStatus.failed:
      return failureText(part, labels, values);
    case ChipStatus.cancelled:
      return label(labels, 'cancelled', values);
    case ChipStatus.declined:
      return label(labels, 'declined', values);
    case ChipStatus.awaitingConfirmation:
      return confirmationQuestion(labels, part, unit);
    default:
      return values.action ?? '';
  }
}

/** The other tab a call ran in, by its title. */
function tabText(labels: WaveLabels, part: ToolPart): string {
  return tabName(labels, part.elsewhere?.tab);
}

/** Another tab, by its title ("the tab “Shop”"), or "another tab". */
export function tabName(labels: WaveLabels, title: string | undefined): string {
  const t = title?.trim();
  return t ? label(labels, 'tabNamed', { title: t }) : labels.tabUntitled;
}

function failureText(part: ToolPart, labels: WaveLabels, values: Record<string, string>): string {
  switch (part.failure) {
    case ToolFailure.timeout:
      return label(labels, 'failedTimeout', values);
    case ToolFailure.unknownTool:
      return label(labels, 'failedUnknownTool', values);
    case ToolFailure.unreadableCost:
      return label(labels, 'failedUnavailable', values);
    case ToolFailure.tabGone:
      return label(labels, 'failedTabGone', { ...values, tab: tabText(labels, part) });
    case ToolFailure.invalidArguments:
      return label(labels, 'noticeInvalidRequest', values);
    default:
      // The handler's own message is the page's words (SPEC §4.5: a failure shows the error).
      return part.error ? label(labels, 'failed', { ...values, error: part.error }) : label(labels, 'failedNoReason', values);
  }
}

const STEP_ERRORS: Readonly<Record<string, keyof WaveLabels>> = {
  network: 'errorNetwork',
  timeout: 'errorTimeout',
  bad_stream: 'errorUnreadableReply',
  incomplete_stream: 'errorInterrupted',
  no_endpoint: 'errorNoEndpoint',
  rate_limited: 'errorRateLimited',
  payload_too_large: 'errorTooLarge',
  http_413: 'errorTooLarge',
  http_429: 'errorRateLimited',
  origin_not_allowed: 'errorNotAllowed',
  unknown_site: 'errorNotAllowed',
  invalid_tool_arguments: 'errorInvalidToolArguments',
};

const VOICE_FAILURES: Readonly<Record<string, keyof WaveLabels>> = {
  'mic-denied': 'voiceMicDenied',
  'no-microphone': 'voiceNoMicrophone',
  'no-audio-output': 'voiceNoAudioOutput',
  'timed-out': 'voiceTimedOut',
  unsupported: 'voiceUnsupported',
  'connection-lost': 'voiceConnectionLost',
  'audio-capture': 'voiceAudioCapture',
  network: 'voiceNetwork',
  'start-failed': 'voiceStartFailed',
};

/**
 * A notice's sentence, from the labels only: the core's facts carry codes and data, and any
 * English message they hold (for developers) is never shown.
 *
 * @example
 * noticeText({ kind: 'step-limit', steps: 8 }, defaultLabels); // "Stopped after 8 steps so …"
 */
export function noticeText(notice: NoticeFact | undefined, labels: WaveLabels): string {
  switch (notice?.kind) {
    case NoticeKind.busy:
      return label(labels, 'noticeBusy');
    case NoticeKind.replyTruncated:
      return label(labels, 'noticeReplyTruncated');
    case NoticeKind.stepLimit:
      return label(labels, 'noticeStepLimit', { steps: notice.steps });
    case NoticeKind.notConnected:
      return label(labels, 'noticeNotConnected');
    case NoticeKind.invalidArguments: {
      const values = actionValues(labels, { name: notice.name, title: notice.title });
      return label(labels, notice.source === 'page' ? 'noticeInvalidPageRequest' : 'noticeInvalidRequest', values);
    }
    case NoticeKind.toolsUnavailable: {
      const tools = notice.tools.map((name) => toolPartTitle(labels, { name })).join(', ');
      return label(labels, 'noticeToolsUnavailable', { tools, count: notice.tools.length });
    }
    case NoticeKind.stepFailed:
      return label(labels, STEP_ERRORS[notice.code] ?? 'errorGeneric', { code: notice.code });
    case NoticeKind.voiceFailed:
      return label(labels, VOICE_FAILURES[notice.reason] ?? 'voiceError');
    default:
      return label(labels, 'errorGeneric', { code: 'unknown' });
  }
}
