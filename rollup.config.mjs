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

/** TypeScript (and TSX, with React's automatic runtime) → JavaScript with esbuild (type-checking is `npm run typecheck`'s job). */
function esbuildTs({ target = 'es2022', minify = false } = {}) {
  return {
    name: 'esbuild-ts',
    async transform(code, id) {
      if (!id.endsWith('.ts') && !id.endsWith('.tsx')) return null;
      const loader = id.endsWith('.tsx') ? 'tsx' : 'ts';
      const out = await transform(code, { loader, target, sourcemap: true, sourcefile: id, minifySyntax: minify, tsconfigRaw: { compilerOptions: { useDefineForClassFields: false, verbatimModuleSyntax: true, jsx: 'react-jsx' } } });
      return { code: out.code, map: out.map };
    },
  };
}

/** React's CommonJS picks its build from `process.env.NODE_ENV`: the demo bundles the production one. */
function nodeEnvProduction() {
  return {
    name: 'node-env-production',
    transform: (code, id) => (id.includes('/node_modules/') && code.includes('process.env.NODE_ENV') ? { code: code.replaceAll('process.env.NODE_ENV', '"production"'), map: null } : null),
  };
}

/** Whole-chunk minification by esbuild. */
function esbuildMinify() {
  return {
    name: 'esbuild-minify',
    async renderChunk(code) {
      const out = await transform(code, { minify: true, format: 'esm', target: 'es2022', sourcemap: true });
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
      chunkFileNames: (chunk) =>
        /@cfworker|interpreter-engine/.test(chunk.facadeModuleId ?? '') ? 'json-schema-interpreter-[hash].mjs' : '[name]-[hash].mjs',
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
    input: { 'src/index': 'src/index.ts', 'components/index': 'components/index.ts', 'components/define': 'components/define.ts', 'react/index': 'react/index.ts' },
    // Paths mirror the sources (dist/esm/src/…, dist/esm/components/…) so tsc's .d.ts files sit beside them.
    output: { dir: 'dist/esm', format: 'es', preserveModules: true, preserveModulesRoot: '.', entryFileNames: '[name].js', sourcemap: true },
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
    plugins: [tsResolve(), esbuildTs()],
    onwarn,
  },
  // The React demo page's app (demo/react.html): React, react-dom and the widget in one file.
  {
    input: { react: 'demo/react-app.tsx' },
    output: { dir: 'dist/demo', format: 'es', entryFileNames: '[name].js', chunkFileNames: 'react-[name]-[hash].js', sourcemap: true },
    // esbuild minifies it (terser would take several times longer for a demo page).
    plugins: [nodeEnvProduction(), ...browserPlugins(false), esbuildMinify()],
    onwarn,
  },
  // The wave server: an edge-safe handler module and the Node entry.
  {
    input: { index: 'src/server/index.ts', node: 'src/server/node.ts' },
    output: { dir: 'dist/server', format: 'es', sourcemap: true },
    // redis: a dependency loaded only when WAVE_REDIS_URL is set; never bundled.
    external: (id) => id.startsWith('node:') || id === 'ws' || id === 'redis' || id.startsWith('@redis/'),
    plugins: [tsResolve(), nodeResolve({ exportConditions: ['node', 'default'] }), json(), commonjs(), esbuildTs()],
    onwarn,
  },
];
