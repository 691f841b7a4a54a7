/**
 * Search over what commits changed (`type:diff`): the lines each commit added and removed, as
 * `git log --no-renames -G<re>` selects commits, or the pickaxe count of `git log -S<str>`
 * (`--pickaxe-regex` for a regex). Commits are walked in the order given (the stored log's:
 * newest first) and each is diffed against its FIRST parent:
 *
 *   root commit ....... against the empty tree (every line added).
 *   merge commit ...... skipped, as git log does without -m/-c/--cc (it shows merges no diff).
 *   shallow boundary .. skipped (its parent is not in the repository). git treats such a commit
 *                       as a root and lists it whenever its files match; here it is counted in
 *                       `skipped.boundary` instead, so the caller can say the history is cut.
 *   renames ........... not detected: a moved file is a delete plus an add (`--no-renames`).
 *   mode-only change .. the same blob: not a change (git's diff_unmodified_pair).
 *   submodules ........ not searched (git diffs them as a "Subproject commit <oid>" line).
 *   binary ............ 'lines': a file pair is skipped when either side has a NUL byte in its
 *                       first 8000 bytes (git's buffer_is_binary, -G skips such pairs); 'count':
 *                       binary files are counted too, as git -S does.
 *   large blobs ....... sides over `maxBlobBytes` (default 16 MiB) are skipped (`skipped.tooLarge`).
 *
 * Lines are split at '\n' and compared as bytes (ByteLineInterner), diffed with core/diff's
 * port of git's xdiff Myers; only the changed runs are decoded (UTF-8) and matched, one line at
 * a time, so a hit never spans lines (git compiles -G with REG_NEWLINE). The pattern is a
 * JavaScript regex where git takes POSIX ERE: the common subset means the same.
 */
import { QuarryError } from '../../core/errors';
import type { TextMatcher, TextRange } from '../../core/git/commit-search';
import type { LogCommit } from '../../core/git/types';
import { diffLineIds } from '../../core/diff/ops';
import { MAX_DIFF_BYTES } from '../../core/diff/text-diff';
import {
  ByteLineInterner,
  commonPrefix,
  commonSuffix,
  deriveVersion,
  fullVersion,
  indentOf,
  lineCount,
  type ByteVersion,
} from '../../core/diff/versions';
import { bytesToHex, type GitObjectStore } from './objects';
import { MAX_TREE_ENTRIES } from './tree-diff';

export type DiffSearchMode = 'lines' | 'count';

export interface DiffSearchProgress {
  searched: number;
  total: number;
}

export interface DiffSearchOptions {
  objects: GitObjectStore;
  /** The commits to search, in the order to search them (the stored log's: newest first). */
  commits: readonly LogCommit[];
  matcher: TextMatcher;
  /** 'lines' (git -G, default): a changed line matches. 'count' (git -S): the occurrences in a file changed. */
  mode?: DiffSearchMode;
  pathFilter?: (path: string) => boolean;
  /** Commits with hits to find at most (default: no limit). */
  limit?: number;
  signal?: AbortSignal;
  /** Each commit with hits, as soon as it is found. */
  onHit?: (hit: DiffCommitHit) => void;
  /** At most every PROGRESS_MS, and once at the end. */
  onProgress?: (p: DiffSearchProgress) => void;
  /** Awaited between commits (lets a worker's event loop run: cancel arrives that way). */
  maybeYield?: () => Promise<void> | void;
  /** Sides larger than this are not searched (default MAX_DIFF_BYTES). */
  maxBlobBytes?: number;
}

export interface DiffLineHit {
  side: '+' | '-';
  /** 1-based: in the commit's version of the file for '+', the parent's for '-'. */
  line: number;
  /** The line (without '\r'), clipped to MAX_HIT_LINE_CHARS around the first hit. */
  text: string;
  /** Where `text` starts in the line (0 unless clipped). */
  column: number;
  /** Hits in `text`. */
  ranges: TextRange[];
}

export interface DiffFileHit {
  path: string;
  change: 'add' | 'modify' | 'delete';
  /** Matching added and removed lines, in diff order (at most MAX_FILE_LINE_HITS). */
  lines: DiffLineHit[];
  /** Matching lines left out past MAX_FILE_LINE_HITS. */
  moreLines: number;
  /** 'count' mode: occurrences in the parent's and the commit's version. */
  counts?: { before: number; after: number };
  /** 'count' mode: a side is binary (no lines are listed). */
  binary?: boolean;
}

export interface DiffCommitHit {
  commit: LogCommit;
  /** Its index in `commits`. */
  index: number;
  files: DiffFileHit[];
}

export interface DiffSearchResult {
  hits: DiffCommitHit[];
  /** Commits looked at (merges and boundaries included). */
  searched: number;
  total: number;
  ending: 'done' | 'limit' | 'cancelled';
  skipped: { merges: number; boundary: number; tooLarge: number; missing: number };
}

export const MAX_FILE_LINE_HITS = 100;
export const MAX_HIT_LINE_CHARS = 500;
/** git's FIRST_FEW_BYTES: a NUL byte in these means binary. */
const BINARY_SNIFF = 8000;
const PROGRESS_MS = 50;
const COMMIT_CACHE = 4096;
const TREE_CACHE_BYTES = 8 * 1024 * 1024;
const BLOB_CACHE_BYTES = 32 * 1024 * 1024;
const TREE_MODE = 0o40000;
const GITLINK_MODE = 0o160000;
const NEWLINE = 0x0a;
/** Bytes a line interner takes in before a fresh one replaces it. */
const INTERNER_BYTES = 32 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
const decoder = new TextDecoder();

class Cancelled extends Error {}

/** A file that differs between the parent's tree and the commit's (null: absent). */
interface FilePair {
  path: string;
  before: string | null;
  after: string | null;
}

/** One entry of a raw tree object, read in place: `mode` (octal), name bytes [nameStart, nameEnd), oid at nameEnd + 1. */
interface Cursor {
  mode: number;
  nameStart: number;
  nameEnd: number;
  /** Where the next entry starts. */
  next: number;
}

function malformed(oid: string | null): QuarryError {
  return new QuarryError('Unreadable', `The git tree ${oid ?? ''} is malformed`, { oid });
}

/** Reads the entry at `p` into `c`; false at the end of the tree. */
function entryAt(b: Uint8Array, p: number, c: Cursor, oid: string | null): boolean {
  if (p >= b.length) return false;
  let mode = 0;
  let i = p;
  for (; i < b.length && b[i] !== 0x20; i++) mode = mode * 8 + (b[i] - 0x30);
  const nul = b.indexOf(0, i + 1);
  if (i >= b.length || nul < 0 || nul + 21 > b.length) throw malformed(oid);
  c.mode = mode;
  c.nameStart = i + 1;
  c.nameEnd = nul;
  c.next = nul + 21;
  return true;
}

/** git's base_name_compare: names as bytes, a tree's name as if it ended in '/'. */
function compareNames(a: Uint8Array, ca: Cursor, b: Uint8Array, cb: Cursor): number {
  const la = ca.nameEnd - ca.nameStart;
  const lb = cb.nameEnd - cb.nameStart;
  const n = la < lb ? la : lb;
  for (let k = 0; k < n; k++) {
    const d = a[ca.nameStart + k] - b[cb.nameStart + k];
    if (d) return d;
  }
  const x = n < la ? a[ca.nameStart + n] : ca.mode === TREE_MODE ? 0x2f : 0;
  const y = n < lb ? b[cb.nameStart + n] : cb.mode === TREE_MODE ? 0x2f : 0;
  return x - y;
}

function sameOid(a: Uint8Array, ca: Cursor, b: Uint8Array, cb: Cursor): boolean {
  for (let k = 1; k <= 20; k++) if (a[ca.nameEnd + k] !== b[cb.nameEnd + k]) return false;
  return true;
}

const isFileMode = (mode: number) => mode !== TREE_MODE && mode !== GITLINK_MODE;
const EMPTY = new Uint8Array(0);

/** Commit trees, raw trees and recent blobs of one search. */
class Reader {
  private trees = new Map<string, Uint8Array>();
  private treeBytes = 0;
  private commitTrees = new Map<string, string | null>();
  private blobs = new Map<string, Uint8Array>();
  private blobBytes = 0;

  constructor(
    private readonly objects: GitObjectStore,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** A commit's root tree; null when the repository does not have the commit. */
  async commitTree(oid: string): Promise<string | null> {
    const known = this.commitTrees.get(oid);
    if (known !== undefined) return known;
    const obj = await this.objects.read(oid);
    if (obj && obj.type !== 'commit')
      throw new QuarryError('Unreadable', `git object ${oid} is a ${obj.type}, not a commit`, { oid });
    let tree: string | null = null;
    if (obj) {
      const m = /^tree ([0-9a-f]{40})$/m.exec(decoder.decode(obj.bytes.subarray(0, 46)));
      if (!m) throw new QuarryError('Unreadable', `git commit ${oid} has no tree`, { oid });
      tree = m[1];
    }
    if (this.commitTrees.size >= COMMIT_CACHE) this.commitTrees.clear();
    this.commitTrees.set(oid, tree);
    return tree;
  }

  private async tree(oid: string | null): Promise<Uint8Array> {
    if (!oid) return EMPTY;
    if (this.signal?.aborted) throw new Cancelled();
    let bytes = this.trees.get(oid);
    if (bytes) return bytes;
    bytes = await this.objects.readAs(oid, 'tree');
    this.trees.set(oid, bytes);
    this.treeBytes += bytes.length;
    for (const [k, v] of this.trees) {
      if (this.treeBytes <= TREE_CACHE_BYTES) break;
      this.trees.delete(k);
      this.treeBytes -= v.length;
    }
    return bytes;
  }

  /** A blob's bytes; null when the repository does not have it (a partial clone). */
  async blob(oid: string): Promise<Uint8Array | null> {
    const cached = this.blobs.get(oid);
    if (cached) return cached;
    const obj = await this.objects.read(oid);
    if (!obj) return null;
    if (obj.type !== 'blob')
      throw new QuarryError('Unreadable', `git object ${oid} is a ${obj.type}, not a blob`, { oid });
    if (obj.bytes.length <= BLOB_CACHE_BYTES / 8) {
      this.blobs.set(oid, obj.bytes);
      this.blobBytes += obj.bytes.length;
      for (const [k, v] of this.blobs) {
        if (this.blobBytes <= BLOB_CACHE_BYTES) break;
        this.blobs.delete(k);
        this.blobBytes -= v.length;
      }
    }
    return obj.bytes;
  }

  /**
   * Files that differ between two trees (null: the empty tree), in git's order: both raw trees
   * walked side by side (git keeps entries sorted), names and ids decoded only where they differ.
   */
  async diff(before: string | null, after: string | null): Promise<FilePair[]> {
    const out: FilePair[] = [];
    let visited = 0;
    const visit = async (ta: string | null, tb: string | null, prefix: string): Promise<void> => {
      if (ta === tb) return;
      const [a, b] = await Promise.all([this.tree(ta), this.tree(tb)]);
      const ca: Cursor = { mode: 0, nameStart: 0, nameEnd: 0, next: 0 };
      const cb: Cursor = { mode: 0, nameStart: 0, nameEnd: 0, next: 0 };
      let pa = 0;
      let pb = 0;
      for (;;) {
        const hasA = entryAt(a, pa, ca, ta);
        const hasB = entryAt(b, pb, cb, tb);
        if (!hasA && !hasB) break;
        if (++visited > MAX_TREE_ENTRIES) throw tooManyEntries(after ?? before);
        const cmp = !hasA ? 1 : !hasB ? -1 : compareNames(a, ca, b, cb);
        const left = cmp <= 0 ? ca : null;
        const right = cmp >= 0 ? cb : null;
        if (left) pa = ca.next;
        if (right) pb = cb.next;
        if (left && right && sameOid(a, ca, b, cb)) continue; // unchanged, or only its mode changed
        const named = left ? ([a, left] as const) : ([b, right!] as const);
        const path = prefix + decoder.decode(named[0].subarray(named[1].nameStart, named[1].nameEnd));
        const oidOf = (bytes: Uint8Array, c: Cursor) => bytesToHex(bytes, c.nameEnd + 1, c.nameEnd + 21);
        const lf = left && isFileMode(left.mode) ? oidOf(a, left) : null;
        const rf = right && isFileMode(right.mode) ? oidOf(b, right) : null;
        if (lf || rf) out.push({ path, before: lf, after: rf });
        const lt = left?.mode === TREE_MODE ? oidOf(a, left) : null;
        const rt = right?.mode === TREE_MODE ? oidOf(b, right) : null;
        if (lt || rt) await visit(lt, rt, `${path}/`);
      }
    };
    await visit(before, after, '');
    return out;
  }
}

function tooManyEntries(tree: string | null): QuarryError {
  return new QuarryError('Unreadable', `The tree ${tree ?? ''} has too many entries to diff`, {
    reason: 'tooLarge',
    tree,
    limit: MAX_TREE_ENTRIES,
  });
}

const isBinary = (bytes: Uint8Array) => bytes.subarray(0, BINARY_SNIFF).indexOf(0) !== -1;

/** Where line i's text ends (before its newline). */
function lineEnd(v: ByteVersion, i: number): number {
  const end = v.starts[i + 1];
  return i === v.starts.length - 2 && v.noEol ? end : end - 1;
}

/** A line's text and hits, clipped around its first hit when long. */
function lineHit(side: '+' | '-', line: number, raw: string, matcher: TextMatcher): DiffLineHit {
  const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  let ranges = matcher.ranges(raw);
  let column = 0;
  if (text.length > MAX_HIT_LINE_CHARS) {
    column = Math.max(0, Math.min((ranges[0]?.[0] ?? 0) - 40, text.length - MAX_HIT_LINE_CHARS));
    const end = column + MAX_HIT_LINE_CHARS;
    ranges = ranges.filter(([s]) => s >= column && s < end);
    return {
      side,
      line,
      text: text.slice(column, end),
      column,
      ranges: ranges.map(([s, e]) => [s - column, Math.min(e, end) - column]),
    };
  }
  ranges = ranges.filter(([s]) => s < text.length).map(([s, e]) => [s, Math.min(e, text.length)]);
  return { side, line, text, column, ranges };
}

interface Run {
  side: '+' | '-';
  v: ByteVersion;
  from: number;
  n: number;
}

/** Changed runs: all of one side for an added or deleted file, else the line diff's. */
function changedRuns(va: ByteVersion | null, vb: ByteVersion | null): Run[] {
  if (!va) return vb && lineCount(vb) ? [{ side: '+', v: vb, from: 0, n: lineCount(vb) }] : [];
  if (!vb) return lineCount(va) ? [{ side: '-', v: va, from: 0, n: lineCount(va) }] : [];
  const indent = { a: (i: number) => indentOf(va, i), b: (i: number) => indentOf(vb, i) };
  const runs: Run[] = [];
  for (const op of diffLineIds(va.ids, vb.ids, indent).ops) {
    if (op.op === 'delete') runs.push({ side: '-', v: va, from: op.a, n: op.n });
    else if (op.op === 'insert') runs.push({ side: '+', v: vb, from: op.b, n: op.n });
  }
  return runs;
}

/** The changed lines that match; `found` false when none does. */
function matchRuns(
  runs: Run[],
  matcher: TextMatcher,
): { lines: DiffLineHit[]; more: number; found: boolean } {
  const lines: DiffLineHit[] = [];
  let more = 0;
  for (const { side, v, from, n } of runs) {
    // one decode per run, and one test over it before looking at its lines
    const text = utf8.decode(v.bytes.subarray(v.starts[from], lineEnd(v, from + n - 1)));
    if (!matcher.test(text)) continue;
    const split = text.split('\n');
    for (let k = 0; k < split.length; k++) {
      if (!matcher.test(split[k])) continue;
      if (lines.length < MAX_FILE_LINE_HITS) lines.push(lineHit(side, from + k + 1, split[k], matcher));
      else more++;
    }
  }
  return { lines, more, found: lines.length + more > 0 };
}

/** One line interner for a search's file pairs (ids need not agree across pairs), replaced when it grows large. */
class LineIds {
  private interner = new ByteLineInterner();
  private fed = 0;

  versions(a: Uint8Array | null, b: Uint8Array | null): [ByteVersion | null, ByteVersion | null] {
    if (this.fed > INTERNER_BYTES) {
      this.interner = new ByteLineInterner();
      this.fed = 0;
    }
    this.fed += (a?.length ?? 0) + (b?.length ?? 0);
    const vb = b ? fullVersion(b, this.interner) : null;
    const va = a ? (vb ? deriveVersion(vb, a, this.interner) : fullVersion(a, this.interner)) : null;
    return [va, vb];
  }
}

/**
 * Whether a changed line of `a` -> `b` can match: the lines that are not whole equal lines at
 * the start or the end of both (what xdiff trims before diffing), tested as text. A superset
 * of the lines the diff marks changed, found without splitting or diffing the files.
 */
function middleMatches(a: Uint8Array, b: Uint8Array, matcher: TextMatcher): boolean {
  const pre = commonPrefix(a, b);
  const start = pre === 0 ? 0 : a.lastIndexOf(NEWLINE, pre - 1) + 1;
  const suf = commonSuffix(a, b, Math.min(a.length, b.length) - start);
  const middle = (x: Uint8Array) => {
    const nl = x.indexOf(NEWLINE, x.length - suf);
    return utf8.decode(x.subarray(start, nl < 0 ? x.length : nl + 1));
  };
  return matcher.test(middle(a)) || matcher.test(middle(b));
}

/** One changed file: its hit, or null. */
function searchPair(
  pair: FilePair,
  a: Uint8Array | null,
  b: Uint8Array | null,
  search: { matcher: TextMatcher; mode: DiffSearchMode; ids: LineIds },
): DiffFileHit | null {
  const { matcher, mode, ids } = search;
  const change = !a ? 'add' : !b ? 'delete' : 'modify';
  const binary = (a !== null && isBinary(a)) || (b !== null && isBinary(b));
  if (mode === 'lines') {
    if (binary) return null;
    if (a && b ? !middleMatches(a, b, matcher) : !matcher.test(utf8.decode((a ?? b)!))) return null;
    const { lines, more, found } = matchRuns(changedRuns(...ids.versions(a, b)), matcher);
    return found ? { path: pair.path, change, lines, moreLines: more } : null;
  }
  const before = a ? matcher.count(utf8.decode(a)) : 0;
  const after = b ? matcher.count(utf8.decode(b)) : 0;
  if (before === after) return null;
  const hit: DiffFileHit = { path: pair.path, change, lines: [], moreLines: 0, counts: { before, after } };
  if (binary) hit.binary = true;
  else {
    const { lines, more } = matchRuns(changedRuns(...ids.versions(a, b)), matcher);
    hit.lines = lines;
    hit.moreLines = more;
  }
  return hit;
}

function checkOptions(options: DiffSearchOptions): void {
  const bad = (field: string, what: string, value?: unknown) =>
    new QuarryError('InvalidArgument', `${field} must be ${what}`, { field, value });
  if (!options || typeof options !== 'object') throw bad('options', 'an object');
  if (!Array.isArray(options.commits)) throw bad('commits', 'an array of commits');
  const m = options.matcher as Partial<TextMatcher> | undefined;
  if (!m || typeof m.test !== 'function' || typeof m.ranges !== 'function' || typeof m.count !== 'function')
    throw bad('matcher', 'a TextMatcher (literalMatcher or regexMatcher)');
  if (options.mode !== undefined && options.mode !== 'lines' && options.mode !== 'count')
    throw bad('mode', "'lines' or 'count'", options.mode);
  const { limit } = options;
  if (
    limit !== undefined &&
    !(typeof limit === 'number' && limit >= 0 && (Number.isInteger(limit) || limit === Infinity))
  )
    throw bad('limit', 'a non-negative integer', limit);
}

/** Searches the commits' changes; hits stream through `onHit` and are returned too. */
export async function searchDiffs(options: DiffSearchOptions): Promise<DiffSearchResult> {
  checkOptions(options);
  const { commits, matcher, signal, pathFilter } = options;
  const mode = options.mode ?? 'lines';
  const limit = options.limit ?? Infinity;
  const maxBytes = options.maxBlobBytes ?? MAX_DIFF_BYTES;
  const reader = new Reader(options.objects, signal);
  const search = { matcher, mode, ids: new LineIds() };
  const skipped = { merges: 0, boundary: 0, tooLarge: 0, missing: 0 };
  const hits: DiffCommitHit[] = [];
  const total = commits.length;
  let searched = 0;
  let ending: DiffSearchResult['ending'] = 'done';
  let lastProgress = Date.now();
  const progress = (force: boolean) => {
    if (!options.onProgress || (!force && Date.now() - lastProgress < PROGRESS_MS)) return;
    lastProgress = Date.now();
    options.onProgress({ searched, total });
  };
  const side = async (oid: string | null): Promise<Uint8Array | null | undefined> => {
    if (!oid) return null;
    const bytes = await reader.blob(oid);
    if (!bytes) skipped.missing++;
    else if (bytes.length > maxBytes) skipped.tooLarge++;
    else return bytes;
    return undefined; // not searchable
  };
  try {
    for (let i = 0; i < total && hits.length < limit; i++) {
      if (i > 0) await options.maybeYield?.();
      if (signal?.aborted) throw new Cancelled();
      const commit = commits[i];
      searched++;
      if (commit.parents.length > 1) {
        skipped.merges++;
        continue;
      }
      const tree = await reader.commitTree(commit.oid);
      if (tree === null)
        throw new QuarryError('NotFound', `The commit ${commit.oid} is not in this repository`, {
          oid: commit.oid,
        });
      const parentTree =
        commit.parents.length && !commit.parentMissing ? await reader.commitTree(commit.parents[0]) : null;
      if (commit.parentMissing || (commit.parents.length && parentTree === null)) {
        skipped.boundary++;
        continue;
      }
      const files: DiffFileHit[] = [];
      for (const pair of await reader.diff(parentTree, tree)) {
        if (signal?.aborted) throw new Cancelled();
        if (pathFilter && !pathFilter(pair.path)) continue;
        const a = await side(pair.before);
        const b = await side(pair.after);
        if (a === undefined || b === undefined) continue;
        const hit = searchPair(pair, a, b, search);
        if (hit) files.push(hit);
      }
      if (files.length) {
        const hit: DiffCommitHit = { commit, index: i, files };
        hits.push(hit);
        options.onHit?.(hit);
      }
      progress(false);
    }
    if (hits.length >= limit && searched < total) ending = 'limit';
  } catch (err) {
    if (!(err instanceof Cancelled)) throw err;
    ending = 'cancelled';
  }
  progress(true);
  return { hits, searched, total, ending, skipped };
}
