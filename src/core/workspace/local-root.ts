/**
 * A root indexed on demand: each tool call brings the root's indexes up to date (a refresh
 * compares sizes and times, so an unchanged root is a cache hit), stored under the root's own
 * keys when there is a store. The CLI and `quarry mcp` hold one per --root; tests and the
 * explore fallback hold them over a bare workspace. The app's RepoSession is the other
 * WorkspaceRoot (indexed in the background).
 */
import { QuarryError } from '../errors';
import { splitLinesForIndex } from '../rank/lines';
import type { ChunkIndex } from '../rank/bm25';
import type { IndexStore } from '../rank/persist';
import type { ChunkerLike, RefreshStats } from '../rank/service';
import { CodebaseIndexService } from '../codebase-index/service';
import { WorkspaceSemantic } from '../semantic/provider';
import type { EmbeddingModel } from '../semantic/port';
import type { SemanticRoot } from '../semantic/search';
import type { EmbedProgress } from '../semantic/index';
import type { FileSource } from '../source/types';
import { Workspace } from '../source/workspace';
import { readText } from '../walk/walk';
import type { WorkspaceRoot } from './root';
import { RootState } from './root-state';
import { SharedCodeIndexService } from './shared-code-index';
import { RepoWorkspace } from './workspace';

export interface LocalRootOptions {
  /** Where the indexes are kept between runs (none: in memory for this process). */
  store?: IndexStore;
  /** The root's storage stem: its indexes are stored as `seed004-${stem}`, `index-${stem}`, `vectors-${stem}`. */
  storeStem?: string;
  /** Parses files for the code index (ranked_search, related_code, semantic); none: those tools say the host has no code index. */
  chunker?: () => Promise<ChunkerLike>;
  /** The embedding model semantic search uses (loaded on first use). */
  model?: () => Promise<EmbeddingModel>;
}

export class LocalRoot implements WorkspaceRoot {
  readonly state = new RootState();
  readonly seed: CodebaseIndexService;
  readonly code: SharedCodeIndexService | null;
  private semantic: WorkspaceSemantic | null = null;
  private readonly view: Workspace;

  constructor(
    readonly key: string,
    readonly source: FileSource,
    private readonly options: LocalRootOptions = {},
  ) {
    this.view = new Workspace([source]);
    const { store, storeStem } = options;
    this.seed = new CodebaseIndexService(this.view, store, storeStem ? `seed004-${storeStem}` : 'seed004');
    this.code = options.chunker
      ? new SharedCodeIndexService(
          this.view,
          options.chunker,
          store,
          storeStem ? `index-${storeStem}` : 'index',
        )
      : null;
  }

  async seedIndex(signal?: AbortSignal) {
    const stats: RefreshStats = await this.seed.refresh({ signal });
    return { service: this.seed, stats };
  }

  get codeIndexReady(): boolean {
    return this.code?.index != null;
  }

  async codeIndex(signal?: AbortSignal): Promise<ChunkIndex> {
    if (!this.code) throw new QuarryError('EngineError', 'This host has no parser for the code index', {});
    await this.code.refresh({ signal });
    return this.code.index!;
  }

  /** The file's lines as the index reads them (readText: bytes of the call's own), or null. */
  async lines(path: string): Promise<string[] | null> {
    const r = await readText(this.source, path);
    return r.ok ? splitLinesForIndex(r.text) : null;
  }

  /** The root's code index with its vectors brought level (chunks embedded once, then only what changed). */
  async semanticRoot(options: {
    signal?: AbortSignal;
    onProgress?: (p: EmbedProgress) => void;
  }): Promise<{ model: EmbeddingModel; root: SemanticRoot }> {
    const { model, store, storeStem } = this.options;
    if (!this.code || !model)
      throw new QuarryError(
        'EngineError',
        'semantic search needs the embedding model, and this host provides none',
      );
    this.semantic ??= new WorkspaceSemantic(
      this.code,
      model,
      store,
      storeStem ? `vectors-${storeStem}` : 'vectors',
    );
    return this.semantic.root(options);
  }

  close(): void {
    this.semantic = null;
    this.state.clear();
  }
}

/** A workspace of LocalRoots over a file view's roots (keys from their absolute roots). */
export function localWorkspace(
  files: Workspace,
  options: (source: FileSource, index: number) => LocalRootOptions = () => ({}),
): RepoWorkspace<LocalRoot> {
  return new RepoWorkspace(files.roots.map((s, i) => new LocalRoot(s.absoluteRoot, s, options(s, i))));
}
