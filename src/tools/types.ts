/**
 * Page-tool types shared by the registry, the runner, the conversation loop and the elements.
 * Everything that comes from the page or the model is `unknown` until checked.
 */

/** A JSON Schema object as the page declares it (root must be `type: "object"`). */
export type JsonSchema = { readonly [key: string]: unknown };

/** The second argument every handler receives. */
export interface HandlerContext {
  readonly callId: string;
  readonly conversationId: string;
  /** Aborts on timeout, when the visitor stops the reply, and when the chat closes. */
  readonly signal: AbortSignal;
}

/** What a page passes to `registerTool`. Shape unchecked until the registry accepts it. */
export interface ToolDefinition {
  description?: string;
  parameters?: JsonSchema;
  handler: (args: any, context: HandlerContext) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any -- the page's own handler signature
  confirm?: boolean;
  /** Credits spent by one run; any value > 0 forces confirmation. May be a getter. */
  cost?: number;
  /** Always asks, never covered by a session grant. */
  tier3?: boolean;
  /**
   * What the chips call this tool, in the page's language ("Buy the blue mug"). Default: the
   * name as words ("Buy blue mug" for `buy_blue_mug`).
   */
  title?: string;
  /** Question on the confirmation chip. May be a getter. */
  confirmLabel?: string;
  runningLabel?: string;
  summary?: (args: any, result: any) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any
  timeoutMs?: number;
  /** Kept in the active set first when the catalogue is deferred (SPEC §7). */
  core?: boolean;
}

/** A built-in tool (`read_page`, `click_element`…): a definition that may ask only for some arguments. */
export type BuiltinToolDefinition = ToolDefinition & {
  /** True when this particular call must be confirmed by the visitor (e.g. a submit click). */
  confirmIf?: (args: Record<string, unknown>) => boolean;
};

/** The handler-free view of one page tool, exactly as a request carries it (SPEC §3). */
export interface PageToolSchema {
  name: string;
  description: string;
  parameters: JsonSchema;
  confirm: boolean;
  cost: number;
  tier3: boolean;
}

/** @deprecated Renamed `PageToolSchema` ("host" means only a Lit controller's element now); kept for existing imports. */
export type HostToolSchema = PageToolSchema;

/** A tool call as the model (or `callTool`) asks for it. */
export interface ToolCall {
  id: string;
  name: string;
  /** Raw arguments: an object, or a JSON string from a model. Unchecked. */
  arguments: unknown;
}

/** Outcome kinds, the Lit `TaskStatus` pattern. */
export const ToolOutcomeStatus = {
  succeeded: 'succeeded',
  failed: 'failed',
  cancelled: 'cancelled',
  invalid: 'invalid',
  unknown: 'unknown',
} as const;
export type ToolOutcomeStatus = (typeof ToolOutcomeStatus)[keyof typeof ToolOutcomeStatus];

/** Why a call failed, as a fact the elements put into words (the model gets its own text in `result`). */
export const ToolFailure = {
  /** The handler threw or returned `success: false`; `error` holds its message. */
  handler: 'handler',
  /** The handler did not settle within `timeoutMs`. */
  timeout: 'timeout',
  /** The arguments were not JSON or failed the tool's schema; the handler never ran. */
  invalidArguments: 'invalid-arguments',
  /** No such tool is offered (unknown, or not loaded yet under deferral). */
  unknownTool: 'unknown-tool',
  /** The tool's `cost` could not be read, so it was not run (fail closed). */
  unreadableCost: 'unreadable-cost',
  /** The other tab running the call closed or stopped answering before it finished (SPEC §13). */
  tabGone: 'tab-gone',
} as const;
export type ToolFailure = (typeof ToolFailure)[keyof typeof ToolFailure];

/**
 * What one call ended with. `result` is the sanitized object the model receives
 * (always a plain JSON-safe object; `success` is always present).
 */
export interface ToolOutcome {
  callId: string;
  name: string;
  /** The tool's readable title (its `title`, or the name as words); the runner always sets it. */
  title?: string;
  status: ToolOutcomeStatus;
  result: SanitizedResult;
  /**
   * The page's or handler's own words for the ending: the `summary` of a success, the error
   * of a failure; '' when there are none (the elements word the rest from their labels).
   */
  label: string;
  /** Why it failed, when it did. */
  failure?: ToolFailure;
  /** Credits spent, when the tool has a cost and ran successfully. */
  spent?: number;
  /**
   * The visitor said no to the confirmation (Cancel, Escape, a spoken no): `status` is
   * `cancelled` and the tool part `declined`. Absent when Stop, closing, restarting or ending
   * voice cancelled the call.
   */
  declined?: boolean;
  attempts: number;
}

/** What the runner reports as a call goes (SPEC §11; the session re-emits them as core events). */
export type ToolRunEvent =
  | { type: 'tool-call-requested'; callId: string; name: string; args: unknown }
  | { type: 'tool-call-started'; callId: string; name: string; attempt: number }
  | { type: 'tool-call-succeeded'; outcome: ToolOutcome }
  | { type: 'tool-call-failed'; outcome: ToolOutcome }
  | { type: 'tool-call-cancelled'; outcome: ToolOutcome };

/**
 * What the model receives for a call: a JSON-safe plain object. Normally it carries a boolean
 * `success`; the oversize form is exactly `{ note, preview, truncated: true }` (SPEC §4.6).
 */
export type SanitizedResult = { [key: string]: unknown };

export { RESERVED_TOOL_NAMES, ToolLimits } from './limits.js';
