/**
 * `type:commit` and `type:diff` in the worker: the root's commit log (the stored log, read
 * again only when HEAD moved; kept in the root's history state), then the plan run over it
 * (adapters/git/history-query.ts) with results streamed in batches, progress as commits
 * searched of the log, and Cancel between commits.
 */
import { QuarryError } from '../core/errors';
import type { LogCommit } from '../core/git/types';
import { createYielder, elapsedSince, now } from '../core/jobs/yielder';
import type { HistoryPlan } from '../adapters/git/history-query';
import type { HistoryResult } from '../core/query/results';
import { Batcher, type JobScope } from './edge';
import { readingCommits, type HistoryService } from './history-job';
import { historyStoreKey } from './history-store-key';
import type { HistorySearchStats, JobEnd, Progress } from './protocol';
import type { RepoSession } from './session';
import type { IndexStore } from '../core/rank/persist';

const gitModule = () => import('../adapters/git');
const queryModule = () => import('../adapters/git/history-query');

export interface HistorySearchDeps {
  histories: HistoryService;
  store?: IndexStore;
  yieldBudgetMs?: number;
}

async function logOf(
  deps: HistorySearchDeps,
  scope: JobScope<HistoryResult>,
  session: RepoSession,
): Promise<{
  commits: LogCommit[];
  shallow: boolean;
  objects: import('../adapters/git/objects').GitObjectStore;
}> {
  const loc = await deps.histories.locate(session);
  if ('reason' in loc) throw new QuarryError('NotFound', loc.reason, { field: 'root' });
  const g = await gitModule();
  const state = await deps.histories.state(session, loc, false);
  const { head } = await g.readHead(loc.fs, loc.dir, loc.gitdir);
  if (state.log && state.log.head === head) return { ...state.log, objects: state.objects };
  let commits: LogCommit[] = [];
  const yielder = createYielder(deps.yieldBudgetMs);
  const result = await g.readHistoryLog(loc.fs, state.objects, {
    dir: loc.dir,
    gitdir: loc.gitdir,
    store: deps.store,
    storeKey: historyStoreKey(session.key),
    signal: scope.signal,
    maybeYield: () => yielder.maybeYield(),
    onProgress: readingCommits(scope),
    onPart: (part) => {
      if (part.kind !== 'commits') return;
      commits = part.reset ? part.commits.slice() : commits.concat(part.commits);
    },
  });
  state.log = { head: result.head, commits, shallow: result.shallow };
  return { commits, shallow: result.shallow, objects: state.objects };
}

/** Run a history plan over one root's log. */
export async function historySearch(
  deps: HistorySearchDeps,
  scope: JobScope<HistoryResult>,
  session: RepoSession,
  prefix: string,
  plan: HistoryPlan,
): Promise<JobEnd<HistoryResult, HistorySearchStats>> {
  const t0 = now();
  const batcher = new Batcher<HistoryResult>(
    (items) => scope.events.send({ type: 'batch', data: items }),
    (r) => (r.kind === 'diff' ? r.files.reduce((n, f) => n + f.lines.length, 1) : 1),
  );
  const { commits, shallow, objects } = await logOf(deps, scope, session);
  const q = await queryModule();
  const yielder = createYielder(deps.yieldBudgetMs);
  const summary = await q.runHistoryQuery(plan, {
    commits,
    shallow,
    objects,
    prefix,
    signal: scope.signal,
    maybeYield: () => yielder.maybeYield(),
    onResult: (r) => batcher.push(r),
    onProgress: (searched, total) => {
      const data: Progress = {
        phase: 'searching',
        label: 'Searching commits',
        files: searched,
        totalFiles: total,
        bytes: 0,
        totalBytes: 0,
      };
      scope.events.send({ type: 'progress', data });
    },
  });
  return {
    results: batcher.drain(),
    limitHit: summary.limitHit,
    skipped: [],
    stats: {
      elapsedMs: elapsedSince(t0),
      ending: scope.signal.aborted ? 'cancelled' : 'complete',
      ...summary,
    },
  };
}

/** The plan over several roots in turn (a root without git data is passed over; none: the first one's error). */
export async function historySearchRoots(
  deps: HistorySearchDeps,
  scope: JobScope<HistoryResult>,
  targets: { session: RepoSession; prefix: string }[],
  plan: HistoryPlan,
): Promise<JobEnd<HistoryResult, HistorySearchStats>> {
  const t0 = now();
  let merged: JobEnd<HistoryResult, HistorySearchStats> | null = null;
  let firstError: unknown = null;
  for (const { session, prefix } of targets) {
    if (scope.signal.aborted) break;
    try {
      const end = await historySearch(deps, scope, session, prefix, plan);
      if (!merged) merged = end;
      else {
        const a: HistorySearchStats = merged.stats;
        const b: HistorySearchStats = end.stats;
        merged = {
          results: merged.results.concat(end.results),
          limitHit: merged.limitHit || end.limitHit,
          skipped: [],
          stats: {
            ...a,
            searched: a.searched + b.searched,
            total: a.total + b.total,
            matched: a.matched + b.matched,
            shallow: a.shallow || b.shallow,
            oldest:
              a.oldest === null ? b.oldest : b.oldest === null ? a.oldest : Math.min(a.oldest, b.oldest),
            limitHit: a.limitHit || b.limitHit,
            ending: b.ending,
          },
        };
      }
    } catch (err) {
      if ((err as { code?: string }).code !== 'NotFound') throw err;
      firstError ??= err;
    }
  }
  if (!merged) {
    if (firstError) throw firstError;
    throw new QuarryError('NotFound', 'No open root has git history', { field: 'root' });
  }
  merged.stats.elapsedMs = elapsedSince(t0);
  return merged;
}
