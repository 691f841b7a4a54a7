/**
 * The diff's rows on screen (virtualized: only what is visible is in the DOM): side by side,
 * two halves that scroll sideways together (one scrollbar under them), or inline, one column
 * with both line numbers. Changed words are <mark>s inside the coloured lines; every line is
 * React text, never markup. A screen reader hears "removed" / "added" before a changed line.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import type { DiffLayout, DiffRow, RowSide } from '../../core/diff/rows';
import { CodeText } from '../CodeText';
import type { Language } from '../highlight';
import { lazyMeasureOptions } from '../virtual';

const ROW_HEIGHT = 20;

export interface DiffLines {
  a: readonly string[];
  b: readonly string[];
  /** The last line of A / B has no newline. */
  aNoEol: boolean;
  bNoEol: boolean;
}

const SIGN = { context: ' ', delete: '−', insert: '+' } as const;
const SAID = { context: '', delete: 'removed: ', insert: 'added: ' } as const;

function Code({
  side,
  text,
  lang,
  offset,
  noEol,
}: {
  side: RowSide;
  text: string;
  lang: Language;
  offset: number;
  noEol: boolean;
}) {
  return (
    <span className="diff-code">
      <span style={offset ? { transform: `translateX(-${offset}px)` } : undefined}>
        {SAID[side.kind] && <span className="visually-hidden">{SAID[side.kind]}</span>}
        <CodeText text={text} lang={lang} hits={side.words} markClass="diff-word" />
        {noEol && <span className="no-eol">no newline at end of file</span>}
      </span>
    </span>
  );
}

const Half = memo(function Half({
  side,
  lines,
  noEol,
  lang,
  width,
  offset,
}: {
  side: RowSide | null;
  lines: readonly string[];
  noEol: boolean;
  lang: Language;
  width: number;
  offset: number;
}) {
  if (!side) return <div className="diff-half is-empty" />;
  return (
    <div className={`diff-half is-${side.kind}`} data-change={side.kind}>
      <span className="diff-ln" style={{ width: `${width + 1}ch` }}>
        {side.line + 1}
      </span>
      <span className="diff-sign" aria-hidden="true">
        {SIGN[side.kind]}
      </span>
      <Code
        side={side}
        text={lines[side.line]}
        lang={lang}
        offset={offset}
        noEol={noEol && side.line === lines.length - 1}
      />
    </div>
  );
});

export interface DiffRowsHandle {
  scrollToRow(index: number): void;
}

/** The longest line of either side, in characters (a tab counts as its 8 columns). */
function longestColumns(lines: DiffLines): number {
  let max = 0;
  for (const ls of [lines.a, lines.b]) {
    for (const l of ls) {
      if (l.length + 7 * l.length <= max) continue; // cannot beat it even if every character were a tab
      let tabs = 0;
      for (let i = l.indexOf('\t'); i !== -1; i = l.indexOf('\t', i + 1)) tabs++;
      max = Math.max(max, l.length + 7 * tabs);
    }
  }
  return max;
}

/** Hidden unchanged lines: a button that shows them. */
function GapRow({
  row,
  style,
  onExpand,
}: {
  row: Extract<DiffRow, { kind: 'gap' }>;
  style: CSSProperties;
  onExpand: (id: number) => void;
}) {
  const lastA = row.a + row.count;
  return (
    <div className="diff-gap" style={style} data-testid="diff-gap">
      <button
        type="button"
        onClick={() => onExpand(row.id)}
        aria-label={`Show ${row.count} unchanged lines (${row.a + 1}–${lastA})`}
      >
        ⋯ {row.count} unchanged lines
      </button>
      {row.header && <span className="hunk">{row.header}</span>}
    </div>
  );
}

/** One row of the inline layout: both line numbers, the sign, and the line of the side that shows. */
function InlineRow({
  row,
  lines,
  lang,
  width,
  current,
  style,
}: {
  row: Extract<DiffRow, { kind: 'line' }>;
  lines: DiffLines;
  lang: Language;
  width: number;
  current: string;
  style: CSSProperties;
}) {
  const side = (row.right?.kind === 'insert' ? row.right : (row.left ?? row.right))!;
  const text = side === row.left ? lines.a[side.line] : lines.b[side.line];
  const noEol =
    side === row.left
      ? lines.aNoEol && side.line === lines.a.length - 1
      : lines.bNoEol && side.line === lines.b.length - 1;
  return (
    <div
      className={`diff-row is-${side.kind}${current}`}
      style={style}
      data-testid="diff-row"
      data-change={side.kind}
    >
      <span className="diff-ln" style={{ width: `${width + 1}ch` }}>
        {row.left ? row.left.line + 1 : ''}
      </span>
      <span className="diff-ln" style={{ width: `${width + 1}ch` }}>
        {row.right ? row.right.line + 1 : ''}
      </span>
      <span className="diff-sign" aria-hidden="true">
        {SIGN[side.kind]}
      </span>
      <Code side={side} text={text} lang={lang} offset={0} noEol={noEol} />
    </div>
  );
}

export function DiffRowsView({
  rows,
  lines,
  layout,
  lang,
  currentBlock,
  onExpand,
  label,
  handle,
}: {
  rows: readonly DiffRow[];
  lines: DiffLines;
  layout: DiffLayout;
  lang: Language;
  currentBlock: number;
  onExpand: (id: number) => void;
  label: string;
  handle: { current: DiffRowsHandle | null };
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const hscrollRef = useRef<HTMLDivElement>(null);
  const [offset, setOffset] = useState(0);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    ...lazyMeasureOptions(),
  });
  useEffect(() => {
    handle.current = { scrollToRow: (index) => virtualizer.scrollToIndex(index, { align: 'center' }) };
    return () => {
      handle.current = null;
    };
  }, [handle, virtualizer]);

  const width = String(Math.max(lines.a.length, lines.b.length, 1)).length;
  const split = layout === 'split';
  // the longest line, in characters (a tab counts as its 8 columns): how far the halves scroll sideways
  const longest = useMemo(() => longestColumns(lines), [lines]);
  const gutter = width + 4;

  const body: ReactNode[] = virtualizer.getVirtualItems().map((item) => {
    const row = rows[item.index];
    const style = { transform: `translateY(${item.start}px)`, height: ROW_HEIGHT };
    if (row.kind === 'gap') return <GapRow key={`g${row.id}`} row={row} style={style} onExpand={onExpand} />;
    const current = row.block >= 0 && row.block === currentBlock ? ' current-change' : '';
    if (split) {
      return (
        <div key={item.index} className={`diff-row${current}`} style={style} data-testid="diff-row">
          <Half
            side={row.left}
            lines={lines.a}
            noEol={lines.aNoEol}
            lang={lang}
            width={width}
            offset={offset}
          />
          <Half
            side={row.right}
            lines={lines.b}
            noEol={lines.bNoEol}
            lang={lang}
            width={width}
            offset={offset}
          />
        </div>
      );
    }
    return (
      <InlineRow
        key={item.index}
        row={row}
        lines={lines}
        lang={lang}
        width={width}
        current={current}
        style={style}
      />
    );
  });

  return (
    <>
      <div
        ref={scrollRef}
        className={`diff-scroll${split ? '' : ' inline'}`}
        tabIndex={0}
        aria-label={label}
        data-testid="diff-lines"
        onWheel={(e) => {
          // sideways wheel (or Shift+wheel) moves both halves together
          const dx = e.deltaX || (e.shiftKey ? e.deltaY : 0);
          if (split && dx && hscrollRef.current) hscrollRef.current.scrollLeft += dx;
        }}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth: '100%' }}>
          {body}
        </div>
      </div>
      {split && longest > 40 && (
        <div
          ref={hscrollRef}
          className="diff-hscroll"
          role="group"
          aria-label="Scroll both sides sideways"
          tabIndex={0}
          onScroll={(e) => setOffset(e.currentTarget.scrollLeft)}
        >
          <div style={{ width: `calc(50% + ${longest + gutter}ch)` }} />
        </div>
      )}
    </>
  );
}
