/**
 * Globs as ripgrep's --glob reads them: a pattern without '/' matches the file name at any
 * depth (`*.ts`), a pattern with '/' matches the path from the root (`src/**\/*.ts`), braces
 * expand (`*.{js,ts}`), and a leading '!' in an include list turns it into an exclude.
 */
import picomatch from 'picomatch';
import { QuarryError } from '../errors';
import { extensionOf } from '../source/types';

export type PathTest = (path: string) => boolean;

/** Reject what picomatch would silently accept but no user means: unbalanced braces or brackets, empty globs. */
export function validateGlob(glob: string, field: string): void {
  if (typeof glob !== 'string' || glob.trim() === '') {
    throw new QuarryError('InvalidGlob', `${field} must be a non-empty glob`, { field, value: glob });
  }
  let braces = 0;
  let inClass = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '{') braces++;
    else if (c === '}') {
      braces--;
      if (braces < 0)
        throw new QuarryError('InvalidGlob', `${field} has an unmatched '}' in glob "${glob}"`, {
          field,
          value: glob,
        });
    }
  }
  if (inClass)
    throw new QuarryError('InvalidGlob', `${field} has an unclosed '[' in glob "${glob}"`, {
      field,
      value: glob,
    });
  if (braces > 0)
    throw new QuarryError('InvalidGlob', `${field} has an unclosed '{' in glob "${glob}"`, {
      field,
      value: glob,
    });
}

export function compileGlob(glob: string, field: string): PathTest {
  validateGlob(glob, field);
  const pattern = glob.startsWith('/') ? glob.slice(1) : glob; // anchored to the root, as in gitignore
  const hasSlash = pattern.includes('/');
  try {
    const test = picomatch(pattern, { dot: true, basename: !hasSlash, strictBrackets: true });
    return (path: string) => test(path);
  } catch (err) {
    throw new QuarryError(
      'InvalidGlob',
      `${field} is not a valid glob "${glob}": ${err instanceof Error ? err.message : err}`,
      {
        field,
        value: glob,
      },
    );
  }
}

export interface PathFilterSpec {
  /** Globs a file must match (any of). Entries starting with '!' are excludes. */
  include?: string[];
  /** Globs that exclude a file (any of). */
  exclude?: string[];
  /** Final extensions without dot ('ts' or '.ts'); case-sensitive. */
  extensions?: string[];
  /** Case-sensitive substring of the path (a backslash matches itself, or '/'). */
  pathContains?: string;
  /** Field names for error messages. */
  fields?: { include?: string; exclude?: string; extensions?: string };
}

/** One predicate from every path filter; null when nothing filters. */
/**
 * Whether `path` holds `needle` as written (a backslash of a POSIX file name, `back\slash.ts`) or
 * with its backslashes read as '/' (a Windows-style `src\core`).
 */
export function pathContains(path: string, needle: string): boolean {
  return path.includes(needle) || (needle.includes('\\') && path.includes(needle.replace(/\\/g, '/')));
}

export function compilePathFilter(spec: PathFilterSpec): PathTest | null {
  const tests: PathTest[] = [];
  const includeField = spec.fields?.include ?? 'include';
  const excludeField = spec.fields?.exclude ?? 'exclude';
  const includes: PathTest[] = [];
  const excludes: PathTest[] = [];
  for (const g of spec.include ?? []) {
    if (typeof g === 'string' && g.startsWith('!')) excludes.push(compileGlob(g.slice(1), includeField));
    else includes.push(compileGlob(g, includeField));
  }
  for (const g of spec.exclude ?? [])
    excludes.push(compileGlob(g.startsWith('!') ? g.slice(1) : g, excludeField));
  if (includes.length) tests.push((p) => includes.some((t) => t(p)));
  if (excludes.length) tests.push((p) => !excludes.some((t) => t(p)));
  if (spec.extensions?.length) {
    const exts = new Set(spec.extensions.map((e) => (e.startsWith('.') ? e.slice(1) : e)));
    tests.push((p) => exts.has(extensionOf(p)));
  }
  if (spec.pathContains) {
    const needle = spec.pathContains;
    tests.push((p) => pathContains(p, needle));
  }
  if (!tests.length) return null;
  return (p) => tests.every((t) => t(p));
}
