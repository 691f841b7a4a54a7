/**
 * Collapsible file groups in the text/regex results list: which files are collapsed, and the
 * rows the virtual list shows (a collapsed file keeps its header, its lines are left out).
 * Plain TS (tested in Node). "Collapse all" is remembered as a mode, so files that stream in
 * after it arrive collapsed too; single toggles are exceptions to the mode.
 */

export interface CollapseState {
  /** true: every file is collapsed except those in `toggled`; false: only those in `toggled`. */
  all: boolean;
  toggled: ReadonlySet<string>;
}

export const NONE_COLLAPSED: CollapseState = { all: false, toggled: new Set() };
export const ALL_COLLAPSED: CollapseState = { all: true, toggled: new Set() };

export function isCollapsed(state: CollapseState, path: string): boolean {
  return state.all !== state.toggled.has(path);
}

export function toggleCollapsed(state: CollapseState, path: string): CollapseState {
  const toggled = new Set(state.toggled);
  if (toggled.has(path)) toggled.delete(path);
  else toggled.add(path);
  return { all: state.all, toggled };
}

/** Whether anything is collapsed at all (the list can then be shown as it is). */
export function anyCollapsed(state: CollapseState): boolean {
  return state.all || state.toggled.size > 0;
}

/** The rows a results list holds: a file header, a line of a file (a hit or context), or a gap between blocks of a file. */
export type ResultRowLike =
  | { kind: 'file'; path: string }
  | { kind: 'line'; path: string; ranges: unknown }
  | { kind: 'gap'; path: string };

export interface VisibleRows<R> {
  rows: R[];
  /**
   * The rows keyboard focus moves through, in order (indexes into `rows`): file headers and hit
   * lines, not context lines or gaps.
   */
  focusable: number[];
  /** For each row of `rows`, its place in `focusable` (-1: not focusable). */
  focusIndex: Int32Array;
  /** File headers in the list (collapsed or not). */
  files: number;
  /** Of them, collapsed. */
  collapsed: number;
}

/** The rows shown under `state`: a collapsed file's header stays, its lines and gaps go. */
export function visibleRows<R extends ResultRowLike>(
  all: readonly R[],
  state: CollapseState,
): VisibleRows<R> {
  // One pass, arrays sized once: this runs on every render of a list that grows to tens of
  // thousands of rows while a search streams in.
  const collapsedNow = anyCollapsed(state);
  const rows: R[] = collapsedNow ? [] : all.slice();
  const focusIndex = new Int32Array(collapsedNow ? all.length : rows.length);
  const focusable: number[] = [];
  let hidden = false;
  let files = 0;
  let collapsed = 0;
  for (let i = 0; i < all.length; i++) {
    const row = all[i];
    if (row.kind === 'file') {
      hidden = collapsedNow && isCollapsed(state, row.path);
      files++;
      if (hidden) collapsed++;
    } else if (hidden) continue;
    const at = collapsedNow ? rows.push(row) - 1 : i;
    if (row.kind === 'file' || (row.kind === 'line' && row.ranges)) {
      focusIndex[at] = focusable.length;
      focusable.push(at);
    } else focusIndex[at] = -1;
  }
  return {
    rows,
    focusable,
    focusIndex: collapsedNow ? focusIndex.slice(0, rows.length) : focusIndex,
    files,
    collapsed,
  };
}
