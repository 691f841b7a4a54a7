/**
 * One root of a repository workspace, as every host holds it: the app's RepoSession (indexed in
 * the background, its indexes stored in IndexedDB) and the CLI's LocalRoot (indexed on demand,
 * cached on disk) both implement WorkspaceRoot, so the tools read the same state the same way.
 * Paths a root answers in are root-relative; the workspace puts the root's prefix in front once,
 * at its edge (RepoWorkspace.toolRoots).
 */
import type { ChunkIndex } from '../rank/bm25';
import type { RefreshStats } from '../rank/service';
import type { CodebaseIndexService } from '../codebase-index/service';
import type { FileSource } from '../source/types';
import type { RootState } from './root-state';

export interface WorkspaceRoot {
  /** Where the root came from, stable across reopenings (the app's repository key; the CLI's absolute path). */
  readonly key: string;
  readonly source: FileSource;
  /** codebase_search and find_related: the seed-004 index, brought up to date (or waited for) before it resolves. */
  seedIndex(signal?: AbortSignal): Promise<{ service: CodebaseIndexService; stats: RefreshStats }>;
  /**
   * ranked_search, related_code, Ranked mode: Quarry's code index of symbol chunks, refreshed
   * on demand (CLI) or the complete one a background build made (the app: NotFound
   * 'indexNotReady' while it builds).
   */
  codeIndex(signal?: AbortSignal): Promise<ChunkIndex>;
  /** The code index answers at once (no build or refresh in front of it). */
  readonly codeIndexReady: boolean;
  /** A file's lines as the index reads them (root-relative path), or null when unreadable. */
  lines(path: string): Promise<string[] | null>;
  /** What services keep for this root (vectors, symbol table, history...), released when it closes. */
  readonly state: RootState;
  /** Release everything the root holds (indexes, caches, its state, a running build). */
  close(): void;
}

/** A root as the tools see it: its services under the prefix its workspace paths carry. */
export interface ToolRoot {
  /** What this root's workspace paths start with ('' with one root). */
  readonly prefix: string;
  /** The root's display name (unique in its workspace). */
  readonly name: string;
  readonly root: WorkspaceRoot;
}
