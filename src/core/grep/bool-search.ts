/**
 * A boolean query over several patterns (`foo AND bar`, `a OR /b+/`, `x NOT test`), as
 * Sourcegraph answers it: the search runs once, for the alternation of every pattern; a file
 * is listed when the expression holds over the patterns found in it, and shows the lines and
 * hits of the patterns that are not under NOT. Files are whole units: an AND asks that both
 * patterns be somewhere in the file, not on one line.
 *
 * The caps count what is delivered after the file test, so the inner search runs uncapped and
 * this wrapper stops it once the request's own cap and count are reached.
 */
import { QuarryError } from '../errors';
import { alternationOf } from '../query/alternation';
import type { QueryExpr } from '../query/types';
import { compileMatcher, type CaseMode, type Matcher } from './regex';
import type { GrepFileResult, GrepMatch, GrepRequest, GrepSink, GrepSummary, HitRange } from './types';

interface Leaf {
  matcher: Matcher;
  /** Under an even number of NOTs: its lines and hits are shown. */
  positive: boolean;
}

export interface CompiledFileExpr {
  leaves: Leaf[];
  /** The expression over which leaves a file holds. */
  holds(present: readonly boolean[]): boolean;
  /** One regex (our dialect) that finds a line holding any leaf. */
  alternation: string;
}

export { escapeRegex } from '../query/alternation';

type Holds = (present: readonly boolean[]) => boolean;

/** Compile the expression's leaves (each checked as its own pattern) and its truth function. */
export function compileFileExpr(
  expr: QueryExpr,
  opts: { caseMode: CaseMode; wholeWord?: boolean },
): CompiledFileExpr {
  const leaves: Leaf[] = [];
  const walk = (e: QueryExpr, positive: boolean): Holds => {
    switch (e.kind) {
      case 'term':
      case 'regex': {
        const i = leaves.length;
        const mode = e.kind === 'term' ? 'literal' : 'regex';
        const pattern = e.kind === 'term' ? e.value : e.pattern;
        leaves.push({
          matcher: compileMatcher(pattern, { mode, caseMode: opts.caseMode, wholeWord: opts.wholeWord }),
          positive,
        });
        return (p) => p[i];
      }
      case 'not': {
        const inner = walk(e.item, !positive);
        return (p) => !inner(p);
      }
      case 'and': {
        const items = e.items.map((x) => walk(x, positive));
        return (p) => items.every((f) => f(p));
      }
      case 'or': {
        const items = e.items.map((x) => walk(x, positive));
        return (p) => items.some((f) => f(p));
      }
    }
  };
  const holds = walk(expr, true);
  if (!leaves.some((l) => l.positive)) {
    throw new QuarryError(
      'InvalidQuery',
      'NOT needs something to search for beside it, as in `foo NOT bar`',
      {
        field: 'query',
      },
    );
  }
  return { leaves, holds, alternation: alternationOf(expr) };
}

/** The hits of the shown leaves on a line, merged and in order. */
function shownRanges(cx: CompiledFileExpr, text: string, present: boolean[]): HitRange[] {
  const ranges: HitRange[] = [];
  cx.leaves.forEach((leaf, i) => {
    const hits = leaf.matcher.lineHits(text);
    if (hits.length) present[i] = true;
    if (leaf.positive) for (const h of hits) ranges.push([h[0], h[1]]);
  });
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: HitRange[] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] < last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push(r);
  }
  return merged;
}

/** Filter one file's lines by the expression: null when the file is not listed. */
export function filterFile(cx: CompiledFileExpr, file: GrepFileResult): GrepFileResult | null {
  const present = cx.leaves.map(() => false);
  const shown: GrepMatch[] = [];
  for (const m of file.matches) {
    const ranges = shownRanges(cx, m.text, present);
    if (ranges.length) shown.push({ ...m, ranges });
  }
  if (!shown.length || !cx.holds(present)) return null;
  return { path: file.path, matches: shown };
}

type Inner = (req: GrepRequest, sink: GrepSink) => Promise<GrepSummary>;

/**
 * Run `req` (with `fileExpr`) through `inner` (the plain search): one uncapped search for the
 * alternation, each file filtered, the request's cap and count applied to what is listed.
 */
export async function boolSearch(req: GrepRequest, sink: GrepSink, inner: Inner): Promise<GrepSummary> {
  const cx = compileFileExpr(req.fileExpr!, {
    caseMode: req.caseMode ?? 'sensitive',
    wholeWord: req.wholeWord,
  });
  const maxResults = req.maxResults ?? 10_000;
  const countLimit = req.countLimit ?? Infinity;
  let total = 0;
  let delivered = 0;
  let filesMatched = 0;
  let sinkStop = false;
  let capStop = false;
  const summary = await inner(
    {
      ...req,
      fileExpr: undefined,
      pattern: cx.alternation,
      mode: 'regex',
      wholeWord: false,
      maxResults: Number.MAX_SAFE_INTEGER,
      countLimit: undefined,
    },
    (file) => {
      const kept = filterFile(cx, file);
      if (!kept) return true;
      filesMatched++;
      total += kept.matches.length;
      const room = maxResults - delivered;
      if (room > 0) {
        const out =
          room >= kept.matches.length ? kept : { path: kept.path, matches: kept.matches.slice(0, room) };
        delivered += out.matches.length;
        if (sink(out) === false) {
          sinkStop = true;
          return false;
        }
      }
      if (delivered >= maxResults && total >= countLimit) {
        capStop = true; // cap reached and nothing more may be counted
        return false;
      }
      return true;
    },
  );
  const ending = sinkStop ? 'stopped' : capStop ? 'complete' : summary.ending;
  return {
    ...summary,
    total,
    delivered,
    filesMatched,
    limitHit: total > delivered || (capStop && delivered >= maxResults),
    totalIsExact: ending === 'complete' && !capStop,
    ending,
  };
}
