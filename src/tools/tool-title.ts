/**
 * What a chip names, as facts: a readable title for a tool and the one argument that says what
 * it acts on. The elements put them into words (components/labels.ts); the core writes none.
 */
import type { JsonSchema, ToolDefinition } from './types.js';

const MAX_TITLE_CHARS = 80;
const MAX_SUBJECT_CHARS = 80;
// Controls, bidi overrides and zero-width characters: they could make a chip read other than it is.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
// `id`, `task_id`, `taskId`, `ids`, `uuid`: an identifier names nothing a visitor can check.
const ID_LIKE = /(^|_)(id|ids|uuid|guid|key|ref)$|[a-z0-9](Id|Ids|ID|Uuid|Ref)$/;

/**
 * A tool name as words: `buy_wave_sticker_pack` → "Buy wave sticker pack".
 *
 * @example
 * readableToolName('delete_task'); // "Delete task"
 */
export function readableToolName(name: string): string {
  const words = String(name).replace(/[_\s]+/g, ' ').trim();
  if (words === '') return '';
  return clip(words.charAt(0).toUpperCase() + words.slice(1), MAX_TITLE_CHARS);
}

/**
 * The tool's title: the page's own `title` when it set one, else its name as words.
 *
 * @example
 * toolTitle('buy_mug', { title: 'Acheter la tasse', handler }); // "Acheter la tasse"
 */
export function toolTitle(name: string, definition: Pick<ToolDefinition, 'title'> | undefined): string {
  try {
    const raw: unknown = definition?.title;
    if (typeof raw === 'string') {
      const clean = plainLine(raw, MAX_TITLE_CHARS);
      if (clean !== '') return clean;
    }
  } catch {
    /* a throwing getter: the name reads well enough */
  }
  return readableToolName(name);
}

/**
 * The key argument of a call: the first required string argument that is not an identifier
 * (a name, a title, a URL), as one plain line; undefined when there is none. Ids are left to
 * the page's `confirmLabel`, which can resolve them to what they name.
 *
 * @example
 * keyArgument({ type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
 *   { title: 'Draft launch email' }); // "Draft launch email"
 */
export function keyArgument(parameters: JsonSchema | undefined, args: Readonly<Record<string, unknown>>): string | undefined {
  try {
    const required = parameters?.['required'];
    const properties = parameters?.['properties'];
    if (!Array.isArray(required) || typeof properties !== 'object' || properties === null) return undefined;
    for (const key of required) {
      if (typeof key !== 'string' || ID_LIKE.test(key)) continue;
      const schema = (properties as Record<string, unknown>)[key];
      if (!isStringSchema(schema)) continue;
      const value = Object.prototype.hasOwnProperty.call(args, key) ? args[key] : undefined;
      if (typeof value !== 'string') continue;
      const clean = plainLine(value, MAX_SUBJECT_CHARS);
      if (clean !== '') return clean;
    }
  } catch {
    /* an odd schema names nothing */
  }
  return undefined;
}

function isStringSchema(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const type = (schema as Record<string, unknown>)['type'];
  return type === 'string' || (Array.isArray(type) && type.includes('string'));
}

/** One visible line: invisible characters removed, whitespace collapsed, capped with an ellipsis. */
function plainLine(text: string, max: number): string {
  return clip(text.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim(), max);
}

function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}
