/**
 * The scale benchmark's engine wrapper (startNodeWorkerTransport's wrapModule): openRepo with
 * a { kind: 'handle', handle: '<directory path>' } opens that directory through a File System
 * Access handle built in the worker, so the engine reads it exactly as it reads a folder the
 * browser hands it (DirectoryHandleSource), one lazy File per file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineApi } from '../src/worker/protocol';

function fileHandle(p: string, name: string) {
  return {
    kind: 'file' as const,
    name,
    async getFile() {
      const st = statSync(p);
      // lazy, as a browser File is: the bytes are read when asked for
      return {
        size: st.size,
        lastModified: st.mtimeMs,
        arrayBuffer: async () => {
          const b = readFileSync(p);
          return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
        },
      };
    },
  };
}

function dirHandle(p: string, name: string): unknown {
  return {
    kind: 'directory' as const,
    name,
    async *values() {
      for (const e of readdirSync(p, { withFileTypes: true })) {
        yield e.isDirectory() ? dirHandle(join(p, e.name), e.name) : fileHandle(join(p, e.name), e.name);
      }
    },
  };
}

export function wrapApi(api: EngineApi): EngineApi {
  return {
    ...api,
    openRepo: (jobId, spec, onEvent, pull, open) =>
      api.openRepo(
        jobId,
        spec.kind === 'handle' && typeof spec.handle === 'string' ? { ...spec, handle: dirHandle(spec.handle, spec.name) as FileSystemDirectoryHandle } : spec,
        onEvent,
        pull,
        open,
      ),
  };
}
