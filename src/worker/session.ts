/**
 * One open repository: a RepoSession owns everything about one root — its key (derived from
 * where it came from, never chosen by the UI), its snapshot, file tree, quick-open list,
 * skipped list, and its code index (build, cancel, refresh, persistence under the key).
 * The engine holds a list of sessions (several roots); each is built, indexed and dropped on
 * its own.
 */
import type { FileChunker } from '../core/chunk/pool';
import { QuarryError, toQuarryError } from '../core/errors';
import { compileRequest, scanLines } from '../core/grep/search';
import type { HitRange } from '../core/grep/types';
import { createBackgroundYielder, elapsedSince, now, type Foreground } from '../core/jobs/yielder';
import type { ChunkIndex } from '../core/rank/bm25';
import { splitLinesForIndex } from '../core/rank/lines';
import { forgivingStore, type IndexStore } from '../core/rank/persist';
import { CodeIndexService, type RefreshStats } from '../core/rank/service';
import type { HeldStats } from '../core/source/held-contents';
import { CodebaseIndexService } from '../core/codebase-index/service';
import type { FileSource } from '../core/source/types';
import { diffListings, listingChanged, type ListedFile, type ListingDiff } from '../core/workspace/reconcile';
import { Workspace } from '../core/source/workspace';
import type { WorkspaceRoot } from '../core/workspace/root';
import { RootState } from '../core/workspace/root-state';
import { decodeBytes } from '../core/walk/decode';
import type { Skipped } from '../core/walk/policy';
import { errorJSON } from './edge';
import { preparePath, type PreparedPath } from '../core/nav/fuzzy';
import type {
  FileContent,
  FileHighlight,
  IndexStats,
  IndexStatus,
  JobEnd,
  Progress,
  RepoStats,
  TreeEntry,
} from './protocol';
import { FileTree, type Snapshot } from './snapshot';
import {
  listingStats,
  ListingSource,
  snapshotFiles,
  SwitchingSource,
  type StoredListing,
} from './stored-listing';

export { indexStoreKey, libraryEntryKey, repoKey, seedIndexStoreKey, type RepoOrigin } from './repo-keys';
import { indexStoreKey, seedIndexStoreKey, type RepoOrigin } from './repo-keys';

/** Per-file hit lines returned to the viewer. */
const MAX_VIEWER_HIT_LINES = 100_000;
/** The reasons a build gives for files it keeps out of the ranked index (the walk's own skips are the snapshot's). */
const INDEX_SKIP_REASONS: ReadonlySet<string> = new Set([
  'minified',
  'generated',
  'parseFailed',
  'indexBudget',
]);

/** Skipped entries returned with a job's end; the rest are paged with skipped(). */
export const SKIPPED_IN_END = 200;

export interface SessionDeps {
  getChunker: () => Promise<FileChunker>;
  indexStore?: IndexStore;
  foreground: Foreground;
  yieldBudgetMs?: number;
  progressIntervalMs: number;
  /** Called when an index build completes (the library stamps lastIndexedAt). */
  onIndexed?: (session: RepoSession, builtAt: number) => Promise<void>;
  /** The index text budget (default INDEX_MAX_TEXT_BYTES; tests make it small). */
  indexMaxTextBytes?: number;
  /**
   * Hold the indexed files' bytes in the index (a number: the budget in bytes). Default false: a
   * session's files are already in memory once its snapshot is read (snapshot.ts), and a second
   * copy would only double the memory; hosts whose roots read from disk turn it on.
   */
  holdContents?: boolean | number;
}

interface IndexHolder {
  service: CodeIndexService;
  ready: boolean;
  /** The text index is complete (a full build publishes it before the chunk index). */
  textReady: boolean;
  saveError?: string;
}

export class RepoSession implements WorkspaceRoot {
  /** What services keep for this root (vectors, symbol table, history), released on close. */
  readonly state = new RootState();
  readonly workspace: Workspace;
  /** The listing's or the snapshot's (the reconcile switches it: listing.ts). */
  readonly source: SwitchingSource;
  tree: FileTree;
  quick: PreparedPath[];
  /** Text files, sorted, with the stamps their copies carry (what is stored as the listing). */
  files: ListedFile[];
  /**
   * Opened from its stored listing: the folder (`raw`) is still to be read and compared with it
   * (reconcileFolder). Null once the session holds a complete snapshot.
   */
  pendingReconcile: FileSource | null = null;
  indexStatus: IndexStatus = { state: 'none', last: null };
  private index: IndexHolder | null = null;
  /** The running build (one at a time per session); closing the session stops it. */
  private build: { controller: AbortController; done: Promise<unknown> } | null = null;
  private closed = false;

  constructor(
    readonly key: string,
    readonly origin: RepoOrigin,
    source: FileSource,
    public skipped: Skipped[],
    public stats: RepoStats,
    files: ListedFile[],
    private readonly deps: SessionDeps,
  ) {
    this.source = new SwitchingSource(source);
    this.workspace = new Workspace([this.source]);
    this.files = files;
    const paths = files.map((f) => f[0]);
    this.tree = new FileTree(paths, skipped);
    this.quick = paths.map(preparePath);
  }

  static fromSnapshot(key: string, origin: RepoOrigin, snap: Snapshot, deps: SessionDeps): RepoSession {
    const session = new RepoSession(
      key,
      origin,
      snap.source,
      snap.skipped,
      { ...snap.stats, key, root: snap.stats.name },
      snapshotFiles(snap),
      deps,
    );
    session.raw = snap.raw ?? null;
    return session;
  }

  /**
   * A session from its stored listing: the tree, quick open and the stored index answer at once,
   * each file's bytes are read from the folder when asked, and the folder is still to be
   * reconciled (pendingReconcile).
   */
  static fromListing(
    key: string,
    origin: RepoOrigin,
    listing: StoredListing,
    raw: FileSource,
    deps: SessionDeps,
    elapsedMs: number,
  ): RepoSession {
    const stats = listingStats(listing, raw.name, key, elapsedMs);
    const session = new RepoSession(
      key,
      origin,
      new ListingSource(listing.files, raw),
      listing.skipped,
      stats,
      listing.files,
      deps,
    );
    session.raw = raw;
    session.pendingReconcile = raw;
    return session;
  }

  /** What is stored as this session's listing. */
  listing(): Omit<StoredListing, 'version'> {
    return {
      name: this.stats.name,
      kind: this.stats.kind,
      files: this.files,
      skipped: this.skipped,
      bytes: this.stats.bytes,
    };
  }

  /**
   * The folder read again (the reconcile): the session now answers from the fresh snapshot, its
   * tree and quick open from what the folder holds; returns what differs from the listing. The
   * index is not touched: its refresh (incremental) compares the same stamps.
   */
  applySnapshot(snap: Snapshot): ListingDiff {
    const files = snapshotFiles(snap);
    const diff = diffListings({ files: this.files, skipped: this.skipped }, { files, skipped: snap.skipped });
    if (diff.changed.length || diff.added.length || diff.removed.length) {
      this.filesVersion++;
      this.indexBehind = true;
    }
    this.source.target = snap.source;
    this.raw = snap.raw ?? this.raw;
    this.pendingReconcile = null;
    this.skipped = snap.skipped;
    this.files = files;
    this.stats = { ...snap.stats, key: this.key, root: this.stats.root };
    if (listingChanged(diff)) {
      this.tree = new FileTree(snap.textFiles, snap.skipped);
      this.quick = snap.textFiles.map(preparePath);
    }
    return diff;
  }

  /** The source the snapshot was read from: readBytes reads the files the walk kept out as binary (images) from it. */
  raw: FileSource | null = null;

  get name(): string {
    return this.stats.name;
  }

  /** The library id of this repository, if it has an entry. */
  get libraryId(): string | undefined {
    return this.origin.kind === 'git'
      ? this.origin.id
      : this.origin.kind === 'handle'
        ? this.origin.libraryId
        : undefined;
  }

  /**
   * Files the last complete index build kept out of the ranked index, with why (minified,
   * generated, parser failed, over the budget): the skipped dialog lists them after the walk's.
   */
  indexSkipped: Skipped[] = [];

  listDir(dir: string): TreeEntry[] {
    return this.tree.list(dir);
  }

  async readFile(path: string, highlight?: FileHighlight): Promise<FileContent> {
    const skip = this.skipped.find((s) => s.path === path);
    if (skip) {
      throw new QuarryError(
        'Unreadable',
        `"${path}" was not loaded: ${skip.reason}${skip.detail ? ` (${skip.detail})` : ''}`,
        { path, reason: skip.reason },
      );
    }
    const stat = await this.source.stat(path);
    if (!stat || stat.kind !== 'file') throw new QuarryError('NotFound', `No such file: ${path}`, { path });
    const bytes = await this.source.read(path);
    const decoded = decodeBytes(bytes);
    if (decoded.binary)
      throw new QuarryError('Unreadable', `"${path}" is a binary file`, { path, reason: 'binary' });
    const text = decoded.text;
    let lineCount = 1;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineCount++;
    if (text.endsWith('\n')) lineCount--;
    const content: FileContent = {
      path,
      text,
      lineCount: Math.max(lineCount, 1),
      encoding: decoded.encoding,
      bytes: bytes.byteLength,
      hits: [],
    };
    if (highlight && highlight.pattern) {
      try {
        const { matcher } = compileRequest({
          pattern: highlight.pattern,
          mode: highlight.mode,
          caseMode: highlight.caseMode,
          wholeWord: highlight.wholeWord,
        });
        scanLines(text, matcher, (h) => {
          content.hits.push([h.line, h.ranges as HitRange[]]);
          return content.hits.length < MAX_VIEWER_HIT_LINES;
        });
      } catch (err) {
        content.highlightError = errorJSON(err);
      }
    }
    return content;
  }

  /**
   * A file's bytes as they are (the viewer's images): a text file from the snapshot, a file the
   * walk skipped as binary or too large from the source it came from. Refused over `maxBytes`,
   * before reading when the size is known.
   */
  async readBytes(path: string, maxBytes: number): Promise<Uint8Array> {
    const skip = this.skipped.find((s) => s.path === path);
    if (skip && skip.reason !== 'binary' && skip.reason !== 'tooLarge') {
      throw new QuarryError(
        'Unreadable',
        `"${path}" was not loaded: ${skip.reason}${skip.detail ? ` (${skip.detail})` : ''}`,
        { path, reason: skip.reason },
      );
    }
    const source: FileSource | null = skip ? this.raw : this.source;
    if (!source)
      throw new QuarryError('Unreadable', `"${path}" cannot be read: its folder is no longer available`, {
        path,
        reason: 'unreadable',
      });
    const tooLarge = (size: number) =>
      new QuarryError(
        'Unreadable',
        `"${path}" is ${formatMiB(size)}: files over ${formatMiB(maxBytes)} are not shown`,
        {
          path,
          reason: 'tooLarge',
          bytes: size,
          limit: maxBytes,
        },
      );
    const stat = await source.stat(path);
    if (!stat || stat.kind !== 'file') throw new QuarryError('NotFound', `No such file: ${path}`, { path });
    if (stat.size > maxBytes) throw tooLarge(stat.size);
    const bytes = await source.read(path);
    if (bytes.byteLength > maxBytes) throw tooLarge(bytes.byteLength);
    return bytes;
  }

  /** A file's lines as the index split them (null when it cannot be read as text). */
  async fileLines(path: string, cache?: Map<string, string[] | null>): Promise<string[] | null> {
    if (cache?.has(path)) return cache.get(path)!;
    let lines: string[] | null = null;
    try {
      const decoded = decodeBytes(await this.source.read(path));
      if (!decoded.binary) lines = splitLinesForIndex(decoded.text);
    } catch {
      lines = null;
    }
    cache?.set(path, lines);
    return lines;
  }

  /** Whether a complete index answers (a refresh may be running on top of it). */
  get indexReady(): boolean {
    return !!this.index?.ready;
  }

  /** WorkspaceRoot: the complete code index answers at once. */
  get codeIndexReady(): boolean {
    return this.indexReady;
  }

  /** WorkspaceRoot: the complete code index (the background build makes it; NotFound 'indexNotReady' until then). */
  async codeIndex(): Promise<ChunkIndex> {
    return this.readyIndex().index;
  }

  /** WorkspaceRoot: a file's lines as the index split them. */
  lines(path: string): Promise<string[] | null> {
    return this.fileLines(path);
  }

  /**
   * The trigram prefilter for searches, once this session's index is complete and describes the
   * files it holds: after a reconcile changed them, searches scan until the index has caught up
   * (an index of the old files would miss an added file, or answer from a changed one's old text).
   */
  prefilter() {
    if (this.indexBehind) return undefined;
    return this.index?.ready || this.index?.textReady ? this.index.service.prefilter() : undefined;
  }

  /** Bumped when the reconcile switches the session to other files: a build of older ones does not catch up. */
  private filesVersion = 0;
  /** The files changed since the index was last refreshed (a reconcile found changes). */
  private indexBehind = false;

  /** The complete index, or a NotFound with reason 'indexNotReady'. */
  readyIndex(): { service: CodeIndexService; index: ChunkIndex } {
    const state = this.index;
    if (!state || !state.ready || !state.service.index) {
      throw new QuarryError(
        'NotFound',
        'The code index is not ready yet: it is being built in the background',
        { reason: 'indexNotReady' },
      );
    }
    return { service: state.service, index: state.service.index };
  }

  private seed: CodebaseIndexService | null = null;

  /**
   * For codebase_search and find_related: this session's seed-004 index, built on first use
   * (stored under its own key) and current afterwards: the snapshot does not change while open.
   */
  async seedIndex(signal?: AbortSignal): Promise<{ service: CodebaseIndexService; stats: RefreshStats }> {
    if (this.closed) throw new QuarryError('Cancelled', `${this.name} was closed`);
    // a failed save (storage full) leaves the index working for this session, as for Quarry's own
    const store = this.deps.indexStore ? forgivingStore(this.deps.indexStore, () => undefined) : undefined;
    this.seed ??= new CodebaseIndexService(this.workspace, store, seedIndexStoreKey(this.key));
    const yielder = createBackgroundYielder(this.deps.foreground, {
      yieldBudgetMs: this.deps.yieldBudgetMs,
      signal,
    });
    return { service: this.seed, stats: await this.seed.refresh({ signal, yielder }) };
  }

  /**
   * Build or refresh this session's code index (stored under its own key). A build already
   * running for this session is cancelled first; closing the session cancels it too. A
   * cancelled or failed build leaves the previous index.
   */
  async buildIndex(
    options: { signal?: AbortSignal; force?: boolean; onProgress?: (p: Progress) => void } = {},
  ): Promise<JobEnd<never, IndexStats>> {
    if (this.closed) throw new QuarryError('Cancelled', `${this.name} was closed`);
    this.build?.controller.abort();
    this.holding?.abort();
    const controller = new AbortController();
    const signal = options.signal ? anySignal([options.signal, controller.signal]) : controller.signal;
    const entry: { controller: AbortController; done: Promise<JobEnd<never, IndexStats>> } = {
      controller,
      done: Promise.resolve(null as never),
    };
    this.build = entry;
    const done = this.runBuild(
      signal,
      !!options.force,
      options.onProgress ?? (() => {}),
      () => this.build === entry,
    );
    entry.done = done;
    try {
      return await done;
    } finally {
      if (this.build === entry) this.build = null;
    }
  }

  /** The running build's progress sink (the service is made once, its builds come and go). */
  private buildProgress: (p: Progress) => void = () => {};

  private holder(): IndexHolder {
    if (this.index) return this.index;
    const holder = { ready: false, textReady: false } as IndexHolder;
    const store = this.deps.indexStore
      ? forgivingStore(this.deps.indexStore, (m) => (holder.saveError = m))
      : undefined;
    holder.service = new CodeIndexService(
      this.workspace,
      async () => {
        this.buildProgress({ phase: 'grammars', files: 0, totalFiles: 0, bytes: 0, totalBytes: 0 });
        return this.deps.getChunker();
      },
      store,
      indexStoreKey(this.key),
      {
        ...(this.deps.indexMaxTextBytes === undefined ? {} : { maxTextBytes: this.deps.indexMaxTextBytes }),
        holdContents: this.deps.holdContents ?? false,
      },
    );
    this.index = holder;
    return holder;
  }

  /** `current`: whether this build is still the session's latest (a superseded one leaves the status alone). */
  private async runBuild(
    signal: AbortSignal,
    force: boolean,
    onProgress: (p: Progress) => void,
    current: () => boolean,
  ): Promise<JobEnd<never, IndexStats>> {
    const t0 = now();
    const filesVersion = this.filesVersion;
    if (current()) this.buildProgress = onProgress;
    const state = this.holder();
    state.saveError = undefined;
    this.indexStatus = { ...this.indexStatus, state: 'building', error: undefined };
    try {
      let lastSent = 0;
      const stats = await state.service.refresh({
        signal,
        yielder: createBackgroundYielder(this.deps.foreground, {
          yieldBudgetMs: this.deps.yieldBudgetMs,
          signal,
        }),
        force,
        onTextReady: () => {
          state.textReady = true;
          onProgress({ phase: 'parsing', files: 0, totalFiles: 0, bytes: 0, totalBytes: 0 });
        },
        onProgress: (p) => {
          const t = now();
          if (t - lastSent < this.deps.progressIntervalMs && p.phase !== 'saving') return;
          lastSent = t;
          onProgress({ phase: p.phase, files: p.loaded, totalFiles: p.total, bytes: 0, totalBytes: 0 });
        },
      });
      state.ready = true;
      if (filesVersion === this.filesVersion) this.indexBehind = false;
      const end: IndexStats = {
        elapsedMs: elapsedSince(t0),
        ending: 'complete',
        refreshMode: stats.refreshMode,
        filesScanned: stats.filesScanned,
        chunksIndexed: stats.chunksIndexed,
        filesChanged: stats.filesChanged,
        filesRemoved: stats.filesRemoved,
        builtAt: Date.now(),
        ...(state.saveError ? { saveError: state.saveError } : {}),
      };
      const overBudget = stats.skipped.filter((k) => k.reason === 'indexBudget').length;
      if (overBudget) end.overBudget = overBudget;
      if (stats.coverage) end.coverage = stats.coverage;
      this.indexSkipped = stats.skipped.filter((k) => INDEX_SKIP_REASONS.has(k.reason));
      this.indexStatus = { state: 'ready', last: end };
      // a stored index reopened read no file: hold their bytes now, in the background (the
      // search reads them from the folder until then)
      if (stats.refreshMode === 'cache_hit') this.holdContents(state.service);
      await this.deps.onIndexed?.(this, end.builtAt).catch(() => undefined);
      return {
        results: [],
        limitHit: stats.skipped.length > SKIPPED_IN_END,
        skipped: stats.skipped.slice(0, SKIPPED_IN_END),
        stats: end,
      };
    } catch (err) {
      const e = toQuarryError(err);
      if (e.code === 'Cancelled' || signal.aborted) {
        if (current())
          this.indexStatus = { ...this.indexStatus, state: this.index?.ready ? 'ready' : 'none' };
        const last = this.indexStatus.last;
        const stats: IndexStats = {
          elapsedMs: elapsedSince(t0),
          ending: 'cancelled',
          refreshMode: last?.refreshMode ?? 'full',
          filesScanned: 0,
          chunksIndexed: 0,
          filesChanged: 0,
          filesRemoved: 0,
          builtAt: last?.builtAt ?? 0,
        };
        return { results: [], limitHit: false, skipped: [], stats };
      }
      this.indexStatus = {
        ...this.indexStatus,
        state: this.index?.ready ? 'ready' : 'failed',
        error: errorJSON(e),
      };
      throw e;
    }
  }

  /** Stop this session's work: its index build ends at once (its answer must never land on a newer session). */
  /** Close: the running build stops, and the indexes and every service's state for this root are released. */
  /** The indexed files' bytes held for search, or null before an index (or without holdContents). */
  heldContents(): HeldStats | null {
    return this.index?.service.contents?.stats() ?? null;
  }

  /** The background read that fills the held contents after a reopen (stopped by close and by the next build). */
  private holding: AbortController | null = null;

  private holdContents(service: CodeIndexService): void {
    this.holding?.abort();
    const c = (this.holding = new AbortController());
    const yielder = createBackgroundYielder(this.deps.foreground, {
      yieldBudgetMs: this.deps.yieldBudgetMs,
      signal: c.signal,
    });
    void service.holdIndexedContents({ signal: c.signal, yielder }).catch(() => undefined);
  }

  close(): void {
    this.holding?.abort();
    this.closed = true;
    this.build?.controller.abort();
    this.state.clear();
    this.seed = null;
    this.index = null;
  }
}

/** AbortSignal.any where the platform has it (Chrome 116+, Node 20.3+), a relay otherwise. */
function anySignal(signals: AbortSignal[]): AbortSignal {
  const any = (AbortSignal as unknown as { any?: (s: AbortSignal[]) => AbortSignal }).any;
  if (any) return any(signals);
  const c = new AbortController();
  for (const s of signals) {
    if (s.aborted) c.abort();
    else s.addEventListener('abort', () => c.abort(), { once: true });
  }
  return c.signal;
}

/** A size in MB with one decimal (the messages of readBytes). */
function formatMiB(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
