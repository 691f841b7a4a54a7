/**
 * One pass over a workspace for the analyzers: walk every root under the walk policy, read
 * each accepted file as text, and hand it on with its workspace path. Per-file analysis
 * results are memoised by content (a hash of the text), so a view that asks again after an
 * edit re-parses only what changed, and an unchanged repository is never parsed twice.
 */
import { QuarryError } from '../errors';
import { fnv1a } from '../hash';
import { createYielder, NEVER_YIELD, type Yielder } from '../jobs/yielder';
import type { FileSource } from '../source/types';
import type { Workspace } from '../source/workspace';
import type { Skipped } from '../walk/policy';
import { readText, throwIfAborted, walkFiles, type WalkOptions } from '../walk/walk';

export interface ScannedFile {
  /** Workspace path (prefixed by the root's name when there are several roots). */
  path: string;
  rootIndex: number;
  /** Root-relative path. */
  rel: string;
  text: string;
  source: FileSource;
}

export interface ScanOptions {
  /** Cheap root-relative path filter, applied before the file is read. */
  acceptFile?: (rel: string) => boolean;
  /** Only these starting points (root index + root-relative directory); default every root. */
  starts?: Array<{ rootIndex: number; rel: string }>;
  walk?: Pick<WalkOptions, 'noisySegments' | 'useIgnoreFiles' | 'maxFileBytes'>;
  signal?: AbortSignal;
  yielder?: Yielder;
  /** Receives unreadable and binary files (walk-policy skips are not reported). */
  onSkip?: (s: Skipped) => void;
}

export async function scanFiles(
  workspace: Workspace,
  options: ScanOptions,
  onFile: (file: ScannedFile) => void | Promise<void>,
): Promise<number> {
  const yielder = options.yielder ?? createYielder();
  const starts = options.starts ?? workspace.roots.map((_, rootIndex) => ({ rootIndex, rel: '' }));
  let scanned = 0;
  for (const { rootIndex, rel: start } of starts) {
    const source = workspace.roots[rootIndex];
    for await (const f of walkFiles(source, {
      ...options.walk,
      start,
      acceptFile: options.acceptFile,
      signal: options.signal,
    })) {
      throwIfAborted(options.signal);
      const loaded = await readText(source, f.path);
      const path = workspace.displayPath(rootIndex, f.path);
      if (!loaded.ok) {
        options.onSkip?.({ ...loaded.skipped, path });
        continue;
      }
      scanned++;
      await onFile({ path, rootIndex, rel: f.path, text: loaded.text, source });
      const y = yielder.maybeYield();
      if (y) await y;
    }
  }
  return scanned;
}

export { NEVER_YIELD };

/** FNV-1a over UTF-16 code units, mixed with the length: the cache key of a file's text. */
export function textHash(text: string): string {
  return `${text.length}:${fnv1a(text).toString(36)}`;
}

/** Per-source, per-analysis memo of file results keyed by content. */
const memo = new WeakMap<FileSource, Map<string, Map<string, { key: string; value: unknown }>>>();

export function memoByContent<T>(
  analysis: string,
  source: FileSource,
  rel: string,
  text: string,
  compute: () => T,
): T {
  let bySource = memo.get(source);
  if (!bySource) memo.set(source, (bySource = new Map()));
  let table = bySource.get(analysis);
  if (!table) bySource.set(analysis, (table = new Map()));
  const key = textHash(text);
  const hit = table.get(rel);
  if (hit && hit.key === key) return hit.value as T;
  const value = compute();
  table.set(rel, { key, value });
  return value;
}

/**
 * Resolve a caller's `directory` to starting points, one per root where it exists.
 * Escaping the root -> PathOutsideRoot; present in no root -> NotFound; both name the field.
 */
export async function resolveDirectory(
  workspace: Workspace,
  directory: string,
  field: string,
): Promise<Array<{ rootIndex: number; rel: string }>> {
  const candidates = workspace.resolveAll(directory, field);
  const found: Array<{ rootIndex: number; rel: string }> = [];
  for (const c of candidates) {
    const st = await c.source.stat(c.rel);
    if (st) found.push({ rootIndex: c.rootIndex, rel: c.rel });
  }
  if (!found.length) {
    throw new QuarryError('NotFound', `${field} not found: "${directory}"`, { field, value: directory });
  }
  return found;
}
