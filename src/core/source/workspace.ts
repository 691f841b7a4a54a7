/**
 * A workspace is one or more roots (seed 000's `codebasePaths`). With one root, paths are
 * root-relative; with several, each path is prefixed by its root's name.
 */
import { QuarryError } from '../errors';
import { MAX_PATH_CHARS } from '../limits';
import type { FileSource } from './types';

/** A path argument's own faults (before any file system sees it): a NUL, an absurd length. */
export function checkPathArgument(path: string, field: string): void {
  if (path.includes('\0'))
    throw new QuarryError('InvalidArgument', `${field} must not contain a NUL character`, { field });
  if (path.length > MAX_PATH_CHARS) {
    throw new QuarryError(
      'InvalidArgument',
      `${field} is too long: ${path.length} characters (the limit is ${MAX_PATH_CHARS})`,
      { field },
    );
  }
}

export interface ResolvedPath {
  rootIndex: number;
  source: FileSource;
  /** Root-relative POSIX path ('' for the root itself). */
  rel: string;
  /** The path as tools print it. */
  display: string;
  absolute: string;
}

/**
 * Normalise a user path to POSIX segments; '..' that climbs above the start is an error.
 * A backslash is a separator too, unless `literalBackslash` (a POSIX file name may hold one).
 */
export function normalizeRelative(path: string, field: string, literalBackslash = false): string {
  const parts: string[] = [];
  for (const seg of (literalBackslash ? path : path.replace(/\\/g, '/')).split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (!parts.length) {
        throw new QuarryError('PathOutsideRoot', `${field} escapes the root: "${path}"`, {
          field,
          value: path,
        });
      }
      parts.pop();
      continue;
    }
    parts.push(seg);
  }
  return parts.join('/');
}

function isAbsolute(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path);
}

export class Workspace {
  readonly roots: FileSource[];
  readonly names: string[];

  constructor(roots: FileSource[]) {
    if (!roots.length)
      throw new QuarryError('InvalidArgument', 'A workspace needs at least one root', { field: 'root' });
    this.roots = roots;
    const seen = new Map<string, number>();
    this.names = roots.map((r) => {
      const n = (seen.get(r.name) ?? 0) + 1;
      seen.set(r.name, n);
      return n === 1 ? r.name : `${r.name}-${n}`;
    });
  }

  get multiRoot(): boolean {
    return this.roots.length > 1;
  }

  displayPath(rootIndex: number, rel: string): string {
    return this.multiRoot ? (rel ? `${this.names[rootIndex]}/${rel}` : this.names[rootIndex]) : rel;
  }

  absolutePath(rootIndex: number, rel: string): string {
    const base = this.roots[rootIndex].absoluteRoot.replace(/[\\/]+$/, '');
    return rel ? `${base}/${rel}` : base;
  }

  private make(rootIndex: number, rel: string): ResolvedPath {
    return {
      rootIndex,
      source: this.roots[rootIndex],
      rel,
      display: this.displayPath(rootIndex, rel),
      absolute: this.absolutePath(rootIndex, rel),
    };
  }

  /**
   * Resolve a path given by a caller: absolute under a root, relative to the root (one root),
   * or prefixed by a root name (several roots). Paths that escape every root are refused.
   * Returns every candidate in root order (a relative path may exist in more than one root).
   */
  resolveAll(path: string, field: string): ResolvedPath[] {
    if (typeof path !== 'string') {
      throw new QuarryError('InvalidArgument', `${field} must be a string`, { field, value: path });
    }
    checkPathArgument(path, field);
    if (path.includes('\\') && !isAbsolute(path) && !path.split(/[\\/]/).includes('..')) {
      // `a\b.ts` may be a file named so (POSIX) or a Windows-style path: the literal name first
      // (never with a '..' part: on Windows `..\x` climbs, and `a\b/../c` means a/c)
      const literal = this.resolveRelative(normalizeRelative(path, field, true));
      const unifiedForm = this.resolveRelative(normalizeRelative(path, field));
      return [
        ...literal,
        ...unifiedForm.filter((u) => !literal.some((l) => l.rootIndex === u.rootIndex && l.rel === u.rel)),
      ];
    }
    const unified = path.replace(/\\/g, '/');
    if (isAbsolute(path)) {
      const out: ResolvedPath[] = [];
      // a POSIX absolute path keeps its backslashes (file names) first, then reads them as separators
      const forms =
        path.startsWith('/') && path.includes('\\') && !path.split(/[\\/]/).includes('..')
          ? [path, unified]
          : [unified];
      for (const form of forms) {
        for (let i = 0; i < this.roots.length; i++) {
          const base = this.roots[i].absoluteRoot.replace(/\\/g, '/').replace(/\/+$/, '');
          if (form === base || form.startsWith(base + '/')) {
            const rel = normalizeRelative(form.slice(base.length), field, form !== unified);
            if (!out.some((o) => o.rootIndex === i && o.rel === rel)) out.push(this.make(i, rel));
            break;
          }
        }
      }
      if (out.length) return out;
      throw new QuarryError('PathOutsideRoot', `${field} is outside every root: "${path}"`, {
        field,
        value: path,
      });
    }
    return this.resolveRelative(normalizeRelative(unified, field));
  }

  /** An indexed (display) path back to its root and root-relative path, taken literally; null when it names no root. */
  locate(displayPath: string): ResolvedPath | null {
    if (!this.multiRoot) return this.make(0, displayPath);
    const slash = displayPath.indexOf('/');
    const i = this.names.indexOf(slash < 0 ? displayPath : displayPath.slice(0, slash));
    return i < 0 ? null : this.make(i, slash < 0 ? '' : displayPath.slice(slash + 1));
  }

  private resolveRelative(rel: string): ResolvedPath[] {
    if (!this.multiRoot) return [this.make(0, rel)];
    const first = rel.split('/')[0];
    const byName = this.names.indexOf(first);
    if (byName >= 0) return [this.make(byName, rel.slice(first.length + 1))];
    return this.roots.map((_, i) => this.make(i, rel));
  }
}
