/** Built-in page-reading tools (SPEC §8): offered only when the page registered no tools. */
export { createPageTools, checkNavigationUrl } from './page-tools.js';
export type { BuiltinToolDefinition, PageToolsOptions } from './page-tools.js';
export { RefRegistry } from './ref-registry.js';
export { buildOutline, flattenOutline, paginate } from './outline.js';
export type { OutlineLine, OutlineNode, OutlineOptions } from './outline.js';
export { formatOutlineItem, parseOutline, parseOutlineLine } from './outline-format.js';
export type { OutlineItem, OutlineControl, OutlineEntry } from './outline-format.js';
export { Role, isWaveChatElement } from './dom.js';
export type { OwnUiTest } from './dom.js';
export { shortenText } from './text.js';
export { createLazyPageTools } from './lazy-page-tools.js';
export type { LazyPageTools } from './lazy-page-tools.js';
