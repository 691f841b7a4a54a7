/**
 * Links written before the query language (issue 35) carry `include=`, `exclude=` and `ext=`
 * beside `q=`. In Text and Regex modes they are converted, once on load, into filters at the end
 * of the query that select the same files: an include glob is `file:<glob>` (several are one
 * brace glob, since every `file:` must hold), an exclude glob is `-file:<glob>`, extensions are
 * `file:*.{ts,tsx}`. A glob without glob characters (`src`, `docs/a.md`) matched a name or a
 * whole path, while `file:` reads such a value as a path fragment: it becomes an anchored
 * regex. Globs are matched the same way as before (core/walk/glob.ts compileGlob).
 */
import { printFilter } from '../../core/query/print';
import { splitList } from '../url-state';

const GLOB_CHARS = /[*?[{]/;

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One glob as a `file:` value selecting what it selected as an include or exclude glob. */
function globValue(glob: string): string {
  const g = glob.startsWith('/') ? glob.slice(1) : glob;
  if (GLOB_CHARS.test(g)) return g;
  // no glob characters: a name anywhere (no slash) or the whole path
  return g.includes('/') ? `^${escapeRegex(g)}$` : `(^|/)${escapeRegex(g)}$`;
}

/** Several include globs, any of which selects a file, as one brace glob. */
function anyOf(globs: string[]): string {
  if (globs.length === 1) return globValue(globs[0]);
  const stripped = globs.map((g) => (g.startsWith('/') ? g.slice(1) : g));
  const slashes = stripped.some((g) => g.includes('/'));
  // with a slash anywhere the glob matches whole paths: a name glob then needs both its forms
  const members = stripped.flatMap((g) => (slashes && !g.includes('/') ? [g, `**/${g}`] : [g]));
  return `{${members.join(',')}}`;
}

/** The old fields as query filters ('' when none is set). */
export function legacyFilterText(include: string, exclude: string, ext: string): string {
  const includes = splitList(include);
  const positive = includes.filter((g) => !g.startsWith('!'));
  const negative = [
    ...includes.filter((g) => g.startsWith('!')).map((g) => g.slice(1)),
    ...splitList(exclude),
  ]
    .map((g) => (g.startsWith('!') ? g.slice(1) : g))
    .filter(Boolean);
  const exts = splitList(ext)
    .map((e) => e.replace(/^\./, ''))
    .filter(Boolean);
  const parts: string[] = [];
  if (positive.length) parts.push(printFilter({ field: 'file', value: anyOf(positive), negated: false }));
  for (const g of negative) parts.push(printFilter({ field: 'file', value: globValue(g), negated: true }));
  if (exts.length) {
    const value = exts.length === 1 ? `*.${exts[0]}` : `*.{${exts.join(',')}}`;
    parts.push(printFilter({ field: 'file', value, negated: false }));
  }
  return parts.join(' ');
}

/** The query with the old fields' filters after it. */
export function withLegacyFilters(q: string, include: string, exclude: string, ext: string): string {
  const filters = legacyFilterText(include, exclude, ext);
  if (!filters) return q;
  const head = q.replace(/\s+$/, '');
  return head ? `${head} ${filters}` : filters;
}
