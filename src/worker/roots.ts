/**
 * The engine's open roots: core's RepoWorkspace (core/workspace) of sessions, one per root
 * (seed 000's `codebasePaths`). Paths are translated there; this module only adds what the UI
 * shows of each root.
 */
import { RepoWorkspace } from '../core/workspace/workspace';
import type { RootInfo } from './protocol';
import type { RepoSession } from './session';

export { noRepository } from '../core/workspace/workspace';

/** The open roots of the app's engine. */
export type Roots = RepoWorkspace<RepoSession>;

export function createRoots(): Roots {
  return new RepoWorkspace<RepoSession>();
}

/** What the UI lists of each root: key, display name, its counts and index state. */
export function rootInfo(roots: Roots): RootInfo[] {
  const names = roots.names();
  return roots.roots.map((s, i) => ({
    key: s.key,
    name: names[i],
    stats: s.stats,
    indexStatus: s.indexStatus,
  }));
}
