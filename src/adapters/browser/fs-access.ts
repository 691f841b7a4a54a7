/**
 * FileSource over a File System Access directory handle (showDirectoryPicker, or the
 * origin-private file system). Runs in the worker: handles are structured-cloneable, so
 * the main thread only posts the handle and every read happens off the main thread.
 * Directory listings keep the child handles, so stat/read never re-resolve a path.
 */
import { QuarryError } from '../../core/errors';
import type { DirEntry, FileSource, FileStat } from '../../core/source/types';

/** The async-iterable part of FileSystemDirectoryHandle (lib.dom.asynciterable is not in our tsconfig). */
interface IterableDirectoryHandle extends FileSystemDirectoryHandle {
  values(): AsyncIterableIterator<FileSystemDirectoryHandle | FileSystemFileHandle>;
}

type Handle = FileSystemDirectoryHandle | FileSystemFileHandle;

export class DirectoryHandleSource implements FileSource {
  readonly name: string;
  readonly absoluteRoot: string;
  private handles = new Map<string, Handle>();
  private listings = new Map<string, DirEntry[]>();
  /** File objects fetched by stat(), reused by the read() that usually follows (getFile() is the slow part). */
  private statted = new Map<string, File>();

  constructor(
    private readonly root: FileSystemDirectoryHandle,
    options: { name?: string } = {},
  ) {
    this.name = options.name ?? root.name;
    this.absoluteRoot = `/${this.name}`;
    this.handles.set('', root);
  }

  private async resolve(path: string): Promise<Handle | null> {
    const known = this.handles.get(path);
    if (known) return known;
    const i = path.lastIndexOf('/');
    const parentPath = i < 0 ? '' : path.slice(0, i);
    const parent = await this.resolve(parentPath);
    if (!parent || parent.kind !== 'directory') return null;
    if (!this.listings.has(parentPath)) {
      await this.list(parentPath);
      return this.handles.get(path) ?? null;
    }
    return null;
  }

  async list(dir: string): Promise<DirEntry[]> {
    const cached = this.listings.get(dir);
    if (cached) return cached;
    const handle = await this.resolve(dir);
    if (!handle) throw new QuarryError('NotFound', `No such directory: ${dir || '.'}`, { path: dir });
    if (handle.kind !== 'directory')
      throw new QuarryError('InvalidArgument', `Not a directory: ${dir}`, { path: dir });
    const entries: DirEntry[] = [];
    try {
      for await (const child of (handle as IterableDirectoryHandle).values()) {
        const path = dir ? `${dir}/${child.name}` : child.name;
        this.handles.set(path, child);
        entries.push({ name: child.name, kind: child.kind === 'directory' ? 'directory' : 'file' });
      }
    } catch (err) {
      throw permissionAware(err, dir);
    }
    this.listings.set(dir, entries);
    return entries;
  }

  async stat(path: string): Promise<FileStat | null> {
    const handle = await this.resolve(path);
    if (!handle) return null;
    if (handle.kind === 'directory') return { kind: 'directory', size: 0, mtimeMs: 0 };
    try {
      const file = await (handle as FileSystemFileHandle).getFile();
      this.statted.set(path, file);
      return { kind: 'file', size: file.size, mtimeMs: file.lastModified };
    } catch {
      return null;
    }
  }

  async read(path: string): Promise<Uint8Array> {
    const handle = await this.resolve(path);
    if (!handle) throw new QuarryError('NotFound', `No such file: ${path}`, { path });
    if (handle.kind !== 'file') throw new QuarryError('InvalidArgument', `Not a file: ${path}`, { path });
    try {
      const file = this.statted.get(path) ?? (await (handle as FileSystemFileHandle).getFile());
      this.statted.delete(path);
      return new Uint8Array(await file.arrayBuffer());
    } catch (err) {
      throw permissionAware(err, path);
    }
  }
}

function permissionAware(err: unknown, path: string): QuarryError {
  const name =
    err instanceof Error || (typeof DOMException !== 'undefined' && err instanceof DOMException)
      ? (err as Error).name
      : '';
  const message = err instanceof Error ? err.message : String(err);
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return new QuarryError('Unreadable', `Permission to read "${path || '.'}" was not granted: ${message}`, {
      path,
      reason: 'permission',
    });
  }
  if (name === 'NotFoundError') return new QuarryError('NotFound', `No such entry: ${path}`, { path });
  return new QuarryError('Unreadable', `Could not read "${path || '.'}": ${message}`, { path });
}

/** Ask for read permission (must run in a user gesture when the answer is 'prompt'). */
export async function ensureReadPermission(
  handle: FileSystemDirectoryHandle,
  request: boolean,
): Promise<boolean> {
  const h = handle as FileSystemDirectoryHandle & {
    queryPermission?: (d: { mode: 'read' }) => Promise<PermissionState>;
    requestPermission?: (d: { mode: 'read' }) => Promise<PermissionState>;
  };
  if (!h.queryPermission) return true;
  if ((await h.queryPermission({ mode: 'read' })) === 'granted') return true;
  if (!request || !h.requestPermission) return false;
  return (await h.requestPermission({ mode: 'read' })) === 'granted';
}

export function hasDirectoryPicker(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof (window as { showDirectoryPicker?: unknown }).showDirectoryPicker === 'function'
  );
}

/** showDirectoryPicker; resolves null when the user closes the picker. */
export async function pickDirectory(): Promise<FileSystemDirectoryHandle | null> {
  const picker = (
    window as unknown as {
      showDirectoryPicker: (o?: {
        mode?: 'read' | 'readwrite';
        id?: string;
      }) => Promise<FileSystemDirectoryHandle>;
    }
  ).showDirectoryPicker;
  try {
    return await picker({ mode: 'read', id: 'quarry' });
  } catch (err) {
    if (err instanceof Error && err.name === 'AbortError') return null;
    throw err;
  }
}
