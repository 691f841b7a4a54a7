/**
 * A query's pattern (one term, one /regex/, or a boolean expression of them) as the history
 * search's TextMatcher (core/git/commit-search.ts), on Quarry's own regex engine: a pattern a
 * person typed never runs on a backtracking engine unchecked (grep/regex), so a commit message
 * or a diff line can never hang the worker.
 *
 * A boolean expression holds over a text when it holds over which of its patterns the text
 * contains (as a file does in bool-search.ts); its hits are those of the patterns not under NOT.
 */
import { compileFileExpr } from '../grep/bool-search';
import type { CaseMode, Matcher } from '../grep/regex';
import type { TextMatcher, TextRange } from '../git/commit-search';
import type { QueryExpr } from './types';

function hitsOf(m: Matcher, text: string, nonEmpty: boolean): TextRange[] {
  const out: TextRange[] = [];
  m.scan(text, (s, e) => {
    if (!nonEmpty || e > s) out.push([s, e]);
  });
  return out;
}

function found(m: Matcher, text: string): boolean {
  let hit = false;
  m.scan(text, () => {
    hit = true;
    return false;
  });
  return hit;
}

function merge(ranges: TextRange[]): TextRange[] {
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: TextRange[] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && r[0] < last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

/** The expression as a TextMatcher (test, ranges, count) with our regex engine. */
export function exprTextMatcher(expr: QueryExpr, caseMode: CaseMode): TextMatcher {
  const cx = compileFileExpr(expr, { caseMode });
  const single = cx.leaves.length === 1 && cx.leaves[0].positive;
  const leaf = cx.leaves[0].matcher;
  const positives = cx.leaves.filter((l) => l.positive).map((l) => l.matcher);
  return {
    kind: expr.kind === 'term' ? 'literal' : 'regex',
    source: cx.alternation,
    caseSensitive: caseMode === 'sensitive',
    test(text) {
      if (single) return found(leaf, text);
      return cx.holds(cx.leaves.map((l) => found(l.matcher, text))) && positives.some((m) => found(m, text));
    },
    ranges(text) {
      if (single) return hitsOf(leaf, text, true);
      return merge(positives.flatMap((m) => hitsOf(m, text, true)));
    },
    count(text) {
      return positives.reduce((n, m) => n + hitsOf(m, text, false).length, 0);
    },
  };
}

/** An author pattern (git's --author: a regex over "Name <email>", case as the query says). */
export function authorMatcher(pattern: string, caseMode: CaseMode): TextMatcher {
  return exprTextMatcher({ kind: 'regex', pattern }, caseMode);
}
