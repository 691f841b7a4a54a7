/**
 * One search box (Text / Regex, case, whole word, include / exclude globs, extensions).
 * Results stream in from the worker batch by batch, grouped by file with context lines and
 * every hit in a <mark>, in a virtualised list. A new query supersedes (cancels) the old one.
 * Files are shown in relevance or path order (the `order` switch, in the URL), with the no-jump
 * rule of result-order.ts: once the list is touched, the files seen stay put.
 * Keyboard: ArrowDown from the box enters the results; Up/Down move between hits; Enter opens.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { lazyMeasureOptions } from './virtual';
import {
  startTransition,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import { QuarryError, toQuarryError } from '../core/errors';
import { SearchStatus } from './SearchStatus';
import { PREVIEW_LINE_CHARS, type GrepFileResult, type GrepRequest } from '../core/grep/types';
import type { SearchEnd } from '../worker/protocol';
import { ResultRows, type Row } from './result-stream';
import { queryWords, rankComparer, type ResultOrder } from '../core/grep/text-relevance';
import { arrange, holdThrough } from './result-order';
import {
  anyCollapsed,
  ALL_COLLAPSED,
  isCollapsed,
  NONE_COLLAPSED,
  toggleCollapsed,
  visibleRows,
  type CollapseState,
} from './result-rows';
import { RankedResults } from './RankedResults';
import { SemanticResults } from './SemanticResults';
import { useSemantic } from './use-semantic';
import { useEngine } from './engine';
import { formatCount, plural } from './format';
import { splitList, type ViewState } from './url-state';
import { SearchBox } from './SearchBox';
import { SearchOptions } from './SearchOptions';
import { TextResultRow } from './TextResultRow';
import type { UpdateView } from './use-view-state';

const ORDER_TITLES: Record<ResultOrder, string> = {
  relevance:
    'Source files first, then tests, docs and changelogs; files named by the query, definitions and more matches first',
  path: 'By path',
};

/** Matches delivered to the UI; the engine keeps counting past this to report "of M". */
export const UI_MAX_RESULTS = 5000;
/** Result rows added to the list per frame (see `revealed`). */
const REVEAL_STEP = 8;
export const UI_COUNT_LIMIT = 100_000;
const CONTEXT_LINES = 2;
const ROW_HEIGHT = 20;
/** Main-thread time spent turning results into rows before giving way. */
const ROWS_SLICE_MS = 6;
/** At most one render of the list per this many ms while results stream in. */
const ROWS_RENDER_MS = 120;

/** Give way to the browser (input, rendering) and continue in a later task. */
function yieldToMain(): Promise<void> {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (s?.yield) return s.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The view fields a search request is built from. */
export type RequestFields = Pick<
  ViewState,
  'q' | 'mode' | 'caseSensitive' | 'wholeWord' | 'include' | 'exclude' | 'ext'
>;

export function buildRequest(view: RequestFields): GrepRequest {
  return {
    pattern: view.q,
    mode: view.mode === 'regex' ? 'regex' : 'literal',
    caseMode: view.caseSensitive ? 'sensitive' : 'insensitive',
    wholeWord: view.wholeWord,
    include: splitList(view.include),
    exclude: splitList(view.exclude),
    extensions: splitList(view.ext),
    contextBefore: CONTEXT_LINES,
    contextAfter: CONTEXT_LINES,
    maxResults: UI_MAX_RESULTS,
    countLimit: UI_COUNT_LIMIT,
    maxLineChars: PREVIEW_LINE_CHARS,
  };
}

type Status =
  | { state: 'idle' }
  | { state: 'running'; started: number }
  | { state: 'done'; end: SearchEnd }
  | { state: 'error'; error: QuarryError };

export function SearchPanel({
  view,
  update,
  repoKey,
  fileCount,
  searchInputRef,
  indexReady = false,
  indexVersion = 0,
}: {
  view: ViewState;
  update: UpdateView;
  repoKey: string;
  fileCount: number;
  searchInputRef: React.RefObject<HTMLInputElement | null>;
  /** The code index is complete: Ranked mode can answer, Text/Regex use its trigrams. */
  indexReady?: boolean;
  /** Bumped after every index build, so Ranked results follow a refresh. */
  indexVersion?: number;
}) {
  // Ranked and Semantic rank chunks: no case / whole-word options, no streamed text hits
  const ranked = view.mode === 'ranked' || view.mode === 'semantic' || view.mode === 'hybrid';
  const engine = useEngine();
  const semantic = useSemantic(repoKey, indexVersion);
  const [rowsVersion, setRowsVersion] = useState(0);
  /** The rows of the current search, built as its batches arrive. */
  const results = useRef(new ResultRows());
  const [status, setStatus] = useState<Status>({ state: 'idle' });
  /** The focused row's place among the focusable rows (file headers and hits), -1: none yet. */
  const [active, setActive] = useState(-1);
  const [collapse, setCollapse] = useState<CollapseState>(NONE_COLLAPSED);
  const scrollRef = useRef<HTMLDivElement>(null);
  /** The files in the order last put on screen (paths). */
  const displayed = useRef<string[]>([]);
  /** What the person has touched and seen of the list (result-order.ts): for one search and one order. */
  const hold = useRef<{ results: ResultRows | null; order: ResultOrder; touched: boolean; files: number }>({
    results: null,
    order: 'relevance',
    touched: false,
    files: 0,
  });
  /**
   * Rows mounted so far: a finished search's files land together once ordered, and laying out a
   * screenful of highlighted rows in one frame took 100-450 ms on a busy 2-core machine (the index
   * build competing), so they are added REVEAL_STEP rows a frame; a scroll or a key reveals what it reaches at once.
   */
  const [revealed, setRevealed] = useState(REVEAL_STEP);
  const reveal = (through: number) => setRevealed((r) => (through + 1 > r ? through + 1 : r));

  // A new request (a new search) only when a field it is built from changes, not the open file or line.
  const { q, mode, caseSensitive, wholeWord, include, exclude, ext } = view;
  const request = useMemo(
    () => buildRequest({ q, mode, caseSensitive, wholeWord, include, exclude, ext }),
    [q, mode, caseSensitive, wholeWord, include, exclude, ext],
  );

  useEffect(() => {
    results.current = new ResultRows(queryWords(request.pattern, request.mode));
    setRevealed(REVEAL_STEP);
    setActive(-1);
    setCollapse(NONE_COLLAPSED);
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
    const job = engine.search(request, onBatch);
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

  // What the list shows, in order: the files whose rows are built (held ones where they were, the
  // rest sorted), a collapsed file with its header only (recomputed as batches arrive).
  const order = view.order;
  const shown = useMemo(() => {
    void rowsVersion;
    const built = results.current;
    const h = hold.current;
    const held = h.results === built && h.order === order ? h.files : 0;
    const files = arrange(
      displayed.current,
      held,
      built.files.filter((f) => f.settled).map((f) => f.rank),
      rankComparer(order),
    );
    return { ...visibleRows(built.rowsIn(files), collapse), order: files };
  }, [rowsVersion, collapse, order]);
  useLayoutEffect(() => {
    displayed.current = shown.order;
  }, [shown]);
  // A new order is a new list: from its top.
  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
    setActive(-1);
  }, [order]);

  const virtualizer = useVirtualizer({
    count: shown.rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    ...lazyMeasureOptions(),
  });
  void rowsVersion;
  useEffect(() => {
    if (revealed >= shown.rows.length) return;
    const id = requestAnimationFrame(() => setRevealed((r) => r + REVEAL_STEP));
    return () => cancelAnimationFrame(id);
  }, [revealed, shown.rows.length]);

  /**
   * The person touched the list (pointer, wheel, key, focus) or scrolled it after touching it:
   * hold every file from the top through the one at the viewport's bottom edge.
   */
  const touch = (scrolled = false) => {
    const built = results.current;
    if (hold.current.results !== built || hold.current.order !== order)
      hold.current = { results: built, order, touched: false, files: 0 };
    const h = hold.current;
    if (scrolled && !h.touched) return; // the list scrolled by itself (a new order, a shorter list)
    h.touched = true;
    // the virtualizer's own record of the viewport: reading the element's would force a layout on every pointer move
    const bottom = (virtualizer.scrollOffset ?? 0) + (virtualizer.scrollRect?.height ?? 0);
    let last = -1;
    for (const item of virtualizer.getVirtualItems()) if (item.start < bottom) last = item.index;
    h.files = holdThrough(shown.rows, last, shown.order, h.files);
  };

  const open = (row: Row) => {
    if (row.kind === 'line') update({ file: row.path, line: row.line }, { push: true });
  };

  /** Focus the i-th focusable row (a file header or a hit). */
  const focusItem = (i: number) => {
    const total = shown.focusable.length;
    if (!total) return;
    const next = Math.max(0, Math.min(total - 1, i));
    setActive(next);
    reveal(shown.focusable[next]);
    virtualizer.scrollToIndex(shown.focusable[next], { align: 'auto' });
    requestAnimationFrame(() =>
      scrollRef.current?.querySelector<HTMLElement>(`[data-nav="${next}"]`)?.focus(),
    );
  };
  /** From the search box: the first hit (past the first file's header). */
  const focusFirstHit = () => focusItem(shown.focusable.findIndex((r) => shown.rows[r]?.kind === 'line'));
  const toggleFile = (path: string) => setCollapse((c) => toggleCollapsed(c, path));
  /** The place among the focusable rows of the header of the file whose row is at `rowIndex`. */
  const headerOf = (rowIndex: number) => {
    for (let r = rowIndex; r >= 0; r--) if (shown.rows[r]?.kind === 'file') return shown.focusIndex[r];
    return -1;
  };

  const onResultsKey = (e: KeyboardEvent) => {
    touch();
    const rowIndex = active >= 0 ? shown.focusable[active] : -1;
    const row = rowIndex >= 0 ? shown.rows[rowIndex] : undefined;
    const keys: Record<string, () => void> = {
      ArrowDown: () => focusItem(active + 1),
      ArrowUp: () => (active <= 0 ? searchInputRef.current?.focus() : focusItem(active - 1)),
      Home: () => focusItem(0),
      End: () => focusItem(shown.focusable.length - 1),
      // as in a tree: Left collapses a file (or goes from a hit to its file), Right expands it
      ArrowLeft: () => {
        if (row?.kind === 'file' && !isCollapsed(collapse, row.path)) toggleFile(row.path);
        else if (row?.kind === 'line') focusItem(headerOf(rowIndex));
      },
      ArrowRight: () => {
        if (row?.kind === 'file' && isCollapsed(collapse, row.path)) toggleFile(row.path);
      },
    };
    const action = keys[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  };

  const totalHits = results.current.hitCount;
  const summary = (() => {
    if (status.state === 'idle') return `Type to search ${plural(fileCount, 'file')}.`;
    if (status.state === 'error') return '';
    if (status.state === 'running')
      return totalHits ? `Searching… ${plural(totalHits, 'match', 'matches')} so far` : 'Searching…';
    const { stats, limitHit } = status.end;
    if (!stats.total) return `No matches in ${plural(stats.filesSearched, 'file')}.`;
    const of = stats.totalIsExact ? formatCount(stats.total) : `at least ${formatCount(stats.total)}`;
    if (limitHit)
      return `Showing ${formatCount(stats.delivered)} of ${of} matches in ${plural(stats.filesMatched, 'file')}`;
    const via = stats.strategy.includes('+trigram') ? ', indexed' : '';
    return `${plural(stats.total, 'match', 'matches')} in ${plural(stats.filesMatched, 'file')} (${Math.round(stats.elapsedMs)} ms${via})`;
  })();

  return (
    <section className="search-panel" aria-label="Search">
      <SearchBox view={view} update={update} inputRef={searchInputRef} onArrowDown={() => focusFirstHit()}>
        <SearchOptions view={view} update={update} ranked={ranked} />
      </SearchBox>
      {view.mode === 'semantic' || view.mode === 'hybrid' ? (
        // Ranked stays lexical once the model is loaded: hybrid scored below it on the labelled set (docs/design.md)
        <SemanticResults
          view={view}
          update={update}
          indexReady={indexReady}
          indexVersion={indexVersion}
          type={view.mode}
          semantic={semantic}
        />
      ) : ranked ? (
        <RankedResults view={view} update={update} indexReady={indexReady} indexVersion={indexVersion} />
      ) : (
        <>
          <div className="results-head">
            <SearchStatus
              summary={summary}
              running={status.state === 'running'}
              error={status.state === 'error' ? status.error : null}
            />
            <div className="results-tools">
              <div
                role="radiogroup"
                aria-label="Result order"
                className="segmented results-order"
                data-testid="result-order"
              >
                {(['relevance', 'path'] as const).map((o) => (
                  <label key={o} className={order === o ? 'on' : ''} title={ORDER_TITLES[o]}>
                    <input
                      type="radio"
                      name="result-order"
                      value={o}
                      checked={order === o}
                      onChange={() => update({ order: o })}
                    />
                    {o === 'relevance' ? 'Relevance' : 'Path'}
                  </label>
                ))}
              </div>
              {shown.files > 1 && (
                <button
                  type="button"
                  className="results-collapse"
                  data-testid="collapse-all"
                  onClick={() =>
                    setCollapse(shown.collapsed === shown.files ? NONE_COLLAPSED : ALL_COLLAPSED)
                  }
                >
                  {shown.collapsed === shown.files ? 'Expand all' : 'Collapse all'}
                </button>
              )}
            </div>
          </div>
          {status.state === 'idle' && (
            <div className="empty-hint">
              <p>Search every file of the repository. Try a word from the code, or switch to Regex.</p>
              <p>
                <kbd>Ctrl</kbd>/<kbd>⌘</kbd>+<kbd>P</kbd> opens a file by name.
              </p>
            </div>
          )}
          <div
            ref={scrollRef}
            className="results-scroll"
            data-testid="search-results"
            onKeyDown={onResultsKey}
            onPointerMove={() => touch()}
            onPointerDown={() => touch()}
            onWheel={() => touch()}
            onTouchStart={() => touch()}
            onFocus={() => touch()}
            onScroll={() => {
              touch(true);
              const items = virtualizer.getVirtualItems();
              if (items.length) reveal(items[items.length - 1].index);
            }}
          >
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {virtualizer.getVirtualItems().map((item) => {
                const row = item.index < revealed ? shown.rows[item.index] : undefined;
                const style = { transform: `translateY(${item.start}px)`, height: ROW_HEIGHT };
                if (!row) return null;
                const nav = shown.focusIndex[item.index];
                return (
                  <TextResultRow
                    key={item.key}
                    row={row}
                    style={style}
                    nav={nav}
                    active={active}
                    collapsed={
                      row.kind === 'file' && anyCollapsed(collapse) && isCollapsed(collapse, row.path)
                    }
                    onFocus={() => setActive(nav)}
                    onToggle={toggleFile}
                    onOpen={open}
                  />
                );
              })}
            </div>
          </div>
        </>
      )}
    </section>
  );
}
