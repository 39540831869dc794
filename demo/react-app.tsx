// The React demo: a packing list whose tools and page state come from hooks. Built by
// `npm run build` into /dist/demo/react.js (React's production build, bundled with the widget).
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { WaveChat, useWaveContext, useWaveTool } from '../react/index.js';

interface Item {
  id: string;
  title: string;
  packed: boolean;
}

let nextId = 3;

// The arguments of each tool's latest call, so a confirmLabel getter can name its target.
const requested: Record<string, Record<string, unknown> | undefined> = {};
document.addEventListener('wave-tool-call-requested', (event) => {
  requested[event.detail.name] = event.detail.args as Record<string, unknown>;
});

function PackingList() {
  const [items, setItems] = useState<Item[]>([
    { id: 'i1', title: 'Passport', packed: false },
    { id: 'i2', title: 'Charger', packed: true },
  ]);

  // The page state the assistant reads; follows every render.
  useWaveContext({ list: 'Trip', items });

  // The handlers close over this render's `items`: the widget always calls the latest ones.
  useWaveTool('add_item', {
    description: 'Add an item to the packing list.',
    parameters: { type: 'object', properties: { title: { type: 'string', minLength: 1 } }, required: ['title'] },
    summary: (args: { title: string }) => `Added ${args.title}`,
    handler: ({ title }: { title: string }) => {
      const item = { id: `i${nextId++}`, title, packed: false };
      setItems([...items, item]);
      return { item };
    },
  });
  useWaveTool('pack_item', {
    description: 'Mark an item as packed.',
    parameters: { type: 'object', properties: { item_id: { type: 'string' } }, required: ['item_id'] },
    handler: ({ item_id }: { item_id: string }) => {
      if (!items.some((i) => i.id === item_id)) return { success: false, error: `No item ${item_id}` };
      setItems(items.map((i) => (i.id === item_id ? { ...i, packed: true } : i)));
      return { item_id, packed: true };
    },
  });
  useWaveTool('remove_item', {
    description: 'Remove an item from the packing list.',
    parameters: { type: 'object', properties: { item_id: { type: 'string' } }, required: ['item_id'] },
    confirm: true,
    // Read when the chip is shown: name the item this call would remove.
    get confirmLabel() {
      const item = items.find((i) => i.id === requested['remove_item']?.['item_id']);
      return item ? `Remove “${item.title}” from the list?` : 'Remove this item from the list?';
    },
    handler: ({ item_id }: { item_id: string }) => {
      if (!items.some((i) => i.id === item_id)) return { success: false, error: `No item ${item_id}` };
      setItems(items.filter((i) => i.id !== item_id));
      return { removed: item_id };
    },
  });

  return (
    <ul id="items" aria-live="polite">
      {items.map((item) => (
        <li key={item.id} data-id={item.id}>
          <label>
            <input
              type="checkbox"
              checked={item.packed}
              onChange={(e) => setItems(items.map((i) => (i.id === item.id ? { ...i, packed: e.target.checked } : i)))}
            />{' '}
            {item.title}
          </label>
        </li>
      ))}
    </ul>
  );
}

function App() {
  const [log, setLog] = useState<string[]>([]);
  return (
    <WaveChat
      siteId="demo"
      endpoint="/wave"
      open
      onToolSucceeded={(e) => setLog((l) => [`${e.detail.outcome.name}: ${e.detail.outcome.label}`, ...l].slice(0, 8))}
    >
      <h2>Packing list</h2>
      <PackingList />
      <h2>Tool calls</h2>
      <pre id="log">{log.join('\n')}</pre>
    </WaveChat>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
