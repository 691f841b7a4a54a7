/**
 * A `type:commit` or `type:diff` query's plan (core/query/plan.ts) run over one root's commit
 * log: commit search over the messages and authors (core/git/commit-search.ts), or the lines
 * commits added and removed (diff-search.ts, git log -G's choice of commits). Results carry
 * workspace paths (the root's prefix) and the query's hits; the summary says how far back the
 * search reached and whether the log stops at a shallow clone's boundary.
 */
import { searchCommits, type CommitQuery } from '../../core/git/commit-search';
import type { LogCommit } from '../../core/git/types';
import type { QueryPlan } from '../../core/query/plan';
import { planPathTest } from '../../core/query/plan-engine';
import type { HistoryResult, HistorySearchSummary } from '../../core/query/results';
import { authorMatcher, exprTextMatcher } from '../../core/query/text-matcher';
import type { GitObjectStore } from './objects';
import { searchDiffs, type DiffCommitHit } from './diff-search';

export type HistoryPlan = Extract<QueryPlan, { type: 'commit' | 'diff' }>;

export interface HistoryQueryOptions {
  /** The root's log, newest first, and whether it stops at a shallow boundary. */
  commits: readonly LogCommit[];
  shallow: boolean;
  /** The root's objects (type:diff reads trees and blobs). */
  objects: GitObjectStore;
  /** Put in front of the root's paths. */
  prefix: string;
  signal?: AbortSignal;
  onResult(result: HistoryResult): void;
  onProgress?(searched: number, total: number): void;
  maybeYield?: () => Promise<void> | void;
}

const subjectOf = (message: string) => message.split('\n', 1)[0];

/** A commit's hits as a result; with select:file its files and their counts only. */
function diffResult(hit: DiffCommitHit, prefix: string, filesOnly: boolean): HistoryResult {
  const c = hit.commit;
  return {
    kind: 'diff',
    oid: c.oid,
    author: c.author,
    email: c.email,
    date: c.date,
    subject: subjectOf(c.message),
    files: hit.files.map((f) => ({
      path: prefix + f.path,
      change: f.change,
      lines: filesOnly
        ? []
        : f.lines.map((l) => ({
            side: l.side,
            line: l.line,
            text: l.text,
            column: l.column,
            ranges: l.ranges,
          })),
      moreLines: filesOnly ? f.lines.length + f.moreLines : f.moreLines,
    })),
  };
}

function commitQuery(plan: HistoryPlan): CommitQuery {
  const q: CommitQuery = {};
  if (plan.author !== null) q.author = authorMatcher(plan.author, plan.caseMode);
  if (plan.before !== null) q.before = plan.before;
  if (plan.after !== null) q.after = plan.after;
  return q;
}

/** Run the plan; results go out through onResult as they are found. */
export async function runHistoryQuery(
  plan: HistoryPlan,
  o: HistoryQueryOptions,
): Promise<HistorySearchSummary> {
  const limit = plan.count === Infinity ? undefined : plan.count;
  const filters = commitQuery(plan);
  // dates and author first (cheap, over the log), then the diffs of what is left
  const dated = filters.author || filters.before !== undefined || filters.after !== undefined;
  let commits = o.commits;
  if (plan.type === 'diff' && dated)
    commits = searchCommits(o.commits, filters, { signal: o.signal }).hits.map((h) => h.commit);
  const oldestOf = (searched: number) =>
    searched > 0 ? commits[Math.min(searched, commits.length) - 1].date : null;

  if (plan.type === 'commit') {
    const r = searchCommits(
      commits,
      { ...filters, ...(plan.message ? { match: exprTextMatcher(plan.message, plan.caseMode) } : {}) },
      { limit, signal: o.signal, countAll: false },
    );
    for (const h of r.hits) {
      const c = h.commit;
      o.onResult({
        kind: 'commit',
        oid: c.oid,
        author: c.author,
        email: c.email,
        date: c.date,
        message: c.message,
        messageRanges: h.message,
        authorRanges: h.author,
      });
    }
    const searched = r.ending === 'limit' ? r.hits[r.hits.length - 1].index + 1 : r.searched;
    o.onProgress?.(searched, commits.length);
    return {
      searched,
      total: o.commits.length,
      matched: r.hits.length,
      shallow: o.shallow,
      oldest: oldestOf(searched),
      limitHit: r.ending === 'limit',
    };
  }

  const pathTest = planPathTest(plan);
  let matched = 0;
  const r = await searchDiffs({
    objects: o.objects,
    commits,
    matcher: exprTextMatcher(plan.pattern, plan.caseMode),
    mode: 'lines',
    pathFilter: pathTest ?? undefined,
    limit,
    signal: o.signal,
    maybeYield: o.maybeYield,
    onHit: (hit) => {
      matched++;
      o.onResult(diffResult(hit, o.prefix, plan.select === 'file'));
    },
    onProgress: (p) => o.onProgress?.(p.searched, p.total),
  });
  return {
    searched: r.searched,
    total: o.commits.length,
    matched,
    shallow: o.shallow || r.skipped.boundary > 0,
    oldest: oldestOf(r.searched),
    limitHit: r.ending === 'limit',
  };
}
