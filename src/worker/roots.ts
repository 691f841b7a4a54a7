/**
 * The open workspace: a list of sessions, one per root (seed 000's `codebasePaths`). With one
 * root, paths are root-relative; with several, every path is prefixed by its root's name
 * (the core Workspace's naming: a repeated name gets '-2', '-3'...), as the CLI's repeated
 * --root prints them. Adding or removing a root leaves the other sessions (and indexes) alone.
 */
import { QuarryError } from '../core/errors';
import { Workspace } from '../core/source/workspace';
import type { RepoSession } from './session';
import type { RootInfo } from './protocol';

export interface Routed {
  session: RepoSession;
  /** Root-relative path. */
  rel: string;
  /** What workspace paths of this root start with ('' with one root). */
  prefix: string;
}

export class Roots {
  private list: RepoSession[] = [];
  private ws: Workspace | null = null;

  get sessions(): readonly RepoSession[] {
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }

  get multiRoot(): boolean {
    return this.list.length > 1;
  }

  /** Every session as one core Workspace (tools span all roots). */
  workspace(): Workspace {
    if (!this.list.length) throw noRepository();
    this.ws ??= new Workspace(this.list.map((s) => s.source));
    return this.ws;
  }

  /** The display name of each root (unique), in order. */
  names(): string[] {
    return this.list.length ? this.workspace().names : [];
  }

  prefixOf(session: RepoSession): string {
    const i = this.list.indexOf(session);
    return this.multiRoot && i >= 0 ? this.names()[i] + '/' : '';
  }

  find(key: string): RepoSession | undefined {
    return this.list.find((s) => s.key === key);
  }

  /** Replace every root with one session; the old sessions are closed. */
  replaceAll(session: RepoSession): RepoSession[] {
    const old = this.list;
    this.list = [session];
    this.ws = null;
    for (const s of old) if (s !== session) s.close();
    return old;
  }

  /** Add a root, or replace the root with the same key in place (a reopen). */
  add(session: RepoSession): void {
    const i = this.list.findIndex((s) => s.key === session.key);
    if (i >= 0) {
      const old = this.list[i];
      this.list = this.list.map((s, k) => (k === i ? session : s));
      if (old !== session) old.close();
    } else this.list = [...this.list, session];
    this.ws = null;
  }

  /** Remove a root by key; false when it is not open. */
  remove(key: string): boolean {
    const s = this.find(key);
    if (!s) return false;
    this.list = this.list.filter((x) => x !== s);
    this.ws = null;
    s.close();
    return true;
  }

  /** The session a workspace path belongs to, and the path inside it. */
  route(path: string, field = 'path'): Routed {
    if (!this.list.length) throw noRepository();
    if (typeof path !== 'string')
      throw new QuarryError('InvalidArgument', `${field} must be a string`, { field, value: path });
    const clean = path.replace(/^\/+|\/+$/g, '');
    if (!this.multiRoot) return { session: this.list[0], rel: clean, prefix: '' };
    const names = this.names();
    const slash = clean.indexOf('/');
    const first = slash < 0 ? clean : clean.slice(0, slash);
    const i = names.indexOf(first);
    if (i < 0)
      throw new QuarryError('NotFound', `"${path}" is not under any open root (${names.join(', ')})`, {
        path,
        reason: 'noSuchRoot',
      });
    return { session: this.list[i], rel: slash < 0 ? '' : clean.slice(slash + 1), prefix: names[i] + '/' };
  }

  info(): RootInfo[] {
    const names = this.names();
    return this.list.map((s, i) => ({
      key: s.key,
      name: names[i],
      stats: s.stats,
      indexStatus: s.indexStatus,
    }));
  }
}

export function noRepository(): QuarryError {
  return new QuarryError('NotFound', 'No repository is open: open a folder or the demo first', {
    reason: 'noRepository',
  });
}
