/**
 * TS/JS imports for explore's import graph (issue 17): what a file imports, read from its text,
 * and where each specifier resolves, as a bundler resolves it: relative paths with the
 * extensions and index files TypeScript tries (a `.js` specifier also finds its `.ts`
 * source), tsconfig/jsconfig `baseUrl` and `paths` (`*` patterns, the most specific first),
 * and the packages of a monorepo's workspaces by name; anything else is an external package
 * (`@scope/name` or `name`, its subpath dropped) or a Node builtin.
 * Comments and string contents are skipped, so an `import` in a comment is not an edge.
 */

import { lineAtOffset } from '../chunk/fallback';

export type ImportKind = 'static' | 'type' | 'dynamic';

export interface ImportRef {
  specifier: string;
  kind: ImportKind;
  /** 1-based */
  line: number;
}

/**
 * The text with its comments blanked (same length, newlines kept). Strings are kept (they hold
 * the specifiers) but read as strings, so a `//` inside one does not start a comment.
 */
function blankComments(text: string): string {
  // copies the text by slices between the places that matter (a quote, or a slash that may open a comment)
  const parts: string[] = [];
  const n = text.length;
  const special = /['"`]|\/[/*]/g;
  let copied = 0;
  for (let m = special.exec(text); m; m = special.exec(text)) {
    const i = m.index;
    let end: number;
    if (m[0] === '//') {
      end = text.indexOf('\n', i);
      if (end < 0) end = n;
    } else if (m[0] === '/*') {
      end = text.indexOf('*/', i + 2);
      end = end < 0 ? n : end + 2;
    } else {
      // a string: to its closing quote (an unescaped one; a line end closes a '' or "" string)
      const q = m[0];
      end = i + 1;
      while (end < n && text[end] !== q && !(q !== '`' && text[end] === '\n'))
        end += text[end] === '\\' ? 2 : 1;
      end = Math.min(n, end + 1);
      special.lastIndex = end;
      continue;
    }
    parts.push(text.slice(copied, i), text.slice(i, end).replace(/[^\n]/g, ' '));
    copied = end;
    special.lastIndex = end;
  }
  parts.push(text.slice(copied));
  return parts.join('');
}

/** 1-based line of each offset, from the line starts found once. */
function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => lineAtOffset(starts, offset) + 1;
}

/** Every import of a TS/JS file: `import ... from`, side-effect `import 'x'`, `export ... from`, `import type`, `require('x')`, `import('x')`. */
export function extractJsImports(text: string): ImportRef[] {
  const code = blankComments(text);
  const out: ImportRef[] = [];
  const lineAt = lineIndex(text);
  const push = (specifier: string, kind: ImportKind, offset: number) =>
    out.push({ specifier, kind, line: lineAt(offset) });
  const patterns: Array<[RegExp, (m: RegExpExecArray) => ImportKind]> = [
    // import x from 'y' / import { a } from 'y' / import type { T } from 'y' / export { a } from 'y' / export * from 'y'
    [
      /(?:^|[;\n}])\s*(import|export)\s+(type\s+)?(?:[\w$*{}\s,]+?\s+from\s+)?(['"])([^'"\n]+)\3/g,
      (m) => (m[2] ? 'type' : 'static'),
    ],
    // require('y')
    [/(?<![\w$.])require\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g, () => 'static'],
    // import('y')
    [/(?<![\w$.])import\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g, () => 'dynamic'],
  ];
  for (const [re, kindOf] of patterns) {
    for (let m = re.exec(code); m; m = re.exec(code)) {
      const spec = re === patterns[0][0] ? m[4] : m[2];
      const at = m.index + m[0].lastIndexOf(spec);
      push(spec, kindOf(m), at);
    }
  }
  // `import { type A, type B } from` with every name type-only is type-only too
  let lines: string[] | null = null;
  for (const r of out) {
    if (r.kind !== 'static') continue;
    lines ??= text.split('\n');
    const lineText = lines[r.line - 1] ?? '';
    const names = /import\s*\{([^}]*)\}\s*from/.exec(lineText)?.[1];
    if (names && names.split(',').every((n) => !n.trim() || /^\s*type\s/.test(n))) r.kind = 'type';
  }
  return out.sort((a, b) => a.line - b.line);
}

export interface JsResolveContext {
  /** every file of the repository (root-relative, '/'-separated) */
  files: ReadonlySet<string>;
  /** the tsconfig/jsconfig that applies: its folder, baseUrl and paths (relative to that folder) */
  tsconfig?: { dir: string; baseUrl?: string; paths?: Record<string, string[]> };
  /** workspace packages by name -> their folder (a monorepo's own packages) */
  packages?: ReadonlyMap<string, string>;
}

export type Resolution =
  { file: string } | { external: string } | { builtin: string } | { unresolved: string };

const EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts', '.json'];
const NODE_BUILTINS = new Set(
  'assert buffer child_process cluster crypto dgram dns events fs http http2 https module net os path perf_hooks process querystring readline stream string_decoder timers tls tty url util v8 vm worker_threads zlib'.split(
    ' ',
  ),
);

function normalize(path: string): string | null {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (!out.length) return null; // above the root
      out.pop();
    } else out.push(seg);
  }
  return out.join('/');
}

const dirOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const join = (dir: string, rel: string) => normalize(dir ? `${dir}/${rel}` : rel);

/** A file for a path without its extension, or a folder's index, as TypeScript tries them. */
function asFile(base: string | null, files: ReadonlySet<string>): string | null {
  if (base === null) return null;
  if (files.has(base)) return base;
  // a `.js` specifier names the compiled file: its source is the .ts next to it
  const js = /\.(m|c)?jsx?$/.exec(base);
  if (js) {
    const stem = base.slice(0, -js[0].length);
    for (const ext of js[1] === 'm' ? ['.mts'] : js[1] === 'c' ? ['.cts'] : ['.ts', '.tsx'])
      if (files.has(stem + ext)) return stem + ext;
  }
  for (const ext of EXTENSIONS) if (files.has(base + ext)) return base + ext;
  for (const ext of EXTENSIONS) if (files.has(`${base}/index${ext}`)) return `${base}/index${ext}`;
  return null;
}

function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

export function resolveJsImport(specifier: string, fromFile: string, ctx: JsResolveContext): Resolution {
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    const file = asFile(
      specifier.startsWith('/') ? normalize(specifier) : join(dirOf(fromFile), specifier),
      ctx.files,
    );
    return file ? { file } : { unresolved: specifier };
  }
  if (specifier.startsWith('node:') || NODE_BUILTINS.has(specifier.split('/')[0]))
    return { builtin: specifier.replace(/^node:/, '') };
  const ts = ctx.tsconfig;
  if (ts?.paths) {
    const base = join(ts.dir, ts.baseUrl ?? '.') ?? '';
    // the most specific pattern first: the longest prefix before '*'
    const patterns = Object.keys(ts.paths).sort(
      (a, b) => b.indexOf('*') - a.indexOf('*') || b.length - a.length,
    );
    for (const pattern of patterns) {
      const star = pattern.indexOf('*');
      let captured: string | null = null;
      if (star < 0) captured = pattern === specifier ? '' : null;
      else if (
        specifier.startsWith(pattern.slice(0, star)) &&
        specifier.endsWith(pattern.slice(star + 1)) &&
        specifier.length >= pattern.length - 1
      )
        captured = specifier.slice(star, specifier.length - (pattern.length - star - 1));
      if (captured === null) continue;
      for (const target of ts.paths[pattern]) {
        const file = asFile(join(base, target.replace('*', captured)), ctx.files);
        if (file) return { file };
      }
    }
  }
  if (ts?.baseUrl !== undefined) {
    const file = asFile(join(join(ts.dir, ts.baseUrl) ?? '', specifier), ctx.files);
    if (file) return { file };
  }
  const name = packageName(specifier);
  const pkgDir = ctx.packages?.get(name);
  if (pkgDir !== undefined) {
    const sub = specifier.slice(name.length).replace(/^\//, '');
    const file =
      asFile(join(pkgDir, sub || 'index'), ctx.files) ??
      asFile(join(pkgDir, `src/${sub || 'index'}`), ctx.files) ??
      (sub ? null : asFile(join(pkgDir, 'src/index'), ctx.files));
    if (file) return { file };
  }
  return { external: name };
}
