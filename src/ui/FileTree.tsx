/**
 * The file tree: lazy (a directory is listed when first expanded) and virtualised (only
 * the rows on screen are in the DOM), so 100k files stay smooth. Skipped entries are shown
 * greyed with their reason, or hidden. Keyboard: arrows, Home/End, Enter (WAI-ARIA tree).
 */
import { toQuarryError } from '../core/errors';
import { useVirtualizer } from '@tanstack/react-virtual';
import { inView, lazyMeasureOptions } from './virtual';
import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { TreeEntry } from '../worker/protocol';
import { useEngine } from './engine';
import { SKIP_REASON_TEXT } from './format';
import { revealedDirs } from './tree-paths';
import { isImagePath } from './shell/file-icons';
import { FileIcon } from './shell/FileIcon';
import { visibleText } from './visible-text';
import { VisibleText } from './VisibleText';

interface Row {
  entry: TreeEntry;
  level: number;
  setSize: number;
  posInSet: number;
}

const ROW_HEIGHT = 24;

/** The listed directories of the tree, which are expanded, and a loader; the open file's ancestors are revealed. */
function useDirListing(repoKey: string, selected: string) {
  const engine = useEngine();
  const [children, setChildren] = useState<Map<string, TreeEntry[]>>(new Map());
  const [expanded, setExpanded] = useState<Set<string>>(new Set(['']));
  const [error, setError] = useState<string | null>(null);
  const loading = useRef(new Set<string>());

  const load = useCallback(
    async (dir: string) => {
      if (loading.current.has(dir)) return;
      loading.current.add(dir);
      try {
        const entries = await engine.listDir(dir);
        setChildren((prev) => new Map(prev).set(dir, entries));
      } catch (err) {
        loading.current.delete(dir); // asked again when next opened
        // Only the root's listing failing leaves no tree. A folder that cannot be listed (the
        // folder of a linked file that is gone; the viewer says "No such file") stays closed.
        if (dir === '') setError(toQuarryError(err).message);
        else setExpanded((prev) => (prev.has(dir) ? new Set([...prev].filter((d) => d !== dir)) : prev));
      }
    },
    [engine],
  );

  // A new repository: start over from the root. The same roots read again (a reopened folder
  // reconciled with what was stored, a Refresh): the open folders stay open, listed afresh.
  const shownRoots = useRef('');
  const expandedDirs = useEffectEvent(() => expanded);
  useEffect(() => {
    const roots = repoKey.replace(/#[^#]*$/, '');
    const same = roots !== '' && roots === shownRoots.current;
    shownRoots.current = roots;
    loading.current = new Set();
    setError(null);
    if (same) {
      const open = expandedDirs();
      // a folder listed but closed is listed again when it next opens
      setChildren((prev) => new Map([...prev].filter(([dir]) => open.has(dir))));
      for (const dir of open) void load(dir);
      return;
    }
    setChildren(new Map());
    setExpanded(new Set(['']));
    void load('');
  }, [repoKey, load]);

  // Reveal the open file: expand and load its ancestors (those not loaded yet when it opens).
  const loadMissing = useEffectEvent((dirs: string[]) => {
    for (const d of dirs) if (!children.has(d)) void load(d);
  });
  useEffect(() => {
    if (!selected) return;
    const dirs = revealedDirs(selected);
    if (!dirs.length) return;
    setExpanded((prev) => {
      if (dirs.every((d) => prev.has(d))) return prev;
      const next = new Set(prev);
      for (const d of dirs) next.add(d);
      return next;
    });
    loadMissing(dirs);
  }, [selected, repoKey]);
  return { children, expanded, setExpanded, error, load };
}

/** One entry of the tree. */
function TreeRow({
  row,
  index,
  top,
  open,
  selected,
  focused,
  onClick,
}: {
  row: Row;
  index: number;
  /** Its offset in the virtual list. */
  top: number;
  /** A directory shown open. */
  open: boolean;
  selected: boolean;
  /** The row Tab reaches. */
  focused: boolean;
  onClick: () => void;
}) {
  const { entry } = row;
  const isDir = entry.kind === 'directory';
  // an image is kept out of search as binary, but the viewer shows it: not greyed
  const skipped = entry.skipped && !viewableImage(entry) ? entry.skipped : undefined;
  return (
    <div
      role="treeitem"
      data-index={index}
      data-testid="tree-item"
      data-path={entry.path}
      aria-level={row.level}
      aria-setsize={row.setSize}
      aria-posinset={row.posInSet}
      aria-expanded={isDir && !entry.skipped ? open : undefined}
      aria-selected={selected}
      tabIndex={focused ? 0 : -1}
      title={
        skipped
          ? `${visibleText(entry.path)} — skipped: ${SKIP_REASON_TEXT[skipped] ?? skipped}`
          : entry.skipped
            ? `${visibleText(entry.path)} — an image (not searched)`
            : visibleText(entry.path)
      }
      className={`tree-row${skipped ? ' skipped' : ''}${selected ? ' selected' : ''}`}
      style={{
        transform: `translateY(${top}px)`,
        height: ROW_HEIGHT,
        paddingLeft: 8 + (row.level - 1) * 14,
      }}
      onClick={onClick}
    >
      <span className="tree-icon" aria-hidden="true">
        {isDir ? (entry.skipped ? '▫' : open ? '▾' : '▸') : ''}
      </span>
      <FileIcon path={entry.name} kind={entry.kind === 'directory' ? 'directory' : 'file'} open={open} />
      <span className="tree-name">
        <VisibleText text={entry.name} />
      </span>
      {skipped && <span className="tree-reason"> ({skipped === 'noisyPath' ? 'skipped' : skipped})</span>}
    </div>
  );
}

/** The rows shown: each listed directory's entries, depth first into the expanded ones. */
function treeRows(children: Map<string, TreeEntry[]>, expanded: Set<string>, showSkipped: boolean): Row[] {
  const out: Row[] = [];
  const visit = (dir: string, level: number) => {
    const list = (children.get(dir) ?? []).filter((e) => showSkipped || !e.skipped || viewableImage(e));
    list.forEach((entry, i) => {
      out.push({ entry, level, setSize: list.length, posInSet: i + 1 });
      if (entry.kind === 'directory' && !entry.skipped && expanded.has(entry.path))
        visit(entry.path, level + 1);
    });
  };
  visit('', 1);
  return out;
}

/** What the tree does for a key on the focused row. */
interface TreeActions {
  moveFocus: (index: number) => void;
  toggle: (entry: TreeEntry, open?: boolean) => void;
  activate: (row: Row) => void;
}

/**
 * The tree's keys on `row` (the `focused`th of `rows`): arrows, Home/End, Right opens or goes
 * in, Left closes or goes to the parent, Enter or Space opens.
 */
function treeKeys(
  row: Row,
  focused: number,
  rows: readonly Row[],
  expanded: ReadonlySet<string>,
  { moveFocus, toggle, activate }: TreeActions,
): Record<string, () => void> {
  return {
    ArrowDown: () => moveFocus(focused + 1),
    ArrowUp: () => moveFocus(focused - 1),
    Home: () => moveFocus(0),
    End: () => moveFocus(rows.length - 1),
    ArrowRight: () => {
      if (row.entry.kind === 'directory' && !row.entry.skipped) {
        if (!expanded.has(row.entry.path)) toggle(row.entry, true);
        else moveFocus(focused + 1);
      }
    },
    ArrowLeft: () => {
      if (row.entry.kind === 'directory' && expanded.has(row.entry.path)) toggle(row.entry, false);
      else {
        for (let i = focused - 1; i >= 0; i--) if (rows[i].level < row.level) return moveFocus(i);
      }
    },
    Enter: () => activate(row),
    ' ': () => activate(row),
  };
}

export function FileTree({
  repoKey,
  selected,
  onOpen,
  showSkipped,
}: {
  repoKey: string;
  selected: string;
  onOpen: (path: string) => void;
  showSkipped: boolean;
}) {
  const { children, expanded, setExpanded, error, load } = useDirListing(repoKey, selected);
  const [focused, setFocused] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);

  const rows = useMemo(() => treeRows(children, expanded, showSkipped), [children, expanded, showSkipped]);

  const selectedIndex = rows.findIndex((r) => r.entry.path === selected);
  useEffect(() => {
    if (selectedIndex >= 0) setFocused(selectedIndex);
  }, [selectedIndex]);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    ...lazyMeasureOptions(),
  });

  useEffect(() => {
    if (selectedIndex >= 0 && !inView(virtualizer, selectedIndex, ROW_HEIGHT))
      virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);

  const toggle = (entry: TreeEntry, open?: boolean) => {
    if (entry.kind !== 'directory' || entry.skipped) return;
    const willOpen = open ?? !expanded.has(entry.path);
    setExpanded((prev) => {
      const next = new Set(prev);
      if (willOpen) next.add(entry.path);
      else next.delete(entry.path);
      return next;
    });
    if (willOpen && !children.has(entry.path)) void load(entry.path);
  };

  const activate = (row: Row) => {
    if (row.entry.kind === 'directory') toggle(row.entry);
    else onOpen(row.entry.path);
  };

  const moveFocus = (index: number) => {
    const i = Math.max(0, Math.min(rows.length - 1, index));
    setFocused(i);
    virtualizer.scrollToIndex(i, { align: 'auto' });
    requestAnimationFrame(() =>
      scrollRef.current?.querySelector<HTMLElement>(`[data-index="${i}"]`)?.focus(),
    );
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const row = rows[focused];
    if (!row) return;
    const action = treeKeys(row, focused, rows, expanded, { moveFocus, toggle, activate })[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  };

  if (error)
    return (
      <p className="panel-note" role="alert">
        Could not list files: {error}
      </p>
    );
  if (!children.has('')) return <p className="panel-note">Loading files…</p>;
  if (!rows.length) return <p className="panel-note">This folder has no files Quarry can read.</p>;

  return (
    <div ref={scrollRef} className="tree-scroll">
      <div
        role="tree"
        aria-label="Files"
        data-testid="file-tree"
        onKeyDown={onKeyDown}
        style={{ height: virtualizer.getTotalSize(), position: 'relative' }}
      >
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          return (
            <TreeRow
              key={row.entry.path}
              row={row}
              index={item.index}
              top={item.start}
              open={row.entry.kind === 'directory' && expanded.has(row.entry.path)}
              selected={row.entry.path === selected}
              focused={item.index === focused}
              onClick={() => {
                setFocused(item.index);
                activate(row);
              }}
            />
          );
        })}
      </div>
    </div>
  );
}

/** A file skipped as binary (or as too large) that the viewer can still show as a picture. */
function viewableImage(entry: TreeEntry): boolean {
  return (
    entry.kind === 'file' &&
    (entry.skipped === 'binary' || entry.skipped === 'tooLarge') &&
    isImagePath(entry.name)
  );
}
