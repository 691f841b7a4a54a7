/**
 * Semantic search's state for the search box: the engine's status (unavailable, off, loading
 * the model, embedding, ready, failed), the enable job's progress, and enable / cancel. The
 * status is read again when the repository or its index changes.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { toQuarryError, type QuarryError } from '../core/errors';
import type { Progress, SemanticStatus } from '../worker/protocol';
import { useEngine } from './engine';

export interface SemanticState {
  status: SemanticStatus | null;
  /** the enable job's latest progress while it runs */
  progress: Progress | null;
  running: boolean;
  error: QuarryError | null;
  ready: boolean;
  enable: () => void;
  cancel: () => void;
  /**
   * The model changed (one picked, or the built-in one put back): a run in progress is cancelled,
   * the engine drops its model, and semantic search is enabled again when it was on (the new
   * model's vectors: stored ones, or embedded anew).
   */
  switchModel: () => Promise<void>;
}

export function useSemantic(repoKey: string, indexVersion: number): SemanticState {
  const engine = useEngine();
  const [status, setStatus] = useState<SemanticStatus | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<QuarryError | null>(null);
  const job = useRef<{ cancel: () => void } | null>(null);
  /** The running job's whole ending (its state updates included). */
  const ending = useRef<Promise<void> | null>(null);

  const refresh = useCallback(() => {
    engine.semanticStatus().then(setStatus, () => setStatus(null));
  }, [engine]);

  useEffect(() => {
    refresh();
  }, [refresh, repoKey, indexVersion]);

  useEffect(() => () => job.current?.cancel(), [repoKey]);

  const enable = useCallback(() => {
    if (job.current) return;
    setError(null);
    setRunning(true);
    setProgress(null);
    const j = engine.enableSemantic().onProgress((p) => setProgress(p));
    job.current = j;
    ending.current = j.done
      .then(
        () => undefined,
        (err: unknown) => setError(toQuarryError(err)),
      )
      .finally(() => {
        if (job.current === j) job.current = null;
        setRunning(false);
        setProgress(null);
        refresh();
      });
  }, [engine, refresh]);

  const cancel = useCallback(() => job.current?.cancel(), []);

  const switchModel = useCallback(async () => {
    const wasOn = !!job.current || (!!status && status.state !== 'off' && status.state !== 'unavailable');
    job.current?.cancel();
    await ending.current?.catch(() => undefined);
    setError(null);
    try {
      setStatus(await engine.resetSemanticModel());
    } catch (err) {
      setError(toQuarryError(err));
      return;
    }
    if (wasOn) enable();
  }, [engine, enable, status]);

  return {
    status,
    progress,
    running,
    error,
    ready: !running && status?.state === 'ready',
    enable,
    cancel,
    switchModel,
  };
}
