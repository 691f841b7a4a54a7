/**
 * The open file's outline: its symbols as a tree (classes hold their methods) that follows the
 * viewer's line. A WAI-ARIA tree: Up/Down move, Right opens or goes in, Left closes or goes
 * out, Home/End, Enter (or a click) opens the symbol's line. Virtualised (only the rows in view
 * are in the page): a declaration file has thousands of symbols, and all of them as elements
 * were most of a 50-70 ms layout when such a file opened.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { pathAt } from '../../core/nav/outline';
import type { OutlineNode } from '../../worker/protocol';
import { VisibleText } from '../VisibleText';
import { SymbolKind } from './SymbolKind';
import { useOutline } from './use-outline';
import { inView, lazyMeasureOptions } from '../virtual';

interface Row {
  node: OutlineNode;
  depth: number;
  id: string;
  parent: string | null;
  /** The row's place among its siblings (aria-posinset) and their number (aria-setsize). */
  posInSet: number;
  setSize: number;
}

const ROW_HEIGHT = 22;

const idOf = (n: OutlineNode) => `${n.startLine}:${n.endLine}:${n.name}`;

function visibleRows(
  outline: readonly OutlineNode[],
  closed: ReadonlySet<string>,
  depth = 0,
  parent: string | null = null,
  out: Row[] = [],
): Row[] {
  for (const [i, node] of outline.entries()) {
    const id = idOf(node);
    out.push({ node, depth, id, parent, posInSet: i + 1, setSize: outline.length });
    if (node.children.length && !closed.has(id)) visibleRows(node.children, closed, depth + 1, id, out);
  }
  return out;
}

/** The innermost symbol around `line` whose row shows (its parents are open); null: none. */
function innermostShown(outline: readonly OutlineNode[], line: number, rows: Row[]): string | null {
  const chain = line ? pathAt(outline, line) : [];
  for (let i = chain.length - 1; i >= 0; i--)
    if (rows.some((r) => r.id === idOf(chain[i]))) return idOf(chain[i]);
  return null;
}

/** What the tree's actions are for its keys. */
interface TreeActions {
  move: (id: string | null | undefined) => void;
  toggle: (id: string, open: boolean) => void;
  open: (line: number) => void;
}

/**
 * Does what `key` does on `row` (the `i`th of `rows`): Up/Down/Home/End move, Right opens or
 * goes in, Left closes or goes out, Enter or Space opens the symbol's line. False: not a tree key.
 */
function treeKey(
  key: string,
  row: Row,
  i: number,
  rows: readonly Row[],
  closed: ReadonlySet<string>,
  { move, toggle, open }: TreeActions,
): boolean {
  const has = row.node.children.length > 0;
  const isOpen = has && !closed.has(row.id);
  switch (key) {
    case 'ArrowDown':
      move(rows[Math.min(rows.length - 1, i + 1)]?.id);
      break;
    case 'ArrowUp':
      move(rows[Math.max(0, i - 1)]?.id);
      break;
    case 'Home':
      move(rows[0]?.id);
      break;
    case 'End':
      move(rows[rows.length - 1]?.id);
      break;
    case 'ArrowRight':
      if (has && !isOpen) toggle(row.id, true);
      else if (isOpen) move(rows[i + 1]?.id);
      break;
    case 'ArrowLeft':
      if (isOpen) toggle(row.id, false);
      else move(row.parent);
      break;
    case 'Enter':
    case ' ':
      open(row.node.line);
      break;
    default:
      return false;
  }
  return true;
}

export function OutlinePanel({
  path,
  line,
  repoKey,
  indexVersion,
  onOpen,
}: {
  path: string;
  line: number;
  repoKey: string;
  indexVersion: number;
  onOpen: (line: number) => void;
}) {
  const state = useOutline(path, repoKey, indexVersion);
  const [closed, setClosed] = useState<Set<string>>(new Set());
  const [focusId, setFocusId] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const outline = useMemo(() => (state.state === 'ready' ? state.outline : []), [state]);
  const rows = useMemo(() => visibleRows(outline, closed), [outline, closed]);
  // the innermost symbol around the viewer's line (shown when its parents are open)
  const here = useMemo(() => innermostShown(outline, line, rows), [outline, line, rows]);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    paddingEnd: 6,
    ...lazyMeasureOptions(),
  });
  const hereIndex = here ? rows.findIndex((r) => r.id === here) : -1;
  useEffect(() => {
    if (hereIndex >= 0 && !inView(virtualizer, hereIndex, ROW_HEIGHT))
      virtualizer.scrollToIndex(hereIndex, { align: 'auto' });
  }, [hereIndex, virtualizer]);

  const active = rows.find((r) => r.id === focusId)?.id ?? here ?? rows[0]?.id ?? null;
  const move = (id: string | null | undefined) => {
    const i = id ? rows.findIndex((r) => r.id === id) : -1;
    if (!id || i < 0) return;
    setFocusId(id);
    const row = () => scrollRef.current?.querySelector<HTMLElement>(`[data-id="${CSS.escape(id)}"]`);
    if (!inView(virtualizer, i, ROW_HEIGHT)) virtualizer.scrollToIndex(i, { align: 'auto' });
    // a row out of view comes into the page only with the scroll's render
    const now = row();
    if (now) now.focus();
    else requestAnimationFrame(() => row()?.focus());
  };
  const toggle = (id: string, open: boolean) =>
    setClosed((s) => {
      const n = new Set(s);
      if (open) n.delete(id);
      else n.add(id);
      return n;
    });

  const onKeyDown = (e: React.KeyboardEvent, row: Row, i: number) => {
    if (treeKey(e.key, row, i, rows, closed, { move, toggle, open: onOpen })) e.preventDefault();
  };

  if (state.state === 'loading') return <p className="panel-note">Reading symbols…</p>;
  if (state.state === 'error')
    return (
      <p className="inline-error">
        <VisibleText text={state.message} multiline />
      </p>
    );
  if (!rows.length) return <p className="panel-note">No symbols in this file.</p>;
  return (
    <div className="outline-scroll" ref={scrollRef}>
      <ul
        className="outline-tree"
        role="tree"
        aria-label={`Outline of ${path}`}
        data-testid="outline"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {virtualizer.getVirtualItems().map((item) => {
          const i = item.index;
          const row = rows[i];
          return (
            <OutlineRow
              key={row.id}
              row={row}
              top={item.start}
              here={row.id === here}
              active={row.id === active}
              closed={closed.has(row.id)}
              onKeyDown={(e) => onKeyDown(e, row, i)}
              onFocus={() => setFocusId(row.id)}
              onOpen={() => onOpen(row.node.line)}
              onToggle={() => toggle(row.id, closed.has(row.id))}
            />
          );
        })}
      </ul>
    </div>
  );
}

/** One symbol of the outline tree. */
function OutlineRow({
  row,
  top,
  here,
  active,
  closed,
  onKeyDown,
  onFocus,
  onOpen,
  onToggle,
}: {
  row: Row;
  /** Its offset in the virtual list. */
  top: number;
  /** It holds the viewer's line. */
  here: boolean;
  /** It is the row Tab reaches. */
  active: boolean;
  closed: boolean;
  onKeyDown: (e: React.KeyboardEvent) => void;
  onFocus: () => void;
  onOpen: () => void;
  onToggle: () => void;
}) {
  const has = row.node.children.length > 0;
  return (
    <li
      data-id={row.id}
      role="treeitem"
      aria-level={row.depth + 1}
      aria-posinset={row.posInSet}
      aria-setsize={row.setSize}
      aria-expanded={has ? !closed : undefined}
      aria-selected={here}
      tabIndex={active ? 0 : -1}
      className={`outline-item${here ? ' here' : ''}`}
      style={{
        transform: `translateY(${top}px)`,
        height: ROW_HEIGHT,
        paddingLeft: 6 + row.depth * 14,
      }}
      onKeyDown={onKeyDown}
      onFocus={onFocus}
      onClick={onOpen}
    >
      <span
        className="outline-twisty"
        aria-hidden="true"
        onClick={(e) => {
          if (!has) return;
          e.stopPropagation();
          onToggle();
        }}
      >
        {has ? (closed ? '▸' : '▾') : ''}
      </span>
      <SymbolKind kind={row.node.chunkType} />
      <span className="outline-name">
        <VisibleText text={row.node.name} />
      </span>
    </li>
  );
}
