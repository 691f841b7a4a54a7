// @ts-check
/**
 * Quarry's layer rules, as a local ESLint plugin (it replaces scripts/check-layers.mjs).
 *
 * Layers are folders under src/ (the table is eslint-rules/layers.js; docs/design.md):
 *   core <- adapters/{browser,git,node} <- worker <- ui;  cli uses core + adapters + worker.
 *
 * Three rules:
 * - `quarry/layers`: each import of a file, type-only ones included, checked against its own
 *   layer's allow list (which layers, which files of a layer (`only`), which packages, whether
 *   Node builtins). A file under src/ in no layer is reported, and so is an import of one (or
 *   of a file outside src/): a pass-through would hide what it imports. `import.meta.glob`
 *   (modules by pattern) is reported: the rules check imports by name.
 * - `quarry/browser-closure`: follows imports TRANSITIVELY from every file that ships in the
 *   browser bundle and reports an import whose closure reaches a Node builtin or a Node-only
 *   file, naming the chain (a.ts -> b.ts -> c.ts imports 'node:fs'). Relative imports are
 *   followed through src/; a package is resolved as Vite resolves it for the browser and its
 *   own files followed (eslint-rules/packages.js). Type-only imports are skipped (erased);
 *   static imports, re-exports, dynamic `import('literal')`, `require('literal')` and
 *   `new Worker(new URL('literal', import.meta.url))` are followed.
 * - `quarry/no-computed-module-loading`: no `import(expr)` / `require(expr)` with a
 *   non-literal argument, no `createRequire`, no eval'd code (`eval`, `new Function`, a
 *   Worker started with `eval: true`): a module name built from a string would slip past
 *   the two rules above. Enabled only where it matters (not in src/cli, src/adapters/node).
 *
 * Test files (*.test.ts(x), *.testutil.ts) are exempt as importers: they are not shipped.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parse } from '@typescript-eslint/typescript-estree';
import { parseAst } from 'vite';
import { literalString, noComputedModuleLoading } from './no-computed-module-loading.js';
import { isRelative, packageName, packageNodeChain, stripQuery } from './packages.js';

/**
 * @typedef {object} LayerSpec
 * @property {string[]} paths folders (ending in '/') or files, relative to `root`; the longest match wins
 * @property {string[]} allow layers this one may import (relative imports)
 * @property {Record<string, string[]>} [only] for an allowed layer, the only files of it this one may
 *   import (paths relative to `root`), e.g. ui may reach the worker only through its client
 * @property {'any' | string[]} [packages] bare imports allowed ('any' is the default)
 * @property {boolean} [node] may import Node builtins (default false)
 * @property {boolean} [browser] ships in the browser bundle: its import closure must stay free of Node
 *
 * @typedef {object} Options
 * @property {string} [root] the source folder the layer paths are relative to (default 'src', from the cwd)
 * @property {Record<string, LayerSpec>} layers
 * @property {string[]} [exempt] regular expressions on the path relative to `root`: files exempt as importers
 */

const CODE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith('_')));
const DEFAULT_EXEMPT = ['\\.test\\.tsx?$', '\\.testutil\\.tsx?$'];

const optionsSchema = [
  {
    type: 'object',
    properties: {
      root: { type: 'string' },
      layers: { type: 'object' },
      exempt: { type: 'array', items: { type: 'string' } },
    },
    required: ['layers'],
    additionalProperties: false,
  },
];

// ---------------------------------------------------------------------------------------------
// Specifiers

/** Packages declared by the nearest package.json: a bare 'buffer' that is a dependency is the npm polyfill, not Node's. */
const declaredCache = new Map();
function declaredPackages(cwd) {
  if (declaredCache.has(cwd)) return declaredCache.get(cwd);
  const names = new Set();
  for (let dir = cwd; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const pkg = JSON.parse(readFileSync(file, 'utf8'));
        for (const field of ['dependencies', 'devDependencies', 'optionalDependencies'])
          for (const n of Object.keys(pkg[field] ?? {})) names.add(n);
      } catch {
        // an unreadable package.json declares nothing
      }
      break;
    }
    if (dirname(dir) === dir) break;
  }
  declaredCache.set(cwd, names);
  return names;
}

/** 'node:fs', 'fs', 'fs/promises' are Node builtins; a bare name the project installs as a package is that package. */
function isNodeBuiltin(spec, cwd) {
  const s = stripQuery(spec);
  if (s.startsWith('node:')) return true;
  if (!BUILTINS.has(s) && !BUILTINS.has(packageName(s))) return false;
  return !declaredPackages(cwd).has(packageName(s));
}

/** Whether a path is a file; throwIfNoEntry: a missing one (most candidates) costs no exception. */
function isFile(file) {
  try {
    return statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false; // ENOTDIR: a path through a file
  }
}

/** A relative specifier to a file on disk (TypeScript-style extension and index lookup), or null. */
function resolveRelative(fromFile, spec) {
  const base = resolve(dirname(fromFile), stripQuery(spec));
  const candidates = [
    base,
    ...CODE_EXTENSIONS.map((e) => base + e),
    ...CODE_EXTENSIONS.map((e) => join(base, 'index' + e)),
  ];
  // './x.js' written for a TypeScript file x.ts
  if (/\.[cm]?jsx?$/.test(base))
    candidates.push(...['.ts', '.tsx', '.mts', '.cts'].map((e) => base.replace(/\.[cm]?jsx?$/, e)));
  for (const c of candidates) if (isFile(c)) return c;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Import edges of one module (ESTree, from typescript-eslint's parser)

/**
 * @typedef {object} Edge
 * @property {string} spec
 * @property {'static' | 'dynamic' | 'require' | 'worker'} kind
 * @property {boolean} typeOnly erased by the compiler (`import type`, `export type ... from`, `import('x').T`): not in the bundle
 * @property {boolean} [inFunction] inside a function: loaded only if that code runs (a package's Node-only branch)
 * @property {any} node the node to report on
 * @property {string | null} [target] a cached edge's resolved file (targetOf)
 */

const isImportMetaUrl = (node) =>
  node?.type === 'MemberExpression' &&
  node.object.type === 'MetaProperty' &&
  node.object.meta.name === 'import' &&
  node.property.name === 'url';

/** `new URL('literal', import.meta.url)` -> 'literal' */
function urlLiteral(node) {
  if (node?.type !== 'NewExpression' || node.callee.type !== 'Identifier' || node.callee.name !== 'URL')
    return null;
  return isImportMetaUrl(node.arguments[1]) ? literalString(node.arguments[0]) : null;
}

const allTypeSpecifiers = (specifiers, key) =>
  specifiers.length > 0 && specifiers.every((s) => s[key] === 'type');

/** Every import edge of a module, type-only ones (which the compiler erases) marked as such. */
function collectEdges(ast) {
  /** @type {Edge[]} */
  const edges = [];
  let depth = 0; // functions around the node: an import inside one runs only if it is called
  const add = (spec, kind, node, typeOnly = false) =>
    edges.push({ spec, kind, node, typeOnly, inFunction: depth > 0 });
  const visit = (node) => {
    if (!node || typeof node.type !== 'string') return;
    switch (node.type) {
      case 'ImportDeclaration':
        // `import type {A}` and `import {type A, type B}` are erased; `import './x'` and `import {type A, b}` are not
        add(
          node.source.value,
          'static',
          node,
          node.importKind === 'type' || allTypeSpecifiers(node.specifiers, 'importKind'),
        );
        return;
      case 'ExportNamedDeclaration':
        if (node.source)
          add(
            node.source.value,
            'static',
            node,
            node.exportKind === 'type' || allTypeSpecifiers(node.specifiers, 'exportKind'),
          );
        break;
      case 'ExportAllDeclaration':
        add(node.source.value, 'static', node, node.exportKind === 'type');
        return;
      case 'TSImportEqualsDeclaration':
        if (node.moduleReference.type === 'TSExternalModuleReference') {
          const spec = literalString(node.moduleReference.expression);
          if (spec !== null) add(spec, 'require', node, node.importKind === 'type');
        }
        return;
      case 'TSImportType': {
        // `import('x').T` in a type position
        const spec = literalString(
          node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument,
        );
        if (spec !== null) add(spec, 'static', node, true);
        break;
      }
      case 'ImportExpression': {
        const spec = literalString(node.source);
        if (spec !== null) add(spec, 'dynamic', node);
        break;
      }
      case 'CallExpression': {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require') {
          const spec = literalString(node.arguments[0]);
          if (spec !== null) add(spec, 'require', node);
        }
        break;
      }
      case 'NewExpression': {
        // a worker entry is bundled too (Vite follows `new Worker(new URL('./x.ts', import.meta.url))`)
        if (
          node.callee.type === 'Identifier' &&
          (node.callee.name === 'Worker' || node.callee.name === 'SharedWorker')
        ) {
          const spec = urlLiteral(node.arguments[0]);
          if (spec !== null) add(spec, 'worker', node);
        }
        break;
      }
    }
    const fn = /Function/.test(node.type);
    if (fn) depth++;
    for (const key of Object.keys(node)) {
      if (key === 'parent' || key === 'loc' || key === 'range' || key === 'tokens' || key === 'comments')
        continue;
      const child = node[key];
      if (Array.isArray(child)) for (const c of child) visit(c);
      else if (child && typeof child === 'object' && typeof child.type === 'string') visit(child);
    }
    if (fn) depth--;
  };
  visit(ast);
  return edges;
}

/** Parsed edges per file on disk, refreshed when the file's mtime or size changes. */
const edgeCache = new Map();
/** Closure results per (layer settings, file), with the stamps of the files they were read from. */
const closureCache = new Map();

/** A file's modified time and size: what the caches are keyed by. */
function stampOf(file) {
  try {
    const st = statSync(file, { throwIfNoEntry: false });
    return st ? `${st.mtimeMs}:${st.size}` : 'missing';
  } catch {
    return 'missing';
  }
}

/**
 * A module's ESTree, no AST kept: only what the edges need. Vite's parser (oxc) first: about 4x
 * as fast as typescript-estree, and the same edges on every file of the project (both are
 * TS-ESTree: importKind/exportKind, ImportExpression, TSImportEqualsDeclaration). A file it
 * rejects is read by typescript-estree (a bare parse: no tokens, locations or scopes), as before.
 */
function parseModule(code, ext) {
  const jsx = ext === '.tsx' || ext === '.jsx';
  try {
    return parseAst(code, { lang: /^\.[cm]?tsx?$/.test(ext) ? (jsx ? 'tsx' : 'ts') : jsx ? 'jsx' : 'js' });
  } catch {
    return parse(code, { jsx, range: false, loc: false, tokens: false, comment: false });
  }
}

/** @returns {Edge[]} */
function edgesOfFile(file, stamp = stampOf(file)) {
  if (stamp === 'missing') return [];
  const hit = edgeCache.get(file);
  if (hit && hit.stamp === stamp) return hit.edges;
  let edges = [];
  const ext = extname(file);
  if (CODE_EXTENSIONS.includes(ext) && !file.endsWith('.d.ts')) {
    try {
      const code = readFileSync(file, 'utf8');
      edges = collectEdges(parseModule(code, ext))
        .filter((e) => !e.typeOnly)
        .map(({ spec, kind }) => ({ spec, kind, typeOnly: false, node: null }));
    } catch {
      edges = []; // a file that does not parse has its own lint error
    }
  }
  edgeCache.set(file, { stamp, edges });
  return edges;
}

/**
 * Where a cached edge of `file` leads (resolveRelative), kept on the edge, so a file is resolved
 * once per lint run, not once per closure that passes through it. The edges are read again when
 * the file's stamp changes; a target that has gone is looked up again, as is an import that
 * resolved to nothing (its file may have been created since). Like a cached closure, a kept
 * target does not notice a file created ahead of it in the lookup order (x.ts beside x/index.ts).
 */
function targetOf(file, edge) {
  if (edge.target && isFile(edge.target)) return edge.target;
  return (edge.target = resolveRelative(file, edge.spec));
}

// ---------------------------------------------------------------------------------------------
// Layers

function compile(/** @type {Options} */ options, cwd) {
  const root = resolve(cwd, options.root ?? 'src');
  const entries = [];
  for (const [name, spec] of Object.entries(options.layers))
    for (const p of spec.paths) entries.push({ prefix: p, name });
  entries.sort((a, b) => b.prefix.length - a.prefix.length);
  const exempt = (options.exempt ?? DEFAULT_EXEMPT).map((r) => new RegExp(r));
  /** @returns {string | null} the layer of an absolute path, or null outside every layer */
  const layerOf = (abs) => {
    const rel = relative(root, abs).split(sep).join('/');
    if (rel.startsWith('../') || isAbsolute(rel)) return null;
    for (const e of entries)
      if (e.prefix.endsWith('/') ? rel.startsWith(e.prefix) : rel === e.prefix) return e.name;
    return null;
  };
  const isExempt = (abs) => {
    const rel = relative(root, abs).split(sep).join('/');
    return exempt.some((r) => r.test(rel));
  };
  const show = (abs) => relative(cwd, abs).split(sep).join('/');
  /** the path relative to `root` ('core/x.ts'), or null outside it */
  const inRoot = (abs) => {
    const rel = relative(root, abs).split(sep).join('/');
    return rel.startsWith('../') || isAbsolute(rel) ? null : rel;
  };
  return {
    root,
    layers: options.layers,
    layerOf,
    inRoot,
    isExempt,
    show,
    key: JSON.stringify({ root, options }),
  };
}

const compiledCache = new Map();
function compiledFor(context) {
  const options = context.options[0];
  const cwd = context.cwd;
  const key = cwd + '\0' + JSON.stringify(options);
  let c = compiledCache.get(key);
  if (!c) compiledCache.set(key, (c = compile(options, cwd)));
  return c;
}

// ---------------------------------------------------------------------------------------------
// quarry/layers

/** @type {import('eslint').Rule.RuleModule} */
const layersRule = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Imports follow the layers: each folder under src/ imports only the layers, packages and builtins it is allowed',
    },
    schema: optionsSchema,
    messages: {
      layer: "{{layer}} may not import {{target}} ('{{spec}}'); it may import: {{allowed}}",
      builtin: "{{layer}} may not import the Node builtin '{{spec}}'",
      package: "{{layer}} may not import the package '{{spec}}' (allowed: {{allowed}})",
      only: "{{layer}} may import only {{files}} of {{target}} ('{{spec}}')",
      unlayered:
        "{{layer}} may not import {{target}} ('{{spec}}'): it is in no layer, so the layer rules cannot see what it imports (add its folder to eslint-rules/layers.js)",
      noLayer: '{{file}} is under {{root}}/ but in no layer: add its folder to eslint-rules/layers.js',
      glob: 'import.meta.glob loads modules by pattern, which the layer rules cannot check: import each module by name',
    },
  },
  create(context) {
    const c = compiledFor(context);
    const file = context.filename;
    const layer = c.layerOf(file);
    if (c.isExempt(file)) return {};
    if (!layer) {
      const rel = c.inRoot(file);
      if (rel === null) return {};
      return {
        Program: (node) =>
          context.report({ node, messageId: 'noLayer', data: { file: c.show(file), root: c.show(c.root) } }),
      };
    }
    const spec = c.layers[layer];
    const isImportMeta = (node) => node.type === 'MetaProperty' && node.meta.name === 'import';
    return {
      MemberExpression(node) {
        const name = node.property.type === 'Identifier' ? node.property.name : node.property.value;
        if (isImportMeta(node.object) && /^glob(Eager)?$/.test(String(name)))
          context.report({ node, messageId: 'glob' });
      },
      'Program:exit'(program) {
        for (const edge of collectEdges(program)) {
          if (isRelative(edge.spec)) {
            const target = resolveRelative(file, edge.spec) ?? resolve(dirname(file), stripQuery(edge.spec));
            const targetLayer = c.layerOf(target);
            const rel = c.inRoot(target);
            const data = { layer, target: targetLayer, spec: edge.spec, allowed: spec.allow.join(', ') };
            if (!targetLayer)
              context.report({
                node: edge.node,
                messageId: 'unlayered',
                data: {
                  ...data,
                  target: rel === null ? `${c.show(target)}, outside ${c.show(c.root)}/,` : c.show(target),
                },
              });
            else if (!spec.allow.includes(targetLayer))
              context.report({ node: edge.node, messageId: 'layer', data });
            else if (spec.only?.[targetLayer] && !spec.only[targetLayer].includes(rel ?? ''))
              context.report({
                node: edge.node,
                messageId: 'only',
                data: { ...data, files: spec.only[targetLayer].join(', ') },
              });
          } else if (isNodeBuiltin(edge.spec, context.cwd)) {
            if (!spec.node)
              context.report({ node: edge.node, messageId: 'builtin', data: { layer, spec: edge.spec } });
          } else if (
            Array.isArray(spec.packages) &&
            !spec.packages.includes(packageName(stripQuery(edge.spec)))
          ) {
            context.report({
              node: edge.node,
              messageId: 'package',
              data: { layer, spec: edge.spec, allowed: spec.packages.join(', ') || 'none' },
            });
          }
        }
      },
    };
  },
};

// ---------------------------------------------------------------------------------------------
// quarry/browser-closure

/**
 * The shortest chain from `start` to a file that breaks the browser bundle: one that is in a
 * Node-only layer, or that imports a Node builtin. Breadth-first over runtime edges, so cycles
 * are fine and the chain named is the shortest. Cached per file.
 * @returns {{ files: string[], builtin: string | null } | null}
 */
function nodeChain(c, start, cwd) {
  const key = c.key + '\0' + start;
  const hit = closureCache.get(key);
  // still right if none of the files it read has changed (a long-lived ESLint, e.g. an editor's)
  if (hit && [...hit.stamps].every(([f, s]) => stampOf(f) === s)) return hit.found;
  const stamps = new Map();
  const parent = new Map([[start, null]]);
  const queue = [start];
  let found = null;
  const chainTo = (f) => {
    const files = [];
    for (let at = f; at !== null; at = parent.get(at)) files.unshift(at);
    return files;
  };
  search: for (let i = 0; i < queue.length; i++) {
    const file = queue[i];
    const layer = c.layerOf(file);
    if (layer && !c.layers[layer].browser && c.layers[layer].node) {
      found = { files: chainTo(file), builtin: null };
      break;
    }
    const stamp = stampOf(file);
    stamps.set(file, stamp);
    for (const edge of edgesOfFile(file, stamp)) {
      if (isRelative(edge.spec)) {
        const target = targetOf(file, edge);
        if (target && !parent.has(target)) {
          parent.set(target, file);
          queue.push(target);
        }
      } else if (isNodeBuiltin(edge.spec, cwd)) {
        found = { files: chainTo(file), builtin: edge.spec };
        break search;
      } else {
        const pkg = packageNodeChain(
          edge.spec,
          file,
          edge.kind === 'require' ? 'require' : 'import',
          collectEdges,
        );
        if (pkg) {
          found = { files: [...chainTo(file), ...pkg.files], builtin: pkg.builtin, note: pkg.note };
          break search;
        }
      }
    }
  }
  closureCache.set(key, { found, stamps });
  return found;
}

/** @type {import('eslint').Rule.RuleModule} */
const browserClosureRule = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'A file in the browser bundle never reaches a Node builtin or a Node-only module through its imports, however indirectly',
    },
    schema: optionsSchema,
    messages: {
      reaches: 'this import pulls Node into the browser bundle ({{layer}}): {{chain}}',
    },
  },
  create(context) {
    const c = compiledFor(context);
    const file = context.filename;
    const layer = c.layerOf(file);
    if (!layer || !c.layers[layer].browser || c.isExempt(file) || file.endsWith('.d.ts')) return {};
    return {
      'Program:exit'(program) {
        for (const edge of collectEdges(program)) {
          // A direct builtin import or a direct import of a Node-only file is quarry/layers' report.
          if (edge.typeOnly || isNodeBuiltin(edge.spec, context.cwd)) continue;
          let chain;
          if (isRelative(edge.spec)) {
            const target = resolveRelative(file, edge.spec);
            if (!target) continue;
            const targetLayer = c.layerOf(target);
            if (targetLayer && !c.layers[targetLayer].browser && c.layers[targetLayer].node) continue;
            chain = nodeChain(c, target, context.cwd);
          } else {
            // a package, resolved and followed as the browser build would bundle it
            chain = packageNodeChain(
              edge.spec,
              file,
              edge.kind === 'require' ? 'require' : 'import',
              collectEdges,
            );
          }
          if (!chain) continue;
          const names = [file, ...chain.files].map(c.show).join(' -> ');
          const tail = chain.note
            ? ` ${chain.note} (not followed further)`
            : chain.builtin
              ? ` imports '${chain.builtin}'`
              : ` (${c.layerOf(chain.files[chain.files.length - 1])} is Node-only)`;
          context.report({ node: edge.node, messageId: 'reaches', data: { layer, chain: names + tail } });
        }
      },
    };
  },
};

const plugin = {
  meta: { name: 'quarry-boundaries', version: '1.0.0' },
  rules: {
    layers: layersRule,
    'browser-closure': browserClosureRule,
    'no-computed-module-loading': noComputedModuleLoading,
  },
};

export default plugin;
export { collectEdges, resolveRelative, isNodeBuiltin };
