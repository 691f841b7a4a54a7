/**
 * A lane of the search pool: a thread that searches a chunk of consecutive files (in walk
 * order) and answers, per file, how it went, how many lines matched and the first matches.
 * It hands back at most `deliver` matches and counts at most `count` lines per chunk (then
 * stops): the coordinator, merging chunks in walk order, can never need more (tally.ts).
 *
 * A lane reads a root it can open by path itself (Node: the CLI's roots on disk); otherwise
 * the coordinator ships each file's bytes in the task (the browser's in-memory snapshot:
 * structured clone copies them, ~GB/s, and the engine keeps its own). serveLane is the
 * thread side of the messages; searchChunk is what it runs, here or on the coordinator.
 */
import { HeldFileView } from '../source/held-contents';
import { QuarryError, toQuarryError, type QuarryErrorJSON } from '../errors';
import type { DirEntry, FileSource, FileStat } from '../source/types';
import { fileOnWalk } from '../walk/walk';
import { compileRequest } from './compile-request';
import {
  filePlan,
  searchFile,
  type FileOutcome,
  type FileSegments,
  type OnMatchLine,
  type PlanOptions,
} from './file-search';
import { packMatches, unpackMatch, type PackedMatches } from './match-codec';
import type { GrepMatch, GrepRequest } from './types';

/** A chunk a lane will not answer (it died, or none could start): the coordinator searches it itself. */
export function laneLost(reason: string): QuarryError {
  return new QuarryError('EngineError', `A search thread stopped: ${reason}`, { reason: 'laneLost' });
}

export function isLaneLost(err: unknown): boolean {
  return err instanceof QuarryError && err.data.reason === 'laneLost';
}

export interface ChunkFile {
  /** Root-relative path (read with it). */
  rel: string;
  /** Workspace path (delivered with it). */
  path: string;
  segments: FileSegments | null;
  /** Set when the walk did not stat the file: the lane checks it first, against this many bytes (fileOnWalk). */
  checkBytes?: number;
  /** Shipped content (when the lane cannot open the root): where it is in the task's `packed` bytes, or why it could not be read. */
  offset?: number;
  length?: number;
  mtimeMs?: number;
  error?: QuarryErrorJSON;
}

export interface ChunkTask {
  /** Which search this chunk belongs to: a lane opens each root once per search. */
  search: number;
  /** What compiles the matcher and shapes a delivered line (the pattern, its modes, context, maxLineChars). */
  request: GrepRequest;
  plan: PlanOptions & { indexed: boolean };
  /** A root the lane opens by path, or null: every file's bytes are in `files`. */
  root: string | null;
  files: ChunkFile[];
  /**
   * The shipped files' bytes, one after the other in one buffer: it is transferred to the lane
   * and back with the answer, and reused for a later chunk (fresh memory is what costs most).
   */
  packed?: Uint8Array;
  /** Matches the chunk may hand back (the search's maxResults). */
  deliver: number;
  /** Lines the chunk may count before it stops (one past the most the search can count). */
  count: number;
}

export interface ChunkFileResult {
  /** 'unsearched': after the chunk's count ran out (the coordinator stops before it). */
  outcome: FileOutcome | 'unsearched';
  count: number;
  /** The matches handed back, as objects (on this thread) or as `first`, `n` of the result's `wire`. */
  matches?: GrepMatch[];
  first?: number;
  n?: number;
}

export interface ChunkResult {
  files: ChunkFileResult[];
  /** Every file's matches, packed to cross a thread boundary (see match-codec.ts). */
  wire?: PackedMatches;
  /** The task's packed bytes, handed back for reuse. */
  packed?: Uint8Array;
}

/** The fields of a request a lane needs (no path filters: the coordinator chose the files). */
export function laneRequest(req: GrepRequest): GrepRequest {
  const { pattern, mode, caseMode, wholeWord, contextBefore, contextAfter, maxLineChars } = req;
  return { pattern, mode, caseMode, wholeWord, contextBefore, contextAfter, maxLineChars };
}

let lastCompiled: { key: string; compiled: ReturnType<typeof compileRequest> } | null = null;

function compiledFor(req: GrepRequest) {
  const key = JSON.stringify(req);
  if (lastCompiled?.key !== key) lastCompiled = { key, compiled: compileRequest(req) };
  return lastCompiled.compiled;
}

/** Search a chunk's files in order on this thread. */
export async function searchChunk(
  source: FileSource,
  task: ChunkTask,
  signal?: AbortSignal,
  /** The bytes of files held in memory (search-files.ts heldOf): read from there, not from `source`. */
  held?: ((path: string) => Uint8Array | undefined) | null,
): Promise<ChunkResult> {
  const plan = filePlan(compiledFor(task.request), task.plan);
  const view = held ? new HeldFileView(source) : null;
  const files: ChunkFileResult[] = [];
  let counted = 0;
  let delivered = 0;
  let stop = false;
  for (const f of task.files) {
    if (stop || signal?.aborted) {
      files.push({ outcome: 'unsearched', count: 0, matches: [] });
      continue;
    }
    const bytes = held?.(f.path);
    const from = bytes ? view!.use(bytes) : source;
    if (f.checkBytes !== undefined) {
      const skip = await fileOnWalk(from, f.rel, f.checkBytes);
      if (skip) {
        files.push({ outcome: skip, count: 0 });
        continue;
      }
    }
    let count = 0;
    const matches: GrepMatch[] = [];
    const onLine: OnMatchLine = (make) => {
      count++;
      counted++;
      if (delivered < task.deliver) {
        delivered++;
        matches.push(make());
      }
      if (counted >= task.count) {
        stop = true;
        return false;
      }
      return true;
    };
    onLine.countOnly = () => delivered >= task.deliver;
    const outcome = await searchFile(from, f.rel, f.path, plan, f.segments, onLine);
    files.push({ outcome, count, matches });
  }
  if (signal?.aborted) throw new QuarryError('Cancelled', 'The search was cancelled', {});
  return task.packed ? { files, packed: task.packed } : { files };
}

/** The files shipped in a task, as a FileSource (read-only, flat). */
export class ShippedSource implements FileSource {
  readonly name = '';
  readonly absoluteRoot = '';
  private readonly files = new Map<string, ChunkFile>();

  constructor(
    files: readonly ChunkFile[],
    private readonly packed: Uint8Array | undefined,
  ) {
    for (const f of files) this.files.set(f.rel, f);
  }

  private bytes(f: ChunkFile | undefined): Uint8Array | null {
    return f?.offset !== undefined && this.packed
      ? this.packed.subarray(f.offset, f.offset + (f.length ?? 0))
      : null;
  }

  async list(): Promise<DirEntry[]> {
    return [];
  }

  async stat(path: string): Promise<FileStat | null> {
    const f = this.files.get(path);
    const bytes = this.bytes(f);
    return bytes ? { kind: 'file', size: bytes.byteLength, mtimeMs: f!.mtimeMs ?? 0 } : null;
  }

  async read(path: string): Promise<Uint8Array> {
    const f = this.files.get(path);
    if (f?.error) throw QuarryError.fromJSON(f.error);
    const bytes = this.bytes(f);
    if (!bytes) throw new QuarryError('NotFound', `No such file: ${path}`, { path });
    return bytes;
  }
}

/** Roots opened for the latest search (its inside-the-root checks are kept for that search only, as the one-thread search's are). */
let opened: { search: number; roots: Map<string, FileSource> } = { search: -1, roots: new Map() };

/** A chunk's answer as a thread sends it: its matches packed in one string and one array. */
export function toWire(result: ChunkResult): ChunkResult {
  const all: GrepMatch[] = [];
  const files = result.files.map(({ matches = [], ...f }) => {
    const first = all.length;
    all.push(...matches);
    return { ...f, first, n: matches.length };
  });
  return { ...result, files, wire: packMatches(all) };
}

/** The k-th match of a file of a chunk's answer, under `path`; null when it was not handed back. */
export function matchOf(
  result: ChunkResult,
  file: ChunkFileResult,
  k: number,
  path: string,
): GrepMatch | null {
  if (file.matches) return file.matches[k] ?? null;
  if (!result.wire || file.first === undefined || k >= (file.n ?? 0)) return null;
  return unpackMatch(result.wire, file.first + k, path);
}

/** The source a task's files are read from. */
export function taskSource(task: ChunkTask, openRoot: ((root: string) => FileSource) | null): FileSource {
  if (task.root === null) return new ShippedSource(task.files, task.packed);
  if (!openRoot)
    throw new QuarryError('Internal', 'This lane cannot open roots by path', { root: task.root });
  if (opened.search !== task.search) opened = { search: task.search, roots: new Map() };
  let source = opened.roots.get(task.root);
  if (!source) opened.roots.set(task.root, (source = openRoot(task.root)));
  return source;
}

export type LaneMessage = { id: number; task: ChunkTask } | { cancel: number };
export type LaneReply =
  { id: number; result: ChunkResult } | { id: number; error: QuarryErrorJSON; packed?: Uint8Array };

/** What a message carries that moves rather than copies: a task's or an answer's packed bytes. */
export function transferables(m: LaneMessage | LaneReply): ArrayBuffer[] {
  const packed =
    'task' in m ? m.task.packed : 'result' in m ? m.result.packed : 'packed' in m ? m.packed : undefined;
  return packed && packed.buffer instanceof ArrayBuffer ? [packed.buffer] : [];
}

/** The thread side: answer each task (cancels abort the one they name). */
export function serveLane(
  openRoot: ((root: string) => FileSource) | null,
  reply: (r: LaneReply) => void,
): (m: LaneMessage) => void {
  const running = new Map<number, AbortController>();
  /**
   * Tasks run one after another, never interleaved: they share the root this thread opened,
   * whose transient read buffer (readTransient) and held descriptor (statFile) serve one reader.
   */
  let tail: Promise<void> = Promise.resolve();
  return (m) => {
    if ('cancel' in m) {
      running.get(m.cancel)?.abort();
      return;
    }
    const ctl = new AbortController();
    running.set(m.id, ctl);
    tail = tail.then(async () => {
      try {
        reply({
          id: m.id,
          result: toWire(await searchChunk(taskSource(m.task, openRoot), m.task, ctl.signal)),
        });
      } catch (err) {
        const e = toQuarryError(err);
        reply({
          id: m.id,
          error: { code: e.code, message: e.message, data: JSON.parse(JSON.stringify(e.data ?? {})) },
          packed: m.task.packed,
        });
      } finally {
        running.delete(m.id);
      }
    });
  };
}
