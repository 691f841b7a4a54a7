/**
 * The seed-004 indexes codebase_search and find_related answer from: each root's own
 * (ToolContext.roots), root-relative paths under the root's prefix.
 */
import { QuarryError } from '../errors';
import type { CodebaseChunk } from '../codebase-index/chunks';
import type { CodebaseIndex } from '../codebase-index/codebase-index';
import type { CodebaseIndexService } from '../codebase-index/service';
import type { RefreshStats } from '../rank/service';
import { mergeRefreshStats } from './index-context';
import type { ToolContext } from './types';

export interface CodebasePart {
  /** What this root's workspace paths start with ('' with one index over everything). */
  prefix: string;
  service: CodebaseIndexService;
  index: CodebaseIndex;
}

export async function ensureSeedIndexes(
  ctx: ToolContext,
  rootPrefix: string,
): Promise<{ parts: CodebasePart[]; stats: RefreshStats }> {
  // only the named root is brought up to date when the call names one
  const roots = (ctx.roots ?? []).filter((r) => !rootPrefix || r.prefix === rootPrefix);
  if (!roots.length) throw new QuarryError('EngineError', 'No index is available for this workspace', {});
  const all = await Promise.all(
    roots.map(async (r) => ({ prefix: r.prefix, ...(await r.root.seedIndex(ctx.signal)) })),
  );
  return {
    parts: all.map((p) => ({ prefix: p.prefix, service: p.service, index: p.service.index! })),
    stats: mergeRefreshStats(all.map((p) => p.stats)),
  };
}

/** Chunk texts of the files a result shows, each file read once per call. */
export function chunkTexts(
  part: CodebasePart,
): (path: string, startLine: number) => Promise<CodebaseChunk | null> {
  const files = new Map<string, Promise<CodebaseChunk[] | null>>();
  return async (path, startLine) => {
    let chunks = files.get(path);
    if (!chunks) files.set(path, (chunks = part.service.chunksOf(path)));
    return (await chunks)?.find((c) => c.startLine === startLine) ?? null;
  };
}

/** The first `n` characters (code points, as the engine counts) of a text. */
export function firstChars(text: string, n: number): string {
  let units = 0;
  for (let k = 0; k < n && units < text.length; k++) {
    const c = text.charCodeAt(units);
    units += c >= 0xd800 && c <= 0xdbff && units + 1 < text.length ? 2 : 1;
  }
  return text.slice(0, units);
}
