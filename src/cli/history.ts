/**
 * explore's git agent in the CLI: a root's history read with isomorphic-git over Node's fs,
 * from the repository that holds the root (the nearest `.git` at or above it), with paths
 * made root-relative (files outside the root dropped).
 */
import fs from 'node:fs';
import path from 'node:path';
import { history } from '../adapters/git/history';
import type { HistoryPortResult, ToolContext } from '../core/tools/types';

function repositoryOf(dir: string): string | null {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, '.git'))) return d;
    if (path.dirname(d) === d) return null;
  }
}

export function cliHistory(rootDirs: readonly string[]): NonNullable<ToolContext['history']> {
  return async (rootIndex, limit): Promise<HistoryPortResult> => {
    const root = path.resolve(rootDirs[rootIndex]);
    const repo = repositoryOf(root);
    if (!repo) return { available: false, reason: `${root} is not inside a git repository.` };
    const below = path.relative(repo, root).split(path.sep).join('/');
    const rel = (p: string) => (below ? (p.startsWith(`${below}/`) ? p.slice(below.length + 1) : null) : p);
    const h = await history(fs, repo, { depth: limit, includeUncommitted: true });
    return {
      available: true,
      branch: h.branch,
      head: h.head,
      shallow: h.shallow,
      commits: h.commits
        .map((c) => ({
          ...c,
          changedFiles: c.changedFiles.flatMap((f) =>
            rel(f.path) === null ? [] : [{ ...f, path: rel(f.path)! }],
          ),
        }))
        .filter((c) => !below || c.changedFiles.length),
      uncommitted: (h.uncommitted ?? []).flatMap((u) =>
        rel(u.path) === null ? [] : [{ ...u, path: rel(u.path)! }],
      ),
    };
  };
}
