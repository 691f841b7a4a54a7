/**
 * The text-search engine: walk every root under the walk policy, run one compiled Matcher
 * over each file's text, turn hits into line matches with column ranges and context, and
 * push each file's matches into a sink that may stop the search. One global cap on
 * delivered matches; counting goes on to `countLimit`, after which `total` is a lower bound.
 *
 * This module is the search loop (files, the cap and the count, the ending); its parts:
 * compile-request.ts (the request), prefilter.ts (index candidates, the byte prefilter),
 * scan.ts (a decoded text's lines and their shape), literal-lines.ts (one file by
 * literal-anchored lines), line-windows.ts and decode-line.ts (long lines). Every name it
 * exported before the split is still exported here.
 */
import { toQuarryError } from '../errors';
import { createYielder, elapsedSince, NEVER_YIELD, now, type Yielder } from '../jobs/yielder';
import type { Workspace } from '../source/workspace';
import { resolvePolicy } from '../walk/policy';
import { boolSearch } from './bool-search';
import { compileRequest } from './compile-request';
import { filePlan, searchFileInto } from './file-search';
import { onOneThread, poolSearch, type SearchPool } from './pool';
import { anchorOf, type SearchPrefilter } from './prefilter';
import { heldOf, rootPrefix, searchStarts, searchWalker, segmentsOf, withPrefix } from './search-files';
import { HeldFileView } from '../source/held-contents';
import { SearchTally } from './tally';
import type { GrepFileResult, GrepRequest, GrepSink, GrepSummary } from './types';

export { mergeBlocks, type Block } from './blocks';
export { compileRequest, DEFAULT_MAX_RESULTS } from './compile-request';
export { LINE_WINDOWS, literalLineFinders, type LineFinders } from './line-windows';
export { RANGE_MARGIN, type LineContext } from './literal-lines';
export { bytePrefilter, compareWalkOrder, type SearchPrefilter } from './prefilter';
export { previewStart, scanLines } from './scan';

export interface SearchOptions {
  signal?: AbortSignal;
  /** Narrow the files to read; results stay identical to a scan (candidates are verified). */
  prefilter?: SearchPrefilter;
  /** Skip decoding UTF-8 files whose bytes hold no required literal (default true). */
  bytePrefilter?: boolean;
  /** Defaults to a 12 ms budget; pass NEVER_YIELD in the CLI and benchmarks. */
  yielder?: Yielder;
  /**
   * Decode and match only the lines that hold a required literal (found in the raw bytes),
   * when the matcher has literals; context lines are decoded from the bytes around each
   * delivered match; a matcher without literals decodes and matches each file in pieces of
   * lines (byte-search.ts). Results are identical. Defaults to on; false decodes every file
   * whole (the reference path tests compare with).
   */
  literalLines?: boolean;
  /** Bytes read on each side of an index candidate range (default RANGE_MARGIN; tests shrink it). */
  rangeMargin?: number;
  /** Search on these threads (results identical to one thread's); absent: this thread alone. */
  pool?: SearchPool;
}

export async function searchWorkspace(
  workspace: Workspace,
  req: GrepRequest,
  sink: GrepSink,
  options: SearchOptions = {},
): Promise<GrepSummary> {
  if (req.fileExpr)
    return boolSearch(req, sink, (inner, innerSink) => searchWorkspace(workspace, inner, innerSink, options));
  const t0 = now();
  const compiled = compileRequest(req);
  const candidates = options.prefilter ? options.prefilter.candidates(compiled.matcher) : null;
  const anchor = anchorOf(options.prefilter, candidates, compiled.matcher);
  if (options.pool && !onOneThread(candidates, options.prefilter, compiled.matcher.strategy, options.pool)) {
    return poolSearch(workspace, req, sink, options.pool, { ...options, candidates, anchor });
  }
  const tally = new SearchTally(compiled.maxResults, compiled.countLimit, sink);
  const yielder = options.yielder ?? createYielder();
  const signal = options.signal;
  const prefilter = options.prefilter;
  const plan = filePlan(compiled, { ...options, anchor });
  const starts = await searchStarts(workspace, req.directory ?? '');
  const maxFileBytes = resolvePolicy({ maxFileBytes: req.maxFileBytes }).maxFileBytes;

  try {
    for (const { rootIndex, rel: start } of starts) {
      if (tally.done) break;
      const source = workspace.roots[rootIndex];
      const prefix = rootPrefix(workspace, rootIndex);
      const held = heldOf(req, prefilter, candidates);
      const view = held ? new HeldFileView(source) : null;
      const walker = searchWalker({
        workspace,
        rootIndex,
        start,
        req,
        filter: compiled.filter,
        prefilter,
        candidates,
        signal,
        onSkip: (s) => tally.skip(withPrefix(prefix, s)),
        // each file is checked as it is read (fileOnWalk): a source with statFile opens it once for both
        statFiles: false,
      });
      for await (const file of walker) {
        if (signal?.aborted) {
          tally.cancel();
          break;
        }
        const path = prefix + file.path;
        const segments = plan.lineFinders ? segmentsOf(path, candidates, prefilter) : null;
        const checkBytes = file.size < 0 ? maxFileBytes : undefined;
        const bytes = held?.(path);
        const r = await searchFileInto(
          tally,
          bytes ? view!.use(bytes) : source,
          { rel: file.path, path, segments, checkBytes },
          plan,
          prefix,
        );
        if (r === 'stop') break;
        if (r === 'passed') continue;
        const y = yielder.maybeYield();
        if (y) await y;
      }
    }
  } catch (err) {
    const qe = toQuarryError(err);
    if (qe.code === 'Cancelled') tally.cancel();
    else throw qe;
  }
  return tally.summary(elapsedSince(t0), compiled.matcher.strategy + (candidates ? '+trigram' : ''));
}

/** Collect every match (for tools and tests). */
export async function searchAll(workspace: Workspace, req: GrepRequest, options: SearchOptions = {}) {
  const files: GrepFileResult[] = [];
  const summary = await searchWorkspace(workspace, req, (r) => void files.push(r), {
    yielder: NEVER_YIELD,
    ...options,
  });
  return { files, matches: files.flatMap((f) => f.matches), summary };
}
