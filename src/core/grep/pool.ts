/**
 * The search on a pool of threads. The coordinator walks (or lists an index's candidates) in
 * walk order as the one-thread search does, cuts the files into chunks that grow from a
 * first screenful (FIRST_CHUNK_BYTES) to MAX_CHUNK_BYTES, searches the first chunk itself (no
 * thread round trip before the first batch, and a small repository never starts a thread)
 * and hands the others to the lanes, two per lane in flight. Answers are merged in walk
 * order through the same SearchTally, file by file and line by line, so the summary, the
 * batches and the skips are exactly the one-thread search's; when the tally stops (a cap, the
 * sink) the chunks still out are cancelled and their answers dropped.
 */
import { toQuarryError } from '../errors';
import { createYielder, elapsedSince, now, type Yielder } from '../jobs/yielder';
import type { FileSource } from '../source/types';
import type { Workspace } from '../source/workspace';
import { resolvePolicy, type Skipped } from '../walk/policy';
import { compileRequest } from './compile-request';
import { filePlan, searchFileInto } from './file-search';
import { laneRequest, matchOf, searchChunk, type ChunkFile, type ChunkResult, type ChunkTask } from './lane';
import { isLaneLost } from './lane';
import { anchorOf, type SearchPrefilter } from './prefilter';
import { HeldFileView } from '../source/held-contents';
import {
  heldOf,
  rootPrefix,
  searchStarts,
  searchWalker,
  segmentsOf,
  withPrefix,
  type Candidates,
} from './search-files';
import { SearchTally } from './tally';
import type { GrepRequest, GrepSink, GrepSummary } from './types';

/** Threads that search chunks (see lane-pool.ts for the platform-free one). */
export interface SearchPool {
  /** Threads that take chunks at once. */
  readonly lanes: number;
  /** How the lanes reach a root: a path they open themselves, or null (the coordinator ships the bytes). */
  rootRef(source: FileSource): string | null;
  run(task: ChunkTask, signal: AbortSignal): Promise<ChunkResult>;
  /** A buffer of at least `bytes` bytes to pack a chunk's files in (a recycled one when the pool has it). */
  buffer?(bytes: number): Uint8Array;
  /**
   * Which chunks the coordinator searches itself: its 'share' (default: one in lanes + 1, so
   * its core works too) or only the 'first' (tests, to send the lanes more).
   */
  readonly coordinatorSearches?: 'first' | 'share';
  /**
   * Chunk sizes (tests shrink them to make many chunks of a small tree). With `smallBytes` set,
   * an indexed search stays on one thread by that size alone, not also for being a literal.
   */
  readonly chunking?: {
    firstBytes: number;
    maxBytes: number;
    maxFiles: number;
    localBytes?: number;
    smallBytes?: number;
    heavyShare?: number;
  };
}

/** The first chunk: about a screenful of results in typical code, searched at once. */
export const FIRST_CHUNK_BYTES = 128 * 1024;
export const MAX_CHUNK_BYTES = 4 * 1024 * 1024;
export const MAX_CHUNK_FILES = 512;
/** The first bytes of a search are searched on the coordinator whatever else it does: less than this is not worth a round trip (an indexed search of a few candidates). */
export const LOCAL_FIRST_BYTES = 2 * 1024 * 1024;
/**
 * An indexed search runs on one thread unless its candidates hold more than this many bytes
 * and its matcher is more than a literal (see onOneThread).
 */
export const SMALL_SEARCH_BYTES = 48 * 1024 * 1024;
/** What a file the walk did not stat counts for in a chunk's size. */
const UNSTATED_FILE_BYTES = 16 * 1024;
/** A lane's answer carrying more than 1/HEAVY_ANSWER_SHARE of its chunk's bytes as line text turns the lanes off for the search (0 in chunking.heavyShare: never). */
const HEAVY_ANSWER_SHARE = 4;
/** So does a chunk this thread searched itself that delivered more lines than this per file (the bench's `return`: ~25). */
const HEAVY_LINES_PER_FILE = 8;
/** Chunks a lane holds at once (one searching, one waiting: no idle gap between them). */
export const IN_FLIGHT_PER_LANE = 2;

export interface PoolSearchOptions {
  signal?: AbortSignal;
  /** The index's candidates, when the caller has them already. */
  candidates?: Candidates | null;
  prefilter?: SearchPrefilter;
  bytePrefilter?: boolean;
  literalLines?: boolean;
  rangeMargin?: number;
  /** The required clause that finds candidate lines (see PlanOptions.anchor); absent: the index's rarest. */
  anchor?: readonly string[] | null;
  /**
   * Gives the coordinator's thread back between files (default: a 12 ms budget), so a cancel, a
   * batch's timer and other calls are served while it searches its own chunks; the CLI and the
   * bench pass NEVER_YIELD.
   */
  yielder?: Yielder;
}

/** Numbers searches (with a random start: several coordinators may share a pool's threads). */
let nextSearch = Math.floor(Math.random() * 2 ** 30);

interface Pending {
  files: Array<ChunkFile & { seq: number }>;
  answer: Promise<ChunkResult>;
  /** Bytes a lane was sent to search (0: the coordinator searched it). */
  laneBytes: number;
  /** The answer has come (merging it waits for nothing). */
  settled: boolean;
}

export async function poolSearch(
  workspace: Workspace,
  req: GrepRequest,
  sink: GrepSink,
  pool: SearchPool,
  options: PoolSearchOptions = {},
): Promise<GrepSummary> {
  const t0 = now();
  const compiled = compileRequest(req);
  const tally = new SearchTally(compiled.maxResults, compiled.countLimit, sink);
  const prefilter = options.prefilter;
  const candidates =
    options.candidates !== undefined
      ? options.candidates
      : prefilter
        ? prefilter.candidates(compiled.matcher)
        : null;
  const anchor =
    options.anchor !== undefined ? options.anchor : anchorOf(prefilter, candidates, compiled.matcher);
  const starts = await searchStarts(workspace, req.directory ?? '');
  const yielder = options.yielder ?? createYielder();
  const outstanding = new AbortController();
  const signal = options.signal;
  const onAbort = () => outstanding.abort();
  signal?.addEventListener('abort', onAbort);
  const run: PoolRun = {
    workspace,
    req,
    pool,
    compiled,
    tally,
    prefilter,
    candidates,
    localPlan: filePlan(compiled, { ...options, anchor }),
    signal,
    outstanding,
    base: {
      search: nextSearch++,
      request: laneRequest(req),
      plan: {
        bytePrefilter: options.bytePrefilter,
        literalLines: options.literalLines,
        rangeMargin: options.rangeMargin,
        anchor,
        indexed: !!prefilter,
      },
      deliver: compiled.maxResults,
      count: tally.countCeiling + 1,
    },
    heavyShare: pool.chunking?.heavyShare ?? HEAVY_ANSWER_SHARE,
    maybeYield: async () => {
      const y = yielder.maybeYield();
      if (y) await y;
    },
    chunkNo: 0,
    lanesOff: false,
    localTail: Promise.resolve(),
    dispatched: 0,
  };

  try {
    for (const { rootIndex, rel: start } of starts) {
      if (tally.done) break;
      await new RootSearch(run, rootIndex).search(start);
    }
  } catch (err) {
    const qe = toQuarryError(err);
    if (qe.code === 'Cancelled') tally.cancel();
    else throw qe;
  } finally {
    outstanding.abort(); // chunks still out are not needed
    signal?.removeEventListener('abort', onAbort);
  }
  return tally.summary(elapsedSince(t0), compiled.matcher.strategy + (candidates ? '+trigram' : ''));
}

/** One search on the pool: what the walks of its roots share. */
interface PoolRun {
  workspace: Workspace;
  req: GrepRequest;
  pool: SearchPool;
  compiled: ReturnType<typeof compileRequest>;
  tally: SearchTally;
  prefilter: SearchPrefilter | undefined;
  candidates: Candidates | null;
  localPlan: ReturnType<typeof filePlan>;
  signal: AbortSignal | undefined;
  /** Aborted when the search ends: the chunks still out. */
  outstanding: AbortController;
  /** Every chunk's task but its root and files. */
  base: Omit<ChunkTask, 'root' | 'files'>;
  heavyShare: number;
  maybeYield: () => Promise<void>;
  chunkNo: number;
  /** The lanes' answers cost more than they save: every chunk from here is searched on this thread while lines are still delivered. */
  lanesOff: boolean;
  /** The coordinator's own chunk in progress (its next one starts after it). */
  localTail: Promise<unknown>;
  /** Bytes handed out so far (to the coordinator or the lanes). */
  dispatched: number;
}

/** One root's walk cut into chunks, handed out, and merged in walk order. */
class RootSearch {
  private readonly source: FileSource;
  private readonly prefix: string;
  private readonly root: string | null;
  private readonly walkSkips: Array<{ seq: number; skip: Skipped }> = [];
  private yielded = 0;
  private flushed = 0;
  private readonly inFlight: Pending[] = [];
  private chunk: Array<ChunkFile & { seq: number }> = [];
  private chunkBytes = 0;
  private target: number;
  private readonly maxBytes: number;
  private readonly maxFiles: number;
  private readonly localFirst: number;
  /** Files held in memory (the direct path): searched and shipped from there. */
  private readonly held: ((path: string) => Uint8Array | undefined) | null;
  private readonly view: HeldFileView | null;

  constructor(
    private readonly run: PoolRun,
    private readonly rootIndex: number,
  ) {
    const { workspace, pool } = run;
    this.source = workspace.roots[rootIndex];
    this.prefix = rootPrefix(workspace, rootIndex);
    this.held = heldOf(run.req, run.prefilter, run.candidates);
    this.view = this.held ? new HeldFileView(this.source) : null;
    // files held in memory are shipped to the lanes from there, never opened by them
    this.root = this.held ? null : pool.rootRef(this.source);
    const { firstBytes, maxBytes, maxFiles } = pool.chunking ?? {
      firstBytes: FIRST_CHUNK_BYTES,
      maxBytes: MAX_CHUNK_BYTES,
      maxFiles: MAX_CHUNK_FILES,
    };
    this.target = firstBytes;
    this.maxBytes = maxBytes;
    this.maxFiles = maxFiles;
    this.localFirst = pool.chunking?.localBytes ?? LOCAL_FIRST_BYTES;
  }

  /** Walk from `start`, dispatching chunks and merging their answers. */
  async search(start: string): Promise<void> {
    const { workspace, req, compiled, prefilter, candidates, signal, tally, pool } = this.run;
    const { prefix } = this;
    const walker = searchWalker({
      workspace,
      rootIndex: this.rootIndex,
      start,
      req,
      filter: compiled.filter,
      prefilter,
      candidates,
      signal,
      onSkip: (s) => this.walkSkips.push({ seq: this.yielded, skip: withPrefix(prefix, s) }),
      // lanes that open the root stat each file themselves, in parallel: the walk only lists
      statFiles: this.root === null,
    });
    const maxFileBytes = resolvePolicy({ maxFileBytes: req.maxFileBytes }).maxFileBytes;
    let stopped = false;
    for await (const file of walker) {
      if (signal?.aborted) {
        tally.cancel();
        stopped = true;
        break;
      }
      const path = prefix + file.path;
      const segments = segmentsOf(path, candidates, prefilter);
      const unstated = file.size < 0;
      this.chunk.push({
        seq: this.yielded++,
        rel: file.path,
        path,
        segments,
        ...(unstated ? { checkBytes: maxFileBytes } : {}),
      });
      this.chunkBytes += segments
        ? segments.ranges.reduce((n, r) => n + Math.min(r.end, segments.size) - r.start, 0)
        : unstated
          ? UNSTATED_FILE_BYTES
          : file.size;
      if ((this.chunkBytes >= this.target || this.chunk.length >= this.maxFiles) && (await this.dispatch())) {
        stopped = true;
        break;
      }
      const { inFlight } = this;
      while (
        inFlight.length &&
        (inFlight.length > pool.lanes * IN_FLIGHT_PER_LANE + 1 || inFlight[0].settled)
      ) {
        if (await this.mergeOldest()) {
          stopped = true;
          break;
        }
      }
      if (stopped) break;
      await this.run.maybeYield();
    }
    if (!stopped) {
      stopped = await this.dispatch();
      while (this.inFlight.length && !stopped) stopped = await this.mergeOldest();
    }
    if (!stopped) this.skipsBefore(Infinity);
  }

  /** The walk's skips found before the file at `seq` was (as the one-thread search records them). */
  private skipsBefore(seq: number): void {
    const { walkSkips } = this;
    while (this.flushed < walkSkips.length && walkSkips[this.flushed].seq <= seq)
      this.run.tally.skip(walkSkips[this.flushed++].skip);
  }

  /** A chunk searched straight into the tally, as one thread does (nothing before it is pending): true to stop. */
  private async searchHere(files: Array<ChunkFile & { seq: number }>): Promise<boolean> {
    const { tally, signal, localPlan, heavyShare } = this.run;
    const linesBefore = tally.delivered;
    for (const f of files) {
      if (signal?.aborted) {
        tally.cancel();
        return true;
      }
      this.skipsBefore(f.seq);
      const bytes = this.held?.(f.path);
      const source = bytes ? this.view!.use(bytes) : this.source;
      if ((await searchFileInto(tally, source, f, localPlan, this.prefix)) === 'stop') return true;
      await this.run.maybeYield();
    }
    // Many lines a file (a very common string): the lanes' answers would only add packing and
    // copying. Lines, not characters: one minified file's megabyte line is cheap to hand over,
    // and the walk's sizes are estimates where it did not stat.
    if (heavyShare > 0 && tally.delivered - linesBefore > HEAVY_LINES_PER_FILE * files.length)
      this.run.lanesOff = true;
    return false;
  }

  /** Hand the chunk cut so far to a lane or to this thread; true when the search must stop. */
  private async dispatch(): Promise<boolean> {
    if (!this.chunk.length) return false;
    const { run, source, root } = this;
    const { tally, base, pool, outstanding } = run;
    const files = this.chunk;
    const sentBytes = this.chunkBytes;
    this.chunk = [];
    this.chunkBytes = 0;
    // What the chunk can still matter for: what is merged so far is a lower bound on what
    // comes before it, so it never needs more matches, or more lines counted, than this.
    const task: ChunkTask = {
      ...base,
      root,
      files: files.map(({ seq: _seq, ...f }) => f),
      deliver: Math.max(0, base.deliver - tally.delivered),
      count: Math.max(1, base.count - tally.total),
    };
    let answer: Promise<ChunkResult>;
    const early = run.dispatched < this.localFirst;
    run.dispatched += sentBytes;
    const turn = run.chunkNo++;
    // Its share after that: one chunk in (lanes + 1). Not "whenever it has none": its reads
    // are synchronous (Node's fs) or in memory, so its own chunk is always done by the time
    // the walk cuts the next one, and the lanes would get nothing.
    // (heavy answers cost only while lines are delivered: a chunk that just counts answers light)
    const off = run.lanesOff && tally.delivered < tally.maxResults;
    const mine = pool.coordinatorSearches === 'first' ? turn === 0 : !off && turn % (pool.lanes + 1) === 0;
    const local = early || mine || off;
    this.target = Math.min(this.target * 2, this.maxBytes);
    // Nothing before it is pending: its matches go to the sink file by file, as one thread's do
    // (held in a chunk's answer until merged, a very common string's line objects lived long
    // enough for the garbage collector to promote them: 1.05 s against one thread's 0.75 s).
    if (local && !this.inFlight.length) return this.searchHere(files);
    if (local) {
      // read from the workspace's own source (the first ones always: the first batch with no round trip)
      // One of its own chunks at a time: a source's transient read buffer (readTransient)
      // serves one reader, and two chunks in turn on this thread would read each other's bytes.
      answer = run.localTail.then(() => searchChunk(source, task, outstanding.signal, this.held));
      run.localTail = answer.catch(() => undefined);
    } else {
      if (root === null) await shipBytes(source, task, pool, this.held, run.prefilter);
      const files = task.files;
      // a chunk a lane cannot answer (the thread died) is searched here
      answer = pool
        .run(task, outstanding.signal)
        .catch((err: unknown) =>
          isLaneLost(err)
            ? searchChunk(source, { ...task, files, packed: undefined }, outstanding.signal, this.held)
            : Promise.reject(err),
        );
    }
    const pending: Pending = { files, answer, settled: false, laneBytes: local ? 0 : sentBytes };
    const settle = () => void (pending.settled = true);
    answer.then(settle, settle); // merged (or dropped) in order below
    this.inFlight.push(pending);
    return false;
  }

  /** Merge the oldest chunk; true when the search must stop. */
  private async mergeOldest(): Promise<boolean> {
    const { tally, heavyShare } = this.run;
    const { files, answer, laneBytes } = this.inFlight.shift()!;
    const result = await answer;
    // Answers heavier than a quarter of what was searched (a very common string's lines):
    // packing, copying and unpacking them costs more than searching here, so the rest is.
    if (heavyShare > 0 && laneBytes && (result.wire?.text.length ?? 0) > laneBytes / heavyShare)
      this.run.lanesOff = true;
    for (let i = 0; i < files.length; i++) {
      const f = files[i];
      this.skipsBefore(f.seq);
      const r = result.files[i];
      if (r.outcome === 'unsearched')
        throw new Error(`search pool: ${f.path} was not searched before the search stopped`);
      if (r.outcome === 'absent') {
        tally.searched();
        continue;
      }
      if (typeof r.outcome === 'object') {
        tally.skip(withPrefix(this.prefix, r.outcome));
        continue;
      }
      for (let k = 0; k < r.count; k++) {
        if (!tally.line(() => matchOf(result, r, k, f.path) ?? missingMatch(f.path, k))) break;
      }
      tally.searched();
      if (tally.finishFile(f.path)) return true;
    }
    return false;
  }
}

/**
 * Whether an indexed search is better on one thread than on the pool. Measured on the bench
 * corpus (2 cores): a literal's lines are found at memory speed, so the lanes' round trips, the
 * chunking and the merge cost more than a second core gains (`return` in 3,600 files: 252 ms
 * alone, 314 ms on the pool; 64 candidate files: 7 ms and 9-21 ms), and so for any search of
 * a few tens of MB; a regex verified over 66 MB of candidates gained (127 ms, 97 ms).
 */
export function onOneThread(
  candidates: Candidates | null,
  prefilter: SearchPrefilter | undefined,
  strategy: string,
  pool: SearchPool,
): boolean {
  if (!candidates) return false;
  // (tests that set smallBytes decide by size alone)
  const measured = pool.chunking?.smallBytes === undefined;
  // one lane beside the coordinator, which also walks and merges: no indexed query gained (a regex
  // over 66 MB of candidates took 199 ms alone, 271 ms on the pool)
  if (measured && (strategy === 'literal' || pool.lanes < 2)) return true;
  const small = pool.chunking?.smallBytes ?? SMALL_SEARCH_BYTES;
  return candidateBytes(candidates, prefilter, small) <= small;
}

/** The bytes an index's candidates leave to read (stops counting past `enough`; Infinity without an index or a size). */
function candidateBytes(
  candidates: Candidates | null,
  prefilter: SearchPrefilter | undefined,
  enough: number,
): number {
  if (!candidates || !prefilter?.sizeOf) return Infinity;
  let n = 0;
  for (const [path, ranges] of candidates) {
    const size = prefilter.sizeOf(path);
    if (size === undefined) return Infinity;
    n += ranges ? ranges.reduce((t, r) => t + Math.max(0, Math.min(r.end, size) - r.start), 0) : size;
    if (n > enough) break;
  }
  return n;
}

/** Read each file's bytes into one packed buffer of the task (for lanes that cannot open the root). */
async function shipBytes(
  source: FileSource,
  task: ChunkTask,
  pool: SearchPool,
  held: ((path: string) => Uint8Array | undefined) | null,
  prefilter: SearchPrefilter | undefined,
): Promise<void> {
  const parts: Array<Uint8Array | null> = [];
  let total = 0;
  for (const f of task.files) {
    try {
      const inMemory = held?.(f.path);
      const bytes = inMemory ?? (await source.read(f.rel));
      f.mtimeMs = inMemory ? prefilter?.mtimeOf?.(f.path) : (await source.stat(f.rel))?.mtimeMs;
      parts.push(bytes);
      total += bytes.byteLength;
    } catch (err) {
      const e = toQuarryError(err);
      f.error = { code: e.code, message: e.message, data: JSON.parse(JSON.stringify(e.data ?? {})) };
      parts.push(null);
    }
  }
  const packed = pool.buffer ? pool.buffer(total) : new Uint8Array(total);
  let at = 0;
  task.files.forEach((f, i) => {
    const bytes = parts[i];
    if (!bytes) return;
    packed.set(bytes, at);
    f.offset = at;
    f.length = bytes.byteLength;
    at += bytes.byteLength;
  });
  task.packed = packed.subarray(0, total);
}

function missingMatch(path: string, k: number): never {
  throw new Error(`search pool: a lane did not hand back match ${k + 1} of ${path}`);
}
