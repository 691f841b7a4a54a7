/**
 * Reopening from what is stored: a folder or clone opened before comes up from its stored listing
 * (stored-listing.ts) at once, and reconcileRepo then reads the folder again in the background,
 * switches the root to what it holds and says what changed (the index refresh that follows is
 * incremental: it compares the same stamps).
 */
import { elapsedSince, now } from '../../core/jobs/yielder';
import type { FileSource } from '../../core/source/types';
import type { JobScope } from '../edge';
import type { JobEnd, ReconcileStats, RepoSpec, RepoStats } from '../protocol';
import { readSnapshot } from '../snapshot';
import { RepoSession, type RepoOrigin } from '../session';
import { loadListing, reopensFromListing, saveListing } from '../stored-listing';
import { notOpen, throttledProgress, type EngineContext } from './context';

/** Touched paths returned with a reconcile's end (more only make the message longer: the UI re-runs anyway). */
const MAX_TOUCHED = 1_000;

/**
 * The root `spec` names, made from its stored listing, or null when there is none (or the kind
 * is read afresh every time). The caller swaps it in as it would a snapshot's.
 */
export async function sessionFromListing(
  ctx: EngineContext,
  spec: RepoSpec,
  found: { raw: FileSource; origin: RepoOrigin; key: string },
  t0: number,
): Promise<RepoSession | null> {
  if (!reopensFromListing(spec.kind)) return null;
  const listing = await loadListing(ctx.sessionDeps.indexStore, found.key);
  if (!listing || listing.kind !== spec.kind) return null;
  return RepoSession.fromListing(
    found.key,
    found.origin,
    listing,
    found.raw,
    ctx.sessionDeps,
    elapsedSince(t0),
  );
}

/** After a complete read: the listing a later reopen starts from (saved quietly, in the background). */
export function storeListing(ctx: EngineContext, session: RepoSession): void {
  if (reopensFromListing(session.stats.kind))
    void saveListing(ctx.sessionDeps.indexStore, session.key, session.listing());
}

export function reconcileJob(ctx: EngineContext) {
  const { roots, options } = ctx;
  return async (scope: JobScope<never>, key: string): Promise<JobEnd<never, ReconcileStats>> => {
    const t0 = now();
    const session = roots.find(String(key)) ?? notOpen(String(key));
    const end = (ending: ReconcileStats['ending'], more: Partial<ReconcileStats> = {}) => ({
      results: [],
      limitHit: false,
      skipped: [],
      stats: {
        elapsedMs: elapsedSince(t0),
        ending,
        key: session.key,
        changed: 0,
        added: 0,
        removed: 0,
        skippedChanged: false,
        touched: [],
        ...more,
      } satisfies ReconcileStats,
    });
    const raw = session.pendingReconcile;
    if (!raw) return end('complete');
    // one reconcile at a time: a second one finds nothing pending (a cancelled one puts it back)
    session.pendingReconcile = null;
    const listed = session.files.length;
    const send = throttledProgress(scope, ctx.progressIntervalMs);
    let snap;
    try {
      snap = await readSnapshot(raw, session.stats.kind, {
        signal: scope.signal,
        // "n of N": the walk counts against the listing's files, the read against what the walk found
        onProgress: (p, force) =>
          send(
            {
              ...p,
              phase: p.phase === 'listing' ? 'listing' : 'reading',
              totalFiles: p.totalFiles || listed,
            },
            force,
          ),
        yieldBudgetMs: options.yieldBudgetMs,
        readConcurrency: options.readConcurrency,
      });
    } catch (err) {
      if (roots.roots.includes(session)) session.pendingReconcile = raw;
      throw err;
    }
    if (!snap || !roots.roots.includes(session)) {
      if (roots.roots.includes(session)) session.pendingReconcile = raw;
      return end('cancelled');
    }
    const diff = session.applySnapshot(snap);
    storeListing(ctx, session);
    const prefix = roots.prefixOf(session);
    const stats: RepoStats = {
      ...session.stats,
      elapsedMs: elapsedSince(t0),
      root: prefix.replace(/\/$/, '') || session.stats.name,
    };
    session.stats = { ...session.stats, elapsedMs: stats.elapsedMs };
    return end('complete', {
      changed: diff.changed.length,
      added: diff.added.length,
      removed: diff.removed.length,
      skippedChanged: diff.skippedChanged,
      touched: [...diff.changed, ...diff.removed].slice(0, MAX_TOUCHED).map((p) => prefix + p),
      stats,
    });
  };
}
