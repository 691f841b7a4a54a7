/** Tools (core's contracts and the engine's own, engine-tools.ts) and the Explore view's streamed report. */
import type { HistoryPortResult } from '../../core/tools/types';
import { elapsedSince, now } from '../../core/jobs/yielder';
import { noRepository } from '../roots';
import { dispatchTool, exploreForView } from '../engine-tools';
import type { ServiceHandlers } from './api';
import { requireRoots, type EngineContext } from './context';

export function toolHandlers(ctx: EngineContext): ServiceHandlers<'tools'> {
  const { roots, edge, git, semantic, options } = ctx;
  /** explore's git agent: a root's history, paths root-relative. */
  const rootHistory = async (rootIndex: number, limit: number): Promise<HistoryPortResult> => {
    const session = roots.roots[rootIndex];
    if (!session) throw noRepository();
    const h = await git.history(session, limit);
    return h.available
      ? {
          available: true,
          branch: h.branch ?? null,
          head: h.head ?? null,
          shallow: !!h.shallow,
          commits: h.commits ?? [],
          uncommitted: h.uncommitted,
        }
      : { available: false, reason: h.reason ?? 'No git history.' };
  };
  return {
    callTool: async (name, args) => {
      requireRoots(roots);
      // A person waits on the answer, so the index build gives way while the tool runs; but while
      // the tool itself waits for that build, the build must not give way to it.
      let end = edge.foreground.begin();
      const background = async <T>(fn: () => Promise<T>): Promise<T> => {
        end();
        try {
          return await fn();
        } finally {
          end = edge.foreground.begin();
        }
      };
      try {
        return await dispatchTool(roots, String(name), args, {
          grammarLoader: options.grammarLoader,
          background,
          semantic,
          history: rootHistory,
        });
      } finally {
        end();
      }
    },
    explore: async (scope, args) => {
      requireRoots(roots);
      const t0 = now();
      const dispatch = {
        grammarLoader: options.grammarLoader,
        semantic,
        signal: scope.signal,
        history: rootHistory,
      };
      try {
        const report = await exploreForView(roots, args, dispatch, (r) =>
          scope.events.send({ type: 'batch', data: [r] }),
        );
        return {
          results: [report],
          limitHit: false,
          skipped: [],
          stats: { elapsedMs: elapsedSince(t0), ending: 'complete' as const },
        };
      } catch (err) {
        if (!scope.signal.aborted) throw err;
        return {
          results: [],
          limitHit: false,
          skipped: [],
          stats: { elapsedMs: elapsedSince(t0), ending: 'cancelled' as const },
        };
      }
    },
  };
}
