/**
 * The embedding thread (embed-client.ts starts it from the engine worker): loads the model once
 * and embeds the texts it is sent. The model is, in order: the user's own (a folder picked in the
 * app, kept in OPFS: adapters/browser/opfs-model.ts), the build's ONNX model (QUARRY_EMBED_MODEL:
 * adapters/browser/deployed-model.ts), else USE lite, each from the app's own assets or storage;
 * ONNX models run on onnxruntime-web, imported only then (embed-onnx.ts, a chunk of its own).
 * A worker holds one model: a switch terminates it (the engine's resetSemanticModel). The messages are core's
 * (semantic/thread-embedder.ts): `{id, type: 'load'}` answers progress messages, then ready or
 * error; `{id, type: 'embed'}` answers vectors (its buffer transferred) or error. An embed before
 * any load loads the model first (without progress); embeds run one at a time, in the order they came.
 */
import { env } from '@tensorflow/tfjs-core';
import type { EmbeddingModel } from '../core/semantic/port';
import type { EmbedReply, EmbedRequest } from '../core/semantic/thread-embedder';
import { browserUseLiteFiles, useLiteWasmUrls } from '../adapters/browser/model-files';
import { loadUseLite } from '../adapters/embed/use-lite';
import { deployedModel } from '../adapters/browser/deployed-model';
import { userModelInfo, userOnnxFiles } from '../adapters/browser/opfs-model';

/** Progress messages at most this often (the shards arrive in ~64 KB chunks), and always the last. */
const PROGRESS_MS = 50;

// tfjs picks its threaded build when the page is cross-origin isolated, and that build starts its
// threads from blob: URLs, which the app's CSP (worker-src 'self') forbids: one thread always.
env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);

const reply = (msg: EmbedReply, transfer: Transferable[] = []) => postMessage(msg, { transfer });

function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  // tfjs's wasm loader rejects with a plain { message } object
  if (err && typeof err === 'object' && typeof (err as { message?: unknown }).message === 'string')
    return (err as { message: string }).message;
  return String(err);
}

let model: Promise<EmbeddingModel> | null = null;
let queue: Promise<unknown> = Promise.resolve();

/** The user's model, else the build's ONNX model, else USE lite. */
async function chooseModel(onProgress?: (loaded: number, total: number) => void): Promise<EmbeddingModel> {
  const progress = (p: { loaded: number; total: number }) => onProgress?.(p.loaded, p.total);
  const user = await userModelInfo();
  const onnx = user ? { files: userOnnxFiles(user), onnxFile: user.onnxFile } : deployedModel();
  if (!onnx) return loadUseLite(browserUseLiteFiles, useLiteWasmUrls, progress);
  const { loadBrowserOnnxModel } = await import('./embed-onnx');
  return loadBrowserOnnxModel(onnx.files, onnx.onnxFile, progress);
}

function loadModel(onProgress?: (loaded: number, total: number) => void): Promise<EmbeddingModel> {
  model ??= chooseModel(onProgress).catch((err: unknown) => {
    model = null;
    throw err;
  });
  return model;
}

async function load(id: number): Promise<void> {
  let last = 0;
  const m = await loadModel((loaded, total) => {
    const now = performance.now();
    if (loaded < total && now - last < PROGRESS_MS) return;
    last = now;
    reply({ id, type: 'progress', loaded, total });
  });
  reply({ id, type: 'ready', modelId: m.id, dims: m.dims, ...(m.device ? { device: m.device } : {}) });
}

async function embed(id: number, texts: string[]): Promise<void> {
  const m = await loadModel();
  const run = queue.then(() => m.embed(texts));
  queue = run.catch(() => undefined);
  let vectors = await run;
  // a view into a larger buffer (or into wasm memory) is copied: only a whole buffer of its own is transferred
  if (
    vectors.byteOffset !== 0 ||
    vectors.byteLength !== vectors.buffer.byteLength ||
    !(vectors.buffer instanceof ArrayBuffer)
  )
    vectors = vectors.slice();
  reply({ id, type: 'vectors', vectors }, [vectors.buffer as ArrayBuffer]);
}

addEventListener('message', (e: MessageEvent<EmbedRequest>) => {
  const req = e.data;
  const done =
    req.type === 'load'
      ? load(req.id)
      : req.type === 'embed'
        ? embed(req.id, req.texts)
        : Promise.reject(new Error(`unknown request ${String((req as { type?: unknown }).type)}`));
  done.catch((err: unknown) => reply({ id: req.id, type: 'error', message: messageOf(err) }));
});
