/**
 * What every service of the engine shares: the job edge, the open roots (core's RepoWorkspace
 * of sessions), the git, history, semantic and navigation services, the parser, and the
 * argument checks written once.
 */
import { QuarryError } from '../../core/errors';
import { now } from '../../core/jobs/yielder';
import type { FileChunker } from '../../core/chunk/pool';
import type { SearchPool } from '../../core/grep/pool';
import type { Skipped } from '../../core/walk/policy';
import type { JobEdge, JobScope } from '../edge';
import type { FileGitService } from '../file-git';
import type { GitService } from '../git-service';
import type { HistoryService } from '../history-job';
import type { NavService } from '../nav';
import type { Progress } from '../protocol';
import { noRepository, type Roots } from '../roots';
import type { SemanticService } from '../semantic';
import type { RepoSession, SessionDeps } from '../session';
import type { EngineApiOptions } from './options';

export interface EngineContext {
  options: EngineApiOptions;
  edge: JobEdge;
  roots: Roots;
  git: GitService;
  fileGit: FileGitService;
  histories: HistoryService;
  semantic: SemanticService;
  nav: NavService;
  sessionDeps: SessionDeps;
  getChunker: () => Promise<FileChunker>;
  /** The search threads, started by the first search that needs them (none: this thread). */
  searchThreads: () => SearchPool | undefined;
  progressIntervalMs: number;
}

export const withPrefix =
  (prefix: string) =>
  (s: Skipped): Skipped =>
    prefix ? { ...s, path: prefix + s.path } : s;

/** A job's progress, sent at most every `intervalMs` (a forced one always). */
export function throttledProgress(scope: JobScope<never>, intervalMs: number) {
  let last = 0;
  return (p: Progress, force = false) => {
    const t = now();
    if (!force && t - last < intervalMs) return;
    last = t;
    scope.events.send({ type: 'progress', data: p });
  };
}

/** A path argument: a non-empty string. */
export function requirePath(path: unknown, field = 'path'): string {
  if (typeof path !== 'string' || !path)
    throw new QuarryError('InvalidArgument', `${field} must be a non-empty string`, { field });
  return path;
}

/** A root argument: absent (every root, or the first) or an open root's key. */
export function rootKeyArg(root: unknown): string | undefined {
  if (root !== undefined && typeof root !== 'string')
    throw new QuarryError('InvalidArgument', 'root must be a repository key', { field: 'root', value: root });
  return root || undefined;
}

export function notOpen(key: string): never {
  throw new QuarryError('NotFound', `No open root has the key "${key}"`, {
    field: 'root',
    value: key,
    reason: 'noSuchRoot',
  });
}

/** The root a request names by key (default: the first). */
export function namedRoot(roots: Roots, root: unknown): RepoSession {
  const key = rootKeyArg(root);
  const session = key ? (roots.find(key) ?? notOpen(key)) : roots.roots[0];
  if (!session) throw noRepository();
  return session;
}

/** At least one root is open. */
export function requireRoots(roots: Roots): void {
  if (!roots.size) throw noRepository();
}
