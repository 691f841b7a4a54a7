/**
 * The order the Text/Regex results list shows its files in while they stream in, and the rule
 * that keeps rows from moving under a person (docs/design.md, "Results in relevance order").
 *
 * THE NO-JUMP RULE. Until the person touches the list (a pointer moving or pressed over it, a
 * wheel, a key or focus in it), every file that has arrived is in order (core/grep/text-relevance.ts),
 * and a better file arriving goes above worse ones. From the first touch on, the files from the
 * top through the one at the bottom edge of the list's viewport are HELD: they stay where they are,
 * in that order, and scrolling further holds every file that comes into view. Files that arrive
 * later, and those not yet seen, are kept in order below the held ones. So nothing above or in
 * the viewport moves once it is being read, pointed at or focused; a new search or a change of
 * order starts over. Plain TS, tested in Node.
 */

/** A list row: its file's path is all the rule needs. */
export interface PathRow {
  path: string;
}

/**
 * The list's files after new arrivals: the first `held` of `shown` (the order on screen) as they
 * are, then every other file of `all` sorted by `compare`. A held file missing from `all` is dropped.
 */
export function arrange<T extends { path: string }>(
  shown: readonly string[],
  held: number,
  all: readonly T[],
  compare: (a: T, b: T) => number,
): string[] {
  const byPath = new Map(all.map((f) => [f.path, f]));
  const keep: string[] = [];
  for (const path of shown.slice(0, Math.max(0, held))) if (byPath.delete(path)) keep.push(path);
  const rest = [...byPath.values()].sort(compare).map((f) => f.path);
  return keep.concat(rest);
}

/**
 * How many files of `order` a touch holds: those through the file of the last row the person can
 * see (`lastSeen`, an index into `rows`, the list as shown), and never fewer than `held` already.
 */
export function holdThrough(
  rows: readonly PathRow[],
  lastSeen: number,
  order: readonly string[],
  held: number,
): number {
  const row = rows[Math.min(lastSeen, rows.length - 1)];
  if (!row) return held;
  return Math.max(held, order.indexOf(row.path) + 1);
}
