/**
 * The words of the launcher and of what stands in for the panel before its code has arrived:
 * the part of `WaveLabels` the widget's first chunk carries (labels.ts holds the rest).
 */
export interface LauncherLabels {
  launcherOpen: string;
  launcherClose: string;
  /** Launcher name while a confirmation waits behind the closed panel (`confirm-opens="false"`). */
  launcherPending: string;
  /** Announced (ARIA live) when a confirmation waits behind the closed panel. */
  confirmationWaiting: string;
  /** Shown in the panel when its code could not load (the network failed). */
  panelLoadFailed: string;
  /** The button that loads the panel again. */
  panelRetry: string;
}

export const launcherLabels: LauncherLabels = {
  launcherOpen: 'Open assistant',
  launcherClose: 'Close assistant',
  launcherPending: 'Open assistant: a confirmation is waiting',
  confirmationWaiting: 'The assistant is waiting for your confirmation. Open it to answer.',
  panelLoadFailed: 'The assistant could not load. Check the connection and try again.',
  panelRetry: 'Try again',
};

/**
 * One launcher label: the page's override when it is a string, else the English default.
 *
 * @example
 * launcherLabel({ launcherOpen: 'Ouvrir' }, 'launcherOpen'); // 'Ouvrir'
 */
export function launcherLabel(labels: unknown, key: keyof LauncherLabels): string {
  try {
    const value = (labels as Partial<LauncherLabels> | null)?.[key];
    if (typeof value === 'string') return value;
  } catch {
    /* a hostile labels object: the default */
  }
  return launcherLabels[key];
}
