/**
 * The folders of the Files tree to open so that `path` (the open file) shows: its ancestors,
 * outermost first. None for a path that is not inside the repository (an address may name
 * `../../etc/passwd`, or `a//b`): there is no folder of the tree to reveal, and asking the
 * engine to list one only fails.
 */
export function revealedDirs(path: string): string[] {
  const parts = path.split('/').slice(0, -1);
  if (parts.some((p) => p === '' || p === '.' || p === '..')) return [];
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}
