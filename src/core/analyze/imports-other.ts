/**
 * Imports of Python, Go, Rust and C/C++ files for explore's import graph (issue 17), read
 * line by line (comments skipped) and resolved to files of the repository:
 * - Python: `import a.b`, `from a.b import c`, `from . import x`, `from ..pkg import y`; a module
 *   is `a/b.py` or the package `a/b/__init__.py`, searched from the file's package for relative
 *   imports and from the roots (the repository root and `src/`) for absolute ones;
 * - Go: `import "m/x"` and `import ( ... )` blocks; a path under the go.mod module path is that
 *   folder (every .go file in it is the package: the edge goes to the folder's first file);
 * - Rust: `mod x;` (x.rs or x/mod.rs beside the file, or in the folder named after it), and
 *   `use crate::a::b` (the longest module path that is a file under the crate's src/);
 * - C/C++: `#include "x.h"` beside the file, then from the repository root and include/;
 *   `#include <x>` is a system header (external).
 */
import type { Resolution } from './imports-js';

export type OtherLanguage = 'python' | 'go' | 'rust' | 'c';

export interface PlainImport {
  specifier: string;
  line: number;
}

export function languageOfImports(path: string): OtherLanguage | null {
  if (/\.pyi?$/.test(path)) return 'python';
  if (path.endsWith('.go')) return 'go';
  if (path.endsWith('.rs')) return 'rust';
  if (/\.(c|h|cc|cpp|cxx|hpp|hh|hxx)$/.test(path)) return 'c';
  return null;
}

export function extractImports(lang: OtherLanguage, text: string): PlainImport[] {
  const out: PlainImport[] = [];
  const lines = text.split('\n');
  let inGoBlock = false;
  let inBlockComment = false;
  lines.forEach((raw, i) => {
    let line = raw;
    if (lang !== 'python') {
      if (inBlockComment) {
        const end = line.indexOf('*/');
        if (end < 0) return;
        line = line.slice(end + 2);
        inBlockComment = false;
      }
      const start = line.indexOf('/*');
      if (start >= 0 && line.indexOf('*/', start) < 0) {
        line = line.slice(0, start);
        inBlockComment = true;
      }
      line = line.replace(/\/\*.*?\*\//g, '').replace(/\/\/.*$/, '');
    } else line = line.replace(/#.*$/, '');
    const at = i + 1;
    if (lang === 'python') {
      let m = /^\s*from\s+([.\w]+)\s+import\s+(.+)$/.exec(line);
      if (m) {
        // `from . import a, b`: each name may be a module of the package
        if (/^\.+$/.test(m[1]))
          for (const name of m[2].replace(/[()]/g, '').split(','))
            out.push({ specifier: m[1] + name.trim().split(/\s+/)[0], line: at });
        else out.push({ specifier: m[1], line: at });
        return;
      }
      m = /^\s*import\s+(.+)$/.exec(line);
      if (m)
        for (const part of m[1].split(',')) out.push({ specifier: part.trim().split(/\s+/)[0], line: at });
    } else if (lang === 'go') {
      if (/^\s*import\s*\(\s*$/.test(line)) inGoBlock = true;
      else if (inGoBlock && /^\s*\)/.test(line)) inGoBlock = false;
      const m = inGoBlock
        ? /^\s*(?:[\w.]+\s+)?"([^"]+)"/.exec(line)
        : /^\s*import\s+(?:[\w.]+\s+)?"([^"]+)"/.exec(line);
      if (m) out.push({ specifier: m[1], line: at });
    } else if (lang === 'rust') {
      let m = /^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;/.exec(line);
      if (m) out.push({ specifier: `mod:${m[1]}`, line: at });
      m = /^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+(crate|super|self)((?:::\w+)+)/.exec(line);
      if (m) out.push({ specifier: `${m[1]}${m[2]}`, line: at });
    } else {
      const m = /^\s*#\s*include\s*([<"])([^>"]+)[>"]/.exec(line);
      if (m) out.push({ specifier: m[1] === '<' ? `<${m[2]}>` : m[2], line: at });
    }
  });
  return out;
}

export interface OtherResolveContext {
  files: ReadonlySet<string>;
  /** go.mod's module path and the folder it is in */
  goModule?: { path: string; dir: string };
}

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const join = (...parts: string[]) => parts.filter(Boolean).join('/');

function normalize(path: string): string | null {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (!out.length) return null;
      out.pop();
    } else out.push(seg);
  }
  return out.join('/');
}

function pythonModule(base: string, ctx: OtherResolveContext): string | null {
  for (const f of [`${base}.py`, `${base}.pyi`, `${base}/__init__.py`]) if (ctx.files.has(f)) return f;
  return null;
}

export function resolveImport(
  lang: OtherLanguage,
  spec: string,
  fromFile: string,
  ctx: OtherResolveContext,
): Resolution {
  if (lang === 'python') {
    const dots = /^\.*/.exec(spec)![0].length;
    const rest = spec.slice(dots).split('.').filter(Boolean).join('/');
    if (dots) {
      let dir: string | null = dirOf(fromFile);
      for (let k = 1; k < dots && dir !== null; k++) dir = dir ? dirOf(dir) : null;
      const file = dir === null ? null : rest ? pythonModule(join(dir, rest), ctx) : pythonModule(dir, ctx);
      return file ? { file } : { unresolved: spec };
    }
    for (const root of ['', 'src', 'lib']) {
      // the longest prefix that is a module: `from a.b import c` where c is a name in a/b.py
      const parts = rest.split('/');
      for (let n = parts.length; n > 0; n--) {
        const file = pythonModule(join(root, parts.slice(0, n).join('/')), ctx);
        if (file) return { file };
      }
    }
    return { external: spec.split('.')[0] };
  }
  if (lang === 'go') {
    const mod = ctx.goModule;
    if (mod && (spec === mod.path || spec.startsWith(mod.path + '/'))) {
      const dir = join(mod.dir, spec.slice(mod.path.length + 1));
      const first = [...ctx.files]
        .filter((f) => dirOf(f) === dir && f.endsWith('.go') && !f.endsWith('_test.go'))
        .sort()[0];
      return first ? { file: first } : { unresolved: spec };
    }
    return spec.includes('.') ? { external: spec.split('/').slice(0, 3).join('/') } : { builtin: spec };
  }
  if (lang === 'rust') {
    const here = dirOf(fromFile);
    const base = fromFile.replace(/\.rs$/, '');
    const modDir = /(^|\/)(main|lib|mod)\.rs$/.test(fromFile) ? here : base;
    if (spec.startsWith('mod:')) {
      const name = spec.slice(4);
      for (const f of [join(modDir, `${name}.rs`), join(modDir, name, 'mod.rs')])
        if (ctx.files.has(f)) return { file: f };
      return { unresolved: name };
    }
    const [head, ...path] = spec.split('::');
    const srcIdx = fromFile.lastIndexOf('src/');
    const crateRoot = srcIdx >= 0 ? fromFile.slice(0, srcIdx + 3) : here;
    const start = head === 'crate' ? crateRoot : head === 'super' ? dirOf(modDir) : modDir;
    for (let n = path.length; n > 0; n--) {
      const p = join(start, ...path.slice(0, n));
      for (const f of [`${p}.rs`, `${p}/mod.rs`]) if (ctx.files.has(f)) return { file: f };
    }
    return { unresolved: spec };
  }
  if (spec.startsWith('<')) return { external: spec.slice(1, -1) };
  for (const dir of [dirOf(fromFile), '', 'include', 'src']) {
    const f = normalize(join(dir, spec));
    if (f && ctx.files.has(f)) return { file: f };
  }
  return { unresolved: spec };
}
