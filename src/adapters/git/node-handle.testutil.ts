import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DirHandleLike, FileHandleLike } from './fsa-fs';

/** A File System Access directory handle over a real directory (what the browser hands the UI). */
export function nodeHandle(
  path: string,
  name = 'root',
): DirHandleLike & { values(): AsyncIterable<DirHandleLike | FileHandleLike> } {
  const fail = (n: string) => Object.assign(new Error(n), { name: n });
  const fileHandle = (p: string, n: string): FileHandleLike => ({
    kind: 'file',
    name: n,
    async getFile() {
      const st = statSync(p);
      // lazy, as a browser File is: the bytes are read when asked for (a 1 GB benchmark folder stays on disk)
      const arrayBuffer = async () => {
        const data = readFileSync(p);
        return data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
      };
      return { size: st.size, lastModified: st.mtimeMs, arrayBuffer };
    },
  });
  return {
    kind: 'directory',
    name,
    async getDirectoryHandle(n) {
      const st = statSync(join(path, n), { throwIfNoEntry: false });
      if (!st) throw fail('NotFoundError');
      if (!st.isDirectory()) throw fail('TypeMismatchError');
      return nodeHandle(join(path, n), n);
    },
    async getFileHandle(n) {
      const st = statSync(join(path, n), { throwIfNoEntry: false });
      if (!st) throw fail('NotFoundError');
      if (!st.isFile()) throw fail('TypeMismatchError');
      return fileHandle(join(path, n), n);
    },
    async *entries() {
      for (const n of readdirSync(path)) {
        const p = join(path, n);
        yield [n, statSync(p).isDirectory() ? nodeHandle(p, n) : fileHandle(p, n)] as [
          string,
          DirHandleLike | FileHandleLike,
        ];
      }
    },
    // what DirectoryHandleSource lists with
    async *values() {
      for (const n of readdirSync(path)) {
        const p = join(path, n);
        yield statSync(p).isDirectory() ? nodeHandle(p, n) : fileHandle(p, n);
      }
    },
  };
}
