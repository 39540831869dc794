/**
 * The page-tool limits (SPEC §3, §7) and the reserved names: what the registry's checks need in
 * the launcher's file, apart from the rest of types.ts (which comes with the conversation code).
 */

/** Limits of SPEC §3 and §7, one place. */
export const ToolLimits = {
  maxTools: 128,
  maxNameLength: 48,
  namePattern: /^[a-z0-9_]{1,48}$/,
  maxDescriptionChars: 2000,
  maxParametersBytes: 8 * 1024,
  deferralToolCount: 20,
  deferralSchemaBytes: 16 * 1024,
  defaultTimeoutMs: 30_000,
  retryDelaysMs: [0, 150, 400] as readonly number[],
  maxStringChars: 2000,
  maxResultChars: 4096,
  salvageProperties: 20,
} as const;

/** Built-in tool names a page may never register. */
export const RESERVED_TOOL_NAMES: ReadonlySet<string> = new Set([
  'load_tools',
  'read_page',
  'click_element',
  'fill_field',
  'select_option',
  'scroll_to',
  'navigate',
]);
