/**
 * Shared by the index tools: pick the root named by `root`; sum several roots' refreshes into
 * one; the host's code indexes and the snippets of their chunks.
 */
import { QuarryError } from '../errors';
import type { IndexedChunk } from '../rank/indexed-chunk';
import type { RefreshMode, RefreshStats } from '../rank/service';
import { truncateLine, type CodeIndexPart, type ToolContext } from './types';

/** '' when every root is searched; otherwise the path prefix of the chosen root. */
export function selectRootPrefix(ctx: ToolContext, root: string | undefined): string {
  if (root === undefined) return '';
  const ws = ctx.workspace;
  const norm = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '');
  const i = ws.roots.findIndex((r, k) => norm(r.absoluteRoot) === norm(root) || ws.names[k] === root);
  if (i < 0)
    throw new QuarryError('InvalidArgument', `root is not an open repository: ${root}`, {
      field: 'root',
      value: root,
    });
  return ws.multiRoot ? ws.names[i] + '/' : '';
}

const MODE_RANK: Record<RefreshMode, number> = { cache_hit: 0, incremental: 1, full: 2 };

/** One refresh summary for several roots: counts add up; the mode is the heaviest any root needed. */
export function mergeRefreshStats(all: RefreshStats[]): RefreshStats {
  const out: RefreshStats = {
    refreshMode: 'cache_hit',
    filesScanned: 0,
    chunksIndexed: 0,
    elapsedMs: 0,
    filesChanged: 0,
    filesRemoved: 0,
    skipped: [],
  };
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
 * Every root's code index for ranked_search and related_code (ToolContext.roots), each
 * with a line reader that reads a file once per call; an EngineError naming the tool when the
 * host has none.
 */
export async function ensureCodeIndexes(ctx: ToolContext, tool: string): Promise<CodeIndexPart[]> {
  if (!ctx.roots)
    throw new QuarryError(
      'EngineError',
      `${tool} needs the workspace's code index, and this host provides none`,
      {},
    );
  if (!ctx.roots.length) throw new QuarryError('EngineError', 'No index is available for this workspace', {});
  return Promise.all(
    ctx.roots.map(async ({ prefix, root }) => {
      const index = await root.codeIndex(ctx.signal);
      const files = new Map<string, Promise<string[] | null>>();
      const lines = (path: string) => {
        let p = files.get(path);
        if (!p) files.set(path, (p = root.lines(path).catch(() => null)));
        return p;
      };
      return { prefix, index, lines };
    }),
  );
}

/** Lines of a chunk a result shows: at most this many, from its first. */
export const CHUNK_SNIPPET_LINES = 12;

/** A chunk's first CHUNK_SNIPPET_LINES lines, each cut at MAX_LINE_CHARS; the index's stored snippet when the file cannot be read now. */
export async function chunkSnippet(part: CodeIndexPart, chunk: IndexedChunk): Promise<string> {
  const lines = await part.lines(chunk.path);
  if (!lines) return chunk.snippet;
  const last = Math.min(chunk.endLine, chunk.startLine + CHUNK_SNIPPET_LINES - 1, lines.length);
  return lines
    .slice(chunk.startLine - 1, last)
    .map((l) => truncateLine(l))
    .join('\n');
}
