/**
 * One file's git views for the viewer: its diff (in a commit, or uncommitted), its history and
 * its blame. The work is the git adapter's (file-diff.ts, file-history.ts, blame.ts); this
 * keeps results in memory per (HEAD, path) in the root's state so opening them again is
 * instant, keeps one TreeCache per root (trees never change, so the second walk reads almost
 * none), streams history entries in batches, and turns a cancel into a normal 'cancelled'
 * ending. Closing the root releases all of it (and its repository, see GitService.repoFor).
 *
 * Paths arrive as root-relative (engine.ts routes workspace paths) and leave with the root's
 * prefix, like every other path the engine returns.
 */
import { toQuarryError, QuarryError } from '../core/errors';
import { elapsedSince, now } from '../core/jobs/yielder';
import type { BlameResult } from '../adapters/git/blame';
import type { GitRepo, TreeCache } from '../adapters/git/blob-at';
import type { FileDiffResult } from '../adapters/git/file-diff';
import type { FileHistory, FileHistoryEntry } from '../adapters/git/file-history';
import { Batcher, type JobScope } from './edge';
import type { GitService } from './git-service';
import type { BlameStats, FileGitStatus, FileHistoryStats, JobEnd, Progress } from './protocol';
import type { RepoSession } from './session';
import { Lru } from '../core/lru';
import { slot } from '../core/workspace/root-state';

const gitModule = () => import('../adapters/git');

/** Progress events at most this often. */
const PROGRESS_MS = 50;
/** Results kept in memory per root (blame keeps the file's text: a few MB at most each). */
const MAX_BLAMES = 16;
const MAX_HISTORIES = 64;
const MAX_DIFFS = 32;

/** A root's file views read so far, keyed by `${commit}\0${path}`, and its trees. */
export class FileGitCaches {
  readonly blames = new Lru<string, BlameResult>(MAX_BLAMES);
  readonly histories = new Lru<string, FileHistory>(MAX_HISTORIES);
  readonly diffs = new Lru<string, FileDiffResult>(MAX_DIFFS);
  trees: TreeCache | null = null;

  /** The root closed: drop everything now (a job still running keeps only what it holds). */
  dispose(): void {
    this.blames.clear();
    this.histories.clear();
    this.diffs.clear();
    this.trees = null;
  }
}

/** The root's file views (the root's state: released when it closes). */
export const FILE_GIT = slot<FileGitCaches>('file git views');

interface Access {
  repo: GitRepo;
  source: 'clone' | 'folder';
  caches: FileGitCaches;
}

function throttled<R>(scope: JobScope<R>, label: string) {
  let last = 0;
  return (done: number, total: number, force = false) => {
    const t = now();
    if (!force && t - last < PROGRESS_MS) return;
    last = t;
    const data: Progress = { phase: 'git', label, files: done, totalFiles: total, bytes: 0, totalBytes: 0 };
    scope.events.send({ type: 'progress', data });
  };
}

export class FileGitService {
  constructor(private readonly git: GitService) {}

  private async access(session: RepoSession): Promise<Access> {
    const r = await this.git.repoFor(session);
    if ('reason' in r)
      throw new QuarryError('NotFound', r.reason, { reason: 'noRepository', root: session.name });
    return { ...r, caches: session.state.getOrMake(FILE_GIT, () => new FileGitCaches()) };
  }

  private async treesOf(a: Access): Promise<TreeCache> {
    const g = await gitModule();
    return (a.caches.trees ??= new g.TreeCache());
  }

  private async head(repo: GitRepo): Promise<string | null> {
    const g = await gitModule();
    try {
      return (await g.resolveCommit(repo, 'HEAD')).oid;
    } catch (err) {
      if (toQuarryError(err).code === 'NotFound') return null;
      throw err;
    }
  }

  async status(session: RepoSession): Promise<FileGitStatus> {
    const r = await this.git.repoFor(session);
    if ('reason' in r) return { available: false, reason: r.reason };
    return { available: true, source: r.source, head: await this.head(r.repo) };
  }

  async diff(session: RepoSession, rel: string, prefix: string, target: string): Promise<FileDiffResult> {
    if (typeof target !== 'string' || !target)
      throw new QuarryError('InvalidArgument', 'commit must be a commit oid or "worktree"', {
        field: 'commit',
        value: target,
      });
    const a = await this.access(session);
    const g = await gitModule();
    const trees = await this.treesOf(a);
    // a commit's diff never changes; the working tree's always may
    const commit = target === 'worktree' ? null : await g.resolveCommit(a.repo, target);
    const key = commit ? `${commit.oid}\0${rel}` : '';
    const hit = key ? a.caches.diffs.get(key) : undefined;
    const result = hit ?? (await g.fileDiff(a.repo, rel, commit?.oid ?? 'worktree', trees));
    if (key && !hit) a.caches.diffs.set(key, result);
    return prefix ? { ...result, path: prefix + result.path } : result;
  }

  async history(
    scope: JobScope<FileHistoryEntry>,
    session: RepoSession,
    rel: string,
  ): Promise<JobEnd<FileHistoryEntry, FileHistoryStats>> {
    const t0 = now();
    const a = await this.access(session);
    const g = await gitModule();
    const head = await this.head(a.repo);
    const stats = (
      h: FileHistory | null,
      ending: FileHistoryStats['ending'],
      cached: boolean,
    ): FileHistoryStats => ({
      elapsedMs: elapsedSince(t0),
      ending,
      head,
      walked: h?.walked ?? 0,
      shallow: h?.shallow ?? false,
      cached,
    });
    if (!head) return { results: [], limitHit: false, skipped: [], stats: stats(null, 'complete', false) };
    const key = `${head}\0${rel}`;
    const hit = a.caches.histories.get(key);
    if (hit)
      return { results: hit.entries, limitHit: false, skipped: [], stats: stats(hit, 'complete', true) };
    const batcher = new Batcher<FileHistoryEntry>((items) =>
      scope.events.send({ type: 'batch', data: items }),
    );
    const progress = throttled(scope, "Reading the file's history");
    try {
      const h = await g.fileHistory(a.repo, rel, {
        ref: head,
        signal: scope.signal,
        trees: await this.treesOf(a),
        onEntry: (e) => batcher.push(e),
        onProgress: (walked) => progress(walked, 0),
      });
      a.caches.histories.set(key, h);
      return { results: batcher.drain(), limitHit: false, skipped: [], stats: stats(h, 'complete', false) };
    } catch (err) {
      batcher.drain();
      if (toQuarryError(err).code === 'Cancelled' && scope.signal.aborted)
        return { results: [], limitHit: false, skipped: [], stats: stats(null, 'cancelled', false) };
      throw err;
    }
  }

  async blame(
    scope: JobScope<BlameResult>,
    session: RepoSession,
    rel: string,
    prefix: string,
  ): Promise<JobEnd<BlameResult, BlameStats>> {
    const t0 = now();
    const a = await this.access(session);
    const g = await gitModule();
    const head = await g.resolveCommit(a.repo, 'HEAD');
    const key = `${head.oid}\0${rel}`;
    const end = (
      result: BlameResult | null,
      ending: BlameStats['ending'],
      cached: boolean,
    ): JobEnd<BlameResult, BlameStats> => ({
      results: result ? [prefix ? { ...result, path: prefix + result.path } : result] : [],
      limitHit: false,
      skipped: [],
      stats: { elapsedMs: elapsedSince(t0), ending, cached },
    });
    const hit = a.caches.blames.get(key);
    if (hit) return end(hit, 'complete', true);
    const walkProgress = throttled(scope, "Reading the file's history");
    const blameProgress = throttled(scope, 'Blaming');
    try {
      const result = await g.blameFile(a.repo, rel, {
        signal: scope.signal,
        trees: await this.treesOf(a),
        // a history walked for the File history panel already reaches the add: no second walk
        history: a.caches.histories.get(key),
        onProgress: (p) =>
          p.phase === 'history'
            ? walkProgress(p.done, 0)
            : blameProgress(p.done, p.total, p.done === p.total),
      });
      a.caches.blames.set(key, result);
      return end(result, 'complete', false);
    } catch (err) {
      if (toQuarryError(err).code === 'Cancelled' && scope.signal.aborted)
        return end(null, 'cancelled', false);
      throw err;
    }
  }
}
