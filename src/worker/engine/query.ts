/** The query language at the engine's edge: a query and the box's switches, parsed and planned once for every open root. */
import { QuarryError } from '../../core/errors';
import { parseQuery } from '../../core/query/parse';
import { planQuery, type QueryPlan } from '../../core/query/plan';
import { PATTERN_CHECK } from '../../core/query/plan-engine';
import type { QueryOptions } from '../../core/query/results';
import type { Roots } from '../roots';

/** Results a query answers when it has no `count:` and the caller gave no limit. */
export const DEFAULT_QUERY_LIMIT = 100;

function checkOptions(options: unknown): QueryOptions {
  const o = (options ?? {}) as Partial<QueryOptions>;
  if (typeof o !== 'object' || (o.mode !== undefined && o.mode !== 'literal' && o.mode !== 'regex'))
    throw new QuarryError('InvalidArgument', "options.mode must be 'literal' or 'regex'", { field: 'mode' });
  const limit = o.limit ?? DEFAULT_QUERY_LIMIT;
  if (!Number.isInteger(limit) || limit < 1)
    throw new QuarryError('InvalidArgument', 'options.limit must be a positive integer', { field: 'limit' });
  return { mode: o.mode ?? 'literal', caseSensitive: !!o.caseSensitive, wholeWord: !!o.wholeWord, limit };
}

/** Parse and plan `query` (InvalidQuery with a column and a suggestion when it cannot run). */
export function planFor(roots: Roots, query: unknown, options: unknown): QueryPlan {
  if (typeof query !== 'string')
    throw new QuarryError('InvalidArgument', 'query must be a string', { field: 'query' });
  const o = checkOptions(options);
  const names = roots.roots.length > 1 ? roots.names() : [];
  return planQuery(parseQuery(query, { mode: o.mode }), {
    caseSensitive: o.caseSensitive,
    wholeWord: o.wholeWord,
    roots: names,
    defaultCount: o.limit!,
    check: PATTERN_CHECK,
  });
}

/** The plan when it is of one of `types`; otherwise a clear error naming the method to use. */
export function planOf<T extends QueryPlan['type']>(
  plan: QueryPlan,
  types: readonly T[],
  method: string,
): Extract<QueryPlan, { type: T }> {
  if (!(types as readonly string[]).includes(plan.type))
    throw new QuarryError(
      'InvalidArgument',
      `${method} answers type:${types.join(' or type:')}, not type:${plan.type}`,
      {
        field: 'query',
      },
    );
  return plan as Extract<QueryPlan, { type: T }>;
}
