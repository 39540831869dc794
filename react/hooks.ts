/**
 * Hooks that hand a component's tools and state to the widget for as long as the component is
 * mounted (SPEC §13). They find the element through `<WaveChat>`'s context, or an element (or a
 * ref to one) passed explicitly.
 */
import * as React from 'react';
import type { WaveChat as WaveChatElement } from '../components/wave-chat.js';
import type { ToolRegistry } from '../src/tools/registry.js';
import type { HandlerContext, ToolDefinition } from '../src/tools/types.js';
import { WaveChatContext } from './wave-chat.js';

/** Where a hook acts: the element, a ref to it, or (omitted) the nearest `<WaveChat>`. */
export type WaveChatTarget = WaveChatElement | null | React.RefObject<WaveChatElement | null>;

/** A tool definition with typed arguments (the registry still validates them against `parameters`). */
export interface WaveToolDefinition<Args = Record<string, unknown>> extends Omit<ToolDefinition, 'handler' | 'summary'> {
  handler: (args: Args, context: HandlerContext) => unknown;
  summary?: (args: Args, result: unknown) => unknown;
}

const useIsomorphicLayoutEffect = typeof document === 'undefined' ? React.useEffect : React.useLayoutEffect;
const NO_DEPS: React.DependencyList = [];

function resolve(target: WaveChatTarget | undefined, fromContext: WaveChatElement | null): WaveChatElement | null {
  if (target === undefined) return fromContext;
  if (target === null) return null;
  if ('current' in target && !(target instanceof HTMLElement)) return target.current ?? null;
  return target as WaveChatElement;
}

/** What a registration depends on besides `deps`: everything but the functions, as JSON. */
function signature(definition: WaveToolDefinition<never>): string {
  const plain: Record<string, unknown> = {};
  for (const key of ['description', 'parameters', 'confirm', 'tier3', 'timeoutMs', 'core', 'runningLabel'] as const) {
    try {
      plain[key] = definition[key];
    } catch {
      plain[key] = null;
    }
  }
  // cost and confirmLabel may be getters read at confirmation time: only plain values count here.
  for (const key of ['cost', 'confirmLabel'] as const) {
    const descriptor = Object.getOwnPropertyDescriptor(definition, key);
    plain[key] = descriptor && 'value' in descriptor ? descriptor.value : descriptor ? 'getter' : undefined;
  }
  try {
    return JSON.stringify(plain);
  } catch {
    return String(Math.random());
  }
}

/**
 * Registers a page tool with the widget while the calling component is mounted, and
 * unregisters it on unmount (StrictMode's mount–unmount–mount included). The handler may close
 * over fresh state: the widget always calls the latest render's `handler` and `summary`,
 * without re-registering. The tool is registered again when `name` or the element changes, when
 * a plain field (description, parameters, confirm, cost…) changes, or when a value in `deps`
 * does (as for `useEffect`).
 *
 * @example
 * function Board() {
 *   const [tasks, setTasks] = useState<Task[]>([]);
 *   useWaveTool('add_task', {
 *     description: 'Add a task to the board.',
 *     parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
 *     handler: ({ title }: { title: string }) => setTasks([...tasks, { title }]),
 *   });
 * }
 */
export function useWaveTool<Args = Record<string, unknown>>(
  name: string,
  definition: WaveToolDefinition<Args>,
  deps?: React.DependencyList,
  element?: WaveChatTarget,
): void {
  const fromContext = React.useContext(WaveChatContext);
  const latest = React.useRef(definition);
  useIsomorphicLayoutEffect(() => {
    latest.current = definition;
  });
  const depsToken = React.useMemo(() => ({}), deps ?? NO_DEPS); // eslint-disable-line react-hooks/exhaustive-deps
  const plain = signature(definition as WaveToolDefinition<never>);

  React.useEffect(() => {
    const target = resolve(element, fromContext);
    if (!target) return;
    const registered = registrationOf(latest.current as WaveToolDefinition<never>, latest as React.RefObject<WaveToolDefinition<never>>);
    const ok = target.registerTool(name, registered);
    return () => {
      if (!ok) return;
      // Another component may have registered the name since: only our own registration goes.
      const registry = (target.session as { registry?: ToolRegistry }).registry;
      if (!registry || registry.get(name)?.definition === registered) target.unregisterTool(name);
    };
  }, [fromContext, element, name, plain, depsToken]);
}

/** The registered definition: the plain fields as given (getters kept), functions through `latest`. */
function registrationOf(definition: WaveToolDefinition<never>, latest: React.RefObject<WaveToolDefinition<never>>): ToolDefinition {
  const registered: Record<string, unknown> = {};
  for (const key of Object.keys(definition)) {
    if (key === 'handler' || key === 'summary') continue;
    const descriptor = Object.getOwnPropertyDescriptor(definition, key);
    if (!descriptor) continue;
    // A getter keeps reading the latest definition's value (cost, confirmLabel read at confirmation time).
    if (descriptor.get) {
      Object.defineProperty(registered, key, {
        enumerable: true,
        get: () => (latest.current as unknown as Record<string, unknown>)[key],
      });
    } else registered[key] = descriptor.value;
  }
  registered.handler = (args: never, context: HandlerContext) => {
    const handler = latest.current.handler;
    if (typeof handler !== 'function') throw new Error('the tool has no handler');
    return handler(args, context);
  };
  if (typeof definition.summary === 'function') {
    registered.summary = (args: never, result: unknown) => latest.current.summary?.(args, result);
  }
  return registered as unknown as ToolDefinition;
}

/**
 * Sets the widget's page state while the calling component is mounted, and clears it on
 * unmount. A value equal (as JSON) to the last one is not set again.
 *
 * @example
 * useWaveContext({ board: 'Launch', tasks });
 */
export function useWaveContext(value: unknown, element?: WaveChatTarget): void {
  const fromContext = React.useContext(WaveChatContext);
  let key: unknown;
  try {
    key = typeof value === 'object' && value !== null ? JSON.stringify(value) : value;
  } catch {
    key = value;
  }
  React.useEffect(() => {
    const target = resolve(element, fromContext);
    if (!target) return;
    // The effect runs again only when the value's JSON changes, so this render's value is current.
    target.setContext(value);
    return () => target.setContext(null);
  }, [fromContext, element, key]);
}

/**
 * The `<wave-chat>` element of the nearest `<WaveChat>` (null until it mounted), for calling
 * its methods (`send`, `callTool`, `show`…).
 *
 * @example
 * const chat = useWaveChat();
 * <button onClick={() => chat?.show()}>Ask</button>
 */
export function useWaveChat(): WaveChatElement | null {
  return React.useContext(WaveChatContext);
}
