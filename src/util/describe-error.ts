/**
 * One readable sentence for anything a handler, a promise or a callback may throw: the words a
 * model (or a log) gets instead of "null", "undefined" or "[object Object]".
 */

/** Options for {@link describeError}. */
export interface DescribeErrorOptions {
  /**
   * What failed, for the sentences this writes itself: "<subject> failed without giving a
   * reason." and "<subject> failed: <preview>". Default "The action".
   */
  subject?: string;
  /** The whole sentence for a failure without a reason, when "<subject> failed…" does not fit. */
  fallback?: string;
  /** The most characters returned (an ellipsis marks a cut); default 500. */
  maxChars?: number;
}

const DEFAULT_MAX_CHARS = 500;
const PREVIEW_CHARS = 200;
const MAX_DEPTH = 4;

/**
 * A string as is, an Error's message, an object's `message` or `error` field or a short JSON
 * preview of it, and for null/undefined a sentence saying it failed without a reason.
 * Never throws, whatever it is given (throwing getters, proxies, cycles, BigInt, symbols).
 *
 * @example
 * describeError(new Error('Sold out'));      // 'Sold out'
 * describeError('No such order');            // 'No such order'
 * describeError({ error: 'Card declined' }); // 'Card declined'
 * describeError({ code: 42 });               // 'The action failed: {"code":42}'
 * describeError(null);                       // 'The action failed without giving a reason.'
 * describeError(undefined, { subject: 'The page context' }); // 'The page context failed without giving a reason.'
 */
export function describeError(error: unknown, options: DescribeErrorOptions = {}): string {
  const subject = options.subject ?? 'The action';
  const fallback = options.fallback ?? `${subject} failed without giving a reason.`;
  const max = Math.max(1, options.maxChars ?? DEFAULT_MAX_CHARS);
  let text: string | null;
  try {
    text = reasonOf(error, `${subject} failed: `);
  } catch {
    text = null;
  }
  if (text === null || text.trim() === '') return cap(fallback, max);
  return cap(text, max);
}

function reasonOf(value: unknown, prefix: string): string | null {
  switch (typeof value) {
    case 'string':
      return value.trim() === '' ? null : value;
    case 'undefined':
      return null;
    case 'number':
    case 'boolean':
    case 'bigint':
      return `${prefix}${String(value)}`;
    case 'symbol':
      return `${prefix}${String(value)}`;
    case 'function':
      return null;
    default:
      break;
  }
  if (value === null) return null;
  const record = value as Record<string, unknown>;
  if (isErrorLike(record)) {
    const message = record['message'];
    if (typeof message === 'string' && message.trim() !== '') return message;
    const name = record['name'];
    // An Error with no message still has a telling name (AbortError, TimeoutError…).
    return typeof name === 'string' && name !== '' && name !== 'Error' ? name : null;
  }
  for (const key of ['message', 'error'] as const) {
    const field = record[key];
    if (typeof field === 'string' && field.trim() !== '') return field;
    // `{ error: { message } }` is how many HTTP APIs report a failure.
    if (typeof field === 'object' && field !== null && !Array.isArray(field)) {
      const inner = innerReason(field as object);
      if (inner !== null) return inner;
    }
  }
  const preview = jsonPreview(value);
  return preview === null || preview === '{}' || preview === '[]' ? null : `${prefix}${preview}`;
}

/** Only the message-like fields of a nested object: a bare preview is left to the outer object. */
function innerReason(value: object): string | null {
  const record = value as Record<string, unknown>;
  for (const key of ['message', 'error'] as const) {
    const field = record[key];
    if (typeof field === 'string' && field.trim() !== '') return field;
  }
  return null;
}

function isErrorLike(value: object): boolean {
  // Errors from another realm (an iframe's handler) are not `instanceof Error`.
  return value instanceof Error || Object.prototype.toString.call(value) === '[object Error]';
}

/**
 * A bounded JSON rendering: stops reading once it has enough characters, so a huge or cyclic
 * object costs little. Values JSON cannot hold read as null, as JSON.stringify writes them.
 */
function jsonPreview(value: unknown): string | null {
  let budget = PREVIEW_CHARS;
  let cut = false;
  const seen = new Set<object>();
  const leaf = (text: string): string => {
    budget -= text.length;
    return text;
  };
  const walk = (node: unknown, depth: number): string => {
    if (typeof node === 'bigint') return leaf(String(node));
    if (typeof node !== 'object' || node === null) {
      return leaf(JSON.stringify(typeof node === 'string' ? node.slice(0, PREVIEW_CHARS) : node) ?? 'null');
    }
    const list = Array.isArray(node);
    if (seen.has(node) || depth > MAX_DEPTH) return leaf(list ? '[…]' : '{…}');
    seen.add(node);
    const parts: string[] = [];
    const keys = list ? node : Object.keys(node);
    for (let i = 0; i < keys.length; i++) {
      if (budget <= 0) {
        cut = true;
        break;
      }
      const key = list ? '' : (keys[i] as string);
      const item = list ? node[i] : (node as Record<string, unknown>)[key];
      if (!list && (item === undefined || typeof item === 'function' || typeof item === 'symbol')) continue;
      parts.push(list ? walk(item, depth + 1) : `${leaf(JSON.stringify(key))}:${walk(item, depth + 1)}`);
    }
    return list ? `[${parts.join(',')}]` : `{${parts.join(',')}}`;
  };
  try {
    const text = walk(value, 0);
    return cut || text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
  } catch {
    return null;
  }
}

function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  // Never leave half of a surrogate pair at the cut.
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut}…`;
}
