// Bundles: the CDN file (one classic script, plus ES chunks it imports from its own URL on
// intent), the ESM build for npm consumers, and the wave server for Node.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import { transform } from 'esbuild';
import commonjs from '@rollup/plugin-commonjs';
import nodeResolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import MagicString from 'magic-string';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

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

/**
 * The static text of Lit `css` templates without comments, indentation and the spaces minifiers
 * would drop (newlines kept, so source maps stay on the right line). Spaces inside calc() and selectors stay.
 */
export function compactCss(code) {
  return code.replace(/\bcss`([^`]*)`/g, (_, body) => {
    const parts = body.split(/(\$\{[^}]*\})/);
    const compacted = parts.map((part, i) =>
      i % 2 === 1
        ? part
        : part
            // Comments go, keeping their newlines.
            .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ''))
            .replace(/^[ \t]+|[ \t]+$/gm, '')
            .replace(/:[ \t]+/g, ':')
            .replace(/[ \t]*([{},;])[ \t]*/g, '$1'),
    );
    return `css\`${compacted.join('')}\``;
  });
}

/** TypeScript (and TSX, with React's automatic runtime) → JavaScript with esbuild (type-checking is `npm run typecheck`'s job). */
function esbuildTs({ target = 'es2022', minify = false } = {}) {
  return {
    name: 'esbuild-ts',
    async transform(code, id) {
      if (!id.endsWith('.ts') && !id.endsWith('.tsx')) return null;
      if (minify && code.includes('css`')) code = compactCss(code);
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

/**
 * The top-level bindings of a module that keep their first value: `const`s, functions and classes
 * whose name is never assigned anywhere in the code (any scope's: a shadowing name counts too).
 */
function fixedBindings(ast) {
  const declared = new Set();
  for (const node of ast.body) {
    if (node.type === 'VariableDeclaration' && node.kind === 'const') {
      for (const d of node.declarations) if (d.id.type === 'Identifier') declared.add(d.id.name);
    } else if ((node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') && node.id) declared.add(node.id.name);
  }
  const assigned = new Set();
  const targets = (pattern) => {
    if (!pattern) return;
    if (pattern.type === 'Identifier') assigned.add(pattern.name);
    else if (pattern.type === 'ObjectPattern') for (const p of pattern.properties) targets(p.type === 'RestElement' ? p.argument : p.value);
    else if (pattern.type === 'ArrayPattern') for (const e of pattern.elements) targets(e);
    else if (pattern.type === 'AssignmentPattern') targets(pattern.left);
    else if (pattern.type === 'RestElement') targets(pattern.argument);
  };
  const walk = (node) => {
    if (!node || typeof node.type !== 'string') return;
    if (node.type === 'AssignmentExpression') targets(node.left);
    else if (node.type === 'UpdateExpression') targets(node.argument);
    else if ((node.type === 'ForInStatement' || node.type === 'ForOfStatement') && node.left.type !== 'VariableDeclaration') targets(node.left);
    for (const key in node) {
      const value = node[key];
      if (Array.isArray(value)) for (const child of value) walk(child);
      else if (value && typeof value.type === 'string') walk(value);
    }
  };
  walk(ast);
  return new Set([...declared].filter((name) => !assigned.has(name)));
}

/**
 * The CDN file as one classic script: rollup builds ES chunks; this turns the entry chunk
 * (`dist/wave-chat.js`) into a classic script that publishes its exports on one private global
 * object (a binding assigned again through a getter, so it stays live), and rewrites the lazy chunks' imports from the entry
 * into reads of that object. The entry's `import()`s resolve against the script's own URL
 * (made absolute: a classic script from another origin has no base URL of its own for them). The same file also runs as a module (`import '…/wave-chat.js'`): it then defines
 * the elements without booting a floating widget. A second copy of the same version on a page
 * runs nothing but its boot (the first copy's). `dist/cdn/wave-chat.mjs` stays as a one-line
 * module for pages that imported it.
 */
function classicEntry({ key }) {
  const symbol = `Symbol.for(${JSON.stringify(key)})`;
  const global = `globalThis[${symbol}]`;
  return {
    name: 'classic-entry',
    renderDynamicImport({ chunk }) {
      return chunk.isEntry ? { left: 'import(__wcAt(', right: '))' } : null;
    },
    renderChunk(code, chunk) {
      const ast = this.parse(code);
      const s = new MagicString(code);
      if (chunk.isEntry) {
        const getters = [];
        const fixed = fixedBindings(ast);
        for (const node of ast.body) {
          if (node.type === 'ImportDeclaration') this.error(`the CDN entry may not import statically (${node.source.value})`);
          if (node.type === 'ExportNamedDeclaration' && !node.declaration && !node.source) {
            for (const spec of node.specifiers) {
              const { name: exported } = spec.exported;
              const { name: local } = spec.local;
              // A binding never assigned again is published as its value; any other through a getter.
              getters.push(fixed.has(local) ? `${exported}:${local}` : `get ${exported}(){return ${local}}`);
            }
            s.remove(node.start, node.end);
          } else if (node.type.startsWith('Export')) this.error(`unexpected ${node.type} in the CDN entry`);
        }
        if (code.includes('import.meta')) this.error('the CDN entry runs as a classic script: no import.meta');
        // The boot export, if any, runs for a second copy of the same version.
        // __wcAt: a chunk's URL beside this script (run as a module, the specifier resolves as is).
        s.prepend(
          `(function(){'use strict';var __s=document.currentScript,__k=${symbol},__g=globalThis[__k];if(__g){if(__s&&__g.boot)__g.boot(__s);return}` +
            `var __u=__s&&__s.src;function __wcAt(p){return __u?new URL(p,__u).href:p}\n`,
        );
        s.append(`\n;Object.defineProperty(globalThis,__k,{value:Object.freeze({${getters.join(',')}})});` + `\n})();\n`);
      } else {
        for (const node of ast.body) {
          if (node.type !== 'ImportDeclaration') continue;
          const target = new URL(node.source.value, `file:///${chunk.fileName}`).pathname.slice(1);
          if (target !== 'wave-chat.js') continue;
          const names = [];
          let namespace = null;
          for (const spec of node.specifiers) {
            if (spec.type === 'ImportSpecifier') names.push(`${spec.imported.name}:${spec.local.name}`);
            else if (spec.type === 'ImportNamespaceSpecifier') namespace = spec.local.name;
            else this.error('the CDN entry has no default export');
          }
          const reads = [];
          if (names.length) reads.push(`const{${names.join(',')}}=${global};`);
          if (namespace) reads.push(`const ${namespace}=${global};`);
          s.overwrite(node.start, node.end, reads.join(''));
        }
      }
      return { code: s.toString(), map: s.generateMap({ hires: true }) };
    },
    generateBundle(_options, bundle) {
      // Strict mode for the whole classic script (minifiers drop the directive inside a module's
      // IIFE), after V8's explicit compile hint: nearly every function of this file runs before
      // the widget is usable, so Chromium compiles them all while the file streams in, off the
      // main thread, rather than one by one on it as each is first called. Other engines read a comment.
      // Measured 2026-12-03 (session 35, `npm run bench -- cdn` with BENCH_BASELINE, 15 loads): without
      // it, desktop code arrived → usable 48.7 ms against 63.1 (on localhost the gzip body arrives in one
      // piece and traces show the file compiled on the main thread, every function then compiled
      // eagerly), mobile 69.4 against about 55 (throttled, streamed off the thread). Kept: a real
      // network delivers the file in pieces, as the mobile profile does.
      const prologue = ['//# allFunctionsCalledOnLoad', '"use strict";'];
      const entry = Object.values(bundle).find((file) => file.type === 'chunk' && file.isEntry);
      if (entry && !entry.code.startsWith(prologue[0])) {
        entry.code = `${prologue.join('\n')}\n${entry.code}`;
        const lines = ';'.repeat(prologue.length);
        if (entry.map) entry.map.mappings = `${lines}${entry.map.mappings}`;
        // The .map file is its own asset by now: its lines move down too.
        const mapFile = bundle[`${entry.fileName}.map`];
        if (mapFile?.type === 'asset') {
          const map = JSON.parse(String(mapFile.source));
          map.mappings = `${lines}${map.mappings}`;
          mapFile.source = JSON.stringify(map);
        }
      }
      this.emitFile({ type: 'asset', fileName: 'cdn/wave-chat.mjs', source: "// The widget is one classic script now; importing it as a module defines the elements.\nimport '../wave-chat.js';\n" });
    },
  };
}

const browserPlugins = (minify, extra = []) => [
  tsResolve(),
  nodeResolve({ browser: true, exportConditions: ['browser', 'production', 'default'] }),
  json(),
  commonjs(),
  esbuildTs({ minify }),
  ...extra,
  ...(minify ? [terser({ module: true, ecma: 2020, format: { comments: false }, compress: { passes: 3 } })] : []),
];

const onwarn = (warning, warn) => {
  if (warning.code === 'CIRCULAR_DEPENDENCY' && warning.ids?.some((id) => id.includes('node_modules'))) return;
  warn(warning);
};

export default [
  // The CDN: dist/wave-chat.js, one classic script holding what makes the widget usable, and
  // the chunks it loads on intent under dist/cdn/.
  {
    input: { 'wave-chat': 'components/cdn.ts' },
    // 'allow-extension': the entry holds the widget and exports what the lazy chunks share with it.
    preserveEntrySignatures: 'allow-extension',
    output: {
      dir: 'dist',
      format: 'es',
      entryFileNames: '[name].js',
      chunkFileNames: (chunk) =>
        /@cfworker|interpreter-engine/.test(chunk.facadeModuleId ?? '') ? 'cdn/json-schema-interpreter-[hash].mjs' : 'cdn/[name]-[hash].mjs',
      sourcemap: true,
    },
    plugins: browserPlugins(true, [classicEntry({ key: `wave-chat@${version}` })]),
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
