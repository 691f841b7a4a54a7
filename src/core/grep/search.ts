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
import type { Skipped } from '../walk/policy';
import { DEFAULT_MAX_FILE_BYTES } from '../walk/policy';
import { readTextIfMayMatch, walkFiles } from '../walk/walk';
import { compileRequest } from './compile-request';
import { literalLineFinders } from './line-windows';
import { RANGE_MARGIN, searchLines, type LineContext } from './literal-lines';
import { bytePrefilter, directFiles, type SearchPrefilter } from './prefilter';
import { cutLine, linesAfter, linesBefore, lineTextAt, clipToWindow, previewStart, scanLines, type LineHits } from './scan';
import type { GrepFileResult, GrepMatch, GrepRequest, GrepSink, GrepSummary } from './types';

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
   * delivered match. Results are identical. Defaults to on with a prefilter (the indexed
   * path), off otherwise.
   */
  literalLines?: boolean;
  /** Bytes read on each side of an index candidate range (default RANGE_MARGIN; tests shrink it). */
  rangeMargin?: number;
}

export async function searchWorkspace(workspace: Workspace, req: GrepRequest, sink: GrepSink, options: SearchOptions = {}): Promise<GrepSummary> {
  const t0 = now();
  const compiled = compileRequest(req);
  const { matcher, filter, contextBefore, contextAfter, maxResults, countLimit, cap } = compiled;
  const yielder = options.yielder ?? createYielder();
  const signal = options.signal;
  const skipped: Skipped[] = [];
  let total = 0;
  let delivered = 0;
  let filesSearched = 0;
  let filesMatched = 0;
  let totalIsExact = true;
  let limitHit = false;
  let ending: GrepSummary['ending'] = 'complete';
  let done = false;

  const summary = (): GrepSummary => ({
    total,
    totalIsExact,
    limitHit,
    delivered,
    filesSearched,
    filesMatched,
    skipped,
    elapsedMs: elapsedSince(t0),
    ending,
    strategy: matcher.strategy + (candidates ? '+trigram' : ''),
  });

  const mayMatch = options.bytePrefilter === false ? null : bytePrefilter(matcher);
  const lineFinders = (options.literalLines ?? !!options.prefilter) ? literalLineFinders(matcher) : null;
  const prefilter = options.prefilter;
  const candidates = prefilter ? prefilter.candidates(matcher) : null;
  const directory = req.directory ?? '';
  let starts = directory ? workspace.resolveAll(directory, 'directory') : workspace.roots.map((_, i) => ({ rootIndex: i, rel: '' }));
  if (starts.length > 1) {
    // several readings of the path (roots, a backslash in a name): the ones that exist
    const present = [];
    for (const s of starts) if (await workspace.roots[s.rootIndex].stat(s.rel).catch(() => null)) present.push(s);
    if (present.length) starts = present;
  }

  try {
    for (const { rootIndex, rel: start } of starts) {
      if (done) break;
      const source = workspace.roots[rootIndex];
      const prefix = workspace.multiRoot ? workspace.names[rootIndex] + '/' : '';
      const maxBytes = req.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
      const direct = candidates && prefilter?.sizeOf && prefilter.maxIndexedBytes !== undefined && req.useIgnoreFiles !== false && maxBytes <= prefilter.maxIndexedBytes;
      const walker = direct
        ? directFiles(candidates, prefilter, prefix, start, filter, maxBytes)
        : walkFiles(source, {
            start,
            maxFileBytes: req.maxFileBytes,
            useIgnoreFiles: req.useIgnoreFiles,
            signal,
            acceptFile: candidates && prefilter ? (p) => (!filter || filter(p)) && (candidates.has(prefix + p) || !prefilter.has(prefix + p)) : (filter ?? undefined),
            onSkip: (s) => skipped.push(prefix ? { ...s, path: prefix + s.path } : s),
          });
      for await (const file of walker) {
        if (signal?.aborted) {
          ending = 'cancelled';
          totalIsExact = false;
          done = true;
          break;
        }
        const path = prefix + file.path;
        const matches: GrepMatch[] = [];
        let fileHadMatch = false;
        const onLine = (text: string, hits: LineHits, lineNo: number, context?: () => LineContext): boolean => {
          if (delivered >= maxResults) limitHit = true;
          if (total >= countLimit && delivered >= maxResults) {
            // one more match than we are allowed to count: total is only a lower bound
            totalIsExact = false;
            done = true;
            return false;
          }
          total++;
          fileHadMatch = true;
          if (delivered < maxResults) {
            delivered++;
            let lineText = lineTextAt(text, hits.start, hits.end);
            let ranges = hits.ranges;
            let textStart = hits.windowStart ?? 0;
            if (cap !== undefined && lineText.length > cap && hits.windowStart === undefined) {
              textStart = previewStart(lineText, ranges, cap);
              lineText = lineText.slice(textStart, textStart + cap);
              ranges = clipToWindow(ranges, textStart, cap);
            }
            const around = context ? context() : null;
            matches.push({
              path,
              line: lineNo,
              text: lineText,
              ranges,
              ...(textStart > 0 ? { textStart } : {}),
              contextBefore: around
                ? around.before
                : contextBefore
                  ? linesBefore(text, hits.start, Math.min(contextBefore, hits.line - 1)).map((l) => cutLine(l, cap))
                  : [],
              contextAfter: around ? around.after : contextAfter ? linesAfter(text, hits.end, contextAfter).map((l) => cutLine(l, cap)) : [],
            });
          }
          return true;
        };
        /** Count and deliver this file's matches; true when the search must stop here. */
        const finishFile = (filePath: string): boolean => {
          if (fileHadMatch) filesMatched++;
          if (matches.length && sink({ path: filePath, matches }) === false) {
            ending = 'stopped';
            totalIsExact = false;
            done = true;
          }
          if (done) return true;
          if (delivered >= maxResults && countLimit <= total) {
            // cap reached and nothing more may be counted: peek no further
            if (countLimit === total) totalIsExact = false; // there may be more; we did not look
            done = true;
            return true;
          }
          return false;
        };
        if (lineFinders) {
          const ranges = candidates?.get(path);
          const size = ranges ? prefilter!.sizeOf?.(path) : undefined;
          const segments = ranges && size !== undefined ? { ranges, size, mtimeMs: prefilter!.mtimeOf?.(path) } : null;
          const r = await searchLines(
            source,
            file.path,
            lineFinders,
            matcher,
            { before: contextBefore, after: contextAfter, cap },
            onLine,
            mayMatch !== null,
            segments,
            options.rangeMargin ?? RANGE_MARGIN,
          );
          if (r === 'absent') {
            // as the byte prefilter answers in the whole-file path
            filesSearched++;
            continue;
          }
          if (typeof r === 'object') {
            skipped.push(prefix ? { ...r, path: prefix + r.path } : r);
            continue;
          }
          if (r === 'searched') {
            filesSearched++;
            if (finishFile(path)) break;
            const y = yielder.maybeYield();
            if (y) await y;
            continue;
          }
        }
        const loaded = await readTextIfMayMatch(source, file.path, mayMatch);
        if (loaded.ok === 'absent') {
          filesSearched++;
          continue;
        }
        if (!loaded.ok) {
          skipped.push(prefix ? { ...loaded.skipped, path: prefix + loaded.skipped.path } : loaded.skipped);
          continue;
        }
        filesSearched++;
        const text = loaded.text;
        scanLines(text, matcher, (hits) => onLine(text, hits, hits.line));
        if (finishFile(path)) break;
        const y = yielder.maybeYield();
        if (y) await y;
      }
    }
  } catch (err) {
    const qe = toQuarryError(err);
    if (qe.code === 'Cancelled') {
      ending = 'cancelled';
      totalIsExact = false;
    } else {
      throw qe;
    }
  }
  return summary();
}

/** Collect every match (for tools and tests). */
export async function searchAll(workspace: Workspace, req: GrepRequest, options: SearchOptions = {}) {
  const files: GrepFileResult[] = [];
  const summary = await searchWorkspace(workspace, req, (r) => void files.push(r), { yielder: NEVER_YIELD, ...options });
  return { files, matches: files.flatMap((f) => f.matches), summary };
}
