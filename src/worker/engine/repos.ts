/**
 * Opening and reading repositories: a root is read into a snapshot aside, then swapped in
 * (replacing the workspace, or added to it); the tree, quick open and the file reads route a
 * workspace path to its root (core's RepoWorkspace).
 */
import { QuarryError } from '../../core/errors';
import { elapsedSince, now } from '../../core/jobs/yielder';
import { MemorySource } from '../../core/source/memory';
import type { FileSource } from '../../core/source/types';
import { DEFAULT_MAX_FILE_BYTES } from '../../core/walk/policy';
import { PulledSnapshotSource, type PullFiles } from '../../adapters/browser/files';
import { DirectoryHandleSource } from '../../adapters/browser/fs-access';
import { demoSource } from '../../adapters/browser/demo';
import { ServedSource } from '../../adapters/browser/served-source';
import type { JobScope } from '../edge';
import { fuzzyRank } from '../../core/nav/fuzzy';
import {
  READ_BYTES_MAX_BYTES,
  type JobEnd,
  type OpenOptions,
  type RepoSpec,
  type RepoStats,
} from '../protocol';
import { rootInfo } from '../roots';
import { readSnapshot } from '../snapshot';
import { repoKey, RepoSession, SKIPPED_IN_END, type RepoOrigin } from '../session';
import type { ServiceHandlers } from './api';
import { requirePath, requireRoots, throttledProgress, withPrefix, type EngineContext } from './context';
import { reconcileJob, sessionFromListing, storeListing } from './reconcile';

export function repoHandlers(ctx: EngineContext): ServiceHandlers<'repos'> {
  const { roots, edge, options } = ctx;
  const host = options.host ?? 'main-thread';
  const staged = new Map<string, string[]>();
  const open = openRoot(ctx, staged);
  return {
    ping: () => ({ host, repo: roots.roots[0]?.stats ?? null, roots: rootInfo(roots) }),
    openRepo: (scope, spec, pull, options) => open(scope, spec, pull, options ?? {}),
    reconcileRepo: reconcileJob(ctx),
    closeRoot: (key) => roots.remove(String(key)),
    roots: () => rootInfo(roots),
    cancel: (jobId) => edge.cancel(jobId),
    stagePaths: (stageId, paths) => {
      const list = staged.get(stageId) ?? [];
      for (const p of paths) list.push(String(p));
      staged.set(stageId, list);
      return list.length;
    },
    listDir: (path) => {
      if (roots.multiRoot && !String(path ?? '').replace(/^\/+|\/+$/g, '')) {
        // The workspace's top level: one directory per root.
        const names = roots.names();
        return roots.roots.map((s, i) => ({
          name: names[i],
          path: names[i],
          kind: 'directory' as const,
          childCount: s.listDir('').length,
          root: s.key,
        }));
      }
      const { root: session, rel, prefix } = roots.route(String(path ?? ''), 'path');
      const entries = session.listDir(rel);
      return prefix ? entries.map((e) => ({ ...e, path: prefix + e.path })) : entries;
    },
    quickOpen: (query, limit) => {
      requireRoots(roots);
      const max = Math.max(1, Math.min(Math.floor(Number(limit ?? 50)) || 50, 500));
      if (!roots.multiRoot) return fuzzyRank(roots.roots[0].quick, String(query ?? ''), max);
      const hits = roots.roots.flatMap((s) => {
        const prefix = roots.prefixOf(s);
        // positions index into the path the UI shows, so they shift by the prefix
        return fuzzyRank(s.quick, String(query ?? ''), max).map((h) => ({
          ...h,
          path: prefix + h.path,
          positions: h.positions.map((p) => p + prefix.length),
        }));
      });
      return hits.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1)).slice(0, max);
    },
    readFile: async (path, highlight) => {
      const { root: session, rel, prefix } = roots.route(requirePath(path));
      const content = await session.readFile(rel, highlight);
      return prefix ? { ...content, path: prefix + content.path } : content;
    },
    readBytes: async (path, maxBytes) => {
      requirePath(path);
      if (
        maxBytes !== undefined &&
        !(typeof maxBytes === 'number' && Number.isFinite(maxBytes) && maxBytes > 0)
      )
        throw new QuarryError(
          'InvalidArgument',
          `maxBytes must be a positive number, not ${String(maxBytes)}`,
          {
            field: 'maxBytes',
          },
        );
      const { root: session, rel } = roots.route(path);
      const bytes = await session.readBytes(
        rel,
        Math.min(maxBytes ?? READ_BYTES_MAX_BYTES, READ_BYTES_MAX_BYTES),
      );
      return { path, bytes };
    },
    readMarkdown: async (path) => {
      const { root: session, rel, prefix } = roots.route(requirePath(path));
      const content = await session.readFile(rel);
      // the lexer is loaded on the first Markdown file, not with the worker
      const { markdownDocument } = await import('../markdown-tree');
      return markdownDocument(content.text, content.bytes, path, prefix);
    },
    skipped: (offset, limit) => {
      requireRoots(roots);
      // the walk's skips, then what the index keeps out of the ranked index (text search still has those)
      const all = roots.roots.flatMap((s) =>
        [...s.skipped, ...s.indexSkipped].map(withPrefix(roots.prefixOf(s))),
      );
      const from = Math.max(0, Math.floor(Number(offset ?? 0)) || 0);
      const count = Math.max(0, Math.floor(Number(limit ?? 500)) || 0);
      return { total: all.length, items: all.slice(from, from + count) };
    },
  };
}

/** Where a spec's files come from, the session's origin and its key. */
async function resolve(
  ctx: EngineContext,
  staged: Map<string, string[]>,
  spec: RepoSpec,
  pull: PullFiles | undefined,
): Promise<{ raw: FileSource; origin: RepoOrigin; key: string }> {
  const { git, options } = ctx;
  switch (spec?.kind) {
    case 'demo':
      if (!options.loadDemo)
        throw new QuarryError('NotFound', 'The demo repository is not bundled with this build');
      return { raw: demoSource(await options.loadDemo()), origin: { kind: 'other' }, key: repoKey(spec) };
    case 'handle': {
      const id = await git.folderId(spec.handle);
      return {
        raw: new DirectoryHandleSource(spec.handle, { name: spec.name || spec.handle.name }),
        origin: { kind: 'handle', handle: spec.handle, libraryId: id ?? undefined },
        key: repoKey(spec, id ?? undefined),
      };
    }
    case 'files': {
      const paths = spec.stageId ? [...(staged.get(spec.stageId) ?? []), ...spec.paths] : spec.paths;
      if (spec.stageId) staged.delete(spec.stageId);
      if (!pull)
        throw new QuarryError(
          'InvalidArgument',
          'A folder snapshot needs a pull callback to read its files',
          {
            field: 'pull',
          },
        );
      return {
        raw: new PulledSnapshotSource(paths, pull, { name: spec.name, maxFileBytes: DEFAULT_MAX_FILE_BYTES }),
        origin: { kind: 'other' },
        key: repoKey(spec),
      };
    }
    case 'memory':
      return {
        raw: new MemorySource(spec.files, { name: spec.name, absoluteRoot: `/${spec.name}` }),
        origin: { kind: 'other' },
        key: repoKey(spec),
      };
    case 'git':
      return {
        raw: await git.cloneSource(spec.id, spec.name),
        origin: { kind: 'git', id: spec.id },
        key: repoKey(spec),
      };
    case 'served':
      return { raw: new ServedSource(spec.name), origin: { kind: 'other' }, key: repoKey(spec) };
    default:
      throw new QuarryError(
        'InvalidArgument',
        `Unknown repository kind "${(spec as { kind?: string })?.kind}"`,
        {
          field: 'kind',
        },
      );
  }
}

/**
 * Open a root: read it into a snapshot aside, then swap it in (replacing the workspace, or
 * added to it with `add`). A cancelled or failed open keeps what was open.
 */
function openRoot(ctx: EngineContext, staged: Map<string, string[]>) {
  const { options } = ctx;
  return async (
    scope: JobScope<never>,
    spec: RepoSpec,
    pull: PullFiles | undefined,
    open: OpenOptions,
  ): Promise<JobEnd<never, RepoStats>> => {
    const t0 = now();
    const found = await resolve(ctx, staged, spec, pull);
    const { raw, origin, key } = found;
    // opened before: the stored listing answers at once, and the UI reconciles in the background
    const stored = await sessionFromListing(ctx, spec, found, t0);
    if (stored && !scope.signal.aborted) return swapIn(ctx, stored, open);
    const snap = await readSnapshot(raw, spec.kind, {
      signal: scope.signal,
      onProgress: throttledProgress(scope, ctx.progressIntervalMs),
      yieldBudgetMs: options.yieldBudgetMs,
      readConcurrency: options.readConcurrency,
    });
    if (!snap) {
      const stats: RepoStats = {
        elapsedMs: elapsedSince(t0),
        ending: 'cancelled',
        name: '',
        kind: spec.kind,
        files: 0,
        bytes: 0,
        skippedByReason: {},
        key,
        root: '',
      };
      return { results: [], limitHit: false, skipped: [], stats };
    }
    const session = RepoSession.fromSnapshot(key, origin, snap, ctx.sessionDeps);
    storeListing(ctx, session);
    return swapIn(ctx, session, open);
  };
}

/** Swap a new root in (replacing the workspace, or added with `add`) and say what it holds. */
function swapIn(ctx: EngineContext, session: RepoSession, open: OpenOptions): JobEnd<never, RepoStats> {
  const { roots, git } = ctx;
  if (open.add) roots.add(session);
  else roots.replaceAll(session);
  const { origin, stats, skipped } = session;
  // In the background: the open is done without loading the git adapter; library() waits for it.
  if (origin.kind === 'handle' && origin.libraryId)
    git.registerFolder(origin.handle, origin.libraryId, stats.name, stats.files, stats.bytes);
  const prefix = roots.prefixOf(session);
  return {
    results: [],
    limitHit: skipped.length > SKIPPED_IN_END,
    skipped: skipped.slice(0, SKIPPED_IN_END).map(withPrefix(prefix)),
    stats: { ...stats, root: prefix.replace(/\/$/, '') || stats.name },
  };
}
