/**
 * The order the app shows Text/Regex results in, for people (as Sourcegraph and GitHub do): the
 * engine delivers files in walk order (ripgrep's, which the tools keep: code_search, search_files,
 * the CLI and MCP never use this), so a CHANGELOG or release notes can come before the source.
 *
 * RELEVANCE, compared in this order (the first difference decides):
 *   1. the file's role (source/file-role.ts): source; then config and examples; tests; docs;
 *      fixtures, snapshots and translations; changelogs; generated files; vendored files last
 *   2. the file name: its stem is a query word (`file-role.ts` for "file role" or "fileRole")
 *      before a name that contains one, before the rest
 *   3. a hit on a definition line that names it (`function fileRole`, `class Foo`, `def foo`)
 *   4. a folder of its path contains a query word
 *   5. more matching lines
 *   6. the path (PATH order is this alone: by UTF-16 code unit, as `rg --sort path` by bytes)
 * Query words are compared with case and punctuation dropped; a regex gives its literal runs.
 */
import { baseName } from '../source/types';
import { fileRole, type FileRole } from '../source/file-role';
import type { GrepFileResult, HitRange } from './types';

export type ResultOrder = 'relevance' | 'path';

/** Lower rank first. */
const ROLE_TIER: Readonly<Record<FileRole, number>> = {
  source: 0,
  config: 1,
  example: 1,
  test: 2,
  docs: 3,
  fixture: 4,
  snapshot: 4,
  locale: 4,
  changelog: 5,
  generated: 6,
  vendored: 7,
};

/** What relevance knows of one file; `matches` and `definition` grow as its results stream in. */
export interface TextFileRank {
  path: string;
  /** The role's rank (lower first). */
  tier: number;
  /** 2: the file's stem is a query word; 1: its name contains one; 0: neither. */
  name: number;
  /** A folder of the path contains a query word. */
  folder: boolean;
  /** A hit names the thing a line defines. */
  definition: boolean;
  /** Matching lines. */
  matches: number;
}

/** Lower case, letters and digits only: `file-role`, `FileRole` and `file_role` are one word. */
function squash(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * The words of a query that a path can match, squashed: each run of letters and digits, and
 * (several of them) all of them joined. A regex gives the runs outside its escapes (`\w+Error\(`
 * gives "error"); runs shorter than 2 characters are left out.
 */
export function queryWords(pattern: string, mode: 'literal' | 'regex'): string[] {
  const text =
    mode === 'regex'
      ? pattern.replace(/\\[pP]\{[^}]*\}|\\[a-zA-Z]/g, ' ').replace(/\[[^\]]*\]|\{\d*,?\d*\}/g, ' ')
      : pattern;
  const runs = text
    .split(/[^\p{L}\p{N}_$]+/u)
    .map(squash)
    .filter((w) => w.length >= 2);
  const words = new Set(runs);
  if (mode === 'literal' && runs.length > 1) words.add(runs.join(''));
  return [...words];
}

/** A file's rank by its path alone (matches and definition not yet known). */
export function pathRank(path: string, words: readonly string[]): TextFileRank {
  const name = baseName(path);
  const dot = name.indexOf('.', 1);
  const stem = squash(dot < 0 ? name : name.slice(0, dot));
  const squashedName = squash(name);
  const long = words.filter((w) => w.length >= 3);
  const nameLevel = words.includes(stem) ? 2 : long.some((w) => squashedName.includes(w)) ? 1 : 0;
  const folders = path.split('/').slice(0, -1).map(squash);
  return {
    path,
    tier: ROLE_TIER[fileRole(path)],
    name: nameLevel,
    folder: long.some((w) => folders.some((f) => f.includes(w))),
    definition: false,
    matches: 0,
  };
}

/** A definition keyword and the name it defines (`func (r *T) Name`, `pub fn name`, `#define NAME`). */
const DEFINITION =
  /(?:^|[^\w$#])(?:function\*?|class|interface|type|enum|struct|trait|union|def|fn|func|fun|module|namespace|const|let|var|val|object|record|protocol|#define)\s+(?:\([^)]*\)\s*)?\*?\s*([A-Za-z_$][\w$]*)/g;

/** Whether a hit on this line is the name a definition on it introduces. `ranges` are columns of `text`. */
export function isDefinitionHit(text: string, ranges: readonly HitRange[]): boolean {
  if (!ranges.length) return false;
  DEFINITION.lastIndex = 0;
  for (let m = DEFINITION.exec(text); m; m = DEFINITION.exec(text)) {
    const end = m.index + m[0].length;
    const start = end - m[1].length;
    if (ranges.some(([s, e]) => s < end && e > start)) return true;
  }
  return false;
}

/** Add a part of a file's results (a file may arrive in several) to its rank. */
export function addMatches(rank: TextFileRank, matches: GrepFileResult['matches']): void {
  rank.matches += matches.length;
  if (!rank.definition) rank.definition = matches.some((m) => isDefinitionHit(m.text, m.ranges));
}

/** By path, as `rg --sort path` (UTF-16 code units here). */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Relevance order: negative when `a` comes first (see the module note). */
export function compareRelevance(a: TextFileRank, b: TextFileRank): number {
  return (
    a.tier - b.tier ||
    b.name - a.name ||
    Number(b.definition) - Number(a.definition) ||
    Number(b.folder) - Number(a.folder) ||
    b.matches - a.matches ||
    comparePaths(a.path, b.path)
  );
}

/** The comparison for an order. */
export function rankComparer(order: ResultOrder): (a: TextFileRank, b: TextFileRank) => number {
  return order === 'path' ? (a, b) => comparePaths(a.path, b.path) : compareRelevance;
}

/** Whole results in an order (a file sent in several parts counted as one): what the app shows once every result is in. */
export function orderTextResults(
  files: readonly GrepFileResult[],
  pattern: string,
  mode: 'literal' | 'regex',
  order: ResultOrder,
): string[] {
  const words = queryWords(pattern, mode);
  const ranks = new Map<string, TextFileRank>();
  for (const f of files) {
    let rank = ranks.get(f.path);
    if (!rank) ranks.set(f.path, (rank = pathRank(f.path, words)));
    addMatches(rank, f.matches);
  }
  return [...ranks.values()].sort(rankComparer(order)).map((r) => r.path);
}
