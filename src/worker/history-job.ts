/**
 * History's log in the worker: one job streams it (the stored log first, then what is new,
 * see adapters/git/history-log.ts), an opened folder's uncommitted changes are read beside it
 * once the first commits are out, and a commit's changed files are read when it is expanded
 * and kept in memory per root. The git adapter loads on first use, as in git-service.ts.
 *
 * The job counts as foreground (the index build gives way) only until its first commits are
 * sent: the first paint is what a person waits for; the rest of a 10,000-commit read is not.
 */
import { QuarryError, toQuarryError } from '../core/errors';
import { createYielder, elapsedSince, now, type Foreground } from '../core/jobs/yielder';
import type { IndexStore } from '../core/rank/persist';
import type { CommitChanges } from '../adapters/git/tree-diff';
import type { GitObjectStore, GitFs } from '../adapters/git/objects';
import type { LogCommit } from '../core/git/types';
import { errorJSON, type JobScope } from './edge';
import { noHistoryReason, type GitService } from './git-service';
import { historyStoreKey } from './history-store-key';
import type { CommitChangesView, HistoryJobPart, HistoryLogStats, JobEnd, Progress } from './protocol';
import type { RepoSession } from './session';
import { slot } from '../core/workspace/root-state';

const gitModule = () => import('../adapters/git');

/** Expanded commits remembered per root (a commit's changes never change). */
const MAX_CHANGES = 2000;

export interface Located {
  fs: GitFs;
  dir: string;
  gitdir: string;
  source: 'clone' | 'folder';
  libraryId?: string;
}

interface HistoryRootState {
  objects: GitObjectStore;
  changes: Map<string, CommitChanges>;
  /** The log last read for a search, by its head (history-search.ts). */
  log?: { head: string | null; commits: LogCommit[]; shallow: boolean };
}

export interface HistoryServiceDeps {
  store?: IndexStore;
  foreground: Foreground;
  yieldBudgetMs?: number;
}

/** A root's history: its object store and the commits' changes read so far (the root's state: released when it closes). */
const HISTORY = slot<HistoryRootState>('history');

/** A job's progress while the log is read: commits read of about how many. */
export function readingCommits(scope: JobScope<never>) {
  return (p: { read: number; estimate: number }) => {
    const data: Progress = {
      phase: 'git',
      label: 'Reading commits',
      files: p.read,
      totalFiles: p.estimate,
      bytes: 0,
      totalBytes: 0,
    };
    scope.events.send({ type: 'progress', data });
  };
}

export class HistoryService {
  constructor(
    private readonly git: GitService,
    private readonly deps: HistoryServiceDeps,
  ) {}

  /** Where a root's git data is (history-search.ts reads it too). */
  async locate(session: RepoSession): Promise<Located | { reason: string }> {
    const found = await this.git.repoFor(session);
    if ('reason' in found) return { reason: noHistoryReason(session) };
    const g = await gitModule();
    const fs = found.repo.fs as unknown as GitFs;
    const gitdir = found.repo.gitdir ?? (await g.findGitdir(fs, found.repo.dir));
    if (!gitdir) return { reason: noHistoryReason(session) };
    return {
      fs,
      dir: found.repo.dir,
      gitdir,
      source: found.source,
      ...(session.origin.kind === 'git' ? { libraryId: session.origin.id } : {}),
    };
  }

  /** The root's object store and expanded commits (a fresh store when `fresh`). */
  async state(session: RepoSession, loc: Located, fresh: boolean): Promise<HistoryRootState> {
    const g = await gitModule();
    const known = session.state.get(HISTORY);
    // a new job takes a new store (packs may have been rewritten); expanded commits stay valid
    const state: HistoryRootState = {
      ...known,
      objects: fresh || !known ? new g.GitObjectStore(loc.fs, loc.gitdir) : known.objects,
      changes: known?.changes ?? new Map(),
    };
    session.state.set(HISTORY, state);
    return state;
  }

  async log(
    scope: JobScope<HistoryJobPart>,
    session: RepoSession,
    prefix: string,
  ): Promise<JobEnd<HistoryJobPart, HistoryLogStats>> {
    const t0 = now();
    const stats = (s: Partial<HistoryLogStats>): HistoryLogStats => ({
      elapsedMs: elapsedSince(t0),
      ending: 'complete',
      available: true,
      head: null,
      branch: null,
      shallow: false,
      commits: 0,
      read: 0,
      refresh: null,
      ...s,
    });
    const end = (s: Partial<HistoryLogStats>): JobEnd<HistoryJobPart, HistoryLogStats> => ({
      results: [],
      limitHit: false,
      skipped: [],
      stats: stats(s),
    });
    const loc = await this.locate(session);
    if ('reason' in loc) return end({ available: false, reason: loc.reason });
    const g = await gitModule();
    const { objects } = await this.state(session, loc, true);
    const send = (part: HistoryJobPart) => scope.events.send({ type: 'batch', data: [part] });
    const yielder = createYielder(this.deps.yieldBudgetMs);
    const base = { source: loc.source, ...(loc.libraryId ? { libraryId: loc.libraryId } : {}) };

    let uncommitted: Promise<void> | null = null;
    const startUncommitted = () => {
      if (loc.source !== 'folder' || uncommitted) return;
      uncommitted = (async () => {
        const t = now();
        try {
          const { head } = await g.readHead(loc.fs, loc.dir, loc.gitdir);
          const status = await g.worktreeStatus(loc.fs, objects, {
            dir: loc.dir,
            gitdir: loc.gitdir,
            head,
            signal: scope.signal,
            maybeYield: () => yielder.maybeYield(),
          });
          const files = prefix ? status.files.map((f) => ({ ...f, path: prefix + f.path })) : status.files;
          send({
            kind: 'uncommitted',
            files,
            tracked: status.tracked,
            hashed: status.hashed,
            elapsedMs: elapsedSince(t),
          });
        } catch (err) {
          if (!scope.signal.aborted) send({ kind: 'uncommittedError', error: errorJSON(err) });
        }
      })();
    };

    send({ kind: 'repo', ...base });
    let endForeground: (() => void) | null = this.deps.foreground.begin();
    const background = () => {
      endForeground?.();
      endForeground = null;
    };
    try {
      const result = await g.readHistoryLog(loc.fs, objects, {
        dir: loc.dir,
        gitdir: loc.gitdir,
        store: this.deps.store,
        storeKey: historyStoreKey(session.key),
        signal: scope.signal,
        maybeYield: () => yielder.maybeYield(),
        onProgress: readingCommits(scope),
        onPart: (part) => {
          send(part);
          if (part.kind === 'commits') {
            background();
            startUncommitted();
          }
        },
      });
      background();
      startUncommitted();
      await uncommitted;
      const { head, branch, shallow, commits, read, refresh, cacheIgnored, saveError } = result;
      return end({
        ...base,
        head,
        branch,
        shallow,
        commits,
        read,
        refresh,
        ...(cacheIgnored ? { cacheIgnored } : {}),
        ...(saveError ? { saveError } : {}),
      });
    } catch (err) {
      background();
      await uncommitted;
      if (toQuarryError(err).code === 'Cancelled' && scope.signal.aborted)
        return end({ ...base, ending: 'cancelled' });
      throw err;
    }
  }

  /** A commit's changed files, paths with the root's prefix; read once per root and kept. */
  async changes(session: RepoSession, prefix: string, oid: string): Promise<CommitChangesView> {
    if (typeof oid !== 'string' || !/^[0-9a-f]{40}$/.test(oid)) {
      throw new QuarryError(
        'InvalidArgument',
        `oid must be a 40-character commit id, not ${JSON.stringify(oid)}`,
        { field: 'oid', value: oid },
      );
    }
    const loc = await this.locate(session);
    if ('reason' in loc) throw new QuarryError('NotFound', loc.reason, { field: 'root' });
    const state = await this.state(session, loc, false);
    let changes = state.changes.get(oid);
    if (!changes) {
      const g = await gitModule();
      changes = await g.commitChanges(state.objects, oid);
      state.changes.set(oid, changes);
      if (state.changes.size > MAX_CHANGES) state.changes.delete(state.changes.keys().next().value!);
    }
    const files = prefix ? changes.files.map((f) => ({ ...f, path: prefix + f.path })) : changes.files;
    return { oid, files, ...(changes.parentMissing ? { parentMissing: true } : {}) };
  }
}
