/**
 * Folders given as a list of File objects: `<input type=file webkitdirectory>` and folders
 * dropped on the page in browsers without File System Access. Such a folder is a snapshot:
 * the browser hands over the files once and Quarry cannot re-read the folder later.
 *
 * The collectors below run on the main thread and only gather File references and paths;
 * `PulledSnapshotSource` (in the worker) pulls the bytes it needs through `snapshotPuller`.
 */
import { QuarryError } from '../../core/errors';
import { fnv1a } from '../../core/hash';
import type { DirEntry, FileSource, FileStat } from '../../core/source/types';
import type { PulledFile, PullFiles } from '../../core/source/pulled-files';

export interface SnapshotFile {
  /** Path relative to the chosen folder (without the folder's own name). */
  path: string;
  file: Blob & { lastModified?: number };
}

type DirNode = { kind: 'directory'; children: Map<string, Node> };
type Node<F = unknown> = DirNode | ({ kind: 'file' } & F);

/** Builds the directory tree of a list of relative paths (entries that clash with a file are dropped). */
function buildPathTree<F>(entries: Iterable<[path: string, file: F]>): DirNode {
  const root: DirNode = { kind: 'directory', children: new Map() };
  for (const [path, file] of entries) {
    const parts = path.split('/').filter((p) => p !== '' && p !== '.');
    let dir: DirNode | null = root;
    for (const part of parts.slice(0, -1)) {
      let next: Node | undefined = dir.children.get(part);
      if (!next) {
        next = { kind: 'directory', children: new Map() };
        dir.children.set(part, next);
      }
      if (next.kind !== 'directory') {
        dir = null;
        break;
      }
      dir = next;
    }
    if (!dir) continue;
    if (parts.length)
      dir.children.set(parts[parts.length - 1], { kind: 'file', ...(file as object) } as Node);
  }
  return root;
}

function lookupNode(root: DirNode, path: string): Node | null {
  let node: Node = root;
  for (const part of path.split('/')) {
    if (part === '') continue;
    if (node.kind !== 'directory') return null;
    const next: Node | undefined = node.children.get(part);
    if (!next) return null;
    node = next;
  }
  return node;
}

/** A FileSource over File objects in this realm (the main-thread fallback and tests). */
export class SnapshotSource implements FileSource {
  readonly name: string;
  readonly absoluteRoot: string;
  private root: DirNode;

  constructor(files: SnapshotFile[], options: { name: string }) {
    this.name = options.name;
    this.absoluteRoot = `/${options.name}`;
    this.root = buildPathTree(
      files.map((f) => [f.path, { file: f.file }] as [string, { file: SnapshotFile['file'] }]),
    );
  }

  async list(dir: string): Promise<DirEntry[]> {
    const node = lookupNode(this.root, dir);
    if (!node) throw new QuarryError('NotFound', `No such directory: ${dir || '.'}`, { path: dir });
    if (node.kind !== 'directory')
      throw new QuarryError('InvalidArgument', `Not a directory: ${dir}`, { path: dir });
    return [...node.children].map(([name, child]) => ({ name, kind: child.kind }));
  }

  async stat(path: string): Promise<FileStat | null> {
    const node = lookupNode(this.root, path) as Node<{ file: SnapshotFile['file'] }> | null;
    if (!node) return null;
    if (node.kind === 'directory') return { kind: 'directory', size: 0, mtimeMs: 0 };
    return { kind: 'file', size: node.file.size, mtimeMs: node.file.lastModified ?? 0 };
  }

  async read(path: string): Promise<Uint8Array> {
    const node = lookupNode(this.root, path) as Node<{ file: SnapshotFile['file'] }> | null;
    if (!node) throw new QuarryError('NotFound', `No such file: ${path}`, { path });
    if (node.kind !== 'file') throw new QuarryError('InvalidArgument', `Not a file: ${path}`, { path });
    try {
      return new Uint8Array(await node.file.arrayBuffer());
    } catch (err) {
      throw new QuarryError(
        'Unreadable',
        `Could not read "${path}": ${err instanceof Error ? err.message : String(err)}`,
        { path },
      );
    }
  }
}

// ---- snapshots read on the main thread, pulled by the worker ---------------------------------
//
// Why not send the File objects to the worker: in Chromium, a File from <input webkitdirectory>
// has no size until it is "snapshotted", and structured cloning it (postMessage), reading its
// `size`/`lastModified`, `arrayBuffer()`, `slice()` or `URL.createObjectURL()` each take that
// snapshot with a SYNCHRONOUS IPC to the browser process: ~0.2-0.4 ms per file when idle, and
// tens to hundreds of milliseconds when the browser process is busy. Measured in e2e on a
// 10,000-file folder: postMessage of 100 fresh Files 23 ms (0.2 ms again, once snapshotted),
// `.size` x100 16 ms, `arrayBuffer()` x1000 240 ms of synchronous time, createObjectURL x1000
// 375 ms; the open produced 50-260 ms tasks. `file.stream()` and `new Response(file)` need no
// snapshot (1.2 ms per 100, no long task while reading 1,000 files). So the File objects stay on the main thread, the
// worker walks the path list and pulls the bytes of the files its policy admits, a directory's
// worth at a time; the main thread reads them (readCapped) and transfers the ArrayBuffers.

export type { PulledFile, PullFiles } from '../../core/source/pulled-files';

/** Files read concurrently on the main thread per pull. */
const PULL_CONCURRENCY = 8;
/**
 * Main-thread work between yields: without explicit yields the lanes can chain many files'
 * continuations into one task (seen with streams: 50-180 ms).
 */
const PULL_SLICE_MS = 4;

/** Time-sliced cooperative yielding shared by all lanes of the main-thread reader. */
function createSlicer(budgetMs: number) {
  let start = performance.now();
  const yieldNow = (): Promise<void> => {
    const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
    if (s?.yield) return s.yield();
    return new Promise((resolve) => setTimeout(resolve, 0));
  };
  return async () => {
    if (performance.now() - start < budgetMs) return;
    await yieldNow();
    start = performance.now();
  };
}

/**
 * Every file is streamed and cut off at `maxBytes`, so nothing large is ever held in memory.
 * Not `new Response(blob).arrayBuffer()` (used before for source files: one promise per file,
 * fewer stream handles for the GC to scan): it reads a file whole whatever its size, and
 * Chromium assembles a multi-megabyte file (a bundled `typescript.js`, a 4 MB JSON) in one
 * native main-thread task of 50-150 ms (measured on a 2-core machine, files of 2-9 MB; a capped
 * stream: no task over 50 ms). Telling a big file apart beforehand would need its size, a
 * synchronous IPC per file.
 */
async function readCapped(
  blob: Blob,
  maxBytes: number,
  slice: () => Promise<void>,
): Promise<{ bytes?: ArrayBuffer; size: number }> {
  const reader = blob.stream().getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    await slice();
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) return { size: await countRest(reader, size, slice, blob) };
    chunks.push(value);
  }
  if (
    chunks.length === 1 &&
    chunks[0].byteOffset === 0 &&
    chunks[0].byteLength === chunks[0].buffer.byteLength
  ) {
    return { bytes: chunks[0].buffer as ArrayBuffer, size };
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return { bytes: out.buffer, size };
}

/** Past this many bytes a file's size is asked of the browser instead of counted. */
const COUNT_MAX_BYTES = 16 * 1024 * 1024;

/**
 * A file over the limit: the rest of the stream counted, not kept, for its exact size. Not
 * `blob.size` (a synchronous IPC, and the browser is busy serving the very reads of the open:
 * traced at 150-450 ms on the main thread); only a file past COUNT_MAX_BYTES asks it.
 */
async function countRest(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  counted: number,
  slice: () => Promise<void>,
  blob: Blob,
): Promise<number> {
  let size = counted;
  for (;;) {
    if (size > COUNT_MAX_BYTES) {
      await reader.cancel().catch(() => {});
      return blob.size;
    }
    await slice();
    const { done, value } = await reader.read();
    if (done) return size;
    size += value.byteLength;
  }
}

/** The main-thread side: answers the worker's pulls from the File objects of a snapshot. */
export function snapshotPuller(files: SnapshotFile[]): PullFiles {
  const byPath = new Map<string, SnapshotFile['file']>();
  for (const f of files) byPath.set(f.path, f.file);
  return async (paths, maxBytes) => {
    const out: PulledFile[] = new Array(paths.length);
    let next = 0;
    const slice = createSlicer(PULL_SLICE_MS);
    const lane = async () => {
      while (next < paths.length) {
        await slice();
        // Another lane may have taken the last path while this one yielded.
        if (next >= paths.length) break;
        const i = next++;
        const path = paths[i];
        const blob = byPath.get(path);
        if (!blob) {
          out[i] = { path, size: 0, error: 'not in the snapshot' };
          continue;
        }
        try {
          out[i] = { path, ...(await readCapped(blob, maxBytes, slice)) };
        } catch (err) {
          out[i] = { path, size: 0, error: err instanceof Error ? err.message : String(err) };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PULL_CONCURRENCY, paths.length) }, lane));
    return out;
  };
}

/** FNV-1a over the bytes: a snapshot's stand-in for a modification time (the index compares it). */
export function contentStamp(bytes: Uint8Array): number {
  return fnv1a(bytes);
}

type PulledState = {
  state?: Promise<void>;
  bytes?: Uint8Array;
  size?: number;
  stamp?: number;
  error?: string;
};

/**
 * The worker side: a FileSource over a snapshot's path list whose bytes are pulled from the
 * main thread on first stat/read. A miss pulls that file and the next not-yet-pulled files of
 * its directory (the walk visits a directory's entries in order), up to `batchFiles`, in one
 * round trip, and starts the following batch at once so the main thread is never idle.
 */
export class PulledSnapshotSource implements FileSource {
  readonly name: string;
  readonly absoluteRoot: string;
  private root: DirNode;
  private readonly maxBytes: number;
  private readonly batchFiles: number;

  constructor(
    paths: string[],
    private readonly pull: PullFiles,
    options: { name: string; maxFileBytes: number; batchFiles?: number },
  ) {
    this.name = options.name;
    this.absoluteRoot = `/${options.name}`;
    this.maxBytes = options.maxFileBytes;
    this.batchFiles = options.batchFiles ?? 64;
    this.root = buildPathTree(paths.map((p) => [p, {} as PulledState] as [string, PulledState]));
  }

  async list(dir: string): Promise<DirEntry[]> {
    const node = lookupNode(this.root, dir);
    if (!node) throw new QuarryError('NotFound', `No such directory: ${dir || '.'}`, { path: dir });
    if (node.kind !== 'directory')
      throw new QuarryError('InvalidArgument', `Not a directory: ${dir}`, { path: dir });
    return [...node.children].map(([name, child]) => ({ name, kind: child.kind }));
  }

  private fileNode(path: string): (PulledState & { kind: 'file' }) | DirNode | null {
    return lookupNode(this.root, path) as (PulledState & { kind: 'file' }) | DirNode | null;
  }

  /** Pull `path` and its next unpulled siblings; chain one more batch of the same directory. */
  private ensure(path: string): Promise<void> {
    const node = this.fileNode(path);
    if (!node || node.kind !== 'file') return Promise.resolve();
    if (node.state) return node.state;
    const slash = path.lastIndexOf('/');
    const dir = slash < 0 ? '' : path.slice(0, slash);
    const parent = lookupNode(this.root, dir) as DirNode;
    const siblings = [...parent.children]
      .filter(([, n]) => n.kind === 'file' && !(n as PulledState).state)
      .map(([name]) => name)
      .sort();
    const from = Math.max(0, siblings.indexOf(path.slice(slash + 1)));
    const take = (start: number) =>
      siblings.slice(start, start + this.batchFiles).map((name) => (dir ? `${dir}/${name}` : name));
    const batch = take(from);
    const nextBatch = take(from + this.batchFiles);
    const run = (paths: string[]): Promise<void> => {
      const nodes = paths.map((p) => this.fileNode(p) as PulledState & { kind: 'file' });
      const done = this.pull(paths, this.maxBytes).then(
        (results) => {
          results.forEach((r, i) => {
            const n = nodes[i];
            n.size = r.size;
            if (r.error) n.error = r.error;
            else if (r.bytes) {
              n.bytes = new Uint8Array(r.bytes);
              n.stamp = contentStamp(n.bytes);
            }
          });
        },
        (err) => {
          for (const n of nodes) n.error = err instanceof Error ? err.message : String(err);
        },
      );
      for (const n of nodes) n.state = done;
      return done;
    };
    const first = run(batch);
    if (nextBatch.length)
      void first.then(() => {
        const rest = nextBatch.filter((p) => !(this.fileNode(p) as PulledState).state);
        if (rest.length) void run(rest);
      });
    return node.state ?? first;
  }

  async stat(path: string): Promise<FileStat | null> {
    const node = this.fileNode(path);
    if (!node) return null;
    if (node.kind === 'directory') return { kind: 'directory', size: 0, mtimeMs: 0 };
    await this.ensure(path);
    if (node.error) return { kind: 'file', size: 0, mtimeMs: 0 };
    return { kind: 'file', size: node.size ?? 0, mtimeMs: node.stamp ?? 0 };
  }

  async read(path: string): Promise<Uint8Array> {
    const node = this.fileNode(path);
    if (!node) throw new QuarryError('NotFound', `No such file: ${path}`, { path });
    if (node.kind !== 'file') throw new QuarryError('InvalidArgument', `Not a file: ${path}`, { path });
    await this.ensure(path);
    if (node.error) throw new QuarryError('Unreadable', `Could not read "${path}": ${node.error}`, { path });
    if (!node.bytes)
      throw new QuarryError(
        'Unreadable',
        `"${path}" is larger than ${this.maxBytes} bytes (${node.size} bytes)`,
        { path, reason: 'tooLarge' },
      );
    return node.bytes;
  }
}

export interface CollectedFolder {
  name: string;
  files: SnapshotFile[];
}

/**
 * A file's path from `<input type=file webkitdirectory>` ("folder/sub/file"), its last part the
 * file's own name: Chromium writes a backslash in a name as '/' in webkitRelativePath
 * (`back\slash.ts` comes as "folder/back/slash.ts"), which would make a folder `back` of it;
 * File.name keeps the backslash. (A folder's name above it cannot be recovered so.)
 */
export function inputRelativePath(file: { name: string; webkitRelativePath?: string }): string {
  const rel = file.webkitRelativePath || file.name;
  const name = file.name;
  if (!name.includes('\\')) return rel;
  const split = name.replace(/\\/g, '/');
  if (rel === split) return name;
  return rel.endsWith(`/${split}`) ? rel.slice(0, rel.length - split.length) + name : rel;
}

/**
 * Files from `<input type=file webkitdirectory>`: webkitRelativePath is "folder/sub/file".
 * Yields to the event loop every few milliseconds so a 100k-file folder never blocks the page.
 */
export async function filesFromInput(list: FileList | File[], sliceMs = 4): Promise<CollectedFolder> {
  const files: SnapshotFile[] = [];
  let name = '';
  let sliceStart = performance.now();
  for (let i = 0; i < list.length; i++) {
    if ((i & 15) === 0 && performance.now() - sliceStart > sliceMs) {
      await new Promise((r) => setTimeout(r, 0));
      sliceStart = performance.now();
    }
    const file = list[i];
    const rel = inputRelativePath(file);
    const slash = rel.indexOf('/');
    if (!name) name = slash > 0 ? rel.slice(0, slash) : 'folder';
    files.push({ path: slash > 0 ? rel.slice(slash + 1) : rel, file });
  }
  return { name: name || 'folder', files };
}

/** What a drop gave us: a real directory handle (Chromium) or a snapshot of files. */
export type DroppedFolder =
  { kind: 'handle'; handle: FileSystemDirectoryHandle } | ({ kind: 'files' } & CollectedFolder);

type Entry = {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?: (ok: (f: File) => void, fail: (e: unknown) => void) => void;
  createReader?: () => { readEntries: (ok: (entries: Entry[]) => void, fail: (e: unknown) => void) => void };
};

/**
 * Read a dropped folder. Prefers a File System Access handle (can be re-read and kept in
 * "Recent"); otherwise walks the legacy entry API. Returns null when nothing usable was dropped.
 */
export async function folderFromDrop(data: DataTransfer): Promise<DroppedFolder | null> {
  const items = [...data.items].filter((i) => i.kind === 'file');
  if (!items.length) return null;
  const first = items[0] as DataTransferItem & {
    getAsFileSystemHandle?: () => Promise<FileSystemHandle | null>;
  };
  // Both calls must happen synchronously inside the drop event, before any await.
  const handlePromise = first.getAsFileSystemHandle?.();
  const entries = items.map(
    (i) => (i as DataTransferItem & { webkitGetAsEntry?: () => Entry | null }).webkitGetAsEntry?.() ?? null,
  );
  if (handlePromise) {
    const handle = await handlePromise.catch(() => null);
    if (handle && handle.kind === 'directory')
      return { kind: 'handle', handle: handle as FileSystemDirectoryHandle };
  }
  const root = entries.find((e) => e?.isDirectory) ?? null;
  if (!root) return null;
  const files: SnapshotFile[] = [];
  await readEntryTree(root, '', files);
  return { kind: 'files', name: root.name, files };
}

async function readEntryTree(dir: Entry, prefix: string, out: SnapshotFile[]): Promise<void> {
  const reader = dir.createReader!();
  for (;;) {
    const batch = await new Promise<Entry[]>((ok, fail) => reader.readEntries(ok, fail));
    if (!batch.length) break;
    for (const entry of batch) {
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory) await readEntryTree(entry, path, out);
      else if (entry.isFile)
        out.push({ path, file: await new Promise<File>((ok, fail) => entry.file!(ok, fail)) });
    }
  }
}
