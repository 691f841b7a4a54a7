/**
 * `quarry chunks`: the symbol chunks of Quarry's index (the app's Ranked mode and Related
 * panel), built as the app builds them, on a pool of parsing threads, one JSON object per
 * line; `--stats`: what the index covers instead (parsed, as blocks, text only and why, per
 * file), as the app's status line and skipped list say it; with `--json`, that as JSON.
 */
import { nodeParsePool } from '../adapters/node/parse-pool';
import { coverageSentence } from '../core/rank/coverage-text';
import { CodeIndexService } from '../core/rank/service';
import type { Workspace } from '../core/source/workspace';

export async function chunksCommand(
  workspace: Workspace,
  out: (s: string) => void,
  options: { stats: boolean; json: boolean },
): Promise<void> {
  const pool = nodeParsePool();
  try {
    const service = new CodeIndexService(workspace, async () => pool);
    const stats = await service.refresh();
    const index = service.index!;
    if (!options.stats) {
      for (const path of index.paths()) {
        for (const c of index.chunksOf(path)) {
          out(
            JSON.stringify({
              path: c.path,
              startLine: c.startLine,
              endLine: c.endLine,
              symbolName: c.symbolName,
              chunkType: c.chunkType,
            }) + '\n',
          );
        }
      }
      return;
    }
    const coverage = stats.coverage!;
    const textOnly = stats.skipped.filter(
      (s) => s.reason === 'minified' || s.reason === 'generated' || s.reason === 'parseFailed',
    );
    if (options.json) {
      out(JSON.stringify({ coverage, chunks: stats.chunksIndexed, textOnly }, null, 2) + '\n');
      return;
    }
    out(`${coverageSentence(coverage)}\n`);
    out(`Chunks: ${stats.chunksIndexed.toLocaleString('en-US')}\n`);
    if (coverage.blockExtensions.length) {
      out('As blocks (no parser), by extension:\n');
      for (const e of coverage.blockExtensions) out(`  ${e.ext}\t${e.files}\n`);
    }
    if (textOnly.length) {
      out('Text only, per file:\n');
      for (const s of textOnly)
        out(`  ${s.path}\t${s.reason === 'parseFailed' ? 'parser failed' : s.reason}\t${s.detail ?? ''}\n`);
    }
  } finally {
    pool.dispose();
  }
}
