import type { SourceParsers } from '../analyze/parsers';
import type { SearchPool } from '../grep/pool';
import type { ChunkIndex } from '../rank/bm25';
import type { Workspace } from '../source/workspace';
import type { EmbeddingModel } from '../semantic/port';
import type { SemanticRoot } from '../semantic/search';
import type { ToolRoot } from '../workspace/root';
import type { QueryPlan } from '../query/plan';
import type { HistoryResult, HistorySearchSummary } from '../query/results';

export interface ToolContext {
  workspace: Workspace;
  /**
   * Every root's own state (core/workspace: seed-004 index, code index, lines), under the prefix
   * its workspace paths carry. The app's engine, the CLI and `quarry mcp` give the same shape
   * (RepoWorkspace.toolRoots), so several roots are scored the same way everywhere: each root
   * with its own statistics, merged by score. Absent: the index tools say no index is available.
   */
  roots?: readonly ToolRoot[];
  signal?: AbortSignal;
  /** Threads text search runs on (the CLI's worker_threads); absent: the calling thread alone. Results are the same. */
  searchPool?: SearchPool;
  /**
   * The JavaScript/TypeScript parsers for the analyzers (find_components, feature_status),
   * loaded on first use: hosts pass `() => sharedSourceParsers(loader)`.
   */
  parsers?: () => Promise<SourceParsers>;
  /** The host's semantic service (semantic_code_search, semantic_search); absent: they say the host has none. */
  semantic?: SemanticPort;
  /** explore's git agent: a root's recent history (absent: no host access to git, reported as unavailable). */
  history?: (rootIndex: number, limit: number, signal?: AbortSignal) => Promise<HistoryPortResult>;
  /**
   * The search tool's type:commit / type:diff over one root's git history (results with the
   * root's `prefix` on their paths); absent: the host reads no history and says so.
   */
  historySearch?: (
    plan: Extract<QueryPlan, { type: 'commit' | 'diff' }>,
    rootIndex: number,
    prefix: string,
    onResult: (r: HistoryResult) => void,
    signal?: AbortSignal,
  ) => Promise<HistorySearchSummary>;
}

/**
 * The semantic service a host provides (the app's SemanticService, the CLI's cliSemantic): the
 * embedding model, and every root's code index with its vectors brought up to date (chunks
 * indexed, changed ones embedded) before it resolves, each under its root's prefix.
 */
export type SemanticPort = (
  signal?: AbortSignal,
  options?: SemanticPortOptions,
) => Promise<{ model: EmbeddingModel; roots: SemanticRoot[]; coverage?: { searched: number; of: number } }>;

export interface SemanticPortOptions {
  /**
   * Embed for at most this long, then resolve with the vectors made so far (`coverage` says how
   * many chunks they cover) while the host goes on embedding in the background. Absent: every
   * chunk is embedded first (semantic_code_search: its answer is the seed's).
   */
  budgetMs?: number;
  /** The open file (a workspace path): its chunks, then its folders', are embedded first. */
  near?: string;
}

/** One root's code index as the index tools read it (index-context.ts ensureCodeIndexes). */
export interface CodeIndexPart {
  /** What this index's paths need in front to be workspace paths ('' for one index over the whole workspace). */
  prefix: string;
  index: ChunkIndex;
  /** A file's lines as the index read them, by the index's own path (no prefix); null when unreadable. */
  lines: (path: string) => Promise<string[] | null>;
}

export type HistoryPortResult =
  | {
      available: true;
      branch: string | null;
      head: string | null;
      shallow: boolean;
      commits: Array<{
        oid: string;
        author: string;
        date: number;
        message: string;
        changedFiles?: Array<{ path: string; type: string }>;
      }>;
      uncommitted?: Array<{ path: string; status: string }>;
    }
  | { available: false; reason: string };

/** JSON Schema (draft 2020-12 subset) describing a tool's input, as MCP lists it. */
export interface JsonSchema {
  type: 'object';
  /**
   * Every field the tool reads, and nothing else: callTool refuses any other (additionalProperties
   * is false for every tool). Aliases are properties too, so that a client validating against the
   * schema accepts them as well (seed 002's corpus_path beside path, query and search beside pattern).
   */
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties?: boolean;
}

export interface Tool<Out = unknown> {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  execute(args: unknown, ctx: ToolContext): Promise<Out>;
}

export const MAX_LINE_CHARS = 500;
export const TRUNCATED_MARKER = ' [truncated...]';

/** Seed 001's rule, used by every text printer: lines over 500 characters are cut with a marker. */
export function truncateLine(line: string, max = MAX_LINE_CHARS): string {
  return line.length > max ? line.slice(0, max) + TRUNCATED_MARKER : line;
}
