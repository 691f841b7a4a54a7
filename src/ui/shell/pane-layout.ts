/**
 * The workspace's pane sizes: the file tree's and the middle column's widths (the viewer takes
 * the rest), the Related panel's width and whether it is collapsed, and, when a view or a diff
 * takes the area right of the tree (the view above the file or diff), the upper part's height. Plain TS (tested in Node):
 * the sizes the person chose are kept in localStorage; what is applied is those sizes clamped to
 * the width the workspace has now, so a narrower window never pushes the viewer off screen.
 *
 * Applied as CSS variables on the workspace element (--ws-tree, --ws-middle, --ws-related),
 * written straight to its style while a splitter is dragged: a drag re-renders the splitters,
 * never the panes.
 */

import { browserStorage } from '../browser-storage';

export interface PaneSizes {
  /** The file tree's width in px. */
  tree: number;
  /** The middle column's (search or a view) width in px; null: MIDDLE_DEFAULT_FRACTION of the workspace. */
  middle: number | null;
  /** The Related panel's width in px. */
  related: number;
  relatedCollapsed: boolean;
  /** The upper part's height in px when a view or Search sits above the file or diff; null: STACK_DEFAULT_FRACTION. */
  stack: number | null;
}

export type PaneKey = 'tree' | 'middle' | 'related' | 'stack';

export const PANE_DEFAULTS: PaneSizes = {
  tree: 240,
  middle: null,
  related: 300,
  relatedCollapsed: false,
  stack: null,
};
/** The middle column's default share of the workspace: the viewer gets the most room. */
export const MIDDLE_DEFAULT_FRACTION = 0.28;
/** The upper part's default share of the workspace's height when a view sits above the file or diff. */
export const STACK_DEFAULT_FRACTION = 0.4;
/**
 * Below these a pane stops being useful (a path, a result line, a few words of code); `stack`
 * is the upper part's height (a view's head and a few rows), `stackViewer` the file's or diff's
 * under it (its bars and 15 lines of code).
 */
export const PANE_MIN = {
  tree: 150,
  middle: 260,
  viewer: 340,
  related: 170,
  stack: 120,
  stackViewer: 460,
} as const;
/** The viewer's own column (file) keeps at least this much beside the Related panel. */
export const VIEWER_BESIDE_RELATED_MIN = 300;
/** The splitter before the Related panel takes this much of the column (workspace.css .splitter). */
export const SIDE_SPLITTER_PX = 7;
/** A splitter moved with the arrow keys moves this far (Shift: KEY_STEP_LARGE). */
export const KEY_STEP = 16;
export const KEY_STEP_LARGE = 64;

export const LAYOUT_STORAGE_KEY = 'quarry:layout:v1';

/** The sizes as applied to a workspace of a given width. */
export interface AppliedLayout {
  tree: number;
  middle: number;
  related: number;
  stack: number;
  /** The range each splitter can move in at this width (px of the pane it sizes). */
  range: Record<PaneKey, { min: number; max: number }>;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, hi < lo ? lo : v));

/** Stored sizes from whatever localStorage held: anything malformed falls back to the default, field by field. */
export function parseSizes(raw: string | null): PaneSizes {
  if (!raw) return { ...PANE_DEFAULTS };
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return { ...PANE_DEFAULTS };
  }
  if (!data || typeof data !== 'object') return { ...PANE_DEFAULTS };
  const d = data as Record<string, unknown>;
  const px = (v: unknown, fallback: number) => (finite(v) && v > 0 && v < 100_000 ? Math.round(v) : fallback);
  return {
    tree: px(d.tree, PANE_DEFAULTS.tree),
    middle: d.middle === null ? null : finite(d.middle) ? px(d.middle, 0) || null : null,
    related: px(d.related, PANE_DEFAULTS.related),
    relatedCollapsed: d.relatedCollapsed === true,
    stack: finite(d.stack) ? px(d.stack, 0) || null : null,
  };
}

/**
 * The sizes fitted to a workspace `width` × `height` px (the viewer column keeps PANE_MIN.viewer
 * when it can; when even the minimums do not fit, each pane keeps its minimum and the grid scrolls).
 */
export function applySizes(sizes: PaneSizes, width: number, height = 0): AppliedLayout {
  const w = Math.max(0, width);
  const h = Math.max(0, Math.round(height));
  const stackMax = Math.max(PANE_MIN.stack, h - PANE_MIN.stackViewer);
  const stack = clamp(sizes.stack ?? Math.round(h * STACK_DEFAULT_FRACTION), PANE_MIN.stack, stackMax);
  const treeMax = Math.max(PANE_MIN.tree, w - PANE_MIN.middle - PANE_MIN.viewer);
  const tree = clamp(sizes.tree, PANE_MIN.tree, treeMax);
  const middleWanted = sizes.middle ?? Math.round(w * MIDDLE_DEFAULT_FRACTION);
  const middleMax = Math.max(PANE_MIN.middle, w - tree - PANE_MIN.viewer);
  const middle = clamp(middleWanted, PANE_MIN.middle, middleMax);
  const column = w - tree - middle;
  const relatedMax = Math.max(PANE_MIN.related, column - VIEWER_BESIDE_RELATED_MIN - SIDE_SPLITTER_PX);
  const related = clamp(sizes.related, PANE_MIN.related, relatedMax);
  return {
    tree,
    middle,
    related,
    stack,
    range: {
      tree: { min: PANE_MIN.tree, max: treeMax },
      middle: { min: PANE_MIN.middle, max: middleMax },
      related: { min: PANE_MIN.related, max: relatedMax },
      stack: { min: PANE_MIN.stack, max: stackMax },
    },
  };
}

/**
 * What a key on a focused splitter does: a new size for the pane (`value` is its size now,
 * `direction` +1 when the pane is left of the splitter, -1 when right of it, so ArrowLeft
 * always moves the splitter left, and ArrowUp a horizontal one up); 'reset' for Enter; null for other keys.
 */
export function keyResize(
  key: string,
  shift: boolean,
  value: number,
  range: { min: number; max: number },
  direction: 1 | -1,
): number | 'reset' | null {
  const step = shift ? KEY_STEP_LARGE : KEY_STEP;
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowUp':
      return clamp(value - step * direction, range.min, range.max);
    case 'ArrowRight':
    case 'ArrowDown':
      return clamp(value + step * direction, range.min, range.max);
    case 'Home':
      return range.min;
    case 'End':
      return range.max;
    case 'Enter':
      return 'reset';
    default:
      return null;
  }
}

/** Where sizes are kept (localStorage in the app; a Map in tests). */
export interface SizeStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/**
 * The one layout of the page: sizes (chosen and applied), the workspace width, subscribers (the
 * splitters and the Related panel's toggle), and the element the CSS variables go on.
 */
export class PaneLayout {
  private sizes: PaneSizes;
  private width = 0;
  private height = 0;
  private applied: AppliedLayout;
  private element: HTMLElement | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly storage: SizeStorage | null) {
    let raw: string | null = null;
    try {
      raw = storage?.getItem(LAYOUT_STORAGE_KEY) ?? null;
    } catch {
      // storage refused (private mode, a sandboxed frame): defaults
    }
    this.sizes = parseSizes(raw);
    this.applied = applySizes(this.sizes, 0, 0);
  }

  /** The chosen sizes (what is stored). */
  get chosen(): PaneSizes {
    return this.sizes;
  }

  /** The sizes applied at the current width (a new object after every change: a snapshot for useSyncExternalStore). */
  get layout(): AppliedLayout {
    return this.applied;
  }

  get relatedCollapsed(): boolean {
    return this.sizes.relatedCollapsed;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The workspace element (null when it goes away) and its size. */
  attach(element: HTMLElement | null, width?: number, height?: number): void {
    this.element = element;
    if (width !== undefined) this.width = width;
    if (height !== undefined) this.height = height;
    this.refresh();
  }

  setWidth(width: number): void {
    this.setSize(width, this.height);
  }

  setSize(width: number, height: number): void {
    if (Math.abs(width - this.width) < 0.5 && Math.abs(height - this.height) < 0.5) return;
    this.width = width;
    this.height = height;
    this.refresh();
  }

  /** A pane's new size while it is dragged: applied at once, stored only by commit(). */
  preview(pane: PaneKey, px: number): void {
    this.sizes = { ...this.sizes, [pane]: Math.round(px) };
    this.refresh();
  }

  /** A pane's final size (a drag ended, a key was pressed): applied and stored. */
  set(pane: PaneKey, px: number): void {
    this.preview(pane, px);
    this.save();
  }

  /** Stores the current sizes (after preview()s). */
  commit(): void {
    this.save();
  }

  /** Back to the default size (a double-click on the splitter, or Enter). */
  reset(pane: PaneKey): void {
    this.sizes = { ...this.sizes, [pane]: PANE_DEFAULTS[pane] };
    this.refresh();
    this.save();
  }

  setRelatedCollapsed(collapsed: boolean): void {
    if (collapsed === this.sizes.relatedCollapsed) return;
    this.sizes = { ...this.sizes, relatedCollapsed: collapsed };
    this.refresh();
    this.save();
  }

  private refresh(): void {
    this.applied = applySizes(this.sizes, this.width, this.height);
    const el = this.element;
    if (el && this.width > 0) {
      el.style.setProperty('--ws-tree', `${this.applied.tree}px`);
      el.style.setProperty('--ws-middle', `${this.applied.middle}px`);
      el.style.setProperty('--ws-related', `${this.applied.related}px`);
    }
    if (el && this.height > 0) el.style.setProperty('--ws-stack', `${this.applied.stack}px`);
    for (const l of [...this.listeners]) l();
  }

  private save(): void {
    try {
      this.storage?.setItem(LAYOUT_STORAGE_KEY, JSON.stringify(this.sizes));
    } catch {
      // storage full or refused: the sizes hold for this page
    }
  }
}

let shared: PaneLayout | null = null;

/** The page's layout (localStorage-backed), made on first use. */
export function paneLayout(): PaneLayout {
  if (!shared) {
    shared = new PaneLayout(browserStorage());
  }
  return shared;
}
