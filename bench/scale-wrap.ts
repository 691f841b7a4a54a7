/**
 * The scale benchmark's engine wrapper (startNodeWorkerTransport's wrapModule): openRepo with
 * a { kind: 'handle', handle: '<directory path>' } opens that directory through a File System
 * Access handle built in the worker (the tests' nodeHandle), so the engine reads it exactly as
 * it reads a folder the browser hands it (DirectoryHandleSource), one lazy File per file.
 */
import { nodeHandle } from '../src/adapters/git/node-handle.testutil';
import type { EngineApi } from '../src/worker/protocol';

export function wrapApi(api: EngineApi): EngineApi {
  return {
    ...api,
    openRepo: (jobId, onEvent, spec, pull, open) =>
      api.openRepo(
        jobId,
        onEvent,
        spec.kind === 'handle' && typeof spec.handle === 'string'
          ? { ...spec, handle: nodeHandle(spec.handle, spec.name) as unknown as FileSystemDirectoryHandle }
          : spec,
        pull,
        open,
      ),
  };
}
