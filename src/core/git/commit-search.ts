/**
 * Search over the stored commit log (`type:commit`): a commit's message and author, filtered by
 * date, as `git log --grep=<re> [-i] [--author=<re>] [--since/--until]` selects them.
 *
 *   message ... matched LINE BY LINE, as git's --grep does (a hit never spans a newline; `^` and
 *               `$` anchor at each line); subject and body alike.
 *   author .... matched against "Name <email>" (git strips the date from the author header).
 *               With both, a commit must match both (git ANDs header and body patterns).
 *   dates ..... git's choice by default: the COMMITTER date, both ends inclusive (`--until` keeps
 *               date <= until, `--since` keeps date >= since), in whole seconds. `dateField:
 *               'author'` compares the author date Quarry shows instead. git also stops walking
 *               past a commit older than --since; on a log whose committer dates are not
 *               monotonic (rebased or imported history) git may so list fewer commits than here.
 *
 * Patterns are JavaScript regular expressions (git's --grep takes POSIX BRE, -E ERE): the
 * common subset (literals, classes, `.`, `*`, `+`, `?`, `|`, groups, anchors) means the same.
 *
 * Pure and synchronous: a 10,000-commit log takes a few milliseconds. No allocation per commit
 * for a miss: a message is sliced into lines only when the whole-message scan found a candidate.
 */
import { QuarryError } from '../errors';
import type { LogCommit } from './types';

/** [start, end) in UTF-16 code units. */
export type TextRange = [start: number, end: number];

/** Finds hits in text; built by `literalMatcher` or `regexMatcher`. */
export interface TextMatcher {
  readonly kind: 'literal' | 'regex';
  readonly source: string;
  readonly caseSensitive: boolean;
  /** Whether some line of `text` (split at '\n') has a hit; an empty match counts, as in git. */
  test(text: string): boolean;
  /** Non-empty hits in `text`, in order, not overlapping, none spanning a '\n'. */
  ranges(text: string): TextRange[];
  /** Occurrences in the whole text, not overlapping (git log -S's count; may span lines). */
  count(text: string): number;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

function badPattern(source: unknown, why: string): QuarryError {
  return new QuarryError('InvalidPattern', `"${String(source)}" is not a valid pattern: ${why}`, {
    field: 'pattern',
    value: source,
  });
}

/** Hits of a global regex in one line (no '\n'), offsets shifted by `at`, appended to `out`. */
function lineRanges(re: RegExp, line: string, at: number, out: TextRange[]): void {
  re.lastIndex = 0;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    const end = m.index + m[0].length;
    if (end > m.index) out.push([at + m.index, at + end]);
    else re.lastIndex = m.index + 1; // an empty match: step over it
    if (re.lastIndex > line.length) break;
  }
}

class RegexTextMatcher implements TextMatcher {
  /** For one line (no 'm': `$` is the line's end, not before a '\r'). */
  private readonly lineRe: RegExp;
  /** For a whole text: candidates (a superset of the lines' hits) and counts. */
  private readonly textRe: RegExp;
  /** Assertions that look past a match (anchors, lookarounds): a whole-text match is then only a candidate. */
  private readonly contextual: boolean;

  constructor(
    readonly kind: 'literal' | 'regex',
    readonly source: string,
    readonly caseSensitive: boolean,
    pattern: string,
  ) {
    const flags = caseSensitive ? 'g' : 'gi';
    try {
      this.lineRe = new RegExp(pattern, flags);
      this.textRe = new RegExp(pattern, `${flags}m`);
    } catch (err) {
      throw badPattern(source, err instanceof Error ? err.message : String(err));
    }
    this.contextual = /[\^$]|\(\?<?[=!]/.test(pattern);
  }

  test(text: string): boolean {
    if (text.indexOf('\n') < 0) {
      this.lineRe.lastIndex = 0;
      return this.lineRe.test(text);
    }
    this.textRe.lastIndex = 0;
    const m = this.textRe.exec(text);
    if (!m) return false;
    if (m[0].indexOf('\n') < 0 && !this.contextual) return true;
    // confirm line by line, from the candidate's line on (no line before it can match)
    let start = text.lastIndexOf('\n', m.index - 1) + 1;
    for (;;) {
      const nl = text.indexOf('\n', start);
      const line = nl < 0 ? text.slice(start) : text.slice(start, nl);
      this.lineRe.lastIndex = 0;
      if (this.lineRe.test(line)) return true;
      if (nl < 0) return false;
      start = nl + 1;
    }
  }

  ranges(text: string): TextRange[] {
    const out: TextRange[] = [];
    if (text.indexOf('\n') < 0) {
      lineRanges(this.lineRe, text, 0, out);
      return out;
    }
    for (let start = 0; start <= text.length;) {
      const nl = text.indexOf('\n', start);
      const end = nl < 0 ? text.length : nl;
      lineRanges(this.lineRe, text.slice(start, end), start, out);
      start = end + 1;
    }
    return out;
  }

  count(text: string): number {
    const re = this.textRe;
    re.lastIndex = 0;
    let n = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      n++;
      if (m[0].length === 0) re.lastIndex = m.index + 1;
      if (re.lastIndex >= text.length) break;
    }
    return n;
  }
}

/** A case-sensitive literal: indexOf, nothing compiled. */
class LiteralTextMatcher implements TextMatcher {
  readonly kind = 'literal';
  readonly caseSensitive = true;
  private readonly multiline: boolean;

  constructor(readonly source: string) {
    this.multiline = source.includes('\n');
  }

  test(text: string): boolean {
    return !this.multiline && text.indexOf(this.source) >= 0;
  }

  ranges(text: string): TextRange[] {
    const out: TextRange[] = [];
    if (this.multiline) return out;
    const n = this.source.length;
    for (let i = text.indexOf(this.source); i >= 0; i = text.indexOf(this.source, i + n))
      out.push([i, i + n]);
    return out;
  }

  count(text: string): number {
    let count = 0;
    const n = this.source.length;
    for (let i = text.indexOf(this.source); i >= 0; i = text.indexOf(this.source, i + n)) count++;
    return count;
  }
}

/**
 * A fixed string (git -F, or -S without --pickaxe-regex). Case-insensitive: simple Unicode case
 * folding (git folds ASCII only). A literal holding a newline matches no single line.
 */
export function literalMatcher(text: string, caseSensitive = true): TextMatcher {
  if (typeof text !== 'string' || text === '') throw badPattern(text, 'the text to find is empty');
  return caseSensitive
    ? new LiteralTextMatcher(text)
    : new RegexTextMatcher('literal', text, false, escapeRegex(text));
}

/** A JavaScript regular expression; invalid syntax is a QuarryError('InvalidPattern'). */
export function regexMatcher(source: string, caseSensitive = true): TextMatcher {
  if (typeof source !== 'string' || source === '') throw badPattern(source, 'the pattern is empty');
  return new RegexTextMatcher('regex', source, caseSensitive, source);
}

export interface CommitQuery {
  /** Matched against the message (subject and body), line by line. */
  match?: TextMatcher;
  /** Matched against "Name <email>". */
  author?: TextMatcher;
  /** ms since the epoch: commits dated at or before it (git --before/--until). */
  before?: number;
  /** ms since the epoch: commits dated at or after it (git --after/--since). */
  after?: number;
  /** Which date `before`/`after` compare: the committer's (git's; default) or the author's. */
  dateField?: 'committer' | 'author';
}

export interface CommitSearchOptions {
  /** Hits returned at most (default: all). */
  limit?: number;
  /** Index in `commits` to start at (a later page: the previous result's `next`). */
  start?: number;
  /** Keep counting matches past `limit` so `total` is exact (default true; cheap: no ranges). */
  countAll?: boolean;
  signal?: AbortSignal;
}

export interface CommitHit {
  commit: LogCommit;
  /** Its index in the searched log. */
  index: number;
  /** Hits in `commit.message` (empty when no message pattern was given). */
  message: TextRange[];
  /** Hits in `${author} <${email}>` (empty when no author pattern was given). */
  author: TextRange[];
}

export interface CommitSearchResult {
  hits: CommitHit[];
  /** Commits looked at (from `start`). */
  searched: number;
  /** Commits matching among those searched (past `limit` too, unless countAll was false). */
  total: number;
  ending: 'done' | 'limit' | 'cancelled';
  /** Where to resume for more hits (the first matching commit not returned), or null when none are left. */
  next: number | null;
}

/** Commits checked between looks at the signal. */
const SIGNAL_EVERY = 1024;

function checkNumber(value: unknown, field: string, integer: boolean): void {
  if (value === undefined) return;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    (integer && (value < 0 || !Number.isInteger(value)))
  )
    throw new QuarryError(
      'InvalidArgument',
      `${field} must be a ${integer ? 'non-negative integer' : 'number'}`,
      {
        field,
        value,
      },
    );
}

/** The commits matching `query`, newest first as the log holds them. */
export function searchCommits(
  commits: readonly LogCommit[],
  query: CommitQuery,
  options: CommitSearchOptions = {},
): CommitSearchResult {
  if (!Array.isArray(commits))
    throw new QuarryError('InvalidArgument', 'commits must be an array', { field: 'commits' });
  checkNumber(query.before, 'before', false);
  checkNumber(query.after, 'after', false);
  checkNumber(options.limit, 'limit', true);
  checkNumber(options.start, 'start', true);
  const { match, author } = query;
  const limit = options.limit ?? Infinity;
  const countAll = options.countAll ?? true;
  const byAuthorDate = query.dateField === 'author';
  const before = query.before ?? Infinity;
  const after = query.after ?? -Infinity;
  const dated = query.before !== undefined || query.after !== undefined;
  const hits: CommitHit[] = [];
  let total = 0;
  let next: number | null = null;
  let i = options.start ?? 0;
  const from = i;
  let ending: CommitSearchResult['ending'] = 'done';
  for (; i < commits.length; i++) {
    if ((i - from) % SIGNAL_EVERY === 0 && options.signal?.aborted) {
      ending = 'cancelled';
      break;
    }
    const c = commits[i];
    if (dated) {
      const when = byAuthorDate ? c.date : c.committed * 1000;
      if (when > before || when < after) continue;
    }
    let who: string | null = null;
    if (author) {
      who = `${c.author} <${c.email}>`;
      if (!author.test(who)) continue;
    }
    if (match && !match.test(c.message)) continue;
    total++;
    if (hits.length < limit) {
      hits.push({
        commit: c,
        index: i,
        message: match ? match.ranges(c.message) : [],
        author: author && who !== null ? author.ranges(who) : [],
      });
    } else {
      ending = 'limit';
      next ??= i;
      if (!countAll) {
        i++;
        break;
      }
    }
  }
  return { hits, searched: Math.max(0, i - from), total, ending, next };
}
