/**
 * The repository library and git: clone, fetch, deepen, the one registry of cloned
 * repositories and opened folders, and history. isomorphic-git and lightning-fs load on
 * first use, so opening a folder never pays for them; the folder handles (Recent) and the
 * library records both live here, in the worker, so nothing about the registry is on the
 * main thread.
 */
import { QuarryError, toQuarryError } from '../core/errors';
import { elapsedSince, now } from '../core/jobs/yielder';
import type { IndexStore } from '../core/rank/persist';
import { forgetRecent, listRecent, rememberRecent, type RecentRepo } from '../adapters/browser/recent';
// The registry is idb only: listing, stamping and registering never load isomorphic-git.
import * as registry from '../adapters/git/registry';
import type { RepoRecord } from '../adapters/git/registry';
import type { JobScope } from './edge';
import type {
  CloneRequest,
  GitAuth,
  GitJobStats,
  History,
  HistoryView,
  JobEnd,
  LibraryEntry,
  LibraryInfo,
  Progress,
} from './protocol';
import { indexStoreKey, libraryEntryKey, seedIndexStoreKey, type RepoSession } from './session';
import { listingStoreKey } from './stored-listing';
import { vectorStoreKey } from './semantic';
import { ONNX_VECTORS_SUFFIX } from '../core/semantic/index';
import { historyStoreKey } from './history-store-key';
import type { GitRepo } from '../adapters/git/blob-at';
import type { DirHandleLike } from '../adapters/git/fsa-fs';
import { slot } from '../core/workspace/root-state';

const gitModule = () => import('../adapters/git');
type GitModule = Awaited<ReturnType<typeof gitModule>>;

/** Git access to one root: its repository and where it came from. */
export interface RootRepo {
  repo: GitRepo;
  source: 'clone' | 'folder';
}

/**
 * A root's git access, made on first use and kept in the root's state (released when it
 * closes): one fs (a folder's directory handles) and one isomorphic-git cache of parsed
 * packfiles per root. Two roots over the same repository each make their own.
 */
const REPO = slot<RootRepo>('git repository');

/** git progress events are sent at most this often (isomorphic-git reports per object). */
const GIT_PROGRESS_MS = 100;

function authOf(auth: GitAuth | undefined): GitAuth {
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  return { token: str(auth?.token), username: str(auth?.username), corsProxy: str(auth?.corsProxy) };
}

async function hasGitDir(handle: FileSystemDirectoryHandle): Promise<boolean> {
  try {
    await handle.getDirectoryHandle('.git');
    return true;
  } catch {
    return false;
  }
}

/** A library record as the UI gets it: with the key its repository opens under. */
function entryOf(record: RepoRecord): LibraryEntry {
  return { ...record, key: libraryEntryKey(record) };
}

/** Where opened folders' handles are kept (Recent): IndexedDB in the browser; injected in tests. */
export interface FolderHandles {
  remember(handle: FileSystemDirectoryHandle): Promise<RecentRepo>;
  list(): Promise<RecentRepo[]>;
  forget(id: string): Promise<void>;
}

export const idbFolderHandles: FolderHandles = {
  remember: (h) => rememberRecent(h),
  list: listRecent,
  forget: forgetRecent,
};

export class GitService {
  /** The last opened folder's library registration (runs after its open completes). */
  private registration: Promise<void> = Promise.resolve();

  constructor(
    private readonly indexStore?: IndexStore,
    private readonly folders: FolderHandles = idbFolderHandles,
  ) {}

  /** A clone as a library record exists? (a link to a deleted clone is reported, not reopened) */
  async cloneSource(id: string, name: string) {
    const g = await gitModule();
    const record = await g.getRepo(String(id));
    if (!record || record.source !== 'clone') {
      throw new QuarryError(
        'NotFound',
        `"${id}" is not in the repository library (it may have been deleted): clone it again`,
        { id, reason: 'notInLibrary' },
      );
    }
    return g.gitFileSource(record.id, { name: record.name || name });
  }

  /** The library id of an opened folder ('recent:<id>'): the same folder keeps its id. Null when IndexedDB is unavailable. */
  async folderId(handle: FileSystemDirectoryHandle): Promise<string | null> {
    try {
      return `recent:${(await this.folders.remember(handle)).id}`;
    } catch {
      return null; // private mode: the folder still opens, it just is not remembered
    }
  }

  /** An opened folder joins the library (with its branch when it holds .git), in the background. */
  registerFolder(
    handle: FileSystemDirectoryHandle,
    id: string,
    name: string,
    fileCount: number,
    sizeBytes: number,
  ): void {
    this.registration = (async () => {
      let branch = '';
      let commit = '';
      if (await hasGitDir(handle)) {
        const g = await gitModule(); // only a folder with .git pays for isomorphic-git
        ({ branch, commit } = await g.folderGitInfo(
          handle as unknown as Parameters<typeof g.folderGitInfo>[0],
        ));
      }
      await registry.registerFolder({ id, name, fileCount, sizeBytes, branch, commit });
    })().catch(() => undefined);
  }

  async markIndexed(libraryId: string, at: number): Promise<void> {
    if (await registry.getRepo(libraryId)) await registry.updateRepo(libraryId, { lastIndexedAt: at });
  }

  private progress(scope: JobScope<never>) {
    let last = 0;
    return (p: { phase: string; loaded: number; total: number }) => {
      const t = now();
      if (t - last < GIT_PROGRESS_MS) return;
      last = t;
      const data: Progress = {
        phase: 'git',
        label: p.phase,
        files: p.loaded,
        totalFiles: p.total,
        bytes: 0,
        totalBytes: 0,
      };
      scope.events.send({ type: 'progress', data });
    };
  }

  /** A git job: a cancel ends it normally (ending 'cancelled', nothing registered); any other failure is thrown. */
  private async run(
    scope: JobScope<never>,
    body: (
      g: GitModule,
      signal: AbortSignal,
      onProgress: ReturnType<GitService['progress']>,
    ) => Promise<Partial<GitJobStats>>,
  ): Promise<JobEnd<never, GitJobStats>> {
    const t0 = now();
    const end = (
      ending: GitJobStats['ending'],
      stats: Partial<GitJobStats> = {},
    ): JobEnd<never, GitJobStats> => ({
      results: [],
      limitHit: false,
      skipped: [],
      stats: { elapsedMs: elapsedSince(t0), ending, repo: null, ...stats },
    });
    try {
      return end('complete', await body(await gitModule(), scope.signal, this.progress(scope)));
    } catch (err) {
      if (toQuarryError(err).code === 'Cancelled' && scope.signal.aborted) return end('cancelled');
      throw err;
    }
  }

  clone(scope: JobScope<never>, request: CloneRequest): Promise<JobEnd<never, GitJobStats>> {
    return this.run(scope, async (g, signal, onProgress) => {
      const depth =
        request?.depth === undefined || request?.depth === null ? undefined : Number(request.depth);
      const ref = typeof request?.ref === 'string' && request.ref.trim() ? request.ref.trim() : undefined;
      const repo = await g.cloneRepo({
        url: String(request?.url ?? '').trim(),
        ref,
        depth,
        ...authOf(request),
        signal,
        onProgress,
      });
      return { repo: entryOf(repo) };
    });
  }

  fetch(scope: JobScope<never>, id: string, auth: GitAuth): Promise<JobEnd<never, GitJobStats>> {
    return this.run(scope, async (g, signal, onProgress) => {
      const r = await g.fetchUpdates(String(id), { ...authOf(auth), signal, onProgress });
      // the stored listing describes the old checkout: the next open reads the clone afresh
      if (r.changedPaths.length || r.removedPaths.length)
        await this.indexStore?.remove?.(listingStoreKey(libraryEntryKey(r.record))).catch(() => undefined);
      return {
        repo: entryOf(r.record),
        changedPaths: r.changedPaths,
        removedPaths: r.removedPaths,
        previousCommit: r.previousCommit,
      };
    });
  }

  deepen(scope: JobScope<never>, id: string, by: number, auth: GitAuth): Promise<JobEnd<never, GitJobStats>> {
    return this.run(scope, async (g, signal, onProgress) => ({
      repo: entryOf(
        await g.deepenHistory(String(id), {
          by: Math.floor(Number(by)),
          ...authOf(auth),
          signal,
          onProgress,
        }),
      ),
    }));
  }

  /** Clones and opened folders with the storage they take (the Repositories dialog). */
  async library(): Promise<LibraryInfo> {
    const g = await gitModule();
    const [repos, storage] = await Promise.all([this.entries(), g.storageEstimate()]);
    return { repos, storage };
  }

  /** Opened folders whose handles Recent still has, most recently opened first (no git code is loaded). */
  async recentFolders(): Promise<LibraryEntry[]> {
    const all = await this.entries();
    return all
      .filter((e) => e.source === 'folder' && e.handle)
      .sort((a, b) => (b.openedAt ?? 0) - (a.openedAt ?? 0));
  }

  /** Clones and opened folders, newest first; an opened folder carries its handle while Recent still has it. */
  private async entries(): Promise<LibraryEntry[]> {
    await this.registration;
    const [repos, recent] = await Promise.all([registry.listRepos(), this.folders.list().catch(() => [])]);
    const handles = new Map(recent.map((r) => [`recent:${r.id}`, r]));
    const entries: LibraryEntry[] = repos.map((r) => {
      const h = r.source === 'folder' ? handles.get(r.id) : undefined;
      return h ? { ...entryOf(r), handle: h.handle, openedAt: h.openedAt } : entryOf(r);
    });
    // A folder opened while IndexedDB was busy may be in Recent without a record yet.
    for (const [id, h] of handles) {
      if (!entries.some((e) => e.id === id)) {
        entries.push({
          id,
          key: id,
          url: h.name,
          name: h.name,
          branch: '',
          commit: '',
          sizeBytes: 0,
          fileCount: 0,
          clonedAt: h.openedAt,
          lastFetchedAt: h.openedAt,
          source: 'folder',
          handle: h.handle,
          openedAt: h.openedAt,
        });
      }
    }
    return entries;
  }

  /** Remove a library entry: a clone's files, a folder's handle, and its stored code index. */
  async delete(id: string): Promise<boolean> {
    if (typeof id !== 'string' || !id)
      throw new QuarryError('InvalidArgument', 'id must be a non-empty string', { field: 'id' });
    const g = await gitModule();
    const record = await g.getRepo(id);
    if (id.startsWith('recent:'))
      await this.folders.forget(id.slice('recent:'.length)).catch(() => undefined);
    if (!record) return id.startsWith('recent:');
    await g.deleteRepo(id);
    await this.indexStore?.remove?.(indexStoreKey(libraryEntryKey(record))).catch(() => undefined);
    await this.indexStore?.remove?.(seedIndexStoreKey(libraryEntryKey(record))).catch(() => undefined);
    await this.indexStore?.remove?.(listingStoreKey(libraryEntryKey(record))).catch(() => undefined);
    await this.indexStore?.remove?.(vectorStoreKey(libraryEntryKey(record))).catch(() => undefined);
    await this.indexStore
      ?.remove?.(vectorStoreKey(libraryEntryKey(record)) + ONNX_VECTORS_SUFFIX)
      .catch(() => undefined);
    await this.indexStore?.remove?.(historyStoreKey(libraryEntryKey(record))).catch(() => undefined);
    return true;
  }

  /** Git access to a root for one file's diff, history and blame (file-git.ts); the reason when it has no git data. */
  async repoFor(session: RepoSession): Promise<RootRepo | { reason: string }> {
    const origin = session.origin;
    if (origin.kind === 'git') {
      const g = await gitModule();
      return session.state.getOrMake(REPO, () => ({
        source: 'clone',
        repo: { fs: g.gitStorage().fs, dir: g.repoDir(origin.id), cache: {}, name: session.name },
      }));
    }
    if (origin.kind === 'handle' && (await hasGitDir(origin.handle))) {
      const g = await gitModule();
      return session.state.getOrMake(REPO, () => ({
        source: 'folder',
        repo: {
          fs: g.fsAccessGitFs(origin.handle as unknown as DirHandleLike),
          dir: '/',
          cache: {},
          name: session.name,
        },
      }));
    }
    return { reason: noHistoryReason(session) };
  }

  /** A root's history; `prefix` (its root's name, with several roots) goes before every file path so the view opens the right file. */
  async history(session: RepoSession, limit: number, prefix = ''): Promise<HistoryView> {
    const origin = session.origin;
    const withPrefix = (h: History): History =>
      prefix
        ? {
            ...h,
            commits: h.commits.map((c) => ({
              ...c,
              changedFiles: c.changedFiles?.map((f) => ({ ...f, path: prefix + f.path })),
            })),
            uncommitted: h.uncommitted?.map((u) => ({ ...u, path: prefix + u.path })),
          }
        : h;
    if (origin.kind === 'git') {
      const g = await gitModule();
      return {
        available: true,
        source: 'clone',
        libraryId: origin.id,
        ...withPrefix(await g.repoHistory(origin.id, { depth: limit })),
      };
    }
    if (origin.kind === 'handle') {
      if (!(await hasGitDir(origin.handle))) return { available: false, reason: noHistoryReason(session) };
      const g = await gitModule();
      const fs = g.fsAccessGitFs(origin.handle as unknown as Parameters<typeof g.fsAccessGitFs>[0]);
      return {
        available: true,
        source: 'folder',
        ...withPrefix(await g.history(fs, '/', { depth: limit, includeUncommitted: true })),
      };
    }
    return { available: false, reason: noHistoryReason(session) };
  }
}

/** Why a root has no history to show (History's empty state). */
export function noHistoryReason(session: RepoSession): string {
  if (session.origin.kind === 'handle')
    return `${session.name} has no .git folder, so it has no history to show.`;
  return session.stats.kind === 'files'
    ? 'A folder chosen as a snapshot has no readable git data. Open it with "Open folder" (File System Access) to see its history.'
    : `${session.stats.kind === 'demo' ? 'The demo' : session.name} has no git history. Clone a repository to see its commits.`;
}
