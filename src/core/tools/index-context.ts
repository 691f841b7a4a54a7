/** Shared by the index tools: pick the root named by `root`, refresh the index before answering. */
import { QuarryError } from '../errors';
import type { ChunkIndex } from '../rank/bm25';
import type { RefreshStats } from '../rank/service';
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

export async function ensureIndex(ctx: ToolContext): Promise<{ index: ChunkIndex; stats: RefreshStats }> {
  if (!ctx.index) throw new QuarryError('EngineError', 'No index is available for this workspace', {});
  const stats = await ctx.index.refresh({ signal: ctx.signal });
  return { index: ctx.index.index!, stats };
}
