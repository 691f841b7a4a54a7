/**
 * What the view tools answer (ranked_view, semantic_search, related_view, flag_inventory): the
 * app's views' own shapes, plain data that crosses the worker boundary and prints as JSON in
 * `quarry call` (worker/protocol-types.ts re-exports them for the app).
 */
import type { FlagInventory } from '../../analyze/features';
import type { Chunk } from '../../chunk/types';
import type { HitRange } from '../../grep/types';
import type { RankedComponent } from '../../rank/ranked';
import type { SemanticWhy } from '../../semantic/search';
import type { Skipped } from '../../walk/policy';

/** Where a chunk is: core's Chunk fields, nothing else of the index crosses. */
export type ChunkRef = Chunk;

export interface SnippetLine {
  line: number;
  text: string;
  /** UTF-16 ranges of matched words in `text`. */
  ranges: HitRange[];
}

/** Arguments of `ranked_view` (Ranked mode). */
export interface RankedRequest {
  query: string;
  limit?: number;
  include?: string[];
  exclude?: string[];
  extensions?: string[];
}

export interface RankedHitView extends ChunkRef {
  score: number;
  exactSymbol: boolean;
  components: RankedComponent[];
  /** what the score was multiplied by for the chunk's kind, file role and being a declaration (1: nothing) */
  prior: number;
  /** the parts of the prior below 1, as words: "key", "test file", "declaration" */
  discounts: string[];
  /** A few lines of the chunk (its first line and the first matching lines), a null entry marks a gap. */
  lines: Array<SnippetLine | null>;
}

export interface RankedResult {
  hits: RankedHitView[];
  /** Query words after identifier splitting and a sentence's stopwords ("getUserById" -> get, user, by, id; "user by id" -> user, id). */
  words: string[];
  elapsedMs: number;
}

/** Arguments of `semantic_search` (Semantic mode, and Ranked once the model is loaded). */
export interface SemanticRequest extends RankedRequest {
  /** 'semantic': vectors only; 'hybrid' (default): fused with the Ranked list */
  type?: 'semantic' | 'hybrid';
}

export interface SemanticHitView extends ChunkRef {
  score: number;
  why: SemanticWhy;
  lines: Array<SnippetLine | null>;
}

/** semantic_search's answer (the view's whole list; core/semantic's SemanticResult is one hit of semantic_code_search). */
export interface SemanticResult {
  hits: SemanticHitView[];
  type: 'semantic' | 'hybrid';
  /** query words (highlighted in the snippets) */
  words: string[];
  /** the id of the model that answered (absent for an empty query: no model was asked) */
  model?: string;
  /** where the model ran, when it says (EmbeddingModel.device: 'WebGPU', 'CPU') */
  device?: string;
  elapsedMs: number;
  /** chunks searched, when fewer than all were embedded yet (the rest are being embedded) */
  searched?: number;
  /** chunks of the code index (with `searched`) */
  of?: number;
}

export interface RelatedHitView extends ChunkRef {
  score: number;
  sharedTerms: string[];
  /** why it is related beyond shared words: "same class", "same file", "same folder", "same kind", "similar name", "contains others" */
  reasons: string[];
}

export interface RelatedResult {
  seed: ChunkRef;
  results: RelatedHitView[];
}

/** flag_inventory's answer (the Features view): every flag found, the files read, the files left out. */
export interface FlagInventoryResult extends FlagInventory {
  filesScanned: number;
  skipped: Skipped[];
}
