/** How a host sets up the engine (createEngineApi in engine.ts). */
import type { SearchPool } from '../../core/grep/pool';
import type { FileChunker } from '../../core/chunk/pool';
import type { GrammarLoader } from '../../core/chunk/types';
import type { IndexStore } from '../../core/rank/persist';
import type { DemoFiles } from '../../adapters/browser/demo';
import type { FolderHandles } from '../git-service';
import type { EngineInfo } from '../protocol';
import type { SemanticModelLoader } from '../semantic';

export interface EngineApiOptions {
  host?: EngineInfo['host'];
  /** Loads the bundled demo (a Vite virtual module in the app; injected in tests). */
  loadDemo?: () => Promise<DemoFiles>;
  /** Time budget between yields (ms). */
  yieldBudgetMs?: number;
  /** How long the index build keeps giving way after a search or file read ends (ms, default 250). */
  foregroundGraceMs?: number;
  /** Files read concurrently while opening (hides File System Access latency). */
  readConcurrency?: number;
  /** Progress events are sent at most this often (ms). */
  progressIntervalMs?: number;
  /**
   * Grammars for the code index (symbol chunks) and the analyzer tools (find_components,
   * feature_status); without it there is no code index and those tools answer EngineError.
   */
  grammarLoader?: GrammarLoader;
  /** Where code indexes are kept between sessions (IndexedDB in the browser). */
  indexStore?: IndexStore;
  /** Where opened folders' handles are kept (default: IndexedDB, the Recent list). */
  folderHandles?: FolderHandles;
  /** The code index's text budget (default INDEX_MAX_TEXT_BYTES, src/core/limits.ts). */
  indexMaxTextBytes?: number;
  /**
   * Hold the indexed files' bytes in the index so an indexed search reads no file (a number: the
   * budget in bytes; core/source/held-contents.ts). Default false: the app's sessions read every
   * file into memory already (snapshot.ts).
   */
  holdContents?: boolean | number;
  /**
   * What the index build parses with: a pool of parsing threads (the browser worker passes
   * one of Web Workers; `hold` is the engine's foreground wait, during which the pool sends its
   * threads no new files). Default: this thread, with `grammarLoader`.
   */
  parsePool?: (hold?: () => number) => FileChunker | null;
  /**
   * Threads text search runs on (results identical to this thread's alone): the browser worker
   * passes a pool of Web Workers, a Node host one of worker_threads. Made on the first search.
   */
  searchPool?: () => SearchPool | null;
  /** The embedding model for semantic search (the browser's embedding worker); without it Semantic is unavailable. */
  semanticModel?: SemanticModelLoader;
  /** The build's own ONNX model (QUARRY_EMBED_MODEL), named in the semantic status; absent: USE lite. */
  semanticBuiltIn?: { name: string; bytes: number };
}
