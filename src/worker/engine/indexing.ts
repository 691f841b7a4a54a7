/** The code index of every root (built one root after the other, each stored under its key) and semantic search's vectors. */
import { mergeCoverage } from '../../core/rank/build';
import type { JobScope } from '../edge';
import type { HeldStats } from '../../core/source/held-contents';
import type { IndexRequest, IndexStats, IndexStatus, JobEnd } from '../protocol';
import type { Roots } from '../roots';
import { SKIPPED_IN_END } from '../session';
import type { ServiceHandlers } from './api';
import {
  notOpen,
  requireRoots,
  rootKeyArg,
  throttledProgress,
  withPrefix,
  type EngineContext,
} from './context';

export function indexHandlers(ctx: EngineContext): ServiceHandlers<'index'> {
  const { roots, semantic } = ctx;
  return {
    indexRepo: indexJob(ctx),
    indexStatus: () => {
      requireRoots(roots);
      return workspaceIndexStatus(roots);
    },
    enableSemantic: (scope) => {
      requireRoots(roots);
      return semantic.enable(roots, scope.signal, throttledProgress(scope, ctx.progressIntervalMs));
    },
    semanticStatus: () => semantic.status(roots),
    resetSemanticModel: () => semantic.resetModel(roots),
  };
}

function indexJob(ctx: EngineContext) {
  const { roots } = ctx;
  /** Build or refresh the code index of one root (by key) or of every root, one after the other. */
  return async (scope: JobScope<never>, request: IndexRequest): Promise<JobEnd<never, IndexStats>> => {
    requireRoots(roots);
    const root = rootKeyArg(request?.root);
    const targets = root ? [roots.find(root) ?? notOpen(root)] : [...roots.roots];
    const ends: JobEnd<never, IndexStats>[] = [];
    for (const session of targets) {
      // a root closed (removed, or replaced by a reopen) meanwhile is no longer this job's
      if (!roots.roots.includes(session)) continue;
      const prefix = roots.prefixOf(session);
      const end = await session.buildIndex({
        signal: scope.signal,
        force: !!request?.force,
        onProgress: (p) => scope.events.send({ type: 'progress', data: p }),
      });
      if (end.stats.ending !== 'complete' && !roots.roots.includes(session)) continue;
      ends.push({ ...end, skipped: end.skipped.map(withPrefix(prefix)) });
      if (scope.signal.aborted) break;
    }
    if (!ends.length) {
      const stats: IndexStats = {
        elapsedMs: 0,
        ending: 'cancelled',
        refreshMode: 'full',
        filesScanned: 0,
        chunksIndexed: 0,
        filesChanged: 0,
        filesRemoved: 0,
        builtAt: 0,
      };
      return { results: [], limitHit: false, skipped: [], stats };
    }
    if (ends.length === 1) return ends[0];
    return {
      results: [],
      limitHit: ends.some((e) => e.limitHit),
      skipped: ends.flatMap((e) => e.skipped).slice(0, SKIPPED_IN_END),
      stats: mergeIndexStats(ends.map((e) => e.stats)),
    };
  };
}

/** The index status of the whole workspace: building while any root builds, ready when all are. */
function workspaceIndexStatus(roots: Roots): IndexStatus {
  const held = roots.roots.map((s) => s.heldContents()).filter((h) => h !== null);
  const contents = held.length ? sumHeld(held) : undefined;
  const all = roots.roots.map((s) => s.indexStatus);
  if (all.length === 1) return { ...all[0], ...(contents ? { contents } : {}) };
  const state = all.some((s) => s.state === 'building')
    ? 'building'
    : all.some((s) => s.state === 'failed')
      ? 'failed'
      : all.every((s) => s.state === 'ready')
        ? 'ready'
        : 'none';
  const lasts = all.map((s) => s.last);
  const last = lasts.every((l) => l) ? mergeIndexStats(lasts as IndexStats[]) : null;
  return { state, last, error: all.find((s) => s.error)?.error, ...(contents ? { contents } : {}) };
}

function sumHeld(all: HeldStats[]): HeldStats {
  const sum = (k: keyof HeldStats) => all.reduce((a, h) => a + h[k], 0);
  return {
    files: sum('files'),
    bytes: sum('bytes'),
    allocated: sum('allocated'),
    budget: sum('budget'),
    missedFiles: sum('missedFiles'),
    missedBytes: sum('missedBytes'),
  };
}

function mergeIndexStats(all: IndexStats[]): IndexStats {
  const order = ['cache_hit', 'incremental', 'full'] as const;
  const cancelled = all.some((s) => s.ending === 'cancelled');
  return {
    elapsedMs: all.reduce((a, s) => a + s.elapsedMs, 0),
    ending: cancelled ? 'cancelled' : 'complete',
    refreshMode: order[Math.max(...all.map((s) => order.indexOf(s.refreshMode)))],
    filesScanned: all.reduce((a, s) => a + s.filesScanned, 0),
    chunksIndexed: all.reduce((a, s) => a + s.chunksIndexed, 0),
    filesChanged: all.reduce((a, s) => a + s.filesChanged, 0),
    filesRemoved: all.reduce((a, s) => a + s.filesRemoved, 0),
    builtAt: Math.max(...all.map((s) => s.builtAt)),
    ...(all.find((s) => s.saveError) ? { saveError: all.find((s) => s.saveError)!.saveError } : {}),
    ...(all.every((s) => s.coverage) ? { coverage: mergeCoverage(all.map((s) => s.coverage!)) } : {}),
  };
}
