/**
 * The steps of an index build (service.ts runs them):
 *   1. the text index: every file read once, into the trigram index, and classified: ranked
 *      with symbols (a parser), ranked as blocks (no parser), text only (minified, generated)
 *      or in no index (binary/unreadable now);
 *   2. the chunk index: each ranked file read again and handed to the FileChunker (a pool of
 *      parsing threads, or this thread), the answers applied in the order asked, so a pool
 *      builds the very index one thread builds. Reading twice costs far less than holding a
 *      repository's text while the parsers catch up, and lets step 1 end (text search indexed)
 *      long before step 2.
 * An incremental refresh reads its few files once and prepares both indexes' changes aside.
 */
import { textOnlyReason, chunkMethodFor } from '../chunk/any';
import { grammarLanguageOf } from '../chunk';
import { InOrderWindow, type FileChunker } from '../chunk/pool';
import type { Chunk } from '../chunk/types';
import { QuarryError, toQuarryError } from '../errors';
import type { Yielder } from '../jobs/yielder';
import type { Skipped } from '../walk/policy';
import type { TextResult } from '../walk/walk';
import { ChunkIndex } from './bm25';
import { splitLinesForIndex } from './lines';
import type { Tokenizer } from './tokenize';
import { TrigramIndex } from './trigram';

/** How the indexes hold a file: 'none' = in neither (binary or unreadable when last read). */
export type FileKind = 'symbols' | 'blocks' | 'minified' | 'generated' | 'failed' | 'none';

export interface FileRow {
  size: number;
  mtimeMs: number;
  kind: FileKind;
  /** Why, for minified, generated and failed files. */
  detail?: string;
}

export interface BuildProgress {
  /** scanning: walking; indexing: the text index; parsing: the symbol chunks; saving. */
  phase: 'scanning' | 'indexing' | 'parsing' | 'saving';
  loaded: number;
  total: number;
}

export interface BuildContext {
  read(path: string): Promise<TextResult>;
  chunker(): Promise<FileChunker>;
  signal?: AbortSignal;
  yielder: Yielder;
  onProgress?: (p: BuildProgress) => void;
  skipped: Skipped[];
  tokenizer?: Tokenizer;
  segmentChars?: number;
}

export const cancelledError = () => new QuarryError('Cancelled', 'Indexing was cancelled');

/** The grammar a file needs, as the pool's affinity key (a thread that has it loaded is preferred). */
const grammarOf = (path: string): string | undefined => grammarLanguageOf(path) ?? undefined;

/**
 * Files (and characters) waiting in order for their chunks: enough that a long file at the
 * head of the line does not leave the other threads idle.
 */
const WINDOW_FILES_PER_THREAD = 1024;
const WINDOW_CHARS = 32 * 1024 * 1024;
/** Step 1 keeps the ranked files' texts for step 2 up to this many characters; the rest is read again. */
const KEPT_CHARS = 64 * 1024 * 1024;

/** Whether a file of this kind is in the ranked (chunk) index. */
export const isRanked = (kind: FileKind | undefined): boolean => kind === 'symbols' || kind === 'blocks';

/** Marks a file read now: its kind from its text (the row keeps size and mtime from the walk). */
function classify(path: string, text: string, row: FileRow): void {
  const textOnly = textOnlyReason(path, text);
  row.kind = textOnly ? textOnly.reason : chunkMethodFor(path);
  row.detail = textOnly?.detail;
}

async function step(
  ctx: BuildContext,
  done: number,
  total: number,
  phase: BuildProgress['phase'],
): Promise<void> {
  if (done % 100 === 0) ctx.onProgress?.({ phase, loaded: done, total });
  const y = ctx.yielder.maybeYield();
  if (y) await y;
  if (ctx.signal?.aborted) throw cancelledError();
}

/** A file for step 2: its text when step 1 kept it, null to read it again, 'sent' when it is already with the parsers. */
export type RankedFile = [path: string, row: FileRow, text: string | null | 'sent'];

/**
 * The chunk index being built: files go to the chunker in the ranked order and their chunks
 * are applied in that order. During step 1 files are only OFFERED (sent while the window has
 * room, nothing applied), so the parsing threads work while this thread builds the text index
 * and the text index is not held up; step 2 applies those answers first, then sends the rest.
 */
export class ChunkStep {
  readonly index: ChunkIndex;
  private window: InOrderWindow<Chunk[]> | null = null;
  private chunker: FileChunker | null = null;
  /** Once a file could not be offered, no later one is (the order of application is the ranked order). */
  private closed = false;

  constructor(private readonly ctx: BuildContext) {
    this.index = new ChunkIndex({ tokenizer: ctx.tokenizer });
  }

  private async ready(): Promise<{ chunker: FileChunker; window: InOrderWindow<Chunk[]> }> {
    this.chunker ??= await this.ctx.chunker();
    this.window ??= new InOrderWindow<Chunk[]>(
      WINDOW_FILES_PER_THREAD * this.chunker.parallelism,
      WINDOW_CHARS,
      this.ctx.signal,
    );
    return { chunker: this.chunker, window: this.window };
  }

  /** The grammars the files at these paths need start loading now, in parallel (the chunker is made if need be). */
  async prepare(paths: Iterable<string>): Promise<void> {
    const keys = new Set<string>();
    for (const p of paths) {
      const k = grammarOf(p);
      if (k) keys.add(k);
    }
    if (keys.size === 0) return;
    try {
      const { chunker } = await this.ready();
      // shared out among all the threads (kept on the threads step 1 uses, step 2 found one thread's backlog
      // holding up the other: 11.5 s against 9.4 s on the bench corpus)
      chunker.prepare?.([...keys]);
    } catch {
      // no chunker: step 2 asks again and reports it
    }
  }

  /** Step 1: hands the file to the parsers now if there is room; false when it must wait for step 2. */
  async offer(path: string, row: FileRow, text: string): Promise<boolean> {
    if (this.closed) return false;
    let parts;
    try {
      parts = await this.ready();
    } catch {
      this.closed = true; // step 2 asks again and reports the failure
      return false;
    }
    if (parts.chunker.parallelism < 2) {
      this.closed = true; // on this thread: parsing now would only delay the text index
      return false;
    }
    // one core stays with this thread: the text index is not slowed down
    const threads = parts.chunker.parallelism - 1;
    const start = () =>
      parts.chunker.chunk(path, text, { threads, signal: this.ctx.signal, affinity: grammarOf(path) });
    this.closed = !parts.window.offer(
      start,
      text.length,
      this.answered(path, row, this.intoIndex(path, row, text)),
    );
    return !this.closed;
  }

  /** Step 2: hands the file to the parsers, applying earlier answers while the window is full. */
  send(path: string, row: FileRow, text: string): Promise<void> {
    return this.sendThen(path, row, text, this.intoIndex(path, row, text));
  }

  /** Hands the file to the parsers; `use` gets its chunks in the order files were sent (a failure marks the row). */
  async sendThen(path: string, row: FileRow, text: string, use: (chunks: Chunk[]) => void): Promise<void> {
    const { chunker, window } = await this.ready();
    const answer = chunker.chunk(path, text, { signal: this.ctx.signal, affinity: grammarOf(path) });
    await window.push(answer, text.length, this.answered(path, row, use));
  }

  private intoIndex(path: string, row: FileRow, text: string): (chunks: Chunk[]) => void {
    return (chunks) => this.index.setFile(path, row, chunks, splitLinesForIndex(text));
  }

  private answered(path: string, row: FileRow, use: (chunks: Chunk[]) => void) {
    return (r: { ok: true; value: Chunk[] } | { ok: false; error: unknown }): void =>
      r.ok ? use(r.value) : failed(this.ctx, path, row, r.error);
  }

  /** Waits for every answer out, applying them in order. */
  async drain(): Promise<void> {
    await this.window?.drain();
    if (this.ctx.signal?.aborted) throw cancelledError();
  }

  async finish(): Promise<ChunkIndex> {
    await this.drain();
    this.index.compact();
    return this.index;
  }
}

/** Step 1 of a full build: the text index and the table; `ranked` lists the files for step 2, in order. */
export async function buildTextIndex(
  ctx: BuildContext,
  rows: Array<[string, FileRow]>,
  chunks: ChunkStep,
): Promise<{ trigrams: TrigramIndex; table: Map<string, FileRow>; ranked: RankedFile[] }> {
  const trigrams = new TrigramIndex(ctx.segmentChars);
  const table = new Map<string, FileRow>();
  const ranked: RankedFile[] = [];
  let kept = 0;
  let done = 0;
  for (const [path, row] of rows) {
    if (ctx.signal?.aborted) throw cancelledError();
    table.set(path, row);
    const text = await ctx.read(path);
    if (!text.ok) ctx.skipped.push({ ...text.skipped, path });
    else {
      trigrams.addFile(path, text.text, row.size);
      classify(path, text.text, row);
      if (isRanked(row.kind)) {
        if (await chunks.offer(path, row, text.text)) ranked.push([path, row, 'sent']);
        else {
          const keep = kept + text.text.length <= KEPT_CHARS;
          if (keep) kept += text.text.length;
          ranked.push([path, row, keep ? text.text : null]);
        }
      }
    }
    await step(ctx, ++done, rows.length, 'indexing');
  }
  trigrams.compact();
  return { trigrams, table, ranked };
}

/** Step 2 of a full build: the chunk index of the ranked files, built in their order. */
export async function buildChunkIndex(
  ctx: BuildContext,
  ranked: RankedFile[],
  chunks: ChunkStep,
): Promise<ChunkIndex> {
  let done = 0;
  for (let i = 0; i < ranked.length; i++) {
    const [path, row, kept] = ranked[i];
    ranked[i] = [path, row, null]; // the window holds the text from here on, and only until its chunks are in
    if (ctx.signal?.aborted) throw cancelledError();
    if (kept === 'sent') {
      done++;
      continue;
    }
    const text: TextResult =
      kept !== null ? { ok: true, text: kept, encoding: 'utf-8' } : await ctx.read(path);
    if (!text.ok) {
      // unreadable since step 1 (its text is in the trigram index): text only, read again next time
      failed(
        ctx,
        path,
        row,
        new QuarryError('Unreadable', `could not be read again: ${text.skipped.reason}`, { transient: true }),
      );
    } else await chunks.send(path, row, text.text);
    await step(ctx, ++done, ranked.length, 'parsing');
  }
  return chunks.finish();
}

/**
 * The file stays in the text index only. When the failure was not the file's (its grammar could
 * not be fetched, offline; a parser thread stopped), its modified time is forgotten, so the next
 * refresh reads it again instead of calling it unchanged; a parse that ran out of time or a
 * parser error stays until the file changes.
 */
function failed(ctx: BuildContext, path: string, row: FileRow, err: unknown): void {
  const e = toQuarryError(err);
  if (e.code === 'Cancelled') throw e;
  row.kind = 'failed';
  row.detail = e.message;
  if (e.data.transient || e.data.grammarUnavailable) row.mtimeMs = RETRY_MTIME;
}

/** A modified time no file has: the row never matches the walk, so the file is read again. */
const RETRY_MTIME = -1;

export interface Prepared {
  path: string;
  row: FileRow;
  text: string | null;
  chunks: Chunk[] | null;
  lines: string[] | null;
}

/** An incremental refresh's changes, computed aside (nothing live is touched). */
export async function prepareChanges(ctx: BuildContext, rows: Array<[string, FileRow]>): Promise<Prepared[]> {
  const prepared: Prepared[] = [];
  const chunks = new ChunkStep(ctx); // its chunk index stays empty: the answers go to `prepared`
  let done = 0;
  for (const [path, row] of rows) {
    if (ctx.signal?.aborted) throw cancelledError();
    const text = await ctx.read(path);
    if (!text.ok) {
      ctx.skipped.push({ ...text.skipped, path });
      prepared.push({ path, row, text: null, chunks: null, lines: null });
    } else {
      classify(path, text.text, row);
      const p: Prepared = { path, row, text: text.text, chunks: null, lines: null };
      prepared.push(p);
      if (isRanked(row.kind))
        await chunks.sendThen(path, row, text.text, (c) => {
          p.chunks = c;
          p.lines = splitLinesForIndex(text.text);
        });
    }
    await step(ctx, ++done, rows.length, 'indexing');
  }
  await chunks.drain();
  return prepared;
}

/** One prepared change into the live indexes (an incremental refresh applies them all in one synchronous step). */
export function applyPrepared(
  p: Prepared,
  index: ChunkIndex,
  trigrams: TrigramIndex,
  table: Map<string, FileRow>,
): void {
  table.set(p.path, p.row);
  if (p.text === null) {
    // binary or unreadable now: in the table (so it is not re-read until it changes), in no index
    index.removeFile(p.path);
    trigrams.removeFile(p.path);
    return;
  }
  trigrams.addFile(p.path, p.text, p.row.size);
  if (p.chunks && p.lines) index.setFile(p.path, p.row, p.chunks, p.lines);
  else index.removeFile(p.path);
}

/** What the ranked index covers (issue 15's status line and `quarry chunks --stats`). */
export interface Coverage {
  /** Files in the text index. */
  textFiles: number;
  /** Ranked, parsed into symbols. */
  symbols: number;
  /** Ranked as blocks of lines: no parser for them. */
  blocks: number;
  /** The blocks' extensions, most files first ('' for a name without one). */
  blockExtensions: Array<{ ext: string; files: number }>;
  /** In the text index only: minified, generated, or their parser failed. */
  textOnly: { minified: number; generated: number; failed: number };
  /** Left out of both indexes by the text budget (searched by scanning). */
  overBudget: number;
}

export function coverageOf(table: ReadonlyMap<string, FileRow>, overBudget: number): Coverage {
  const c: Coverage = {
    textFiles: 0,
    symbols: 0,
    blocks: 0,
    blockExtensions: [],
    textOnly: { minified: 0, generated: 0, failed: 0 },
    overBudget,
  };
  const exts = new Map<string, number>();
  for (const [path, row] of table) {
    if (row.kind === 'none') continue;
    c.textFiles++;
    if (row.kind === 'symbols') c.symbols++;
    else if (row.kind === 'blocks') {
      c.blocks++;
      const ext = extensionLabel(path);
      exts.set(ext, (exts.get(ext) ?? 0) + 1);
    } else c.textOnly[row.kind]++;
  }
  c.blockExtensions = byFiles(exts);
  return c;
}

function byFiles(exts: Map<string, number>): Coverage['blockExtensions'] {
  return [...exts]
    .map(([ext, files]) => ({ ext, files }))
    .sort((a, b) => b.files - a.files || (a.ext < b.ext ? -1 : a.ext > b.ext ? 1 : 0));
}

/** `.pl` for a.pl, `Makefile` for a name without an extension. */
function extensionLabel(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot) : name;
}

/** Several roots' coverage as one. */
export function mergeCoverage(all: readonly Coverage[]): Coverage {
  const exts = new Map<string, number>();
  const out: Coverage = {
    textFiles: 0,
    symbols: 0,
    blocks: 0,
    blockExtensions: [],
    textOnly: { minified: 0, generated: 0, failed: 0 },
    overBudget: 0,
  };
  for (const c of all) {
    out.textFiles += c.textFiles;
    out.symbols += c.symbols;
    out.blocks += c.blocks;
    out.overBudget += c.overBudget;
    out.textOnly.minified += c.textOnly.minified;
    out.textOnly.generated += c.textOnly.generated;
    out.textOnly.failed += c.textOnly.failed;
    for (const e of c.blockExtensions) exts.set(e.ext, (exts.get(e.ext) ?? 0) + e.files);
  }
  out.blockExtensions = byFiles(exts);
  return out;
}
