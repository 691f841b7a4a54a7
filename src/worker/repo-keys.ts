/**
 * Repository keys and where what belongs to a repository is stored (re-exported by session.ts,
 * where they were first written).
 */
import type { RepoSpec } from './protocol';

/** Where an open repository came from, for history and the library. */
export type RepoOrigin =
  | { kind: 'git'; id: string }
  | { kind: 'handle'; handle: FileSystemDirectoryHandle; libraryId?: string }
  | { kind: 'other' };

/**
 * The one place a repository key is made. It names the repository in the address (`?repo=`)
 * and its stored index ('index:' + key): 'demo', 'git:<library id>' for a clone, the folder's
 * library id ('recent:<id>') for an opened folder, 'snapshot:<name>' for a chosen folder's
 * one-time copy, 'memory:<name>' for in-memory files (tests, benchmarks), 'served:<name>' for the
 * folder `quarry serve --root` exposes.
 */
export function repoKey(spec: RepoSpec, folderId?: string): string {
  switch (spec.kind) {
    case 'demo':
      return 'demo';
    case 'git':
      return `git:${spec.id}`;
    case 'handle':
      return folderId ?? `handle:${spec.name}`;
    case 'files':
      return `snapshot:${spec.name}`;
    case 'memory':
      return `memory:${spec.name}`;
    case 'served':
      return `served:${spec.name}`;
  }
}

/** The key a library entry's repository is opened (and its index stored) under. */
export function libraryEntryKey(entry: { id: string; source: 'clone' | 'folder' }): string {
  return entry.source === 'clone' ? `git:${entry.id}` : entry.id;
}

/** Where a session's code index is stored. */
export const indexStoreKey = (key: string): string => `index:${key}`;
/** Where a session's seed-004 index (codebase_search, find_related) is stored. */
export const seedIndexStoreKey = (key: string): string => `seed004:${key}`;
