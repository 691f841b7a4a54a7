/**
 * A search request compiled: the matcher, the path filter and the numeric limits, everything
 * that can fail before any file is read.
 */
import { QuarryError } from '../errors';
import { compilePathFilter } from '../walk/glob';
import { compileMatcher } from './regex';
import type { GrepRequest } from './types';

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
  const filter = compilePathFilter({
    include: req.include,
    exclude: req.exclude,
    extensions: req.extensions,
    pathContains: req.pathContains,
  });
  const contextBefore = nonNegativeInt(req.contextBefore, 'contextBefore', 0);
  const contextAfter = nonNegativeInt(req.contextAfter, 'contextAfter', 0);
  const maxResults = nonNegativeInt(req.maxResults, 'maxResults', DEFAULT_MAX_RESULTS);
  const countLimit =
    req.countLimit === undefined ? Infinity : nonNegativeInt(req.countLimit, 'countLimit', 0);
  const cap =
    req.maxLineChars === undefined ? undefined : nonNegativeInt(req.maxLineChars, 'maxLineChars', 0);
  return { matcher, filter, contextBefore, contextAfter, maxResults, countLimit, cap };
}
