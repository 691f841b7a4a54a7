/**
 * The query language's filters: every `key:` the parser knows, its aliases, what it means, and
 * the check its value must pass. The app's completion reads QUERY_FILTERS and
 * completeFilterValues; the parser reads filterFieldOf, suggestFilter and checkFilterValue.
 */
import type { FilterField, QueryType } from './types';

export interface QueryFilterSpec {
  /** The canonical name (what the parsed query holds and printQuery writes). */
  field: FilterField;
  /** Other spellings accepted (Sourcegraph's and GitHub's, and short forms). */
  aliases: readonly string[];
  /** One line for the completion list. */
  description: string;
  /** The allowed values, where they are a closed set. */
  values?: readonly string[];
  /** A whole example, e.g. `file:src/`. */
  example: string;
}

const TYPES: readonly QueryType[] = ['file', 'symbol', 'commit', 'diff'];

export const QUERY_FILTERS: readonly QueryFilterSpec[] = [
  {
    field: 'file',
    aliases: ['path', 'f'],
    description: 'Only files whose path matches this glob or path fragment',
    example: 'file:src/',
  },
  {
    field: 'lang',
    aliases: ['language', 'l'],
    description: 'Only files in this language',
    example: 'lang:typescript',
  },
  {
    field: 'case',
    aliases: [],
    description: 'Match upper and lower case exactly (yes) or not (no, the default)',
    values: ['yes', 'no'],
    example: 'case:yes',
  },
  {
    field: 'root',
    aliases: ['repo', 'r'],
    description: 'Only files in this open root (repository)',
    example: 'root:app',
  },
  {
    field: 'type',
    aliases: [],
    description: 'What to search: file contents (the default), symbols, commit messages or diffs',
    values: TYPES,
    example: 'type:symbol',
  },
  {
    field: 'select',
    aliases: [],
    description: 'List the matching files only, not their lines',
    values: ['file'],
    example: 'select:file',
  },
  {
    field: 'count',
    aliases: [],
    description: 'Stop after this many results, or all to find every one',
    example: 'count:all',
  },
  {
    field: 'author',
    aliases: [],
    description: 'Only commits by this author (name or email)',
    example: 'author:ann',
  },
  {
    field: 'before',
    aliases: ['until'],
    description: 'Only commits before this date (YYYY-MM-DD) or age (3d, 2w, 6m, 1y)',
    example: 'before:2024-01-31',
  },
  {
    field: 'after',
    aliases: ['since'],
    description: 'Only commits after this date (YYYY-MM-DD) or age (3d, 2w, 6m, 1y)',
    example: 'after:2w',
  },
];

const FIELD_BY_NAME = new Map<string, FilterField>();
for (const spec of QUERY_FILTERS) {
  FIELD_BY_NAME.set(spec.field, spec.field);
  for (const alias of spec.aliases) FIELD_BY_NAME.set(alias, spec.field);
}

/** Every name and alias, canonical names first within each filter, in table order. */
const ALL_NAMES: readonly string[] = QUERY_FILTERS.flatMap((s) => [s.field, ...s.aliases]);

/** The canonical field a key names (case-insensitive, without the colon), or undefined. */
export function filterFieldOf(key: string): FilterField | undefined {
  return FIELD_BY_NAME.get(key.toLowerCase());
}

export function filterSpec(field: FilterField): QueryFilterSpec {
  const spec = QUERY_FILTERS.find((s) => s.field === field);
  if (!spec) throw new Error(`no filter ${field}`);
  return spec;
}

const VALUE_EXAMPLES: Partial<Record<FilterField, readonly string[]>> = {
  count: ['all', '10', '100', '1000'],
  before: ['1d', '1w', '1m', '1y'],
  after: ['1d', '1w', '1m', '1y'],
};

/**
 * The values to offer after `field:` where the language knows them: the closed sets (type, case,
 * select) and examples for count and the dates. Open sets (languages, roots, folders, authors)
 * come from the app, so they answer [].
 */
export function completeFilterValues(field: FilterField): string[] {
  return [...(filterSpec(field).values ?? VALUE_EXAMPLES[field] ?? [])];
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps cost 1. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[i].push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i].push(d);
    }
  }
  return rows[a.length][b.length];
}

/** The nearest of `candidates` to `word` within `limit(candidate)`, ties to the first; undefined if none. */
function nearest(
  word: string,
  candidates: readonly string[],
  limit: (c: string) => number,
): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d <= limit(c) && d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * The filter name or alias nearest to `word` (case-insensitive; a leading `-` and a trailing `:`
 * are ignored): the name itself when it is one, else the nearest name of 3 or more letters within
 * 1 edit (names of up to 4 letters) or 2 edits (longer names), where swapping two neighbouring
 * letters is one edit. Undefined when none is that near (so `name:` and `data:` stay text).
 */
export function suggestFilter(word: string): string | undefined {
  const w = word.toLowerCase().replace(/^-/, '').replace(/:$/, '');
  if (FIELD_BY_NAME.has(w)) return w;
  if (w.length < 3) return undefined;
  return nearest(
    w,
    ALL_NAMES.filter((n) => n.length >= 3),
    (c) => (c.length <= 4 ? 1 : 2),
  );
}

export type ValueCheck = { ok: true; value: string } | { ok: false; message: string; suggestion?: string };

const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|[+-]\d{2}:?\d{2})?)?$/;
const AGE = /^[1-9]\d{0,5}[dwmy]$/i;

function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > days) return false;
  return !(Number(m[4] ?? 0) > 23 || Number(m[5] ?? 0) > 59 || Number(m[6] ?? 0) > 59);
}

function listOf(values: readonly string[]): string {
  return values.length === 1
    ? values[0]
    : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}

/** GitHub's and Sourcegraph's spellings that are near no value by edit distance. */
const VALUE_HINTS: Record<string, string> = { code: 'file', content: 'file', true: 'yes', false: 'no' };

function checkClosed(key: string, spec: QueryFilterSpec, values: readonly string[], raw: string): ValueCheck {
  const lower = raw.toLowerCase();
  if (values.includes(lower)) return { ok: true, value: lower };
  const message = `\`${key}:\` must be ${listOf(values)}, not \`${raw}\``;
  const hint = VALUE_HINTS[lower];
  const near = hint && values.includes(hint) ? hint : nearest(lower, values, () => 2);
  return near
    ? { ok: false, message, suggestion: `did you mean \`${spec.field}:${near}\`?` }
    : { ok: false, message };
}

/**
 * Checks and normalises a filter's value: closed sets and `all` and ages are lowercased, counts
 * lose leading zeros; free text (file, lang, root, author) passes as written. `key` is the key as
 * typed, for the message.
 */
export function checkFilterValue(field: FilterField, key: string, raw: string): ValueCheck {
  const spec = filterSpec(field);
  if (spec.values) return checkClosed(key, spec, spec.values, raw);
  if (field === 'count') {
    if (/^all$/i.test(raw)) return { ok: true, value: 'all' };
    const digits = /^\d+$/.test(raw) ? raw.replace(/^0+/, '') : '';
    if (digits !== '') return { ok: true, value: digits };
    return {
      ok: false,
      message: `\`${key}:\` must be a positive whole number or all, not \`${raw}\``,
      suggestion: 'e.g. `count:100` or `count:all`',
    };
  }
  if (field === 'before' || field === 'after') {
    if (isIsoDate(raw)) return { ok: true, value: raw };
    if (AGE.test(raw)) return { ok: true, value: raw.toLowerCase() };
    return {
      ok: false,
      message: `\`${key}:\` must be a date like 2024-05-31 or an age like 2w, not \`${raw}\``,
      suggestion: 'ages count back from today: 3d (days), 2w (weeks), 6m (months), 1y (years)',
    };
  }
  return { ok: true, value: raw };
}
