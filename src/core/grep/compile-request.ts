/**
 * A search request compiled: the matcher, the path filter and the numeric limits, everything
 * that can fail before any file is read.
 */
import { QuarryError } from '../errors';
import { compileGlob, compilePathFilter, type PathTest } from '../walk/glob';
import { compileFileExpr } from './bool-search';
import { compileMatcher } from './regex';
import type { GrepRequest, PathRule } from './types';

export const DEFAULT_MAX_RESULTS = 10_000;

function nonNegativeInt(value: unknown, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new QuarryError('InvalidArgument', `${field} must be a non-negative integer`, { field, value });
  }
  return value;
}

/** Compile everything that can fail before any file is read. */
export function compileRequest(req: GrepRequest) {
  if (typeof req.pattern !== 'string')
    throw new QuarryError('InvalidArgument', 'pattern must be a string', { field: 'pattern' });
  const matcher = compileMatcher(req.pattern, {
    mode: req.mode,
    caseMode: req.caseMode ?? 'sensitive',
    wholeWord: req.wholeWord,
  });
  const filter = withRules(
    compilePathFilter({
      include: req.include,
      exclude: req.exclude,
      extensions: req.extensions,
      pathContains: req.pathContains,
    }),
    req.pathRules,
  );
  // a boolean query's patterns are each compiled too (bad input fails before any file is read)
  if (req.fileExpr)
    compileFileExpr(req.fileExpr, { caseMode: req.caseMode ?? 'sensitive', wholeWord: req.wholeWord });
  const contextBefore = nonNegativeInt(req.contextBefore, 'contextBefore', 0);
  const contextAfter = nonNegativeInt(req.contextAfter, 'contextAfter', 0);
  const maxResults = nonNegativeInt(req.maxResults, 'maxResults', DEFAULT_MAX_RESULTS);
  const countLimit =
    req.countLimit === undefined ? Infinity : nonNegativeInt(req.countLimit, 'countLimit', 0);
  const cap =
    req.maxLineChars === undefined ? undefined : nonNegativeInt(req.maxLineChars, 'maxLineChars', 0);
  return { matcher, filter, contextBefore, contextAfter, maxResults, countLimit, cap };
}

/** A path rule as a test: a glob, or our own regex engine over the path (a user's pattern never runs on a backtracking engine unchecked). */
export function compilePathRule(rule: PathRule): PathTest {
  if (rule.glob) {
    const glob = compileGlob(rule.pattern, 'file');
    return rule.negated ? (p) => !glob(p) : glob;
  }
  const matcher = compileMatcher(rule.pattern, {
    mode: 'regex',
    caseMode: rule.caseSensitive ? 'sensitive' : 'insensitive',
  });
  const found = (path: string) => {
    let hit = false;
    matcher.scan(path, () => {
      hit = true;
      return false;
    });
    return hit;
  };
  return rule.negated ? (p) => !found(p) : found;
}

function withRules(filter: PathTest | null, rules: readonly PathRule[] | undefined): PathTest | null {
  if (!rules?.length) return filter;
  if (!Array.isArray(rules))
    throw new QuarryError('InvalidArgument', 'pathRules must be an array', { field: 'pathRules' });
  const tests = rules.map(compilePathRule);
  if (filter) tests.unshift(filter);
  return (p) => tests.every((t) => t(p));
}
