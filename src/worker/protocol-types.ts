/**
 * The worker boundary's data (re-exported by protocol.ts, the only module both sides import). Everything here is plain,
 * structured-cloneable data (no class instances, RegExp, Map or Error). File System
 * Access handles and File objects are allowed because the platform clones them.
 *
 * Shape (after VS Code's search service): long calls take a job id and one callback that
 * receives `{type, data}` envelopes; `cancel(jobId)` is its own call; a job resolves with
 * `{results, limitHit, skipped, stats}`. Every method resolves with an Outcome instead of
 * throwing, because Comlink forwards only message/name/stack of an Error.
 */
import type { HeldStats } from '../core/source/held-contents';
import type { ExploreResult } from '../core/explore/types';
import type { QuarryErrorJSON } from '../core/errors';
import type { GrepFileResult, GrepRequest, HitRange } from '../core/grep/types';
import type { Skipped } from '../core/walk/policy';
import type { LineSpans } from '../core/highlight/syntax';
export type { LineSpans, SyntaxKind } from '../core/highlight/syntax';

import type { JobEnd, JobStats } from './protocol-jobs';

// ---- opening a repository -------------------------------------------------------------

/** Where a repository comes from. Sent to the worker, which builds the FileSource there. */
export type RepoSpec =
  | { kind: 'demo' }
  /** A live folder (File System Access); the engine files it in the library and derives its key. */
  | { kind: 'handle'; name: string; handle: FileSystemDirectoryHandle }
  /**
   * A snapshot from `<input webkitdirectory>` or a dropped folder: cannot be re-read. Only the
   * paths cross; the worker pulls the bytes it needs through openRepo's `pull` callback (see
   * core/source/pulled-files.ts for why File objects never cross).
   */
  | {
      kind: 'files';
      name: string;
      paths: string[];
      /** Paths sent ahead with stagePaths() (large folders). */ stageId?: string;
    }
  /** Plain text files (tests, the main-thread fallback, Node benchmarks). */
  | { kind: 'memory'; name: string; files: Record<string, string> }
  /** A repository cloned into the library (lightning-fs in IndexedDB): readable offline. */
  | { kind: 'git'; id: string; name: string }
  /** The folder `quarry serve --root DIR` exposes beside the app (the browser adapter's served-source.ts); opened only when the page names it. */
  | { kind: 'served'; name: string };

export type { PulledFile, PullFiles } from '../core/source/pulled-files';

/**
 * One file of a snapshot folder, on the main thread: its path relative to the chosen folder
 * (without the folder's own name) and its File, which never crosses to the worker (the worker
 * pulls bytes through PullFiles). The folder collectors (filesFromInput, folderFromDrop) make these.
 */
export interface SnapshotFile {
  path: string;
  file: Blob & { lastModified?: number };
}

/** What the UI opens: like RepoSpec, but a snapshot keeps its File objects (on the main thread). */
export type OpenSpec =
  Exclude<RepoSpec, { kind: 'files' }> | { kind: 'files'; name: string; files: SnapshotFile[] };

/** A snapshot's path list crosses in slices of this many paths (strings clone fast: ~1 ms per 5,000). */
export const STAGE_SLICE_PATHS = 5000;

/** How a repository joins the workspace: it replaces every open root (default), or is added as one more root. */
export interface OpenOptions {
  add?: boolean;
}

export interface RepoStats extends JobStats {
  /** The repository's key, made by the engine: it names the repository in the address and its stored index. */
  key: string;
  /** The root's name in the workspace (paths are prefixed by it when several roots are open). */
  root: string;
  name: string;
  kind: RepoSpec['kind'];
  files: number;
  bytes: number;
  /** Files and directories left out, by reason. */
  skippedByReason: Record<string, number>;
  /**
   * Opened from its stored listing (the last read's paths and stamps): the folder is still to be
   * read and compared with it (reconcileRepo).
   */
  fromListing?: boolean;
}

/** How a reconcile ended: what the folder holds that the stored listing did not (paths root-prefixed). */
export interface ReconcileStats extends JobStats {
  key: string;
  /** Counts of changed, added and removed text files, and whether the skipped entries differ. */
  changed: number;
  added: number;
  removed: number;
  skippedChanged: boolean;
  /** The changed and removed files (at most 1,000): answers that read one of them are stale. */
  touched: string[];
  /** The root's figures now (files, bytes, skipped by reason). */
  stats?: RepoStats;
}

// ---- file tree, quick open, file viewer ------------------------------------------------

export interface TreeEntry {
  name: string;
  path: string;
  kind: 'file' | 'directory';
  /** Present when the walk left this entry out (greyed in the tree). */
  skipped?: Skipped['reason'];
  /** Number of entries below (directories only; loaded or skipped). */
  childCount?: number;
  /** Set on the top-level entries of a workspace with several roots: the root's key. */
  root?: string;
}

/** One open root of the workspace. */
export interface RootInfo {
  key: string;
  /** Unique display name; with several roots, every path of this root starts with `name/`. */
  name: string;
  stats: RepoStats;
  indexStatus: IndexStatus;
}

export interface QuickOpenHit {
  path: string;
  score: number;
  /** UTF-16 indexes in `path` of the characters that matched the query. */
  positions: number[];
}

export interface FileHighlight {
  pattern: string;
  mode: GrepRequest['mode'];
  caseMode?: GrepRequest['caseMode'];
  wholeWord?: boolean;
}

export type { LinkTarget, MarkdownDocument, MdBlock, MdInline } from './markdown-tree';

/** readBytes refuses files larger than this (the viewer's images; a picture over 16 MB is not worth a tab's memory). */
export const READ_BYTES_MAX_BYTES = 16 * 1024 * 1024;

/** A file's raw bytes (readBytes: images for the viewer, including files the walk skipped as binary). */
export interface FileBytes {
  path: string;
  bytes: Uint8Array;
}

/** A window of a file's exact colouring (the viewer's visible lines). */
export interface SyntaxWindow {
  path: string;
  /** The grammar that coloured it. */
  language: string;
  fromLine: number;
  /** One entry per line from `fromLine`: [start column, end column, kind] runs. */
  lines: LineSpans[];
}

export interface FileContent {
  path: string;
  text: string;
  lineCount: number;
  encoding: string;
  bytes: number;
  /** Hits of `highlight` by line (1-based), when asked for. */
  hits: Array<[line: number, ranges: HitRange[]]>;
  /** Set when the highlight pattern could not be compiled. */
  highlightError?: QuarryErrorJSON;
}

export type SearchEnd = JobEnd<GrepFileResult, SearchStats>;

export interface SearchStats extends JobStats {
  total: number;
  totalIsExact: boolean;
  delivered: number;
  filesSearched: number;
  filesMatched: number;
  strategy: string;
}

export interface EngineInfo {
  /** 'worker' when the engine runs in a Web Worker, 'main-thread' for the fallback. */
  host: 'worker' | 'main-thread' | 'node-worker';
  /** The first root (null when nothing is open). */
  repo: RepoStats | null;
  roots: RootInfo[];
}

// ---- the code index (chunks + BM25 + trigrams), Ranked mode, related code ------------------

export type RefreshMode = 'cache_hit' | 'incremental' | 'full';

export interface IndexRequest {
  /** The key of the root to index (RepoStats.key); every root, one after the other, when absent. */
  root?: string;
  /** Rebuild from scratch, ignoring the stored index. */
  force?: boolean;
}

export interface IndexStats extends JobStats {
  refreshMode: RefreshMode;
  filesScanned: number;
  chunksIndexed: number;
  filesChanged: number;
  filesRemoved: number;
  /** Date.now() when the build finished. */
  builtAt: number;
  /** Set when the index could not be saved (it still works until the page is closed). */
  saveError?: string;
  /** Set when the text budget (INDEX_MAX_TEXT_BYTES) left files out: how many (text search scans them). */
  overBudget?: number;
  /** What the ranked index covers: parsed, as blocks (no parser), text only (core's Coverage). */
  coverage?: Coverage;
}

export type { Coverage } from '../core/rank/build';
import type { Coverage } from '../core/rank/build';

/** What the status line shows. */
export interface IndexStatus {
  state: 'none' | 'building' | 'ready' | 'failed';
  /** The last completed refresh (kept while a new one runs). */
  last: IndexStats | null;
  error?: QuarryErrorJSON;
  /**
   * The indexed files' bytes held in memory for search (core/source/held-contents.ts): how many,
   * and how many are read from the folder instead (over the memory budget, or not held yet after
   * a reopen).
   */
  contents?: HeldStats;
}

// ---- semantic search ----------------------------------------------------------------------

export interface SemanticStats extends JobStats {
  /** view texts sent to the model in this run (the rest were stored) */
  embedded: number;
  chunks: number;
  vectors: number;
  /** bytes the vectors take (int8 + a scale each) */
  bytes: number;
}

export interface SemanticStatus {
  /** unavailable: no model in this build; off: not loaded yet; loading: the model; embedding: the chunks */
  state: 'unavailable' | 'off' | 'loading' | 'embedding' | 'ready' | 'failed';
  vectors: number;
  /** chunks of the ready code indexes (what embedding covers) */
  chunks: number;
  /** the loaded model's id (its vectors are its own): 'use-lite-512', or 'onnx:<name>:<hash>' for a model brought */
  model?: string;
  /** the host's model before any is picked: an ONNX model the build was given (QUARRY_EMBED_MODEL); absent: USE lite */
  builtIn?: { name: string; bytes: number };
  last?: SemanticStats;
  error?: QuarryErrorJSON;
}

/** Why a Semantic hit matched: core's SemanticWhy (lexical terms, similarity, ranks). */
export type { SemanticWhy } from '../core/semantic/search';
/** One score component of a Ranked hit: core's RankedComponent (plain data). */
export type { RankedComponent } from '../core/rank/ranked';

/** The view tools' arguments and answers (ranked_view, semantic_search, related_view, flag_inventory): core's. */
export type {
  ChunkRef,
  FlagInventoryResult,
  RankedHitView,
  RankedRequest,
  RankedResult,
  RelatedHitView,
  RelatedResult,
  SemanticHitView,
  SemanticRequest,
  SemanticResult,
  SnippetLine,
} from '../core/tools/views/types';

export type { ExploreResult };

export type {
  DefinitionsResult,
  OutlineNode,
  ReferenceFile,
  ReferencesResult,
  SymbolDefinition,
  WorkspaceSymbolHit,
} from '../core/nav/types';

/** How a references job ended: lines counted (a lower bound when limitHit). */
export interface ReferencesStats extends JobStats {
  total: number;
  limitHit: boolean;
}

/** A name to look up, and the workspace path of the file it was clicked in ('' from nowhere). */
export interface NavRequest {
  name: string;
  path?: string;
}
