/** Text search over every root in order, one global cap; each root narrows with its own trigram index once built. */
import { compileRequest, searchWorkspace } from '../../core/grep/search';
import type { GrepFileResult, GrepRequest } from '../../core/grep/types';
import { createYielder, elapsedSince, now } from '../../core/jobs/yielder';
import type { Skipped } from '../../core/walk/policy';
import { Batcher, type JobScope } from '../edge';
import type { SearchEnd } from '../protocol';
import { fileSlices, fileWeight } from '../result-slices';
import type { ServiceHandlers } from './api';
import { requireRoots, withPrefix, type EngineContext } from './context';

export function searchHandlers(ctx: EngineContext): ServiceHandlers<'search'> {
  return { search: searchJob(ctx) };
}

function searchJob(ctx: EngineContext) {
  const { roots, options } = ctx;
  return async (scope: JobScope<GrepFileResult>, request: GrepRequest): Promise<SearchEnd> => {
    requireRoots(roots);
    const t0 = now();
    const { maxResults, countLimit } = compileRequest(request); // bad input fails before any file is read
    const batcher = new Batcher<GrepFileResult>(
      (items) => scope.events.send({ type: 'batch', data: items }),
      fileWeight,
    );
    let targets = roots.roots.map((session) => ({
      session,
      prefix: roots.prefixOf(session),
      directory: request.directory,
    }));
    if (request.roots) {
      const names = roots.names();
      targets = targets.filter((_, i) => request.roots!.includes(names[i]));
    }
    if (roots.multiRoot && request.directory) {
      const r = roots.route(request.directory, 'directory');
      targets = [{ session: r.root, prefix: r.prefix, directory: r.rel }];
    }
    const stats = {
      total: 0,
      delivered: 0,
      filesSearched: 0,
      filesMatched: 0,
      totalIsExact: true,
      limitHit: false,
    };
    const skipped: Skipped[] = [];
    let ending: SearchEnd['stats']['ending'] = 'complete';
    const strategies = new Set<string>();
    for (const { session, prefix, directory } of targets) {
      const remainingCount = countLimit === Infinity ? undefined : Math.max(0, countLimit - stats.total);
      if (stats.delivered >= maxResults && remainingCount !== undefined && remainingCount <= 0) {
        stats.totalIsExact = false; // more roots were not looked at
        break;
      }
      const summary = await searchWorkspace(
        session.workspace,
        {
          ...request,
          directory,
          maxResults: Math.max(0, maxResults - stats.delivered),
          countLimit: remainingCount,
        },
        (r) => {
          const file = prefix
            ? { path: prefix + r.path, matches: r.matches.map((m) => ({ ...m, path: prefix + m.path })) }
            : r;
          // a file with many hits, or hits on long lines, goes in slices: no one message the page takes long to receive
          for (const slice of fileSlices(file)) batcher.push(slice);
        },
        {
          signal: scope.signal,
          yielder: createYielder(options.yieldBudgetMs),
          prefilter: session.prefilter(),
          pool: ctx.searchThreads(),
        },
      );
      stats.total += summary.total;
      stats.delivered += summary.delivered;
      stats.filesSearched += summary.filesSearched;
      stats.filesMatched += summary.filesMatched;
      stats.totalIsExact &&= summary.totalIsExact;
      stats.limitHit ||= summary.limitHit;
      skipped.push(...summary.skipped.map(withPrefix(prefix)));
      strategies.add(summary.strategy);
      ending = summary.ending;
      if (summary.ending !== 'complete') break;
    }
    return {
      results: batcher.drain(),
      limitHit: stats.limitHit,
      skipped,
      stats: {
        elapsedMs: elapsedSince(t0),
        ending,
        total: stats.total,
        totalIsExact: stats.totalIsExact,
        delivered: stats.delivered,
        filesSearched: stats.filesSearched,
        filesMatched: stats.filesMatched,
        strategy: [...strategies].join('+'),
      },
    };
  };
}
