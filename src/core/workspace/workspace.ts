/**
 * A repository workspace: one or more roots (seed 000's `codebasePaths`), each owning its own
 * state (WorkspaceRoot: indexes, caches), released when the root is removed or the workspace
 * closed. With one root, paths are root-relative; with several, every path is prefixed by its
 * root's name (the file view's naming: a repeated name gets '-2', '-3'...). Paths are translated
 * here and nowhere else: `route` takes a workspace path to its root, `toolRoots` gives the tools
 * every root under its prefix. The app's engine, the CLI and `quarry mcp` all hold one.
 */
import { QuarryError } from '../errors';
import { Workspace } from '../source/workspace';
import type { ToolRoot, WorkspaceRoot } from './root';

export interface Routed<R extends WorkspaceRoot> {
  root: R;
  /** Root-relative path. */
  rel: string;
  /** What workspace paths of this root start with ('' with one root). */
  prefix: string;
}

export function noRepository(): QuarryError {
  return new QuarryError('NotFound', 'No repository is open: open a folder or the demo first', {
    reason: 'noRepository',
  });
}

/**
 * `route`'s rule over roots known by their display names (a RepoWorkspace's, or the tools'
 * ToolRoots): which root a workspace path belongs to (its index), and the path inside it.
 */
export function routeByName(
  names: readonly string[],
  path: string,
  field = 'path',
): { index: number; rel: string; prefix: string } {
  if (!names.length) throw noRepository();
  if (typeof path !== 'string')
    throw new QuarryError('InvalidArgument', `${field} must be a string`, { field, value: path });
  const clean = path.replace(/^\/+|\/+$/g, '');
  if (names.length === 1) return { index: 0, rel: clean, prefix: '' };
  const slash = clean.indexOf('/');
  const first = slash < 0 ? clean : clean.slice(0, slash);
  const i = names.indexOf(first);
  if (i < 0)
    throw new QuarryError('NotFound', `"${path}" is not under any open root (${names.join(', ')})`, {
      path,
      reason: 'noSuchRoot',
    });
  return { index: i, rel: slash < 0 ? '' : clean.slice(slash + 1), prefix: names[i] + '/' };
}

export class RepoWorkspace<R extends WorkspaceRoot = WorkspaceRoot> {
  private list: R[] = [];
  private view: Workspace | null = null;

  constructor(roots: readonly R[] = []) {
    this.list = [...roots];
  }

  get roots(): readonly R[] {
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }

  get multiRoot(): boolean {
    return this.list.length > 1;
  }

  /** Every root's files as one view (the file tools span all roots). */
  files(): Workspace {
    if (!this.list.length) throw noRepository();
    this.view ??= new Workspace(this.list.map((r) => r.source));
    return this.view;
  }

  /** The display name of each root (unique), in order. */
  names(): string[] {
    return this.list.length ? this.files().names : [];
  }

  prefixOf(root: R): string {
    const i = this.list.indexOf(root);
    return this.multiRoot && i >= 0 ? this.names()[i] + '/' : '';
  }

  find(key: string): R | undefined {
    return this.list.find((r) => r.key === key);
  }

  /** A root by its key, its display name or its prefix (as tools' `root` argument names one). */
  named(name: string): R | undefined {
    const names = this.names();
    return this.list.find((r, i) => r.key === name || names[i] === name || `${names[i]}/` === name);
  }

  /** Replace every root with one; the others are closed. */
  replaceAll(root: R): R[] {
    const old = this.list;
    this.list = [root];
    this.view = null;
    for (const r of old) if (r !== root) r.close();
    return old;
  }

  /** Add a root, or replace the root with the same key in place (a reopen; the old one is closed). */
  add(root: R): void {
    const i = this.list.findIndex((r) => r.key === root.key);
    if (i >= 0) {
      const old = this.list[i];
      this.list = this.list.map((r, k) => (k === i ? root : r));
      if (old !== root) old.close();
    } else this.list = [...this.list, root];
    this.view = null;
  }

  /** Remove a root by key (closing it); false when it is not open. */
  remove(key: string): boolean {
    const r = this.find(key);
    if (!r) return false;
    this.list = this.list.filter((x) => x !== r);
    this.view = null;
    r.close();
    return true;
  }

  /** Close every root. */
  close(): void {
    const old = this.list;
    this.list = [];
    this.view = null;
    for (const r of old) r.close();
  }

  /** The root a workspace path belongs to, and the path inside it. */
  route(path: string, field = 'path'): Routed<R> {
    const { index, rel, prefix } = routeByName(this.names(), path, field);
    return { root: this.list[index], rel, prefix };
  }

  /**
   * Every root as the tools see it. `wrap` lets a host decorate a root's services (the app runs
   * index waits outside the caller's foreground) without the tools knowing.
   */
  toolRoots(wrap?: (root: R) => WorkspaceRoot): ToolRoot[] {
    const names = this.names();
    return this.list.map((r, i) => ({
      prefix: this.multiRoot ? names[i] + '/' : '',
      name: names[i],
      root: wrap ? wrap(r) : r,
    }));
  }
}
