/**
 * Folders given as a list of File objects: `<input type=file webkitdirectory>` and folders
 * dropped on the page in browsers without File System Access. Such a folder is a snapshot:
 * the browser hands over the files once and Quarry cannot re-read the folder later.
 *
 * `SnapshotSource` (a FileSource) runs in the worker; the collectors below run on the main
 * thread and only gather File references (reading happens in the worker).
 */
import { QuarryError } from '../core/errors';
import type { DirEntry, FileSource, FileStat } from '../core/source/types';

export interface SnapshotFile {
  /** Path relative to the chosen folder (without the folder's own name). */
  path: string;
  file: Blob & { lastModified?: number };
}

type DirNode = { kind: 'directory'; children: Map<string, Node> };
type Node = DirNode | { kind: 'file'; file: SnapshotFile['file'] };

export class SnapshotSource implements FileSource {
  readonly name: string;
  readonly absoluteRoot: string;
  private root: DirNode = { kind: 'directory', children: new Map() };

  constructor(files: SnapshotFile[], options: { name: string }) {
    this.name = options.name;
    this.absoluteRoot = `/${options.name}`;
    for (const { path, file } of files) {
      const parts = path.split('/').filter((p) => p !== '' && p !== '.');
      let dir: DirNode | null = this.root;
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
      if (parts.length) dir.children.set(parts[parts.length - 1], { kind: 'file', file });
    }
  }

  private lookup(path: string): Node | null {
    let node: Node = this.root;
    for (const part of path.split('/')) {
      if (part === '') continue;
      if (node.kind !== 'directory') return null;
      const next = node.children.get(part);
      if (!next) return null;
      node = next;
    }
    return node;
  }

  async list(dir: string): Promise<DirEntry[]> {
    const node = this.lookup(dir);
    if (!node) throw new QuarryError('NotFound', `No such directory: ${dir || '.'}`, { path: dir });
    if (node.kind !== 'directory') throw new QuarryError('InvalidArgument', `Not a directory: ${dir}`, { path: dir });
    return [...node.children].map(([name, child]) => ({ name, kind: child.kind }));
  }

  async stat(path: string): Promise<FileStat | null> {
    const node = this.lookup(path);
    if (!node) return null;
    if (node.kind === 'directory') return { kind: 'directory', size: 0, mtimeMs: 0 };
    return { kind: 'file', size: node.file.size, mtimeMs: node.file.lastModified ?? 0 };
  }

  async read(path: string): Promise<Uint8Array> {
    const node = this.lookup(path);
    if (!node) throw new QuarryError('NotFound', `No such file: ${path}`, { path });
    if (node.kind !== 'file') throw new QuarryError('InvalidArgument', `Not a file: ${path}`, { path });
    try {
      return new Uint8Array(await node.file.arrayBuffer());
    } catch (err) {
      throw new QuarryError('Unreadable', `Could not read "${path}": ${err instanceof Error ? err.message : String(err)}`, { path });
    }
  }
}

export interface CollectedFolder {
  name: string;
  files: SnapshotFile[];
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
    const rel = (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name;
    const slash = rel.indexOf('/');
    if (!name) name = slash > 0 ? rel.slice(0, slash) : 'folder';
    files.push({ path: slash > 0 ? rel.slice(slash + 1) : rel, file });
  }
  return { name: name || 'folder', files };
}

/** What a drop gave us: a real directory handle (Chromium) or a snapshot of files. */
export type DroppedFolder = { kind: 'handle'; handle: FileSystemDirectoryHandle } | ({ kind: 'files' } & CollectedFolder);

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
  const first = items[0] as DataTransferItem & { getAsFileSystemHandle?: () => Promise<FileSystemHandle | null> };
  // Both calls must happen synchronously inside the drop event, before any await.
  const handlePromise = first.getAsFileSystemHandle?.();
  const entries = items.map((i) => (i as DataTransferItem & { webkitGetAsEntry?: () => Entry | null }).webkitGetAsEntry?.() ?? null);
  if (handlePromise) {
    const handle = await handlePromise.catch(() => null);
    if (handle && handle.kind === 'directory') return { kind: 'handle', handle: handle as FileSystemDirectoryHandle };
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
      else if (entry.isFile) out.push({ path, file: await new Promise<File>((ok, fail) => entry.file!(ok, fail)) });
    }
  }
}
