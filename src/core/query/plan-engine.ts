/**
 * The parts of planning that need the engine's own machinery, kept apart from plan.ts so the
 * page can plan a query without the regex engine or the path globs in its bundle: the pattern
 * check the engine and the tools plan with, and a plan's paths as one test.
 */
import { compilePathRule } from '../grep/compile-request';
import { compileMatcher } from '../grep/regex';
import { compilePathFilter, type PathTest } from '../walk/glob';
import type { PatternCheck, QueryPlan } from './plan';

/** A pattern compiled as the search runs it (our regex engine): throws its error. */
export const PATTERN_CHECK: PatternCheck = (pattern, mode, caseSensitive) =>
  void compileMatcher(pattern, { mode, caseMode: caseSensitive ? 'sensitive' : 'insensitive' });

/** The plan's path rules and languages as one test of a root-relative path; null when nothing filters. */
export function planPathTest(plan: Pick<QueryPlan, 'pathRules' | 'extensions'>): PathTest | null {
  const tests = plan.pathRules.map(compilePathRule);
  const byExtension = compilePathFilter({ extensions: plan.extensions });
  if (byExtension) tests.push(byExtension);
  if (!tests.length) return null;
  return (p) => tests.every((t) => t(p));
}
