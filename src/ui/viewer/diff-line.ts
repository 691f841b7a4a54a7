/** Where a line of a diff is among its rows (a link to a line opens the diff there). */
import type { DiffRow } from '../../core/diff/rows';

/** The row showing `line` (1-based): a changed row of either side first, then any row of the new side; -1 if none. */
export function lineRow(rows: readonly DiffRow[], line: number): number {
  const on = (r: DiffRow, changed: boolean) =>
    r.kind === 'line' &&
    (changed
      ? r.block >= 0 && (r.right?.line === line - 1 || r.left?.line === line - 1)
      : r.right?.line === line - 1);
  const changed = rows.findIndex((r) => on(r, true));
  return changed >= 0 ? changed : rows.findIndex((r) => on(r, false));
}
