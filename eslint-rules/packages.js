// @ts-check
/**
 * Packages as the browser build sees them, for quarry/browser-closure (boundaries.js): a bare
 * import from a browser layer is resolved the way Vite resolves it for the browser, and the
 * package's own files are followed (relative imports, `require`, `import()`, other packages)
 * until one reaches a Node builtin that nothing maps away. A package that reaches `fs` only
 * under its `node` export condition, or whose `browser` field maps `fs` to `false` (Vite then
 * bundles an empty module), passes; one whose browser entry still requires `fs` does not.
 *
 * Resolution, as Vite's (resolve.conditions for the client, mainFields, the `browser` field):
 * - `exports`, with the conditions browser, import (require for a `require()`), module,
 *   production, default, in the package's own key order; subpath patterns (`./x/*`) included;
 * - without `exports`: the `browser` field (a string, or its '.' entry), `module`, `main`, index.js;
 * - the `browser` field's object form remaps or empties (`false`) files and bare names inside
 *   the package;
 * - a bare builtin name ('buffer', 'events') is the npm package of that name when one is
 *   installed where the importer can see it (Vite tries node_modules first), Node's otherwise.
 *
 * Bounded (MAX_FILES per package entry) and cached per process: node_modules does not change
 * under a lint run. Results per entry file, so each package is read once per run.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, extname, join, relative, sep } from 'node:path';
import { parseAst } from 'vite';

const BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith('_')));
/** How many files one package closure may read before the search stops (reported as too deep). */
export const MAX_FILES = 4000;
const JS_EXTENSIONS = ['.js', '.mjs', '.cjs', '.jsx'];
const PARSED = new Set([...JS_EXTENSIONS, '.ts', '.mts', '.cts']);

export const stripQuery = (spec) => spec.replace(/[?#].*$/, '');
export const isRelative = (spec) =>
  spec === '.' || spec === '..' || spec.startsWith('./') || spec.startsWith('../');
export const packageName = (spec) =>
  spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];

const isFile = (p) => {
  try {
    // throwIfNoEntry: most candidates are missing, and an exception each costs more than the stat
    return statSync(p, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
};

// ---------------------------------------------------------------------------------------------
// package.json and the resolution of one specifier

/** @type {Map<string, any>} */
const pkgCache = new Map();
function readPkg(dir) {
  if (pkgCache.has(dir)) return pkgCache.get(dir);
  let pkg;
  try {
    pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    pkg = null; // an unreadable package.json: a package with no fields
  }
  pkgCache.set(dir, pkg);
  return pkg;
}

/** The folder of the package a file belongs to (the nearest package.json with a name), or null. */
const ownerCache = new Map();
function ownerOf(file) {
  const start = dirname(file);
  if (ownerCache.has(start)) return ownerCache.get(start);
  let found = null;
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && readPkg(dir)?.name) {
      found = dir;
      break;
    }
    if (dirname(dir) === dir) break;
  }
  ownerCache.set(start, found);
  return found;
}

/** node_modules/<name> as seen from `fromDir` (walking up), or null. */
function findPackageDir(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

/** A file path as a bundler completes it: as is, with a JS extension, or a folder's index / package.json main. */
function completeFile(base) {
  if (isFile(base)) return base;
  for (const e of JS_EXTENSIONS.concat(['.json'])) if (isFile(base + e)) return base + e;
  const pkg = existsSync(join(base, 'package.json')) ? readPkg(base) : null;
  const main = pkg && (typeof pkg.browser === 'string' ? pkg.browser : (pkg.module ?? pkg.main));
  if (typeof main === 'string') {
    const f = completeFile(join(base, main));
    if (f) return f;
  }
  for (const e of JS_EXTENSIONS) if (isFile(join(base, 'index' + e))) return join(base, 'index' + e);
  return null;
}

/** A conditional `exports` target: the first key in the package's order whose condition is on. */
function pickTarget(target, conditions, star) {
  if (target === null || target === undefined) return null;
  if (typeof target === 'string') return target.split('*').join(star);
  if (Array.isArray(target)) {
    for (const t of target) {
      const r = pickTarget(t, conditions, star);
      if (r) return r;
    }
    return null;
  }
  if (typeof target === 'object')
    for (const [key, value] of Object.entries(target))
      if (conditions.includes(key)) {
        const r = pickTarget(value, conditions, star);
        if (r) return r;
      }
  return null;
}

/** `exports` for a subpath ('.', './x'), exact keys first, then the longest matching pattern. */
function exportsTarget(exportsField, subpath, conditions) {
  let map = exportsField;
  if (typeof map === 'string' || Array.isArray(map) || !Object.keys(map).some((k) => k.startsWith('.')))
    map = { '.': map };
  if (Object.prototype.hasOwnProperty.call(map, subpath)) return pickTarget(map[subpath], conditions, '');
  let best = null;
  for (const key of Object.keys(map)) {
    const star = key.indexOf('*');
    if (star < 0) continue;
    const pre = key.slice(0, star);
    const post = key.slice(star + 1);
    if (subpath.length >= key.length - 1 && subpath.startsWith(pre) && subpath.endsWith(post))
      if (!best || pre.length > best.pre.length)
        best = { key, pre, match: subpath.slice(pre.length, subpath.length - post.length) };
  }
  return best ? pickTarget(map[best.key], conditions, best.match) : null;
}

/**
 * The `browser` field's object form applied to a file of the package or a bare name used in it:
 * undefined when it says nothing, false when it empties the module, else the replacement (a
 * path inside the package, or a bare name).
 */
function browserMapping(pkgDir, key) {
  const browser = readPkg(pkgDir)?.browser;
  if (!browser || typeof browser !== 'object') return undefined;
  if (isRelative(key) || key.startsWith('/')) {
    const rel = './' + relative(pkgDir, key).split(sep).join('/');
    const noExt = rel.replace(/\.[cm]?jsx?$/, '');
    for (const k of Object.keys(browser)) {
      const kn = k.startsWith('./') ? k : './' + k;
      if (kn === rel || kn === noExt || kn.replace(/\.[cm]?jsx?$/, '') === noExt) return browser[k];
    }
    return undefined;
  }
  return Object.prototype.hasOwnProperty.call(browser, key) ? browser[key] : undefined;
}

/**
 * A bare specifier as the browser build resolves it from `fromDir`: a file, `false` (emptied by a
 * `browser` field), or null (not installed, or not exported: a bundler would fail on it).
 * @param {'import' | 'require'} kind
 */
function resolvePackage(spec, fromDir, kind) {
  const s = stripQuery(spec);
  const name = packageName(s);
  const pkgDir = findPackageDir(name, fromDir);
  if (!pkgDir) return null;
  const pkg = readPkg(pkgDir) ?? {};
  const sub = s.slice(name.length);
  const conditions = ['browser', kind, 'module', 'production', 'default'];
  let file;
  if (pkg.exports !== undefined && pkg.exports !== null) {
    const target = exportsTarget(pkg.exports, '.' + sub, conditions);
    if (!target) return null;
    file = completeFile(join(pkgDir, target));
  } else if (sub) {
    file = completeFile(join(pkgDir, sub));
  } else {
    const browser = pkg.browser;
    const entry =
      (typeof browser === 'string' && browser) ||
      (browser && typeof browser === 'object' && typeof browser['.'] === 'string' && browser['.']) ||
      pkg.module ||
      pkg.main ||
      'index.js';
    file = completeFile(join(pkgDir, entry));
  }
  if (!file) return null;
  const mapped = browserMapping(pkgDir, file);
  if (mapped === false) return false;
  if (typeof mapped === 'string') return completeFile(join(pkgDir, mapped));
  return file;
}

// ---------------------------------------------------------------------------------------------
// The closure of a package entry

/** @type {Map<string, Array<{ spec: string, kind: 'import' | 'require', atLoad: boolean }>>} a package file's runtime imports */
const specCache = new Map();
function importsOf(file, collectEdges) {
  const hit = specCache.get(file);
  if (hit) return hit;
  let out = [];
  if (PARSED.has(extname(file))) {
    try {
      // Vite's own parser (oxc): the same reading of the file as the build's, and fast enough
      // for the megabyte bundles packages ship (typescript-estree takes ~7x as long)
      const ext = extname(file);
      const lang = ext === '.jsx' ? 'jsx' : /^\.[cm]?ts$/.test(ext) ? 'ts' : 'js';
      const ast = parseAst(readFileSync(file, 'utf8'), { lang });
      out = collectEdges(ast)
        .filter((e) => !e.typeOnly)
        .map((e) => ({
          spec: e.spec,
          kind: e.kind === 'require' ? 'require' : 'import',
          // loaded when the module is: a static import, or a require() outside any function
          atLoad: e.kind === 'static' || (e.kind === 'require' && !e.inFunction),
        }));
    } catch {
      out = []; // not JavaScript a parser reads: nothing followed
    }
  }
  specCache.set(file, out);
  return out;
}

/** Where a package file's import leads in the browser build: a file, false (emptied), a builtin, or null. */
function step(file, spec, kind) {
  const pkgDir = ownerOf(file);
  if (isRelative(spec)) {
    const target = completeFile(join(dirname(file), stripQuery(spec)));
    if (!target) return null;
    const mapped = pkgDir ? browserMapping(pkgDir, target) : undefined;
    if (mapped === false) return false;
    if (typeof mapped === 'string') return completeFile(join(pkgDir, mapped));
    return target;
  }
  const s = stripQuery(spec);
  if (pkgDir) {
    const mapped = browserMapping(pkgDir, s);
    if (mapped === false) return false;
    if (typeof mapped === 'string' && mapped !== s)
      return isRelative(mapped) ? completeFile(join(pkgDir, mapped)) : step(file, mapped, kind);
  }
  if (s.startsWith('node:')) return { builtin: spec };
  const resolved = resolvePackage(s, dirname(file), kind);
  if (resolved !== null) return resolved;
  if (BUILTINS.has(s) || BUILTINS.has(packageName(s))) return { builtin: spec };
  return null; // not installed: a bundler fails on it, which the build reports
}

/** Results per entry file: the chain to a builtin, or null. */
const chainCache = new Map();

/**
 * The shortest chain from a bare import to a Node builtin, following the package's files as the
 * browser build would bundle them; null when none is reached.
 * @param {string} spec the bare specifier, as written in `fromFile`
 * @param {string} fromFile the importing file (absolute)
 * @param {'import' | 'require'} kind
 * @param {(ast: any) => Array<{ spec: string, kind: string, typeOnly: boolean }>} collectEdges
 * @returns {{ files: string[], builtin: string | null, note?: string } | null}
 */
export function packageNodeChain(spec, fromFile, kind, collectEdges) {
  const entry = resolvePackage(spec, dirname(fromFile), kind);
  if (!entry) return null;
  if (chainCache.has(entry)) return chainCache.get(entry);
  const parent = new Map([[entry, null]]);
  const queue = [entry];
  let found = null;
  const chainTo = (f) => {
    const files = [];
    for (let at = f; at !== null; at = parent.get(at)) files.unshift(at);
    return files;
  };
  search: for (let i = 0; i < queue.length; i++) {
    if (i >= MAX_FILES) {
      // reported, not passed: a closure this large is more likely a resolution gone wrong
      found = { files: chainTo(queue[i]), builtin: null, note: `leads to more than ${MAX_FILES} files` };
      break;
    }
    const file = queue[i];
    for (const edge of importsOf(file, collectEdges)) {
      const next = step(file, edge.spec, edge.kind);
      if (!next) continue;
      if (typeof next === 'object') {
        // A builtin loaded only on a code path (`import('fs')`, a require() inside a function, as
        // in emscripten's `if (ENVIRONMENT_IS_NODE)`): Vite bundles an empty module for it, and
        // the browser never runs that path. One loaded with the module breaks the bundle.
        if (!edge.atLoad) continue;
        found = { files: chainTo(file), builtin: next.builtin };
        break search;
      }
      if (!parent.has(next)) {
        parent.set(next, file);
        queue.push(next);
      }
    }
  }
  chainCache.set(entry, found);
  return found;
}
