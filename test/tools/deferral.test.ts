import { expect } from '@open-wc/testing';
import { ToolDeferral } from '../../src/tools/deferral.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { ToolDefinition } from '../../src/tools/types.js';

const handler = () => ({});

function tool(extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return { handler, ...extra };
}

function registryWith(count: number, make: (i: number) => ToolDefinition = (i) => tool({ description: `Tool number ${i}. More text.` })) {
  const registry = new ToolRegistry({ warn: () => {} });
  for (let i = 0; i < count; i++) registry.register(`t${i}`, make(i));
  return registry;
}

const names = (schemas: { name: string }[]) => schemas.map((s) => s.name);

describe('ToolDeferral', () => {
  describe('within the limits', () => {
    it('offers every tool and no load_tools with 20 tools', () => {
      const registry = registryWith(20);
      const deferral = new ToolDeferral();
      expect(deferral.isDeferring(registry)).to.equal(false);
      const schemas = deferral.schemas(registry);
      expect(names(schemas)).to.deep.equal(registry.list().map((t) => t.name));
      expect(schemas[0]).to.deep.equal(registry.toSchema(registry.get('t0')!));
      expect(deferral.isActive(registry, 't19')).to.equal(true);
      expect(deferral.isActive(registry, 'nope')).to.equal(false);
    });
  });

  describe('over the limits', () => {
    it('defers with 21 tools: 20 active in registration order plus load_tools', () => {
      const registry = registryWith(21);
      const deferral = new ToolDeferral();
      expect(deferral.isDeferring(registry)).to.equal(true);
      const schemas = deferral.schemas(registry);
      expect(schemas).to.have.length(21);
      expect(names(schemas.slice(0, 20))).to.deep.equal(Array.from({ length: 20 }, (_, i) => `t${i}`));
      expect(schemas[20]!.name).to.equal('load_tools');
      expect(deferral.isActive(registry, 't20')).to.equal(false);
      expect(deferral.isActive(registry, 'load_tools')).to.equal(true);
    });

    it('defers when the schemas pass 16 KB even with few tools', () => {
      const big = { type: 'object', description: 'x'.repeat(6000) };
      const registry = registryWith(3, () => tool({ description: 'Big.', parameters: big }));
      const deferral = new ToolDeferral();
      expect(deferral.isDeferring(registry)).to.equal(true);
      // Two ~6 KB schemas fit in 16 KB, the third does not.
      expect(names(deferral.schemas(registry))).to.deep.equal(['t0', 't1', 'load_tools']);
    });

    it('puts core tools first, then loaded ones, then registration order', () => {
      const registry = registryWith(25, (i) => tool({ description: `Tool ${i}.`, core: i === 22 || i === 24 }));
      const deferral = new ToolDeferral();
      expect(deferral.load(registry, { names: ['t23'] }).success).to.equal(true);
      const active = names(deferral.schemas(registry)).slice(0, -1);
      expect(active.slice(0, 3)).to.deep.equal(['t22', 't24', 't23']);
      expect(active).to.have.length(20);
      expect(active.slice(3)).to.deep.equal(Array.from({ length: 17 }, (_, i) => `t${i}`));
    });

    it('indexes every deferred tool by name and first sentence in load_tools', () => {
      const registry = registryWith(22, (i) => tool({ description: `Does thing ${i}. Then some detail! And more?` }));
      const loadTools = new ToolDeferral().schemas(registry).at(-1)!;
      expect(loadTools).to.include({ name: 'load_tools', confirm: false, cost: 0, tier3: false });
      expect(loadTools.parameters).to.deep.equal({
        type: 'object',
        properties: { names: { type: 'array', items: { type: 'string' }, minItems: 1 } },
        required: ['names'],
      });
      expect(loadTools.description).to.include('- t20: Does thing 20.\n- t21: Does thing 21.');
      expect(loadTools.description).not.to.include('t19:');
      expect(loadTools.description).not.to.include('Then some detail');
    });

    it('load_tools counts toward neither the 20 tools nor the 16 KB', () => {
      const registry = registryWith(40, (i) => tool({ description: `Tool ${i}. ${'words '.repeat(30)}` }));
      const schemas = new ToolDeferral().schemas(registry);
      expect(schemas).to.have.length(21);
    });
  });

  describe('load()', () => {
    it('loads named tools: they become active and their schemas come back', () => {
      const registry = registryWith(30);
      const deferral = new ToolDeferral();
      expect(deferral.isActive(registry, 't25')).to.equal(false);
      const result = deferral.load(registry, '{"names":["t25","t26"]}');
      expect(result.success).to.equal(true);
      expect(result['loaded']).to.deep.equal(['t25', 't26']);
      expect(result['tools']).to.deep.equal([
        { name: 't25', description: 'Tool number 25. More text.', parameters: { type: 'object', properties: {} } },
        { name: 't26', description: 'Tool number 26. More text.', parameters: { type: 'object', properties: {} } },
      ]);
      expect(deferral.isActive(registry, 't25')).to.equal(true);
      expect(names(deferral.schemas(registry))).to.include.members(['t25', 't26']);
    });

    it('refuses unknown names, listing the valid ones, and loads nothing', () => {
      const registry = registryWith(21);
      const deferral = new ToolDeferral();
      const result = deferral.load(registry, { names: ['t20', 'ghost'] });
      expect(result.success).to.equal(false);
      expect(result['error']).to.match(/Unknown tool name: "ghost"\. Valid names: t0, t1, .*t20\./);
      expect(deferral.isActive(registry, 't20')).to.equal(false);
    });

    it('refuses malformed arguments', () => {
      const registry = registryWith(21);
      const deferral = new ToolDeferral();
      for (const args of [{}, { names: [] }, { names: 'a' }, { names: [1] }, '{bad', null]) {
        const result = deferral.load(registry, args);
        expect(result.success, JSON.stringify(args)).to.equal(false);
        expect(result['error']).to.be.a('string');
      }
    });

    it('makes room for newly loaded tools by dropping the oldest loads', () => {
      // 20 core tools fill the set except for nothing: use a budget of 3 to see eviction.
      const registry = registryWith(10);
      const deferral = new ToolDeferral({ maxActiveTools: 3 });
      deferral.load(registry, { names: ['t5'] });
      deferral.load(registry, { names: ['t6'] });
      deferral.load(registry, { names: ['t7'] });
      deferral.load(registry, { names: ['t8', 't9'] });
      const active = names(deferral.schemas(registry)).slice(0, -1);
      expect(active).to.deep.equal(['t7', 't8', 't9']);
    });

    it('reports what could not fit instead of dropping it silently', () => {
      const registry = registryWith(10);
      const deferral = new ToolDeferral({ maxActiveTools: 2 });
      const result = deferral.load(registry, { names: ['t5', 't6', 't7'] });
      expect(result['loaded']).to.deep.equal(['t5', 't6']);
      expect(result['error']).to.match(/Could not load t7: at most 2 tools/);
    });

    it('keeps its result small: big schemas are announced for the next step instead', () => {
      const big = { type: 'object', description: 'y'.repeat(3000) };
      const registry = registryWith(25, (i) => tool({ description: `T${i}.`, parameters: i >= 20 ? big : undefined }));
      const deferral = new ToolDeferral();
      const result = deferral.load(registry, { names: ['t21', 't22'] });
      expect(result.success).to.equal(true);
      expect(JSON.stringify(result).length).to.be.below(4096);
      expect((result['tools'] as unknown[]).length).to.equal(1);
      expect(result['note']).to.include('t22');
      expect(deferral.isActive(registry, 't22')).to.equal(true);
    });

    it('reset() forgets loaded tools', () => {
      const registry = registryWith(25);
      const deferral = new ToolDeferral();
      deferral.load(registry, { names: ['t24'] });
      expect(deferral.isActive(registry, 't24')).to.equal(true);
      deferral.reset();
      expect(deferral.isActive(registry, 't24')).to.equal(false);
    });
  });

  describe('unknownToolError()', () => {
    it('tells the model to load a registered but deferred tool', () => {
      const registry = registryWith(21);
      expect(new ToolDeferral().unknownToolError(registry, 't20')).to.equal(
        'Tool "t20" is not loaded yet. Call load_tools({"names":["t20"]}) first, then call it.',
      );
    });

    it('lists active and loadable tools for an unknown name', () => {
      const registry = registryWith(22);
      const message = new ToolDeferral().unknownToolError(registry, 'ghost');
      expect(message).to.match(/^Unknown tool "ghost"\. Available tools: t0, .*t19\. Available through load_tools: t20, t21\.$/);
    });

    it('lists every tool when not deferring, and says when there are none', () => {
      const deferral = new ToolDeferral();
      expect(deferral.unknownToolError(registryWith(2), 'x')).to.equal('Unknown tool "x". Available tools: t0, t1.');
      expect(deferral.unknownToolError(registryWith(0), 'x')).to.equal('Unknown tool "x": no page tools are registered.');
    });

    it('cuts an absurdly long name', () => {
      const message = new ToolDeferral().unknownToolError(registryWith(1), 'n'.repeat(10_000));
      expect(message.length).to.be.below(200);
    });
  });
});
