/**
 * The messages tabs of one site exchange over their BroadcastChannel (SPEC §13, several tabs).
 * Anything on the channel is untrusted: any same-origin document may post to it, so every
 * message is re-read here, field by field, with bounds, and anything else is dropped.
 */
import { ToolLimits, RESERVED_TOOL_NAMES, type PageToolSchema } from '../tools/types.js';

/** Protocol version: a tab of another build that speaks another version is ignored. */
export const TAB_PROTOCOL = 1;

/** Bounds on what one peer may announce or send. */
export const TabLimits = {
  /** Peers remembered at once; a flood of made-up tab ids beyond this is ignored. */
  maxPeers: 32,
  /** Calls from other tabs running here at once; more are declined. */
  maxIncoming: 8,
  maxTitleChars: 120,
  idPattern: /^[A-Za-z0-9_-]{1,64}$/,
  /** A call's arguments, serialized (JSON only: a model's arguments are JSON). */
  maxArgsChars: 64 * 1024,
} as const;

/** The channel the tabs of one kept conversation share (the store key names it). */
export function tabChannelName(storeKey: string): string {
  return `wave-chat:tabs:${storeKey}`;
}

/** How a call from another tab ended, as the caller's chip shows it (`declined`: the visitor said no there). */
export const RemoteEnding = { succeeded: 'succeeded', failed: 'failed', cancelled: 'cancelled', declined: 'declined' } as const;
export type RemoteEnding = (typeof RemoteEnding)[keyof typeof RemoteEnding];

interface Envelope {
  v: typeof TAB_PROTOCOL;
  site: string;
  from: string;
}

/** A tab's announcement: who it is, when the visitor last used it, and the tools it offers. */
export interface StateMessage extends Envelope {
  kind: 'state';
  title: string;
  /** When the visitor last focused, showed or used this tab (epoch ms). */
  activeAt: number;
  tools: PageToolSchema[];
  /** A tab that just joined: the others answer with their own state. */
  hello?: boolean;
}

/** The tab is leaving (closed, navigated away, frozen): its tools are gone. */
export interface ByeMessage extends Envelope {
  kind: 'bye';
}

/** A call routed to one tab. `deadline`: a tab that reads it later declines (the caller moved on). */
export interface CallMessage extends Envelope {
  kind: 'call';
  to: string;
  id: string;
  name: string;
  args: unknown;
  deadline: number;
}

/** Replies about one call, and the caller's stop. */
export interface CallReplyMessage extends Envelope {
  kind: 'accepted' | 'declined' | 'ping' | 'pong' | 'abort';
  to: string;
  id: string;
}

/** The call waits on the visitor's confirmation in that tab (`waiting`), or runs. */
export interface StatusMessage extends Envelope {
  kind: 'status';
  to: string;
  id: string;
  waiting: boolean;
}

/** How the call ended there, with what its model should receive. */
export interface ResultMessage extends Envelope {
  kind: 'result';
  to: string;
  id: string;
  ending: RemoteEnding;
  result: Record<string, unknown>;
  /** The readable title and the page's own words (summary, error), for the caller's chip. */
  title?: string;
  label?: string;
  spent?: number;
}

export type TabMessage = StateMessage | ByeMessage | CallMessage | CallReplyMessage | StatusMessage | ResultMessage;

const REPLIES = new Set(['accepted', 'declined', 'ping', 'pong', 'abort']);
const ENDINGS: ReadonlySet<string> = new Set(Object.values(RemoteEnding));

/**
 * Reads one channel message for `site`, or null for anything else (another site, another
 * version, a malformed or oversized field). Never throws.
 *
 * @example
 * parseTabMessage(event.data, 'demo'); // { kind: 'bye', v: 1, site: 'demo', from: 't1' } or null
 */
export function parseTabMessage(data: unknown, site: string): TabMessage | null {
  try {
    return parse(data, site);
  } catch {
    return null;
  }
}

function parse(data: unknown, site: string): TabMessage | null {
  if (!isRecord(data) || data.v !== TAB_PROTOCOL || data.site !== site) return null;
  const from = id(data.from);
  if (from === null) return null;
  const base = { v: TAB_PROTOCOL, site, from } as const;
  switch (data.kind) {
    case 'state': {
      const activeAt = data.activeAt;
      if (typeof activeAt !== 'number' || !Number.isFinite(activeAt) || !Array.isArray(data.tools)) return null;
      const tools: PageToolSchema[] = [];
      const seen = new Set<string>();
      for (const raw of data.tools.slice(0, ToolLimits.maxTools)) {
        const tool = toolSchema(raw);
        if (tool && !seen.has(tool.name)) {
          seen.add(tool.name);
          tools.push(tool);
        }
      }
      const title = typeof data.title === 'string' ? data.title.slice(0, TabLimits.maxTitleChars) : '';
      return { ...base, kind: 'state', title, activeAt, tools, ...(data.hello === true ? { hello: true } : {}) };
    }
    case 'bye':
      return { ...base, kind: 'bye' };
    case 'call': {
      const to = id(data.to);
      const callId = id(data.id);
      const name = data.name;
      const deadline = data.deadline;
      if (to === null || callId === null || typeof name !== 'string' || !ToolLimits.namePattern.test(name)) return null;
      if (typeof deadline !== 'number' || !Number.isFinite(deadline)) return null;
      const args = jsonArgs(data.args);
      if (args === undefined) return null;
      return { ...base, kind: 'call', to, id: callId, name, args, deadline };
    }
    case 'status': {
      const to = id(data.to);
      const callId = id(data.id);
      if (to === null || callId === null || typeof data.waiting !== 'boolean') return null;
      return { ...base, kind: 'status', to, id: callId, waiting: data.waiting };
    }
    case 'result': {
      const to = id(data.to);
      const callId = id(data.id);
      if (to === null || callId === null || typeof data.ending !== 'string' || !ENDINGS.has(data.ending) || !isRecord(data.result)) return null;
      const message: ResultMessage = { ...base, kind: 'result', to, id: callId, ending: data.ending as RemoteEnding, result: data.result };
      if (typeof data.title === 'string' && data.title.trim()) message.title = data.title.slice(0, 200);
      if (typeof data.label === 'string' && data.label.trim()) message.label = data.label.slice(0, 200);
      if (typeof data.spent === 'number' && Number.isFinite(data.spent) && data.spent > 0) message.spent = data.spent;
      return message;
    }
    default: {
      if (typeof data.kind !== 'string' || !REPLIES.has(data.kind)) return null;
      const to = id(data.to);
      const callId = id(data.id);
      if (to === null || callId === null) return null;
      return { ...base, kind: data.kind as CallReplyMessage['kind'], to, id: callId };
    }
  }
}

/** One announced tool, within the limits a page's own registration must meet. */
function toolSchema(raw: unknown): PageToolSchema | null {
  if (!isRecord(raw)) return null;
  const { name, description, parameters, confirm, cost, tier3 } = raw;
  if (typeof name !== 'string' || !ToolLimits.namePattern.test(name) || RESERVED_TOOL_NAMES.has(name)) return null;
  if (typeof description !== 'string' || description.length > ToolLimits.maxDescriptionChars) return null;
  if (!isRecord(parameters) || parameters.type !== 'object') return null;
  let json: string;
  try {
    json = JSON.stringify(parameters);
  } catch {
    return null;
  }
  if (typeof json !== 'string' || json.length > ToolLimits.maxParametersBytes) return null;
  if (typeof confirm !== 'boolean' || typeof tier3 !== 'boolean' || typeof cost !== 'number' || !Number.isFinite(cost) || cost < 0) return null;
  return { name, description, parameters: JSON.parse(json) as Record<string, unknown>, confirm, cost, tier3 };
}

/**
 * A call's arguments as plain JSON (a fresh copy), or undefined: anything structured cloning
 * carries that JSON does not (a Map, a Date, a typed array) or over the size limit is refused.
 */
function jsonArgs(value: unknown): unknown {
  if (value === undefined || value === null) return {};
  if (typeof value === 'string') return value.length <= TabLimits.maxArgsChars ? value : undefined;
  if (typeof value !== 'object' || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  let json: string | undefined;
  try {
    json = JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
      // The value before its toJSON (a Date has one): only plain objects, arrays and primitives pass.
      const original = key === '' ? value : this[key];
      if (typeof original === 'object' && original !== null && !Array.isArray(original) && Object.getPrototypeOf(original) !== Object.prototype) {
        throw new TypeError('not JSON');
      }
      return v;
    });
  } catch {
    return undefined;
  }
  if (typeof json !== 'string' || json.length > TabLimits.maxArgsChars) return undefined;
  return JSON.parse(json) as unknown;
}

function id(value: unknown): string | null {
  return typeof value === 'string' && TabLimits.idPattern.test(value) ? value : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
