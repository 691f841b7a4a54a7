/**
 * The open workspace's lifecycle, as a plain object (no React; unit-tested in Node): opening
 * and swapping repositories, adding and removing roots, the background index build, recovery
 * after an engine restart, restoring what the address names, cloning, and the notices a person
 * sees when something goes wrong. React reads it through useWorkspace(). A root opened from its
 * stored listing is reconciled with its folder in the background (reconcile.ts).
 *
 * The engine makes repository keys; this only reads them back (RepoStats.key, LibraryEntry.key)
 * and writes them to the address.
 */
import { toQuarryError } from '../../core/errors';
import type { CloneRequest, LibraryEntry, OpenSpec, ReconcileStats } from '../../worker/protocol';
import type { IndexUiState } from '../IndexStatusLine';
import { ProgressStore } from '../progress-store';
import { isCloneUrl, parseRepoKey, type RepoKeyRef, type ViewState } from '../url-state';
import { Reconciler } from './reconcile';
import {
  DEMO_TITLE,
  INITIAL_STATE,
  type Notice,
  type OpenOptions,
  type OpenRoot,
  type WorkspaceDeps,
  type WorkspaceState,
} from './types';

export * from './types';

const MAX_FOLDERS = 10;
export class WorkspaceController {
  private current: WorkspaceState = INITIAL_STATE;
  private listeners = new Set<() => void>();
  /** Running index builds: '' for every root, or one root's key (a root added beside the others). */
  private indexJobs = new Map<string, { cancel: () => void; force: boolean }>();
  /** The generation whose index build waits for the idle callback. */
  private pendingIndex: { generation: number; root: string; cancel: () => void } | null = null;
  readonly indexProgress = new ProgressStore();
  private started = false;
  /** The roots cleared from the screen while another repository opens (shown again if it fails). */
  private hidden: OpenRoot[] | null = null;
  private readonly reconciler: Reconciler;

  constructor(private readonly deps: WorkspaceDeps) {
    this.reconciler = new Reconciler(
      deps.engine,
      deps.whenIdle,
      (checking) => this.setIndex((prev) => (prev.checking === checking ? prev : { ...prev, checking })),
      (key, stats) => this.reconciled(key, stats),
    );
  }

  get state(): WorkspaceState {
    return this.current;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  private set(patch: Partial<WorkspaceState> | ((s: WorkspaceState) => Partial<WorkspaceState>)): void {
    const p = typeof patch === 'function' ? patch(this.current) : patch;
    this.current = { ...this.current, ...p };
    for (const l of this.listeners) l();
  }

  private setIndex(fn: (prev: IndexUiState) => IndexUiState): void {
    this.set((s) => ({ index: fn(s.index) }));
  }

  setNotice(notice: Notice | null): void {
    this.set({ notice });
  }

  // ---- opening -------------------------------------------------------------------------

  /**
   * Read a repository into the engine. Another repository (not a root added, not the same one
   * read again) leaves the screen at once; it comes back if the open is cancelled or fails (the
   * engine keeps it until the new one is complete).
   */
  async open(spec: OpenSpec, options: OpenOptions = {}): Promise<void> {
    const { engine, view } = this.deps;
    const name = spec.kind === 'demo' ? DEMO_TITLE : spec.name;
    const progress = new ProgressStore();
    const job = engine.openRepo(spec, { add: !!options.add }).onProgress((p) => progress.set(p));
    this.deps.mark?.('quarry:open-start');
    const shown = this.current.roots;
    const clears = !!options.resetFile && !options.add && shown.length > 0;
    if (clears) this.hidden = shown;
    this.set((s) => ({
      opening: { name, progress, cancel: job.cancel },
      notice: null,
      ...(clears ? { roots: [], generation: s.generation + 1 } : {}),
    }));
    let swapped = false;
    try {
      const end = await job.done;
      if (end.stats.ending !== 'complete') return; // cancelled: keep what was open
      swapped = true;
      this.deps.mark?.('quarry:open-read');
      if (clears) this.hidden = null;
      const infos = await engine.roots().catch(() => null);
      this.deps.mark?.('quarry:opened');
      const before = this.current.roots;
      const opened: OpenRoot = {
        key: end.stats.key,
        name: end.stats.root,
        stats: end.stats,
        spec,
        clone: options.clone,
      };
      // the UI's roots are the engine's, in its order, with its names (when it cannot say: the same rule here)
      const roots = infos
        ? infos.flatMap((i) =>
            i.key === opened.key
              ? [{ ...opened, name: i.name }]
              : before.filter((r) => r.key === i.key).map((r) => ({ ...r, name: i.name })),
          )
        : options.add
          ? before.some((r) => r.key === opened.key)
            ? before.map((r) => (r.key === opened.key ? opened : r))
            : [...before, opened]
          : [opened];
      // A transition: React renders the new workspace in time slices instead of one long task.
      // Every state change of the swap is in it: one outside would re-render the shell at once.
      this.transition(() => {
        const cur = view.get();
        const patch: Partial<ViewState> = { repos: roots.map((r) => r.key), ...this.cloneParams(roots) };
        if (options.resetFile) Object.assign(patch, { file: '', line: 0 });
        else if (options.add && !options.restoring && cur.file && before.length === 1 && roots.length > 1)
          patch.file = `${roots[0].name}/${cur.file}`; // paths gain their root's name
        view.update(patch, { push: options.resetFile });
        // A new workspace: the previous builds stop now (their answer must never land on it). An
        // added root: the other roots' indexes are left alone and only the new one is built.
        if (!options.add) this.cancelIndexJobs();
        else this.indexJobs.get(opened.key)?.cancel();
        this.reconciler.cancel(options.add ? opened.key : undefined);
        const generation = this.current.generation + 1;
        this.set((s) => ({
          roots,
          generation,
          opening: null,
          index: { ...s.index, state: 'building', error: undefined, last: options.add ? s.index.last : null },
        }));
        this.scheduleIndex(generation, options.add ? opened.key : '');
        // opened from its stored listing: read the folder again in the background and compare
        if (end.stats.fromListing) this.reconciler.start(opened.key);
      });
      if (spec.kind === 'handle') void this.refreshFolders();
    } catch (err) {
      const e = toQuarryError(err);
      if (e.code === 'EngineRestarted') return; // the restart handler reopens
      this.set({ notice: { kind: 'error', title: `Could not open ${name}`, message: e.message } });
    } finally {
      if (!swapped) {
        // what was open comes back (the engine still holds it)
        const back = clears && this.hidden === shown;
        if (back) this.hidden = null;
        this.set((s) =>
          back && !s.roots.length
            ? { opening: null, roots: shown, generation: s.generation + 1 }
            : { opening: null },
        );
      }
    }
  }

  /**
   * A root opened from its stored listing was compared with its folder: its figures are the
   * folder's now; when anything changed, every view asks again (the tree, the open file, a search
   * answered from the listing) and the index refreshes what changed (incremental).
   */
  private reconciled(key: string, stats: ReconcileStats): void {
    if (!this.current.roots.some((r) => r.key === key)) return;
    const changed = stats.changed + stats.added + stats.removed > 0 || stats.skippedChanged;
    this.set((s) => ({
      roots: s.roots.map((r) => (r.key === key && stats.stats ? { ...r, stats: stats.stats } : r)),
      ...(changed ? { generation: s.generation + 1 } : {}),
    }));
    this.deps.mark?.('quarry:reconciled');
    if (changed) this.buildIndex(false, this.current.roots.length > 1 ? key : '');
  }

  private transition(fn: () => void): void {
    if (this.deps.transition) this.deps.transition(fn);
    else fn();
  }

  /** The first clone root's URL and ref go into the address, so a shared link can offer to clone it. */
  private cloneParams(roots: OpenRoot[]): Pick<ViewState, 'clone' | 'cref'> {
    const c = roots.find((r) => r.clone)?.clone;
    return { clone: c?.url ?? '', cref: c?.ref ?? '' };
  }

  /** Remove one root; the others stay open with their indexes. */
  async closeRoot(key: string): Promise<void> {
    const { engine, view } = this.deps;
    const before = this.current.roots;
    if (before.length < 2 || !before.some((r) => r.key === key)) return;
    // its build (running or about to start) and its reconcile go with it
    this.reconciler.cancel(key);
    this.indexJobs.get(key)?.cancel();
    this.indexJobs.delete(key);
    if (this.pendingIndex?.root === key) {
      this.pendingIndex.cancel();
      this.pendingIndex = null;
    }
    await engine.closeRoot(key);
    const infos = await engine.roots().catch(() => null);
    const gone = before.find((r) => r.key === key)!;
    const roots = before
      .filter((r) => r.key !== key)
      .map((r) => ({ ...r, name: infos?.find((i) => i.key === r.key)?.name ?? r.name }));
    const cur = view.get();
    const patch: Partial<ViewState> = { repos: roots.map((r) => r.key), ...this.cloneParams(roots) };
    if (cur.file.startsWith(`${gone.name}/`)) Object.assign(patch, { file: '', line: 0 });
    else {
      // the open file's root may be renamed (a repeated name's '-2' goes), or lose its prefix (one root left)
      const owner = before.find((r) => r.key !== key && cur.file.startsWith(`${r.name}/`));
      const now = owner && roots.find((r) => r.key === owner.key);
      if (owner && now)
        patch.file = (roots.length > 1 ? `${now.name}/` : '') + cur.file.slice(owner.name.length + 1);
    }
    if (!this.indexJobs.size && !this.pendingIndex && this.current.index.state === 'building')
      this.setIndex((prev) => ({ ...prev, state: prev.last ? 'ready' : 'none' }));
    view.update(patch, { push: true });
    this.set((s) => ({ roots, generation: s.generation + 1 }));
  }

  openDemo(options: OpenOptions = {}): Promise<void> {
    return this.open({ kind: 'demo' }, { resetFile: this.resetsFile('demo', options), ...options });
  }

  openHandle(handle: FileSystemDirectoryHandle, options: OpenOptions = {}): Promise<void> {
    return this.open({ kind: 'handle', name: handle.name, handle }, { resetFile: !options.add, ...options });
  }

  /** An opened folder from the library (Recent): its handle needs read permission again after a reload. */
  async openFolder(
    entry: LibraryEntry,
    requestPermission: boolean,
    options: OpenOptions = {},
  ): Promise<void> {
    if (!entry.handle) {
      this.set({
        notice: {
          kind: 'error',
          title: `${entry.name} is not in Recent any more`,
          message: 'Open the folder again with "Open folder".',
        },
      });
      return;
    }
    const granted = this.deps.ensureReadPermission
      ? await this.deps.ensureReadPermission(entry.handle, requestPermission).catch(() => false)
      : true;
    if (!granted) {
      this.set({ notice: { kind: 'permission', folder: entry } });
      return;
    }
    await this.open(
      { kind: 'handle', name: entry.name, handle: entry.handle },
      { resetFile: this.resetsFile(entry.key, options), ...options },
    );
  }

  /** Open a clone from the library (its URL and ref go into the address, so the link can be shared). */
  openClone(entry: LibraryEntry, options: OpenOptions = {}): Promise<void> {
    return this.open(
      { kind: 'git', id: entry.id, name: entry.name },
      {
        resetFile: this.resetsFile(entry.key, options) && !this.deps.view.get().repos.includes(entry.key),
        clone: { url: entry.url, ref: entry.ref ?? '' },
        ...options,
      },
    );
  }

  openLibraryEntry(entry: LibraryEntry, options: OpenOptions = {}): Promise<void> {
    return entry.source === 'clone' ? this.openClone(entry, options) : this.openFolder(entry, true, options);
  }

  openSnapshot(
    name: string,
    files: Extract<OpenSpec, { kind: 'files' }>['files'],
    options: OpenOptions = {},
  ): Promise<void> {
    return this.open({ kind: 'files', name, files }, { resetFile: !options.add, ...options });
  }

  /** Opening a different repository (not adding one) closes the open file. */
  private resetsFile(key: string, options: OpenOptions): boolean {
    const roots = this.current.roots;
    return !options.add && roots.length > 0 && !(roots.length === 1 && roots[0].key === key);
  }

  /** Read every root again (Refresh): the index refresh then re-indexes only what changed. */
  async refresh(): Promise<void> {
    const roots = this.current.roots;
    for (let i = 0; i < roots.length; i++)
      await this.open(roots[i].spec, { add: i > 0 || roots.length > 1, clone: roots[i].clone });
  }

  /** After an engine restart the new engine is empty: read every root again. */
  async recover(): Promise<void> {
    this.pendingIndex?.cancel();
    this.pendingIndex = null; // the reopen schedules the build again, on the new engine
    this.reconciler.cancel();
    // roots cleared from the screen by an open the restart interrupted are the engine's still
    const roots = this.current.roots.length ? this.current.roots : (this.hidden ?? []);
    this.hidden = null;
    for (const root of roots) {
      // the first root that opens again replaces the workspace; the rest join it
      const engineHasRoots = (await this.deps.engine.roots().catch(() => [])).length > 0;
      await this.open(root.spec, { add: engineHasRoots, clone: root.clone, restoring: true });
    }
  }

  // ---- restoring the address -----------------------------------------------------------------

  /** First load: open what the address names (every root, in order), or the demo on a first visit; read Recent. */
  async restore(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.deps.mark?.('quarry:restore');
    const view = this.deps.view.get();
    const served = this.deps.servedRoot ?? null;
    const keys = view.repos.length ? view.repos : ['demo'];
    // Recent, read once: for the top bar, and for the folders the address names
    const folders = this.refreshFolders();
    let library: LibraryEntry[] | null = null;
    const lib = async () => (library ??= (await this.deps.engine.library()).repos);
    // The first problem is the one shown (the next root's open would clear it otherwise).
    let noticed: Notice | null = null;
    const note = (n: Notice) => {
      noticed ??= n;
      this.set({ notice: noticed });
    };
    for (let i = 0; i < keys.length; i++) {
      // a first visit opens the served folder, when the page names one, instead of the demo
      const ref: RepoKeyRef =
        !view.repos.length && served !== null ? { kind: 'served', name: served } : parseRepoKey(keys[i]);
      const add = i > 0 && this.current.roots.length > 0;
      const restoring = true;
      try {
        if (ref.kind === 'demo') await this.open({ kind: 'demo' }, { add, restoring });
        else if (ref.kind === 'none')
          continue; // nothing to open: the home screen says what can be
        else if (ref.kind === 'git') {
          const entry = (await lib()).find((r) => r.id === ref.id && r.source === 'clone');
          if (entry) await this.openClone(entry, { add, restoring });
          // the address carries the first clone root's URL only
          else if (view.clone && keys.findIndex((k) => parseRepoKey(k).kind === 'git') === i)
            note(
              isCloneUrl(view.clone)
                ? { kind: 'clone-offer', url: view.clone, ref: view.cref }
                : {
                    kind: 'error',
                    title: 'This link cannot be cloned',
                    message: `Its repository address is not an http(s) URL: ${view.clone}`,
                  },
            );
          else
            note({
              kind: 'error',
              title: 'This repository is not in the library',
              message: 'It may have been deleted. Clone it again from Repositories.',
            });
        } else if (ref.kind === 'folder') {
          await folders;
          this.deps.mark?.('quarry:recent-read');
          const entry = this.current.folders.find((r) => r.key === ref.id);
          if (entry?.handle) await this.openFolder(entry, false, { add, restoring });
          else
            note({
              kind: 'error',
              title: 'This folder is not in Recent any more',
              message: 'Open the folder again with "Open folder".',
            });
        } else if (ref.kind === 'served') {
          // only the page's own tag opens it: without one the app asks no server for anything
          if (served !== null)
            await this.open(
              { kind: 'served', name: served },
              { add, restoring, resetFile: ref.name !== served },
            );
          else
            note({
              kind: 'error',
              title: `${ref.name} is not served here`,
              message: 'Run quarry serve --root again and open the address it prints.',
            });
        } else if (ref.kind === 'snapshot') note({ kind: 'snapshot-lost', name: ref.name });
        else
          note({
            kind: 'error',
            title: 'This link names no repository Quarry knows',
            message: `"${ref.key}" is not a repository key. Open a folder or the demo.`,
          });
      } catch (err) {
        note({
          kind: 'error',
          title: 'The repository library is unavailable',
          message: toQuarryError(err).message,
        });
      }
    }
    if (noticed) this.set({ notice: noticed });
  }

  // ---- the library -----------------------------------------------------------------------

  async refreshFolders(): Promise<void> {
    try {
      this.set({ folders: (await this.deps.engine.recentFolders()).slice(0, MAX_FOLDERS) });
    } catch {
      this.set({ folders: [] });
    }
  }

  /**
   * Clone in the worker. When the clone is in, it opens; a failure is kept in `cloneError` (the
   * dialog shows it, also after being closed and reopened). Returns whether it opened.
   */
  async startClone(
    request: CloneRequest,
    options: OpenOptions & { announceFailure?: () => boolean } = {},
  ): Promise<boolean> {
    const progress = new ProgressStore();
    const job = this.deps.engine.cloneRepo(request).onProgress((p) => progress.set(p));
    this.set({ cloning: { url: request.url, progress, cancel: job.cancel }, cloneError: null });
    try {
      const end = await job.done;
      this.set({ cloning: null });
      if (end.stats.ending !== 'complete' || !end.stats.repo) return false;
      // a clone offered by a link to several roots joins the roots restored from it
      const add =
        options.add ??
        (this.current.roots.length > 0 && this.deps.view.get().repos.includes(end.stats.repo.key));
      void this.openClone(end.stats.repo, { add, restoring: add });
      return true;
    } catch (err) {
      const e = toQuarryError(err);
      this.set({ cloning: null, cloneError: e });
      if (options.announceFailure?.())
        this.set({ notice: { kind: 'error', title: `Could not clone ${request.url}`, message: e.message } });
      return false;
    }
  }

  /** After a fetch: read the updated working tree again (the index refresh is then incremental). */
  onFetched(entry: LibraryEntry): void {
    const root = this.current.roots.find((r) => r.key === entry.key);
    if (root)
      void this.open(root.spec, {
        add: this.current.roots.length > 1,
        clone: { url: entry.url, ref: entry.ref ?? '' },
      });
  }

  /** A deleted library entry: its root closes (the demo opens when it was the only one). */
  onDeleted(entry: LibraryEntry): void {
    void this.refreshFolders();
    if (!this.current.roots.some((r) => r.key === entry.key)) return;
    if (this.current.roots.length > 1) void this.closeRoot(entry.key);
    else void this.openDemo();
  }

  // ---- the code index ----------------------------------------------------------------------

  /** The index build of a new workspace waits until the main thread is idle after the swap. */
  private scheduleIndex(generation: number, root: string): void {
    const pending = this.pendingIndex;
    pending?.cancel();
    // two roots waiting to start become one build of every root
    const what = pending && pending.root !== root ? '' : root;
    const start = () => {
      if (this.pendingIndex?.generation !== generation) return;
      this.pendingIndex = null;
      this.deps.mark?.('quarry:index-start');
      this.buildIndex(false, what);
    };
    const cancel = this.deps.whenIdle ? this.deps.whenIdle(start) : (queueMicrotask(start), () => {});
    this.pendingIndex = { generation, root: what, cancel };
  }

  private cancelIndexJobs(): void {
    for (const job of this.indexJobs.values()) job.cancel();
    this.indexJobs.clear();
  }

  /**
   * Build or refresh the code index in the background: of every root (`root` ''), or of one root
   * (the engine loads each root's stored index and re-indexes only what changed). Search scans
   * meanwhile. A build of every root replaces every running build; a root's replaces that root's.
   */
  buildIndex(force = false, root = ''): void {
    // a build that replaces a forced one (the person's Rebuild) stays forced: a reconcile that
    // finds a change meanwhile must not turn the rebuild into a refresh of the stored index
    const replaced = root ? [this.indexJobs.get(root)] : [...this.indexJobs.values()];
    force ||= replaced.some((job) => job?.force);
    if (root) this.indexJobs.get(root)?.cancel();
    else this.cancelIndexJobs();
    if (!root || this.pendingIndex?.root === root) {
      this.pendingIndex?.cancel();
      this.pendingIndex = null; // a rebuild asked for meanwhile replaces the deferred start
    }
    this.indexProgress.value = null;
    const job = this.deps.engine
      .indexRepo(root ? { force, root } : { force })
      .onProgress((p) => this.indexProgress.set(p));
    const mine = { cancel: job.cancel, force };
    this.indexJobs.set(root, mine);
    this.setIndex((prev) => ({ ...prev, state: 'building', error: undefined }));
    const ended = () => {
      if (this.indexJobs.get(root) !== mine) return false;
      this.indexJobs.delete(root);
      return true;
    };
    const stillBuilding = () => this.indexJobs.size > 0 || !!this.pendingIndex;
    const wake = () => this.reconciler.indexEnded();
    job.done.then(
      async (end) => {
        if (!ended()) return;
        wake();
        if (end.stats.ending !== 'complete') {
          if (!stillBuilding())
            this.setIndex((prev) => ({ ...prev, state: prev.last ? 'ready' : 'cancelled' }));
          return;
        }
        // with several roots, the status line sums every root's index
        const last =
          this.current.roots.length > 1
            ? ((await this.deps.engine.indexStatus().catch(() => null))?.last ?? end.stats)
            : end.stats;
        this.setIndex((prev) => ({
          state: stillBuilding() ? 'building' : 'ready',
          last,
          version: prev.version + 1,
          checking: prev.checking, // a reconcile goes on after the index
        }));
      },
      (err) => {
        if (!ended()) return;
        wake();
        const e = toQuarryError(err);
        if (e.code === 'EngineRestarted') return;
        this.setIndex((prev) => ({ ...prev, state: 'failed', error: e.message }));
      },
    );
  }

  cancelIndex(): void {
    // each cancelled build still ends (ending 'cancelled') and updates the status itself
    for (const job of this.indexJobs.values()) job.cancel();
    if (this.pendingIndex) {
      // cancelled before its deferred start: nothing runs yet, so say so here
      this.pendingIndex.cancel();
      this.pendingIndex = null;
      if (!this.indexJobs.size)
        this.setIndex((prev) => ({ ...prev, state: prev.last ? 'ready' : 'cancelled' }));
    }
  }

  /** Whether Ranked and Related can answer (a refresh may run on top of a complete index). */
  get indexReady(): boolean {
    const i = this.current.index;
    return i.state === 'ready' || (i.state === 'building' && !!i.last);
  }
}
