/**
 * The recently opened files of each repository, most recent first, for the strip above the
 * viewer. Plain TS (tested in Node). Kept in localStorage under one key: a map from the
 * workspace's identity (its roots' keys) to at most MAX_RECENT_FILES paths, for at most
 * MAX_RECENT_REPOS repositories (the least recently used one is dropped first).
 */

import { browserStorage } from '../browser-storage';

export const MAX_RECENT_FILES = 8;
export const MAX_RECENT_REPOS = 30;
export const RECENT_STORAGE_KEY = 'quarry:recent-files:v1';
/** A path longer than this is not remembered (the address refuses longer ones anyway). */
const MAX_REMEMBERED_PATH = 4096;

/** `path` first, without duplicates, at most `max`. */
export function pushRecent(list: readonly string[], path: string, max = MAX_RECENT_FILES): string[] {
  if (!path) return [...list];
  return [path, ...list.filter((p) => p !== path)].slice(0, Math.max(0, max));
}

export function removeRecent(list: readonly string[], path: string): string[] {
  return list.filter((p) => p !== path);
}

/**
 * The file to show when `closed` is closed while `current` is open: unchanged if another file
 * was closed; else the next one in the list after removing it ('' when none is left).
 */
export function afterClose(list: readonly string[], closed: string, current: string): string {
  if (closed !== current) return current;
  const rest = removeRecent(list, closed);
  const at = list.indexOf(closed);
  return rest[Math.min(Math.max(at, 0), rest.length - 1)] ?? '';
}

/** The workspace's identity for the store: its roots' keys, without the app's generation counter. */
export function workspaceId(repoKey: string): string {
  return repoKey.replace(/#\d+$/, '');
}

type Store = Array<[repo: string, files: string[]]>;

/** The stored map from whatever localStorage held: malformed entries are dropped, not fatal. */
export function parseStore(raw: string | null): Store {
  if (!raw) return [];
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(data)) return [];
  const out: Store = [];
  for (const entry of data) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Array.isArray(entry[1])) continue;
    const files = (entry[1] as unknown[]).filter(
      (p): p is string => typeof p === 'string' && p.length > 0 && p.length <= MAX_REMEMBERED_PATH,
    );
    out.push([entry[0], [...new Set(files)].slice(0, MAX_RECENT_FILES)]);
    if (out.length >= MAX_RECENT_REPOS) break;
  }
  return out;
}

const NONE: string[] = [];

/** `repo`'s list (the same array until it changes: a stable snapshot for React). */
export function recentOf(store: Store, repo: string): string[] {
  return store.find(([r]) => r === repo)?.[1] ?? NONE;
}

/** The store with `repo`'s list replaced (and moved to the front: most recently used). */
export function withRecent(store: Store, repo: string, files: string[]): Store {
  return [[repo, files] as [string, string[]], ...store.filter(([r]) => r !== repo)].slice(
    0,
    MAX_RECENT_REPOS,
  );
}

export interface RecentStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Read, change and write one repository's list (storage errors: the change holds in memory only). */
export class RecentFiles {
  private store: Store;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly storage: RecentStorage | null) {
    let raw: string | null = null;
    try {
      raw = storage?.getItem(RECENT_STORAGE_KEY) ?? null;
    } catch {
      // storage refused: start empty
    }
    this.store = parseStore(raw);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  list(repo: string): string[] {
    return recentOf(this.store, repo);
  }

  opened(repo: string, path: string): void {
    const before = this.list(repo);
    if (before[0] === path) return;
    this.write(repo, pushRecent(before, path));
  }

  close(repo: string, path: string): void {
    this.write(repo, removeRecent(this.list(repo), path));
  }

  private write(repo: string, files: string[]): void {
    this.store = withRecent(this.store, repo, files);
    try {
      this.storage?.setItem(RECENT_STORAGE_KEY, JSON.stringify(this.store));
    } catch {
      // storage full or refused
    }
    for (const l of [...this.listeners]) l();
  }
}

let shared: RecentFiles | null = null;

export function recentFiles(): RecentFiles {
  if (!shared) {
    shared = new RecentFiles(browserStorage());
  }
  return shared;
}
