// Bundles: the CDN file (a tiny classic-script loader plus ES chunks it imports from its own
// URL), the ESM build for npm consumers, and the wave server for Node.
import { existsSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import { transform } from 'esbuild';
import commonjs from '@rollup/plugin-commonjs';
import nodeResolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';

/** Our sources import `./x.js`; the file on disk is `./x.ts`. */
function tsResolve() {
  return {
    name: 'ts-resolve',
    resolveId(source, importer) {
      if (!importer || !source.startsWith('.') || !source.endsWith('.js')) return null;
      const ts = resolvePath(dirname(importer), source.slice(0, -3) + '.ts');
      return existsSync(ts) ? ts : null;
    },
  };
}

/** ajv requires its JSON meta-schemas. */
function json() {
  return { name: 'json', transform: (code, id) => (id.endsWith('.json') ? { code: `export default ${code};`, map: null } : null) };
}

/** TypeScript → JavaScript with esbuild (type-checking is `npm run typecheck`'s job). */
function esbuildTs({ target = 'es2022', minify = false } = {}) {
  return {
    name: 'esbuild-ts',
    async transform(code, id) {
      if (!id.endsWith('.ts')) return null;
      const out = await transform(code, { loader: 'ts', target, sourcemap: true, sourcefile: id, minifySyntax: minify, tsconfigRaw: { compilerOptions: { useDefineForClassFields: false, verbatimModuleSyntax: true } } });
      return { code: out.code, map: out.map };
    },
  };
}

const browserPlugins = (minify) => [
  tsResolve(),
  nodeResolve({ browser: true, exportConditions: ['browser', 'production', 'default'] }),
  json(),
  commonjs(),
  esbuildTs({ minify }),
  ...(minify ? [terser({ module: true, ecma: 2020, format: { comments: false }, compress: { passes: 3 } })] : []),
];

const onwarn = (warning, warn) => {
  if (warning.code === 'CIRCULAR_DEPENDENCY' && warning.ids?.some((id) => id.includes('node_modules'))) return;
  warn(warning);
};

export default [
  // The CDN: ES chunks, loaded by dist/wave-chat.js from its own URL.
  {
    input: { 'wave-chat': 'components/cdn.ts' },
    // 'allow-extension': the entry chunk itself holds the widget (and shares lit with the lazy
    // chunks), instead of a facade that would cost the page one more round trip before it is usable.
    preserveEntrySignatures: 'allow-extension',
    output: {
      dir: 'dist/cdn',
      format: 'es',
      entryFileNames: '[name].mjs',
      chunkFileNames: (chunk) => (chunk.facadeModuleId?.includes('@cfworker') ? 'json-schema-interpreter-[hash].mjs' : '[name]-[hash].mjs'),
      sourcemap: true,
    },
    plugins: browserPlugins(true),
    onwarn,
  },
  // The classic <script async> file: finds its own URL and imports the entry chunk.
  {
    input: 'components/cdn-loader.ts',
    output: { file: 'dist/wave-chat.js', format: 'iife', sourcemap: true },
    plugins: browserPlugins(true),
    onwarn,
  },
  // ESM for npm consumers: modules preserved, dependencies left as imports.
  {
    input: { 'src/index': 'src/index.ts', 'components/index': 'components/index.ts', 'components/define': 'components/define.ts' },
    // Paths mirror the sources (dist/esm/src/…, dist/esm/components/…) so tsc's .d.ts files sit beside them.
    output: { dir: 'dist/esm', format: 'es', preserveModules: true, preserveModulesRoot: '.', entryFileNames: '[name].js', sourcemap: true },
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
    plugins: [tsResolve(), esbuildTs()],
    onwarn,
  },
  // The wave server: an edge-safe handler module and the Node entry.
  {
    input: { index: 'src/server/index.ts', node: 'src/server/node.ts' },
    output: { dir: 'dist/server', format: 'es', sourcemap: true },
    external: (id) => id.startsWith('node:') || id === 'ws',
    plugins: [tsResolve(), nodeResolve({ exportConditions: ['node', 'default'] }), json(), commonjs(), esbuildTs()],
    onwarn,
  },
];
