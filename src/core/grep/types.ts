/** Request and result types of the text-search engine (plain data: they cross the worker boundary). */
import type { CaseMode } from './regex';
import type { Skipped } from '../walk/policy';
import type { QueryExpr } from '../query/types';

/**
 * One path rule of a query (`file:` / `-file:`): a regular expression found anywhere in the
 * root-relative path, or a glob (a value with `*`, `?`, `[` or `{`); every rule must hold.
 */
export interface PathRule {
  pattern: string;
  glob: boolean;
  negated: boolean;
  /** Regex rules only (globs follow their own rule). */
  caseSensitive: boolean;
}

export interface GrepRequest {
  pattern: string;
  mode: 'literal' | 'regex';
  caseMode?: CaseMode;
  wholeWord?: boolean;
  /** Globs the path must match (any); a leading '!' excludes. */
  include?: string[];
  exclude?: string[];
  /** Final extensions, 'ts' or '.ts'. */
  extensions?: string[];
  /** Case-sensitive substring of the path. */
  pathContains?: string;
  /** Path rules that must all hold (the query language's file:, -file:, -lang:). */
  pathRules?: PathRule[];
  /**
   * A boolean query over several patterns (core/query): `pattern` is then the alternation of its
   * patterns (mode regex). A file is listed when the expression holds over the patterns its
   * lines contain, and only the lines and hits of patterns not under NOT are delivered
   * (bool-search.ts). `maxResults` and `countLimit` count the lines delivered.
   */
  fileExpr?: QueryExpr;
  /** Only these roots, by name, when several are open (the query language's root:); absent: every root. */
  roots?: string[];
  /** Start below this directory of each root ('' = whole root). */
  directory?: string;
  contextBefore?: number;
  contextAfter?: number;
  /** Global cap on matching lines delivered (across all files). */
  maxResults?: number;
  /** Keep counting matching lines after the cap until this many; then `total` is a lower bound. */
  countLimit?: number;
  maxFileBytes?: number;
  useIgnoreFiles?: boolean;
  /** Cut delivered line text, context lines too (not the hit search), to this many characters. */
  maxLineChars?: number;
}

/** What the app's result list shows of a line (a longer line is cut; ripgrep's --max-columns, as a preview). */
export const PREVIEW_LINE_CHARS = 1000;

export type HitRange = [start: number, end: number];

/** Byte range [start, end) of a file that can hold a hit (whole lines); `line` is the 1-based line at `start`. */
export interface SegmentRange {
  start: number;
  end: number;
  line: number;
}

export interface GrepMatch {
  /** Workspace path (prefixed by root name when there are several roots). */
  path: string;
  /** 1-based line number. */
  line: number;
  /** The line without its terminator. */
  text: string;
  /** UTF-16 column ranges of every hit on the line (of `text`, when it is a preview window). */
  ranges: HitRange[];
  /**
   * With maxLineChars, when a long line's first hit ends past the cut: `text` is a window of
   * maxLineChars characters of the line that opens 24 characters (at most a quarter of the
   * window) before that hit, and this is the
   * window's first column in the line (`ranges` are columns of the window). Absent otherwise.
   */
  textStart?: number;
  contextBefore: string[];
  contextAfter: string[];
}

export interface GrepFileResult {
  path: string;
  matches: GrepMatch[];
}

export interface GrepSummary {
  /** Matching lines counted (exact when totalIsExact). */
  total: number;
  totalIsExact: boolean;
  /** Delivered matches were capped at maxResults. */
  limitHit: boolean;
  delivered: number;
  filesSearched: number;
  filesMatched: number;
  skipped: Skipped[];
  elapsedMs: number;
  /** 'cancelled' when the signal fired, 'stopped' when the sink asked to stop. */
  ending: 'complete' | 'cancelled' | 'stopped';
  strategy: string;
}

/** Receives each file's matches as soon as the file is searched; return false to stop. */
export type GrepSink = (result: GrepFileResult) => boolean | void;
