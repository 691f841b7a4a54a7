/**
 * What one file imports, resolved to the workspace's files: the second tier of definition
 * ranking. The same extraction and resolution as explore's import graph (core/analyze), for a
 * single file; a Go import names a package (a folder), a C include's header also brings the
 * source files beside it with its stem (`util.h` → `util.c`).
 */
import { extractJsImports, resolveJsImport } from '../analyze/imports-js';
import { extractImports, languageOfImports, resolveImport } from '../analyze/imports-other';

export interface FileImports {
  files: Set<string>;
  /** Folders imported as a whole (Go packages). */
  dirs: Set<string>;
}

const JS = /\.(m|c)?[jt]sx?$/;
const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

export function importsOfFile(
  path: string,
  text: string,
  files: ReadonlySet<string>,
  goModule?: { path: string; dir: string },
): FileImports {
  const out: FileImports = { files: new Set(), dirs: new Set() };
  if (JS.test(path) || /\.(vue|svelte|astro)$/.test(path)) {
    for (const ref of extractJsImports(text)) {
      const r = resolveJsImport(ref.specifier, path, { files });
      if ('file' in r) out.files.add(r.file);
    }
    return out;
  }
  const lang = languageOfImports(path);
  if (!lang) return out;
  for (const ref of extractImports(lang, text)) {
    const r = resolveImport(lang, ref.specifier, path, { files, goModule });
    if (!('file' in r)) continue;
    out.files.add(r.file);
    if (lang === 'go') out.dirs.add(dirOf(r.file));
    if (lang === 'c' && /\.(h|hh|hpp|hxx)$/.test(r.file)) {
      const stem = r.file.replace(/\.[^.]+$/, '');
      for (const ext of ['.c', '.cc', '.cpp', '.cxx']) if (files.has(stem + ext)) out.files.add(stem + ext);
    }
  }
  return out;
}

/** go.mod's module path and folder, read from its text. */
export function goModuleOf(goModPath: string, text: string): { path: string; dir: string } | undefined {
  const m = /^\s*module\s+(\S+)/m.exec(text);
  return m ? { path: m[1], dir: dirOf(goModPath) } : undefined;
}
