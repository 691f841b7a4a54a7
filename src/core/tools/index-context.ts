/** Shared by the index tools: pick the root named by `root`; sum several roots' refreshes into one. */
import { QuarryError } from '../errors';
import type { RefreshMode, RefreshStats } from '../rank/service';
import type { ToolContext } from './types';

/** '' when every root is searched; otherwise the path prefix of the chosen root. */
export function selectRootPrefix(ctx: ToolContext, root: string | undefined): string {
  if (root === undefined) return '';
  const ws = ctx.workspace;
  const norm = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '');
  const i = ws.roots.findIndex((r, k) => norm(r.absoluteRoot) === norm(root) || ws.names[k] === root);
  if (i < 0) throw new QuarryError('InvalidArgument', `root is not an open repository: ${root}`, { field: 'root', value: root });
  return ws.multiRoot ? ws.names[i] + '/' : '';
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
