/**
 * Run explore for the Explore view: the report arrives section by section (each analyzer's
 * result as it finishes), can be cancelled, and a finished report is kept per repository and
 * arguments so switching views and back does not run it again.
 */
import { useEffect, useState } from 'react';
import { toQuarryError, type QuarryError } from '../../core/errors';
import type { ExploreResult } from '../../core/explore/types';
import { useEngine } from '../engine';

export type ExploreState =
  | { state: 'running'; report: ExploreResult | null; cancel: () => void }
  | { state: 'done'; report: ExploreResult }
  | { state: 'cancelled'; report: ExploreResult | null }
  | { state: 'error'; error: QuarryError };

const finished = new Map<string, ExploreResult>();
const KEEP = 6;

export function useExplore(
  args: { path: string; focus?: string; depth: string },
  repoKey: string,
): [ExploreState, () => void] {
  const engine = useEngine();
  const key = `${repoKey}\0${JSON.stringify(args)}`;
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<ExploreState>(() => {
    const kept = finished.get(key);
    return kept
      ? { state: 'done', report: kept }
      : { state: 'running', report: null, cancel: () => undefined };
  });

  useEffect(() => {
    const kept = finished.get(key);
    if (kept && attempt === 0) {
      setState({ state: 'done', report: kept });
      return;
    }
    let live = true;
    let latest: ExploreResult | null = null;
    const job = engine
      .explore(JSON.parse(key.slice(key.indexOf('\0') + 1)) as Record<string, unknown>)
      .onBatch((reports) => {
        const report = reports[reports.length - 1];
        latest = report;
        if (live) setState({ state: 'running', report, cancel: job.cancel });
      });
    setState({ state: 'running', report: null, cancel: job.cancel });
    job.done.then(
      (end) => {
        const report = end.results[0];
        if (report) {
          finished.delete(key);
          finished.set(key, report);
          while (finished.size > KEEP) finished.delete(finished.keys().next().value!);
        }
        if (live) setState(report ? { state: 'done', report } : { state: 'cancelled', report: latest });
      },
      (err) => live && setState({ state: 'error', error: toQuarryError(err) }),
    );
    return () => {
      live = false;
      job.cancel();
    };
  }, [engine, key, attempt]);

  const rerun = () => {
    finished.delete(key);
    setAttempt((a) => a + 1);
  };
  return [state, rerun];
}
