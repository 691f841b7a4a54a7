/**
 * Which files a search reads, in walk order: the starting points (a directory's readings in
 * each root), and per root either the walk (under the walk policy, the path filter, and an
 * index's candidates when one narrows the query) or, with a complete index, the candidates
 * themselves with no walk. Shared by the one-thread search and the pool's coordinator.
 */
import type { Workspace } from '../source/workspace';
import type { Skipped } from '../walk/policy';
import { DEFAULT_MAX_FILE_BYTES } from '../walk/policy';
import { walkFiles, type WalkedFile } from '../walk/walk';
import { directFiles, type SearchPrefilter } from './prefilter';
import type { GrepRequest, SegmentRange } from './types';

export type Candidates = ReadonlyMap<string, readonly SegmentRange[] | null>;

/** Where a search starts: every root, or the readings of `directory` that exist. */
export async function searchStarts(
  workspace: Workspace,
  directory: string,
): Promise<Array<{ rootIndex: number; rel: string }>> {
  let starts = directory
    ? workspace.resolveAll(directory, 'directory')
    : workspace.roots.map((_, i) => ({ rootIndex: i, rel: '' }));
  if (starts.length > 1) {
    // several readings of the path (roots, a backslash in a name): the ones that exist
    const present = [];
    for (const s of starts)
      if (await workspace.roots[s.rootIndex].stat(s.rel).catch(() => null)) present.push(s);
    if (present.length) starts = present;
  }
  return starts;
}

export interface WalkerInput {
  workspace: Workspace;
  rootIndex: number;
  start: string;
  req: GrepRequest;
  filter: ((p: string) => boolean) | null;
  prefilter: SearchPrefilter | undefined;
  candidates: Candidates | null;
  signal?: AbortSignal;
  /** A file the walk leaves out (its path root-relative). */
  onSkip: (s: Skipped) => void;
  /** false: regular files come without their stat (size -1); the reader checks them (fileOnWalk). */
  statFiles?: boolean;
}

/** The files of one root to search, in walk order (paths root-relative). */
export function searchWalker(w: WalkerInput): AsyncGenerator<WalkedFile> {
  const { workspace, rootIndex, start, req, filter, prefilter, candidates } = w;
  const source = workspace.roots[rootIndex];
  const prefix = rootPrefix(workspace, rootIndex);
  const maxBytes = req.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  if (isDirect(req, prefilter, candidates))
    return directFiles(candidates!, prefilter!, prefix, start, filter, maxBytes);
  return walkFiles(source, {
    start,
    maxFileBytes: req.maxFileBytes,
    useIgnoreFiles: req.useIgnoreFiles,
    signal: w.signal,
    statFiles: w.statFiles,
    acceptFile:
      candidates && prefilter
        ? (p) => (!filter || filter(p)) && (candidates.has(prefix + p) || !prefilter.has(prefix + p))
        : (filter ?? undefined),
    onSkip: w.onSkip,
  });
}

/** Whether the search lists an index's candidates with no walk (the index is complete for this request). */
export function isDirect(
  req: GrepRequest,
  prefilter: SearchPrefilter | undefined,
  candidates: Candidates | null,
): boolean {
  const maxBytes = req.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  return Boolean(
    candidates &&
    prefilter?.sizeOf &&
    prefilter.maxIndexedBytes !== undefined &&
    req.useIgnoreFiles !== false &&
    maxBytes <= prefilter.maxIndexedBytes,
  );
}

/**
 * On the direct path, the bytes of `path` as the index read them when it holds them in memory
 * (the search then reads no file), else undefined.
 */
export function heldOf(
  req: GrepRequest,
  prefilter: SearchPrefilter | undefined,
  candidates: Candidates | null,
): ((path: string) => Uint8Array | undefined) | null {
  const contentOf = prefilter?.contentOf;
  return contentOf && isDirect(req, prefilter, candidates) ? (path) => contentOf(path) : null;
}

/** A root's path prefix in workspace paths ('' with one root). */
export function rootPrefix(workspace: Workspace, rootIndex: number): string {
  return workspace.multiRoot ? workspace.names[rootIndex] + '/' : '';
}

/** An index's candidate ranges of a file, with the size and time it was indexed at (null: read it whole). */
export function segmentsOf(
  path: string,
  candidates: Candidates | null,
  prefilter: SearchPrefilter | undefined,
) {
  const ranges = candidates?.get(path);
  const size = ranges ? prefilter!.sizeOf?.(path) : undefined;
  return ranges && size !== undefined ? { ranges, size, mtimeMs: prefilter!.mtimeOf?.(path) } : null;
}

export function withPrefix(prefix: string, s: Skipped): Skipped {
  return prefix ? { ...s, path: prefix + s.path } : s;
}
