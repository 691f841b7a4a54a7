/**
 * One search box (Text / Regex, case, whole word, include / exclude globs, extensions).
 * Results stream in from the worker batch by batch, grouped by file with context lines and
 * every hit in a <mark>, in a virtualised list. A new query supersedes (cancels) the old one.
 * Files are shown in relevance or path order (the `order` switch, in the URL), with the no-jump
 * rule of result-order.ts: once the list is touched, the files seen stay put.
 * `type:symbol`, `type:commit` and `type:diff` list their own results (query/QueryResults.tsx).
 * Keyboard: ArrowDown from the box enters the results; Up/Down move between hits; Enter opens.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { lazyMeasureOptions } from './virtual';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type Dispatch,
  type KeyboardEvent,
  type RefObject,
  type SetStateAction,
} from 'react';
import { SearchStatus } from './SearchStatus';
import { PREVIEW_LINE_CHARS, type GrepRequest } from '../core/grep/types';
import { ResultRows, type Row } from './result-stream';
import { rankComparer, type ResultOrder } from '../core/grep/text-relevance';
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
import { formatCount, plural } from './format';
import type { ViewState } from './url-state';
import { SearchBox, type SearchBoxApi, type SearchBoxQuery } from './SearchBox';
import { SearchOptions } from './SearchOptions';
import { TextResultRow } from './TextResultRow';
import type { UpdateView } from './use-view-state';
import { useSearchRun, type SearchRunStatus } from './use-search-run';
import type { QueryPlan } from '../core/query/plan';
import type { QueryAnalysis } from './query/query-analysis';
import { useQueryAnalysis } from './query/use-query-plan';
import { useCompletionSources } from './query/use-completion-sources';
import { useListKeys } from './query/list-keys';
import { QueryResults } from './query/QueryResults';
import { appendFilter } from './query/FilterMenu';

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
const EMPTY_REQUEST: GrepRequest = { pattern: '', mode: 'literal' };

/** The text search a query's plan asks for (none when it asks for another kind, or has no pattern). */
export function buildRequest(plan: QueryPlan | null): GrepRequest {
  if (plan?.type !== 'file' || !plan.request) return EMPTY_REQUEST;
  const r = plan.request;
  return {
    ...r,
    contextBefore: CONTEXT_LINES,
    contextAfter: CONTEXT_LINES,
    // count:all asks for every match: the list still holds at most UI_COUNT_LIMIT
    maxResults: Math.min(r.maxResults ?? UI_COUNT_LIMIT, UI_COUNT_LIMIT),
    countLimit: UI_COUNT_LIMIT,
    maxLineChars: PREVIEW_LINE_CHARS,
  };
}

/**
 * The request of `plan`, the same object while it reads the same: the query analysed again (the
 * roots' names arriving after the first search) must not run the search again and reset what the
 * person collapsed in its results.
 */
function useSearchRequest(plan: QueryPlan | null): GrepRequest {
  const key = JSON.stringify(buildRequest(plan));
  return useMemo(() => JSON.parse(key) as GrepRequest, [key]);
}

/**
 * The result list of the current search: the rows shown, in order (held files where they were,
 * the rest sorted; a collapsed file with its header only), virtualized, and what the person has
 * touched of it (result-order.ts). `revealed` rows are mounted so far; more come a frame at a time.
 */
function useResultList({
  results,
  rowsVersion,
  collapse,
  order,
  revealed,
  setRevealed,
  setActive,
}: {
  results: RefObject<ResultRows>;
  rowsVersion: number;
  collapse: CollapseState;
  order: ResultOrder;
  revealed: number;
  setRevealed: Dispatch<SetStateAction<number>>;
  setActive: (active: number) => void;
}) {
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
  const reveal = (through: number) => setRevealed((r) => (through + 1 > r ? through + 1 : r));

  // What the list shows, in order: the files whose rows are built (held ones where they were, the
  // rest sorted), a collapsed file with its header only (recomputed as batches arrive).
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
  }, [rowsVersion, collapse, order, results]);
  useLayoutEffect(() => {
    displayed.current = shown.order;
  }, [shown]);
  // A new order is a new list: from its top.
  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
    setActive(-1);
  }, [order, setActive]);

  const virtualizer = useVirtualizer({
    count: shown.rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    ...lazyMeasureOptions(),
  });
  useEffect(() => {
    if (revealed >= shown.rows.length) return;
    const id = requestAnimationFrame(() => setRevealed((r) => r + REVEAL_STEP));
    return () => cancelAnimationFrame(id);
  }, [revealed, shown.rows.length, setRevealed]);

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
  return { scrollRef, shown, virtualizer, touch, reveal };
}

type ResultList = ReturnType<typeof useResultList>;

/**
 * Keyboard focus in the result list: the focusable rows are the file headers and the hits;
 * Up/Down/Home/End move, Left collapses a file (or goes from a hit to its file), Right expands
 * it, Up from the first goes back to the search box.
 */
function useResultKeys({
  list: { shown, virtualizer, scrollRef, touch, reveal },
  active,
  setActive,
  collapse,
  setCollapse,
  searchInputRef,
}: {
  list: ResultList;
  active: number;
  setActive: (active: number) => void;
  collapse: CollapseState;
  setCollapse: Dispatch<SetStateAction<CollapseState>>;
  searchInputRef: RefObject<HTMLInputElement | null>;
}) {
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
  return { focusFirstHit, toggleFile, onResultsKey };
}

/** The summary above the results: what the search found so far, or in the end. */
function searchSummary(
  status: SearchRunStatus,
  totalHits: number,
  fileCount: number,
  analysis: QueryAnalysis,
): string {
  // what is wrong with the query is said under the box
  if (analysis.kind === 'error' || analysis.kind === 'pending') return '';
  if (analysis.kind === 'ok' && analysis.plan.type === 'file' && !analysis.plan.request)
    return 'Add a pattern to search for: filters alone match no lines.';
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
}

/** The head of the Text/Regex results: the search's summary and status, the order switch, Collapse all. */
function ResultsHead({
  summary,
  status,
  order,
  update,
  files,
  collapsed,
  setCollapse,
}: {
  summary: string;
  status: SearchRunStatus;
  order: ResultOrder;
  update: UpdateView;
  /** The files listed, and how many of them are collapsed. */
  files: number;
  collapsed: number;
  setCollapse: (collapse: CollapseState) => void;
}) {
  return (
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
        {files > 1 && (
          <button
            type="button"
            className="results-collapse"
            data-testid="collapse-all"
            onClick={() => setCollapse(collapsed === files ? NONE_COLLAPSED : ALL_COLLAPSED)}
          >
            {collapsed === files ? 'Expand all' : 'Collapse all'}
          </button>
        )}
      </div>
    </div>
  );
}

/** Before a search: what the box does. */
function SearchHint() {
  return (
    <div className="empty-hint">
      <p>Search every file of the repository. Try a word from the code, or switch to Regex.</p>
      <p>
        Narrow it with filters such as <code>lang:python</code>, <code>file:src/</code> or{' '}
        <code>-file:test</code>; <code>type:symbol</code>, <code>type:commit</code> and <code>type:diff</code>{' '}
        search symbols and history.
      </p>
      <p>
        <kbd>Ctrl</kbd>/<kbd>⌘</kbd>+<kbd>P</kbd> opens a file by name.
      </p>
    </div>
  );
}

/** The Text/Regex result rows, virtualized: a file header per file, then its hits with context. */
function ResultsScroll({
  list: { scrollRef, shown, virtualizer, touch, reveal },
  revealed,
  active,
  setActive,
  collapse,
  onKeyDown,
  onToggle,
  onOpen,
}: {
  list: ResultList;
  revealed: number;
  active: number;
  setActive: (active: number) => void;
  collapse: CollapseState;
  onKeyDown: (e: KeyboardEvent) => void;
  onToggle: (path: string) => void;
  onOpen: (row: Row) => void;
}) {
  return (
    <div
      ref={scrollRef}
      className="results-scroll"
      data-testid="search-results"
      onKeyDown={onKeyDown}
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
              collapsed={row.kind === 'file' && anyCollapsed(collapse) && isCollapsed(collapse, row.path)}
              onFocus={() => setActive(nav)}
              onToggle={onToggle}
              onOpen={onOpen}
            />
          );
        })}
      </div>
    </div>
  );
}

/** What a hit row and a file header do (with select:file, a header opens its file at its first match). */
function rowActions(
  update: UpdateView,
  results: RefObject<ResultRows>,
  selectFiles: boolean,
  toggleFile: (path: string) => void,
) {
  const open = (row: Row) => {
    if (row.kind === 'line') update({ file: row.path, line: row.line }, { push: true });
  };
  const onToggle = (path: string) => {
    if (!selectFiles) return toggleFile(path);
    const first = results.current.file(path)?.rows.find((r) => r.kind === 'line' && r.ranges);
    update({ file: path, line: first?.kind === 'line' ? first.line : 0 }, { push: true });
  };
  return { open, onToggle };
}

/** The query box's side of the panel: the query's analysis, completion's sources, "+ Filter", list keys. */
function useQueryBox(
  view: ViewState,
  update: UpdateView,
  repoKey: string,
  ranked: boolean,
  searchInputRef: RefObject<HTMLInputElement | null>,
) {
  const completion = useCompletionSources(repoKey);
  const analysis = useQueryAnalysis(view, update, ranked, completion.rootNames, UI_MAX_RESULTS);
  const boxApi = useRef<SearchBoxApi | null>(null);
  const keys = useListKeys(searchInputRef);
  const addFilter = useCallback(
    (filter: string) => boxApi.current?.write((draft) => appendFilter(draft, filter)),
    [],
  );
  const box: SearchBoxQuery = {
    problem: analysis.kind === 'error' ? analysis.problem : null,
    sources: completion.sources,
    loadSource: completion.load,
    apiRef: boxApi,
  };
  return { analysis, box, keys, addFilter };
}

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
  const semantic = useSemantic(repoKey, indexVersion);
  /** The focused row's place among the focusable rows (file headers and hits), -1: none yet. */
  const [active, setActive] = useState(-1);
  const [collapse, setCollapse] = useState<CollapseState>(NONE_COLLAPSED);
  /**
   * Rows mounted so far: a finished search's files land together once ordered, and laying out a
   * screenful of highlighted rows in one frame took 100-450 ms on a busy 2-core machine (the index
   * build competing), so they are added REVEAL_STEP rows a frame; a scroll or a key reveals what it reaches at once.
   */
  const [revealed, setRevealed] = useState(REVEAL_STEP);

  // The query (its plan, its problem, completion's sources); a new request only when the plan changes.
  const query = useQueryBox(view, update, repoKey, ranked, searchInputRef);
  const plan = query.analysis.kind === 'ok' ? query.analysis.plan : null;
  const request = useSearchRequest(plan);
  const textSearch = !ranked && (!plan || plan.type === 'file');
  const selectFiles = plan?.type === 'file' && plan.select === 'file';
  const { results, status, rowsVersion } = useSearchRun(request, repoKey, !textSearch, () => {
    setRevealed(REVEAL_STEP);
    setActive(-1);
    // select:file lists the files only: each its header
    setCollapse(selectFiles ? ALL_COLLAPSED : NONE_COLLAPSED);
  });
  const order = view.order;
  const list = useResultList({ results, rowsVersion, collapse, order, revealed, setRevealed, setActive });
  const { shown } = list;
  const { focusFirstHit, toggleFile, onResultsKey } = useResultKeys({
    list,
    active,
    setActive,
    collapse,
    setCollapse,
    searchInputRef,
  });
  const { open, onToggle } = rowActions(update, results, selectFiles, toggleFile);
  const summary = searchSummary(status, results.current.hitCount, fileCount, query.analysis);

  return (
    <section className="search-panel" aria-label="Search">
      <SearchBox
        view={view}
        update={update}
        inputRef={searchInputRef}
        onArrowDown={() => (textSearch ? focusFirstHit() : query.keys.focusFirst())}
        query={query.box}
      >
        <SearchOptions view={view} update={update} ranked={ranked} onFilter={query.addFilter} />
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
      ) : plan && plan.type !== 'file' ? (
        <QueryResults
          type={plan.type}
          view={view}
          update={update}
          repoKey={repoKey}
          indexReady={indexReady}
          indexVersion={indexVersion}
          keys={query.keys}
        />
      ) : (
        <>
          <ResultsHead
            summary={summary}
            status={status}
            order={order}
            update={update}
            files={shown.files}
            collapsed={shown.collapsed}
            setCollapse={setCollapse}
          />
          {status.state === 'idle' && query.analysis.kind === 'empty' && <SearchHint />}
          <ResultsScroll
            list={list}
            revealed={revealed}
            active={active}
            setActive={setActive}
            collapse={collapse}
            onKeyDown={onResultsKey}
            onToggle={onToggle}
            onOpen={open}
          />
        </>
      )}
    </section>
  );
}
