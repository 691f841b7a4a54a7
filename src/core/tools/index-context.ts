/**
 * Shared by the index tools: pick the root named by `root`, and get the index before
 * answering. A host gives either one index over the whole workspace (`ctx.index`, the CLI:
 * refreshed on every call) or one index per root (`ctx.rootIndexes`, the app: each session's
 * own, its paths root-relative).
 */
import { QuarryError } from '../errors';
import type { ChunkIndex } from '../rank/bm25';
import type { RefreshMode, RefreshStats } from '../rank/service';
import type { RootIndex, ToolContext } from './types';

/** '' when every root is searched; otherwise the path prefix of the chosen root. */
export function selectRootPrefix(ctx: ToolContext, root: string | undefined): string {
  if (root === undefined) return '';
  const ws = ctx.workspace;
  const norm = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '');
  const i = ws.roots.findIndex((r, k) => norm(r.absoluteRoot) === norm(root) || ws.names[k] === root);
  if (i < 0) throw new QuarryError('InvalidArgument', `root is not an open repository: ${root}`, { field: 'root', value: root });
  return ws.multiRoot ? ws.names[i] + '/' : '';
}

export async function ensureIndex(ctx: ToolContext): Promise<{ index: ChunkIndex; stats: RefreshStats }> {
  if (!ctx.index) throw new QuarryError('EngineError', 'No index is available for this workspace', {});
  const stats = await ctx.index.refresh({ signal: ctx.signal });
  return { index: ctx.index.index!, stats };
}

const MODE_RANK: Record<RefreshMode, number> = { cache_hit: 0, incremental: 1, full: 2 };

/** One refresh summary for several roots: counts add up; the mode is the heaviest any root needed. */
export function mergeRefreshStats(all: RefreshStats[]): RefreshStats {
  const out: RefreshStats = { refreshMode: 'cache_hit', filesScanned: 0, chunksIndexed: 0, elapsedMs: 0, filesChanged: 0, filesRemoved: 0, skipped: [] };
  for (const s of all) {
    if (MODE_RANK[s.refreshMode] > MODE_RANK[out.refreshMode]) out.refreshMode = s.refreshMode;
    out.filesScanned += s.filesScanned;
    out.chunksIndexed += s.chunksIndexed;
    out.elapsedMs += s.elapsedMs;
    out.filesChanged += s.filesChanged;
    out.filesRemoved += s.filesRemoved;
    out.skipped.push(...s.skipped);
  }
  return out;
}

/**
 * The indexes a query runs over: with per-root indexes, each root's (only the chosen one when
 * `rootPrefix` is set); otherwise the workspace's one index under the prefix ''.
 */
export async function ensureIndexes(ctx: ToolContext, rootPrefix: string): Promise<{ parts: RootIndex[]; stats: RefreshStats }> {
  if (ctx.rootIndexes) {
    const all = await ctx.rootIndexes(ctx.signal, rootPrefix || undefined);
    const parts = rootPrefix ? all.filter((p) => p.prefix === rootPrefix) : all;
    if (!parts.length) throw new QuarryError('EngineError', 'No index is available for this workspace', {});
    return { parts, stats: mergeRefreshStats(parts.map((p) => p.stats)) };
  }
  const { index, stats } = await ensureIndex(ctx);
  return { parts: [{ prefix: '', index, stats }], stats };
}
