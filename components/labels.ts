/**
 * Every string the elements show, for localisation. Placeholders in braces (`{spent}`,
 * `{unit}`, `{cap}`, `{cost}`, `{label}`, `{name}`) are filled by `formatLabel`.
 */
export interface WaveLabels {
  title: string;
  launcherOpen: string;
  launcherClose: string;
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
  /** Chip while running without a runningLabel. */
  running: string;
  cancelled: string;
  confirm: string;
  cancel: string;
  approveSession: string;
  /** Accessible name of a chip group. */
  chipGroup: string;
  /** Cost line on a confirmation chip. */
  costLine: string;
  /** The grant's cap re-ask. */
  grantReask: string;
  /** Receipt suffix on a finished cost-bearing chip. */
  receipt: string;
  /** The header pill. */
  pill: string;
  voiceBubble: string;
  voiceListening: string;
  failedPrefix: string;
  imageBlocked: string;
}

export const defaultLabels: WaveLabels = {
  title: 'Assistant',
  launcherOpen: 'Open assistant',
  launcherClose: 'Close assistant',
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
  running: 'Running {name}…',
  cancelled: 'Cancelled',
  confirm: 'Confirm',
  cancel: 'Cancel',
  approveSession: 'Approve for this session',
  chipGroup: 'Action: {name}',
  costLine: 'Cost: {cost} {unit}',
  grantReask: "You've spent {spent} {unit} of {cap} under this approval. {label}",
  receipt: '{label} · −{spent} {unit}',
  pill: 'Spending approved · {spent} {unit} · tap to stop',
  voiceBubble: 'Voice conversation',
  voiceListening: 'Listening…',
  failedPrefix: 'Failed: ',
  imageBlocked: 'Image: {label}',
};

/**
 * Fills `{key}` placeholders; unknown keys stay as written so a typo is visible, not silent.
 *
 * @example
 * formatLabel('Cost: {cost} {unit}', { cost: 40, unit: 'cr' }); // "Cost: 40 cr"
 */
export function formatLabel(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : whole,
  );
}

/** Merges a partial override over the defaults, ignoring non-string values. */
export function resolveLabels(partial: Partial<WaveLabels> | null | undefined): WaveLabels {
  const out: WaveLabels = { ...defaultLabels };
  if (!partial) return out;
  for (const key of Object.keys(defaultLabels) as (keyof WaveLabels)[]) {
    const v = partial[key];
    if (typeof v === 'string') out[key] = v;
  }
  return out;
}

/** The receipt text of a finished chip (`Added scene · −40 cr`), or the bare label without spend. */
export function chipDoneText(labels: WaveLabels, label: string, spent: number | undefined, unit: string): string {
  return spent && spent > 0 ? formatLabel(labels.receipt, { label, spent, unit }) : label;
}
