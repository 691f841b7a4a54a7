/**
 * A `type:commit` or `type:diff` query run over the history (the engine's historySearch job):
 * results arrive in batches (applied once a frame), progress is commits searched of the log,
 * Cancel stops it; a new query supersedes the running one (history-summary.ts says how it went).
 */
import { useEffect, useState } from 'react';
import { toQuarryError } from '../../core/errors';
import type { HistoryResult, QueryOptions } from '../../core/query/results';
import { useEngine } from '../engine';
import type { HistoryRun } from './history-summary';

export interface HistoryRequest {
  query: string;
  options: QueryOptions;
}

/** Runs `request` (null: nothing) and streams its results. */
export function useHistorySearch(request: HistoryRequest | null, repoKey: string) {
  const engine = useEngine();
  const [run, setRun] = useState<HistoryRun>({ state: 'idle' });
  const [results, setResults] = useState<HistoryResult[]>([]);
  const [cancel, setCancel] = useState<(() => void) | null>(null);

  useEffect(() => {
    setResults([]);
    if (!request) {
      setRun({ state: 'idle' });
      setCancel(null);
      return;
    }
    let live = true;
    let pending: HistoryResult[] = [];
    let frame = 0;
    const flush = () => {
      frame = 0;
      if (!live || !pending.length) return;
      const batch = pending;
      pending = [];
      setResults((prev) => prev.concat(batch));
    };
    setRun({ state: 'running', progress: null });
    const job = engine
      .historySearch(request.query, request.options)
      .onBatch((items) => {
        pending.push(...items);
        frame ||= requestAnimationFrame(flush);
      })
      .onProgress((progress) => live && setRun({ state: 'running', progress }));
    setCancel(() => job.cancel);
    job.done.then(
      (end) => {
        if (!live) return;
        if (frame) cancelAnimationFrame(frame);
        flush();
        setRun({ state: 'done', stats: end.stats });
        setCancel(null);
      },
      (err) => {
        if (!live) return;
        setRun({ state: 'error', error: toQuarryError(err) });
        setCancel(null);
      },
    );
    return () => {
      live = false;
      if (frame) cancelAnimationFrame(frame);
      job.cancel();
    };
  }, [engine, request, repoKey]);

  return { run, results, cancel };
}
