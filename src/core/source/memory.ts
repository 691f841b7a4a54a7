/** An in-memory FileSource for tests, the demo repository and dropped folders. */
import { QuarryError } from '../errors';
import type { DirEntry, FileSource, FileStat } from './types';

export type MemoryTree = Record<string, string | Uint8Array | { symlink: string }>;

interface Node {
  kind: 'file' | 'directory' | 'symlink';
  data?: Uint8Array;
  target?: string;
  children?: Map<string, Node>;
  mtimeMs: number;
}

const encoder = new TextEncoder();

export class MemorySource implements FileSource {
  readonly name: string;
  readonly absoluteRoot: string;
  private root: Node = { kind: 'directory', children: new Map(), mtimeMs: 0 };
  private nextId = 1;
  private ids = new WeakMap<Node, string>();

  /** files: path -> content (string is UTF-8 encoded) or { symlink: targetPath relative to the root }. */
  constructor(files: MemoryTree = {}, options: { name?: string; absoluteRoot?: string } = {}) {
    this.name = options.name ?? 'memory';
    this.absoluteRoot = options.absoluteRoot ?? `/${this.name}`;
    for (const [path, content] of Object.entries(files)) this.write(path, content);
  }

  write(path: string, content: string | Uint8Array | { symlink: string }, mtimeMs = Date.now()): void {
    const parts = path.split('/').filter(Boolean);
    let dir = this.root;
    for (const part of parts.slice(0, -1)) {
      let next = dir.children!.get(part);
      if (!next) {
        next = { kind: 'directory', children: new Map(), mtimeMs };
        dir.children!.set(part, next);
      }
      if (next.kind !== 'directory')
        throw new QuarryError('InvalidArgument', `Not a directory: ${part} in ${path}`);
      dir = next;
    }
    const leaf = parts[parts.length - 1];
    if (typeof content === 'string' || content instanceof Uint8Array) {
      const data = typeof content === 'string' ? encoder.encode(content) : content;
      dir.children!.set(leaf, { kind: 'file', data, mtimeMs });
    } else {
      dir.children!.set(leaf, { kind: 'symlink', target: content.symlink, mtimeMs });
    }
  }

  remove(path: string): void {
    const parts = path.split('/').filter(Boolean);
    const parent = this.lookup(parts.slice(0, -1).join('/'), true);
    parent?.children?.delete(parts[parts.length - 1]);
  }

  private lookup(path: string, follow: boolean, depth = 0): Node | null {
    if (depth > 40) return null; // symlink chain too long (a loop)
    let node: Node = this.root;
    const parts = path.split('/').filter(Boolean);
    for (let i = 0; i < parts.length; i++) {
      if (node.kind === 'symlink') {
        const resolved = this.lookup(node.target!, true, depth + 1);
        if (!resolved) return null;
        node = resolved;
      }
      if (node.kind !== 'directory') return null;
      const child = node.children!.get(parts[i]);
      if (!child) return null;
      node = child;
    }
    if (follow && node.kind === 'symlink') return this.lookup(node.target!, true, depth + 1);
    return node;
  }

  private idOf(node: Node): string {
    let id = this.ids.get(node);
    if (!id) {
      id = String(this.nextId++);
      this.ids.set(node, id);
    }
    return id;
  }

  async list(dir: string): Promise<DirEntry[]> {
    const node = this.lookup(dir, true);
    if (!node) throw new QuarryError('NotFound', `No such directory: ${dir || '.'}`, { path: dir });
    if (node.kind !== 'directory')
      throw new QuarryError('InvalidArgument', `Not a directory: ${dir}`, { path: dir });
    return [...node.children!].map(([name, child]) => ({ name, kind: child.kind }));
  }

  async stat(path: string): Promise<FileStat | null> {
    const node = this.lookup(path, true);
    if (!node || node.kind === 'symlink') return null;
    return {
      kind: node.kind,
      size: node.kind === 'file' ? node.data!.byteLength : 0,
      mtimeMs: node.mtimeMs,
      id: this.idOf(node),
    };
  }

  async read(path: string): Promise<Uint8Array> {
    const node = this.lookup(path, true);
    if (!node) throw new QuarryError('NotFound', `No such file: ${path}`, { path });
    if (node.kind !== 'file') throw new QuarryError('InvalidArgument', `Not a file: ${path}`, { path });
    return node.data!;
  }
}
