/**
 * git's trim_common_tail (xdiff-interface.c): before a diff without context lines (what
 * `git blame` runs), git cuts the identical end of both files in 1 KiB blocks, back to a line
 * boundary. The cut lines are unchanged either way, but they no longer count in xdiff's line
 * statistics and a change cannot slide into them; blame does the same cut so it attributes
 * lines as `git blame` does.
 */

const BLOCK = 1024;
const NEWLINE = 0x0a;

/** How many whole lines at the end of both files git leaves out of a context-free diff (`commonSuffix`: their common tail in bytes, if known). */
export function gitTrimmedTailLines(a: Uint8Array, b: Uint8Array, commonSuffix?: number): number {
  const smaller = Math.min(a.length, b.length);
  let same = commonSuffix ?? 0;
  if (commonSuffix === undefined)
    while (same < smaller && a[a.length - 1 - same] === b[b.length - 1 - same]) same++;
  const trimmed = Math.floor(same / BLOCK) * BLOCK;
  if (trimmed === 0) return 0;
  // keep through the first newline of the trimmed part
  const from = a.length - trimmed;
  const nl = a.indexOf(NEWLINE, from);
  if (nl === -1) return 0;
  const keptEnd = nl + 1;
  if (keptEnd >= a.length) return 0;
  let lines = 0;
  for (let i = keptEnd; i < a.length; i++) if (a[i] === NEWLINE) lines++;
  if (a[a.length - 1] !== NEWLINE) lines++;
  return lines;
}
