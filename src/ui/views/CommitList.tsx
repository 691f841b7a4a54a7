/**
 * History's commit list, virtualized (10,000 commits render as the few rows in view), with a
 * roving focus: one commit button is in the tab order; arrows, Page Up/Down, Home and End move
 * it (the row is scrolled into view first, and kept rendered while it has focus); Enter or
 * Space expands the commit. An expanded commit lists its changed files, read on demand.
 */
import { useVirtualizer, defaultRangeExtractor, type Range } from '@tanstack/react-virtual';
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import type { LogCommit } from '../../worker/protocol';
import { VisibleText } from '../VisibleText';
import { lazyMeasureOptions } from '../virtual';

/** A collapsed row: subject and meta lines (measured rows may differ; expanded ones do). */
const ROW_ESTIMATE = 54;
const PAGE = 10;
/**
 * One formatter for every row: Date#toLocaleString with options builds a new Intl.DateTimeFormat
 * on each call (~1 ms in Chromium), which made a streamed batch's render a 50-70 ms task.
 */
const DATE_FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The row a key moves to from row i of `count` (null: not a moving key). */
function keyTarget(key: string, i: number, count: number): number | null {
  switch (key) {
    case 'ArrowDown':
      return i + 1;
    case 'ArrowUp':
      return i - 1;
    case 'PageDown':
      return i + PAGE;
    case 'PageUp':
      return i - PAGE;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/** A commit row's button text: its subject, then id, author, date and marks. */
function CommitHeadText({ commit: c }: { commit: LogCommit }) {
  const [subject] = c.message.split('\n', 1);
  const date = new Date(c.date);
  return (
    <>
      <span className="commit-subject">
        <VisibleText text={subject} />
      </span>
      <span className="commit-meta">
        <span className="mono">{c.oid.slice(0, 7)}</span> · <VisibleText text={c.author} /> ·{' '}
        <time dateTime={date.toISOString()}>{DATE_FORMAT.format(date)}</time>
        {c.parents.length > 1 && ' · merge'}
        {c.parentMissing && ' · changes not fetched'}
      </span>
    </>
  );
}

export function CommitList({
  commits,
  scrollRef,
  scrollMargin,
  open,
  onToggle,
  renderBody,
}: {
  commits: LogCommit[];
  scrollRef: RefObject<HTMLElement | null>;
  /** Height of what sits above the list inside the scroll element. */
  scrollMargin: number;
  open: string | null;
  onToggle: (oid: string) => void;
  renderBody: (commit: LogCommit) => ReactNode;
}) {
  const [active, setActive] = useState(0);
  /**
   * The row a key moved to, focused once it is rendered. The index, not a flag: a render already
   * pending when the key came (a scroll's) commits first, and its effect must not focus the old row.
   */
  const wantFocus = useRef<number | null>(null);
  const buttons = useRef(new Map<number, HTMLButtonElement>());
  const activeIndex = Math.min(active, Math.max(0, commits.length - 1));
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      // the focusable row stays in the DOM even when scrolled away, so Tab always finds the list
      if (commits.length && !indexes.includes(activeIndex)) indexes.push(activeIndex);
      return indexes.sort((a, b) => a - b);
    },
    [activeIndex, commits.length],
  );
  const getItemKey = useCallback((i: number) => commits[i]?.oid ?? i, [commits]);
  const virtualizer = useVirtualizer({
    count: commits.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 6,
    scrollMargin,
    rangeExtractor,
    getItemKey,
    ...lazyMeasureOptions(),
  });

  useEffect(() => {
    if (wantFocus.current === null) return;
    const button = buttons.current.get(wantFocus.current);
    if (button) {
      wantFocus.current = null;
      button.focus({ preventScroll: true });
    }
  });

  const move = (to: number) => {
    const i = Math.max(0, Math.min(commits.length - 1, to));
    setActive(i);
    wantFocus.current = i;
    // the first commit scrolls to the very top, so what sits above the list (uncommitted changes) shows again
    if (i === 0) scrollRef.current?.scrollTo({ top: 0 });
    else virtualizer.scrollToIndex(i, { align: 'auto' });
  };
  const onKeyDown = (i: number) => (e: KeyboardEvent<HTMLButtonElement>) => {
    const to = keyTarget(e.key, i, commits.length);
    if (to === null) return;
    e.preventDefault();
    move(to);
  };

  const items = virtualizer.getVirtualItems();
  return (
    <ol className="commit-list" aria-label="Commits" style={{ height: virtualizer.getTotalSize() }}>
      {items.map((item) => {
        const c = commits[item.index];
        if (!c) return null;
        const isOpen = open === c.oid;
        return (
          <li
            key={item.key}
            className={`commit${isOpen ? ' commit-open' : ''}`}
            data-testid="commit"
            data-index={item.index}
            ref={virtualizer.measureElement}
            aria-setsize={commits.length}
            aria-posinset={item.index + 1}
            style={{ transform: `translateY(${item.start - scrollMargin}px)` }}
          >
            <button
              type="button"
              className="commit-head"
              aria-expanded={isOpen}
              tabIndex={item.index === activeIndex ? 0 : -1}
              ref={(el) => {
                if (el) buttons.current.set(item.index, el);
                else buttons.current.delete(item.index);
              }}
              onFocus={() => setActive(item.index)}
              onKeyDown={onKeyDown(item.index)}
              onClick={() => {
                setActive(item.index);
                onToggle(c.oid);
              }}
            >
              <CommitHeadText commit={c} />
            </button>
            {isOpen && <div className="commit-body">{renderBody(c)}</div>}
          </li>
        );
      })}
    </ol>
  );
}
