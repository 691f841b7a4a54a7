/** Tools (core's contracts and the engine's own, engine-tools.ts) and the Explore view's streamed report. */
import type { HistoryPortResult } from '../../core/tools/types';
import { elapsedSince, now, type Foreground } from '../../core/jobs/yielder';
import { noRepository } from '../roots';
import { dispatchTool, exploreForView } from '../engine-tools';
import type { ServiceHandlers } from './api';
import { requireRoots, type EngineContext } from './context';

/**
 * A person waits on a tool's answer, so background work (an index build) gives way while the
 * tool runs; but while the tool itself waits for such work, that work must not give way to it.
 * `background(fn)` runs `fn` outside the tool's foreground: several at once (one root's index
 * each, in parallel) share one gap, which ends when the last of them does, and none reopens it
 * once the tool has ended. (One `end` per call, reopened by whichever finished first, made the
 * others wait MAX_BACKGROUND_WAIT_MS a yield, and left the foreground held for good: every later
 * background job of the engine waited at every yield.)
 */
export function holdForeground(foreground: Pick<Foreground, 'begin'>): {
  background: <T>(fn: () => Promise<T>) => Promise<T>;
  release: () => void;
} {
  let end: (() => void) | null = foreground.begin();
  let outside = 0;
  let released = false;
  return {
    background: async (fn) => {
      if (outside++ === 0) {
        end?.();
        end = null;
      }
      try {
        return await fn();
      } finally {
        if (--outside === 0 && !released) end = foreground.begin();
      }
    },
    release: () => {
      released = true;
      end?.();
      end = null;
    },
  };
}

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
      const held = holdForeground(edge.foreground);
      try {
        return await dispatchTool(roots, String(name), args, {
          grammarLoader: options.grammarLoader,
          background: held.background,
          semantic,
          history: rootHistory,
        });
      } finally {
        held.release();
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
