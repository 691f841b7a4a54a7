/**
 * What a query answers, per `type:`, as plain data: the app's engine streams these over the
 * worker boundary and the `search` tool returns them to programs. type:file answers with the
 * text search's own GrepFileResult (core/grep/types.ts).
 */
import type { ChunkType } from '../chunk/types';
import type { HitRange } from '../grep/types';

/** How bare words are read and what the box's own switches say (the query's filters override). */
export interface QueryOptions {
  mode: 'literal' | 'regex';
  caseSensitive: boolean;
  wholeWord?: boolean;
  /** Results wanted when the query has no `count:`. */
  limit?: number;
}

export interface SymbolResult {
  name: string;
  kind: ChunkType;
  /** Workspace path (with the root's prefix when several roots are open). */
  path: string;
  /** 1-based lines of the definition. */
  line: number;
  endLine: number;
  /** Indexes into `name` of the characters that matched. */
  positions: number[];
}

export interface SymbolSearchResult {
  results: SymbolResult[];
  /** Symbols matching (before the limit). */
  total: number;
}

export interface CommitResult {
  kind: 'commit';
  oid: string;
  author: string;
  email: string;
  /** Author time, ms since the epoch. */
  date: number;
  message: string;
  /** Hits in `message`. */
  messageRanges: HitRange[];
  /** Hits in `${author} <${email}>` when author: was given. */
  authorRanges: HitRange[];
}

export interface DiffLineResult {
  side: '+' | '-';
  /** 1-based, in the commit's version for '+', the parent's for '-'. */
  line: number;
  /** The line, clipped around its first hit when long. */
  text: string;
  /** Where `text` starts in the line. */
  column: number;
  ranges: HitRange[];
}

export interface DiffFileResult {
  /** Workspace path. */
  path: string;
  change: 'add' | 'modify' | 'delete';
  lines: DiffLineResult[];
  /** Matching lines left out of `lines`. */
  moreLines: number;
}

export interface DiffResult {
  kind: 'diff';
  oid: string;
  author: string;
  email: string;
  date: number;
  /** The message's first line. */
  subject: string;
  files: DiffFileResult[];
}

export type HistoryResult = CommitResult | DiffResult;

export interface HistorySearchSummary {
  /** Commits looked at. */
  searched: number;
  /** Commits in the log. */
  total: number;
  /** Commits listed. */
  matched: number;
  /** The log stops at a shallow clone's boundary: older history was not fetched. */
  shallow: boolean;
  /** Date of the oldest commit looked at (how far back the search reached); null when none. */
  oldest: number | null;
  /** The limit stopped the search before the log's end. */
  limitHit: boolean;
}
