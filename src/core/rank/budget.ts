/** The code indexes' text budget (INDEX_MAX_TEXT_BYTES), applied to a walk's files in walk order. */
import { INDEX_MAX_TEXT_BYTES } from '../limits';
import type { Skipped } from '../walk/policy';

/**
 * Keep the files of `seen` (in its order) while their sizes add up to at most `budget` bytes;
 * the rest leave `seen` and are reported in `skipped` with reason 'indexBudget'.
 */
export function applyIndexBudget(
  seen: Map<string, { size: number }>,
  skipped: Skipped[],
  budget = INDEX_MAX_TEXT_BYTES,
): void {
  let total = 0;
  const mib = Math.round(budget / 1048576);
  for (const [path, f] of seen) {
    total += f.size;
    if (total <= budget) continue;
    seen.delete(path); // deleting the entry being visited is safe in a Map iteration
    skipped.push({
      path,
      reason: 'indexBudget',
      detail: `the index holds the first ${mib} MiB of text; this file is searched by scanning`,
    });
  }
}
