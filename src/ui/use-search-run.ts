/**
 * The Text/Regex search behind the search panel: a request runs as a worker job whose batches
 * are turned into result rows a slice of time at a time, the list re-rendering at most every
 * ROWS_RENDER_MS; a new request supersedes (cancels) the old one.
 */
import { startTransition, useEffect, useEffectEvent, useRef, useState } from 'react';
import { QuarryError, toQuarryError } from '../core/errors';
import { queryWords } from '../core/grep/text-relevance';
import type { GrepFileResult, GrepRequest } from '../core/grep/types';
import type { SearchEnd } from '../worker/protocol';
import { useEngine } from './engine';
import { ResultRows } from './result-stream';

/** Main-thread time spent turning results into rows before giving way. */
const ROWS_SLICE_MS = 6;
/** At most one render of the list per this many ms while results stream in. */
const ROWS_RENDER_MS = 120;

export type SearchRunStatus =
  | { state: 'idle' }
  | { state: 'running'; started: number }
  | { state: 'done'; end: SearchEnd }
  | { state: 'error'; error: QuarryError };

/** Give way to the browser (input, rendering) and continue in a later task. */
function yieldToMain(): Promise<void> {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (s?.yield) return s.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Runs `request` (none while it is empty or `ranked`: the ranked modes answer elsewhere).
 * `results` holds the current search's rows, built as its batches arrive; `rowsVersion` is
 * bumped when the list should render them again. `onNewSearch` runs as each new search starts.
 */
export function useSearchRun(
  request: GrepRequest,
  repoKey: string,
  ranked: boolean,
  onNewSearch: () => void,
) {
  const engine = useEngine();
  const [rowsVersion, setRowsVersion] = useState(0);
  /** The rows of the current search, built as its batches arrive. */
  const results = useRef(new ResultRows());
  const [status, setStatus] = useState<SearchRunStatus>({ state: 'idle' });
  const newSearch = useEffectEvent(onNewSearch);

  useEffect(() => {
    results.current = new ResultRows(queryWords(request.pattern, request.mode));
    newSearch();
    setRowsVersion((v) => v + 1);
    if (!request.pattern || ranked) {
      setStatus({ state: 'idle' });
      return;
    }
    setStatus({ state: 'running', started: performance.now() });
    let current = true;
    const built = results.current;
    let timer = 0;
    let lastRender = 0;
    // The list re-renders when rows come, at most every ROWS_RENDER_MS: each render measures
    // every row of the list (the virtualizer's offsets), and thousands of rows streaming in
    // made each frame a long task.
    const render = () => {
      if (timer) return;
      timer = window.setTimeout(
        () => {
          timer = 0;
          lastRender = performance.now();
          // a transition: React renders the longer list in time slices
          startTransition(() => setRowsVersion((v) => v + 1));
        },
        Math.max(0, lastRender + ROWS_RENDER_MS - performance.now()),
      );
    };
    // Batches are turned into rows a slice of time at a time after the message that brought
    // them (result-stream.ts), never in it: the message has the batch's copy to make already.
    let drained: Promise<void> = Promise.resolve();
    let draining = false;
    const drain = async () => {
      draining = true;
      await yieldToMain();
      let start = performance.now();
      while (current && built.step()) {
        if (performance.now() - start > ROWS_SLICE_MS) {
          render();
          await yieldToMain();
          start = performance.now();
        }
      }
      draining = false;
      render();
    };
    const onBatch = (files: GrepFileResult[]) => {
      built.push(files);
      if (!draining) drained = drain();
    };
    const job = engine.search(request).onBatch(onBatch);
    job.done.then(
      async (end) => {
        await drained;
        if (!current) return;
        setRowsVersion((v) => v + 1);
        setStatus({ state: 'done', end });
      },
      (err) => {
        if (!current) return;
        setStatus({ state: 'error', error: toQuarryError(err) });
      },
    );
    return () => {
      current = false;
      clearTimeout(timer);
      job.cancel(); // superseded by a newer query: a normal ending
    };
  }, [request, repoKey, engine, ranked]);

  return { results, status, rowsVersion };
}
