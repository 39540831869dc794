// Runs in headless Chromium (bundled by browser-bench.ts): figures for registration, deferral,
// sanitization and validation. Printed by core.bench.ts; never asserted.
import { ToolDeferral } from '../../src/tools/deferral.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { sanitizeResult } from '../../src/tools/sanitize.js';
import type { ToolDefinition } from '../../src/tools/types.js';
import { ArgumentValidator } from '../../src/tools/validator.js';

const RUNS = 20;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

/** A realistic tool: a few typed properties, an enum, a nested array. */
function definition(i: number): ToolDefinition {
  return {
    description: `Update item ${i} on the board. Sets its status, title and tags; returns the new state.`,
    parameters: {
      type: 'object',
      properties: {
        item_id: { type: 'string', description: `Item id from the page state (tool ${i})`, pattern: '^i\\d+$' },
        status: { type: 'string', enum: ['todo', 'doing', 'done'] },
        title: { type: 'string', minLength: 1, maxLength: 200 },
        quantity: { type: 'integer', minimum: 1, maximum: 99 },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 10 },
      },
      required: ['item_id'],
      additionalProperties: false,
    },
    handler: () => ({ success: true }),
    summary: () => 'Updated',
    cost: i % 10 === 0 ? 5 : 0,
  };
}

/** ~1 MB of typical page data: rows of strings and numbers. */
function megabyteResult(): unknown {
  const rows = Array.from({ length: 3500 }, (_, i) => ({
    id: `row_${i}`,
    title: `Row ${i} — ${'lorem ipsum dolor sit amet '.repeat(6)}`,
    price: i * 1.25,
    tags: ['alpha', 'beta', 'gamma'],
    updated: new Date(1_700_000_000_000 + i * 1000),
  }));
  return { rows, total: rows.length };
}

export default async function run(): Promise<Record<string, number | string>> {
  const definitions = Array.from({ length: 128 }, (_, i) => [`tool_${i}`, definition(i)] as const);

  const register: number[] = [];
  let registry = new ToolRegistry();
  for (let r = 0; r < RUNS; r++) {
    registry = new ToolRegistry({ warn: () => {} });
    const start = performance.now();
    for (const [name, def] of definitions) registry.register(name, def);
    register.push(performance.now() - start);
  }
  if (registry.size !== 128) throw new Error(`registered ${registry.size} of 128`);

  const schemas: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const start = performance.now();
    new ToolDeferral().schemas(registry);
    schemas.push(performance.now() - start);
  }

  const big = megabyteResult();
  const size = JSON.stringify(big).length;
  const sanitize: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const start = performance.now();
    sanitizeResult(big);
    sanitize.push(performance.now() - start);
  }
  const string10mb = { text: 'x'.repeat(10 * 1024 * 1024) };
  const sanitizeString: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const start = performance.now();
    sanitizeResult(string10mb);
    sanitizeString.push(performance.now() - start);
  }
  const million = Array.from({ length: 1_000_000 }, (_, i) => i);
  const sanitizeArray: number[] = [];
  for (let r = 0; r < 5; r++) {
    const start = performance.now();
    sanitizeResult(million);
    sanitizeArray.push(performance.now() - start);
  }

  const schema = registry.get('tool_1')!.parameters;
  const args = { item_id: 'i1', status: 'done', tags: ['a'] };
  const firstValidation = async (engine: 'ajv' | 'interpreter') => {
    const validator = new ArgumentValidator({ engine });
    const start = performance.now();
    await validator.validate(schema, args);
    const first = performance.now() - start;
    const warm: number[] = [];
    for (let r = 0; r < 200; r++) {
      const t = performance.now();
      await validator.validate(schema, args);
      warm.push(performance.now() - t);
    }
    // 20 different schemas set up, as in SPEC §4.1's measurement.
    const setup = performance.now();
    for (let i = 2; i < 22; i++) await validator.compile(registry.get(`tool_${i}`)!.parameters);
    return { first, warm: median(warm), twenty: performance.now() - setup };
  };
  const ajv = await firstValidation('ajv');
  const interpreter = await firstValidation('interpreter');

  return {
    'register 128 tools (ms, median of 20, fresh registry; target <= 5)': round(median(register)),
    'deferral.schemas() for 128 tools (ms, median of 20)': round(median(schemas)),
    'sanitize ~1 MB result (ms, median of 20; target <= 20)': round(median(sanitize)),
    '  (its serialized size, chars)': size,
    'sanitize a 10 MB string (ms, median of 20)': round(median(sanitizeString)),
    'sanitize a 1e6-element array (ms, median of 5)': round(median(sanitizeArray)),
    'ajv: first validation incl. load + compile (ms)': round(ajv.first),
    'ajv: compile 20 more schemas (ms)': round(ajv.twenty),
    'ajv: warm validation (ms, median of 200)': round(ajv.warm),
    'interpreter: first validation incl. load (ms)': round(interpreter.first),
    'interpreter: set up 20 more schemas (ms)': round(interpreter.twenty),
    'interpreter: warm validation (ms, median of 200)': round(interpreter.warm),
  };
}
