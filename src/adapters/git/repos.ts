/**
 * Clone, fetch updates, delete: isomorphic-git into the shared lightning-fs, with the
 * library record written last so a failed or cancelled clone leaves nothing registered.
 */
import './env';
import * as git from 'isomorphic-git';
import { QuarryError, invalidArgument } from '../../core/errors';
import type { RepoRecord, StorageEstimate } from '../../core/git/types';
import { toGitError, type ErrorContext } from './errors';
import { diffTrees } from './history';
import { cancelledError, displayUrl, makeHttp } from './http';
import { getRepo, listRepos, putRepo, removeRepoRecord, requireRepo } from './registry';
import { flushGitStorage, gitStorage, measureRepo, removeTree, repoDir, REPOS_ROOT } from './storage';

export type { StorageEstimate } from '../../core/git/types';

export interface GitProgress {
  /** isomorphic-git's phase: 'Counting objects', 'Receiving objects', 'Resolving deltas', 'Analyzing workdir', 'Updating workdir', ... */
  phase: string;
  loaded: number;
  /** 0 when unknown */
  total: number;
}

export interface AuthOptions {
  /** Access token (kept in memory only; never stored). */
  token?: string;
  /** Username sent with the token (default 'x-access-token'; GitLab: 'oauth2', Bitbucket: 'x-token-auth'). */
  username?: string;
}

export interface CloneOptions extends AuthOptions {
  url: string;
  /** Branch or tag; default: the remote's HEAD (default branch). */
  ref?: string;
  /** Commits of history to fetch: default 1 (shallow); 0 = full history. */
  depth?: number;
  /** Default true. */
  singleBranch?: boolean;
  /** e.g. https://cors.isomorphic-git.org or a self-hosted @isomorphic-git/cors-proxy */
  corsProxy?: string;
  onProgress?: (p: GitProgress) => void;
  signal?: AbortSignal;
}

export interface FetchUpdatesOptions extends AuthOptions {
  corsProxy?: string;
  onProgress?: (p: GitProgress) => void;
  signal?: AbortSignal;
}

export interface FetchUpdatesResult {
  /** Added or modified files (working-tree paths), for an incremental re-index. */
  changedPaths: string[];
  removedPaths: string[];
  commit: string;
  previousCommit: string;
  record: RepoRecord;
}

/** isomorphic-git's shared cache of parsed packfiles, one per repository. */
const caches = new Map<string, object>();
const inProgress = new Set<string>();

export function gitCache(id: string): object {
  let cache = caches.get(id);
  if (!cache) caches.set(id, (cache = {}));
  return cache;
}

/** A stable, path-safe id for a URL (+ ref): `host-port/owner/repo[@ref]` flattened. */
export function repoIdFor(url: string, ref?: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw invalidArgument('url', `Not a valid repository URL: ${url}`, url);
  }
  const path = `${u.host}${u.pathname}`.replace(/\.git\/?$/, '').replace(/\/+$/, '');
  const slug = path.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  const refPart = ref ? `@${ref.replace(/[^A-Za-z0-9._-]+/g, '-')}` : '';
  return `${slug}${refPart}`;
}

function repoName(url: string): string {
  const parts = displayUrl(url)
    .replace(/\/+$/, '')
    .replace(/\.git$/, '')
    .split('/');
  return parts[parts.length - 1] || url;
}

function checkUrl(url: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw invalidArgument(
      'url',
      `Not a valid repository URL: "${url}" (expected https://host/owner/repo.git)`,
      url,
    );
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw invalidArgument(
      'url',
      `Only http(s) git URLs can be cloned in the browser, got ${u.protocol}//`,
      url,
    );
  }
}

function authCallbacks(opts: AuthOptions) {
  if (!opts.token) return {};
  const auth = { username: opts.username ?? 'x-access-token', password: opts.token };
  return {
    onAuth: () => auth,
    // Without this isomorphic-git asks onAuth again forever; cancel -> HttpError 401.
    onAuthFailure: () => ({ cancel: true as const }),
  };
}

const REMOTE_PHASES = /^(Counting|Compressing|Enumerating|Receiving|Total|remote)/i;

function progressHandler(
  what: string,
  signal: AbortSignal | undefined,
  onProgress?: (p: GitProgress) => void,
  abortable = () => true,
) {
  let thrown = false;
  return (p: git.GitProgressEvent) => {
    // Throw once: checkout reports progress from hundreds of concurrent tasks, and
    // isomorphic-git logs every rejected one.
    // Never throw for progress relayed from the remote's sideband: isomorphic-git reads that
    // stream in a loop nobody awaits, so a throw there is an unhandled rejection. The http
    // client aborts the transfer itself; local phases (delta resolution, checkout) are awaited.
    if (signal?.aborted && abortable() && !thrown && !REMOTE_PHASES.test(p.phase)) {
      thrown = true;
      throw cancelledError(what);
    }
    if (thrown) return;
    onProgress?.({ phase: p.phase, loaded: p.loaded, total: p.total ?? 0 });
  };
}

/** Remove lightning-fs directories under /repos that no library record owns (a crash mid-clone). */
export async function sweepOrphans(): Promise<string[]> {
  const { fs } = gitStorage();
  let names: string[];
  try {
    names = (await fs.promises.readdir(REPOS_ROOT)) as string[];
  } catch {
    return [];
  }
  const known = new Set((await listRepos()).map((r) => r.id));
  const removed: string[] = [];
  for (const name of names) {
    if (known.has(name) || inProgress.has(name)) continue;
    await removeTree(repoDir(name));
    removed.push(name);
  }
  if (removed.length) await flushGitStorage('Cleaning up unfinished clones').catch(() => undefined);
  return removed;
}

async function ensureRoot(): Promise<void> {
  const { fs } = gitStorage();
  try {
    await fs.promises.mkdir(REPOS_ROOT);
  } catch (err) {
    if ((err as { code?: string }).code !== 'EEXIST') throw err;
  }
}

export async function cloneRepo(opts: CloneOptions): Promise<RepoRecord> {
  checkUrl(opts.url);
  const depth = opts.depth ?? 1;
  if (!Number.isInteger(depth) || depth < 0)
    throw invalidArgument(
      'depth',
      `depth must be 0 (full history) or a positive integer, got ${depth}`,
      depth,
    );
  const url = opts.url.trim();
  const id = repoIdFor(url, opts.ref);
  const what = `Cloning ${displayUrl(url)}`;
  if (opts.signal?.aborted) throw cancelledError(what);
  const existing = await getRepo(id);
  if (existing) {
    throw new QuarryError(
      'InvalidArgument',
      `${displayUrl(url)} is already in the library (as "${id}"); use "fetch updates" or delete it first`,
      {
        field: 'url',
        value: url,
        id,
      },
    );
  }
  if (inProgress.has(id))
    throw new QuarryError('InvalidArgument', `${displayUrl(url)} is already being cloned`, {
      field: 'url',
      value: url,
      id,
    });
  inProgress.add(id);
  const { fs, db } = gitStorage();
  const dir = repoDir(id);
  const cache = gitCache(id);
  const ctx: ErrorContext = { what, url, ref: opts.ref, hadToken: !!opts.token };
  try {
    await sweepOrphans();
    await ensureRoot();
    await removeTree(dir); // leftovers of an interrupted attempt
    db.clearFailure();
    await git.clone({
      fs,
      http: makeHttp(what, opts.signal, !!opts.corsProxy),
      dir,
      url,
      ref: opts.ref,
      depth: depth === 0 ? undefined : depth,
      singleBranch: opts.singleBranch ?? true,
      noTags: true,
      corsProxy: opts.corsProxy || undefined,
      cache,
      onProgress: progressHandler(what, opts.signal, opts.onProgress),
      ...authCallbacks(opts),
    });
    if (opts.signal?.aborted) throw cancelledError(what);
    const commit = await git.resolveRef({ fs, dir, ref: 'HEAD' });
    const branch = (await git.currentBranch({ fs, dir, fullname: false })) || opts.ref || commit.slice(0, 7);
    const { fileCount, sizeBytes } = await measureRepo(dir);
    await flushGitStorage(what);
    const now = Date.now();
    const record: RepoRecord = {
      id,
      url: displayUrl(url),
      name: repoName(url),
      branch,
      commit,
      sizeBytes,
      fileCount,
      clonedAt: now,
      lastFetchedAt: now,
      source: 'clone',
      depth,
      ...(opts.ref ? { ref: opts.ref } : {}),
      ...(opts.corsProxy ? { corsProxy: opts.corsProxy } : {}),
    };
    await putRepo(record);
    return record;
  } catch (raw) {
    let err = toGitError(raw, ctx);
    if (opts.signal?.aborted && err.code !== 'QuotaExceeded') err = cancelledError(what);
    if (err.code === 'CloneFailed' && opts.ref && /Could not find/.test(String((raw as Error)?.message))) {
      err = await unknownRefError(url, opts, err);
    }
    // Nothing half-registered: drop the partial directory (and its blobs).
    caches.delete(id);
    await removeTree(dir).catch(() => undefined);
    db.clearFailure();
    await flushGitStorage('Cleaning up').catch(() => undefined);
    throw err;
  } finally {
    inProgress.delete(id);
  }
}

/** The remote does not have `ref`: say which branches it does have. */
async function unknownRefError(url: string, opts: CloneOptions, fallback: QuarryError): Promise<QuarryError> {
  try {
    const refs = await git.listServerRefs({
      http: makeHttp('Listing branches', opts.signal, !!opts.corsProxy),
      url,
      corsProxy: opts.corsProxy || undefined,
      symrefs: true,
      ...authCallbacks(opts),
    });
    const branches = refs
      .map((r) => r.ref)
      .filter((r) => r.startsWith('refs/heads/'))
      .map((r) => r.slice('refs/heads/'.length))
      .sort();
    const tags = refs
      .map((r) => r.ref)
      .filter((r) => r.startsWith('refs/tags/') && !r.endsWith('^{}'))
      .map((r) => r.slice('refs/tags/'.length));
    return new QuarryError(
      'NotFound',
      `Branch or tag "${opts.ref}" not found in ${displayUrl(url)}. Its branches: ${branches.join(', ') || '(none)'}`,
      {
        url: displayUrl(url),
        ref: opts.ref,
        branches,
        tags,
      },
    );
  } catch {
    return fallback;
  }
}

export async function fetchUpdates(id: string, opts: FetchUpdatesOptions = {}): Promise<FetchUpdatesResult> {
  const record = await requireRepo(id);
  if (record.source !== 'clone')
    throw invalidArgument('id', `"${id}" is an opened folder, not a clone: there is nothing to fetch`, id);
  if (inProgress.has(id))
    throw new QuarryError('InvalidArgument', `${record.url} is busy (a clone or fetch is running)`, { id });
  inProgress.add(id);
  const { fs, db } = gitStorage();
  const dir = repoDir(id);
  const cache = gitCache(id);
  const what = `Fetching updates for ${record.url}`;
  const corsProxy = opts.corsProxy ?? record.corsProxy;
  const ctx: ErrorContext = { what, url: record.url, hadToken: !!opts.token };
  // Once checkout starts the working tree is being rewritten: finish it rather than stop halfway.
  let checkingOut = false;
  try {
    db.clearFailure();
    // The library's commit, not HEAD: if a checkout was ever interrupted (a closed tab), HEAD may
    // already name the new commit over a half-updated tree, and this fetch must check it out again.
    const previousCommit = record.commit || (await git.resolveRef({ fs, dir, ref: 'HEAD' }));
    const detached = !(await git.currentBranch({ fs, dir }));
    const ref = detached ? (record.ref ?? record.branch) : record.branch;
    const result = await git.fetch({
      fs,
      http: makeHttp(what, opts.signal, !!corsProxy),
      dir,
      url: record.url,
      ref,
      singleBranch: true,
      depth: record.depth ? record.depth : undefined,
      tags: false,
      corsProxy: corsProxy || undefined,
      cache,
      onProgress: progressHandler(what, opts.signal, opts.onProgress, () => !checkingOut),
      ...authCallbacks(opts),
    });
    if (opts.signal?.aborted) throw cancelledError(what);
    const commit = result.fetchHead ?? previousCommit;
    let changes: { path: string; type: string }[] = [];
    if (commit !== previousCommit) {
      changes = await diffTrees(fs, dir, previousCommit, commit, { cache });
      checkingOut = true;
      // The remote branch is the truth (Quarry never commits here): move the local branch to
      // it, then let checkout rewrite only the files whose blobs changed.
      if (detached) {
        await git.checkout({
          fs,
          dir,
          ref: commit,
          force: true,
          cache,
          onProgress: progressHandler(what, undefined, opts.onProgress),
        });
      } else {
        await git.writeRef({ fs, dir, ref: `refs/heads/${record.branch}`, value: commit, force: true });
        await git.checkout({
          fs,
          dir,
          ref: record.branch,
          force: true,
          cache,
          onProgress: progressHandler(what, undefined, opts.onProgress),
        });
      }
    }
    const { fileCount, sizeBytes } = await measureRepo(dir);
    await flushGitStorage(what);
    const next: RepoRecord = { ...record, commit, fileCount, sizeBytes, lastFetchedAt: Date.now() };
    await putRepo(next);
    return {
      changedPaths: changes.filter((c) => c.type !== 'delete').map((c) => c.path),
      removedPaths: changes.filter((c) => c.type === 'delete').map((c) => c.path),
      commit,
      previousCommit,
      record: next,
    };
  } catch (raw) {
    let err = toGitError(raw, ctx);
    if (opts.signal?.aborted && !checkingOut && err.code !== 'QuotaExceeded') err = cancelledError(what);
    db.clearFailure();
    throw err;
  } finally {
    inProgress.delete(id);
  }
}

export interface DeepenOptions extends AuthOptions {
  /** How many more commits of history to fetch (default 50). */
  by?: number;
  corsProxy?: string;
  onProgress?: (p: GitProgress) => void;
  signal?: AbortSignal;
}

/**
 * Fetch `by` more commits of a shallow clone's history (the working tree is untouched).
 * The record's depth grows accordingly, so a later fetchUpdates keeps that much history.
 */
export async function deepenHistory(id: string, opts: DeepenOptions = {}): Promise<RepoRecord> {
  const record = await requireRepo(id);
  if (record.source !== 'clone')
    throw invalidArgument(
      'id',
      `"${id}" is an opened folder, not a clone: its history is already all there`,
      id,
    );
  const by = opts.by ?? 50;
  if (!Number.isInteger(by) || by < 1)
    throw invalidArgument('by', `by must be a positive integer, got ${by}`, by);
  if (!record.depth) return record; // a full clone has nothing more to fetch
  if (inProgress.has(id))
    throw new QuarryError('InvalidArgument', `${record.url} is busy (a clone or fetch is running)`, { id });
  inProgress.add(id);
  const { fs, db } = gitStorage();
  const dir = repoDir(id);
  const what = `Fetching more history for ${record.url}`;
  const corsProxy = opts.corsProxy ?? record.corsProxy;
  try {
    db.clearFailure();
    await git.fetch({
      fs,
      http: makeHttp(what, opts.signal, !!corsProxy),
      dir,
      url: record.url,
      ref: record.ref ?? record.branch,
      singleBranch: true,
      depth: by,
      relative: true,
      tags: false,
      corsProxy: corsProxy || undefined,
      cache: gitCache(id),
      onProgress: progressHandler(what, opts.signal, opts.onProgress),
      ...authCallbacks(opts),
    });
    if (opts.signal?.aborted) throw cancelledError(what);
    const { sizeBytes } = await measureRepo(dir);
    await flushGitStorage(what);
    const next: RepoRecord = { ...record, depth: record.depth + by, sizeBytes };
    await putRepo(next);
    return next;
  } catch (raw) {
    let err = toGitError(raw, { what, url: record.url, hadToken: !!opts.token });
    if (opts.signal?.aborted && err.code !== 'QuotaExceeded') err = cancelledError(what);
    db.clearFailure();
    throw err;
  } finally {
    inProgress.delete(id);
  }
}

/** Remove a repository from the library and free its stored files. */
export async function deleteRepo(id: string): Promise<void> {
  const record = await getRepo(id);
  if (inProgress.has(id))
    throw new QuarryError('InvalidArgument', `"${id}" is busy (a clone or fetch is running)`, { id });
  // Record first: if freeing storage is interrupted, sweepOrphans() finishes it later,
  // and the library never shows an entry whose files are half gone.
  if (record) await removeRepoRecord(id);
  caches.delete(id);
  if (!record || record.source === 'clone') {
    await removeTree(repoDir(id));
    await flushGitStorage(`Deleting ${id}`);
  }
}

export async function storageEstimate(): Promise<StorageEstimate> {
  const repos = await listRepos();
  const reposBytes = repos.filter((r) => r.source === 'clone').reduce((n, r) => n + r.sizeBytes, 0);
  const storage = (globalThis as { navigator?: { storage?: StorageManager } }).navigator?.storage;
  let usageBytes: number | null = null;
  let quotaBytes: number | null = null;
  let persisted: boolean | null = null;
  try {
    if (storage?.estimate) {
      const e = await storage.estimate();
      usageBytes = e.usage ?? null;
      quotaBytes = e.quota ?? null;
    }
    if (storage?.persisted) persisted = await storage.persisted();
  } catch {
    // estimate() is unavailable in some contexts (e.g. opaque origins): report unknown.
  }
  return { usageBytes, quotaBytes, reposBytes, persisted };
}
