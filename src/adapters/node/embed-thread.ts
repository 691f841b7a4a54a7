/**
 * The embedding thread of the CLI and the MCP server (embed-pool.ts): loads the model once (USE
 * lite, or the ONNX model of the folder its workerData names: --embed-model) and embeds the texts
 * it is sent, one request at a time, so the process's own thread stays free to answer while a
 * folder is embedded (onnxruntime-node runs a session on the calling thread). The messages are
 * core's (semantic/thread-embedder.ts): a load is answered ready, an embed its vectors (the buffer
 * moved), either one error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { EmbeddingModel } from '../../core/semantic/port';
import type { EmbedReply, EmbedRequest } from '../../core/semantic/thread-embedder';
import type { EmbedThreadData } from './embed-pool';
import { nodeEmbeddingModel } from './model-files';
import { loadNodeOnnxModel } from './onnx-files';

const port = parentPort;
if (!port) throw new Error('embed-thread runs as a worker thread');
const data = (workerData ?? {}) as EmbedThreadData;
const reply = (message: EmbedReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

let onnx: Promise<EmbeddingModel> | null = null;
function model(): Promise<EmbeddingModel> {
  if (!data.onnxModel) return nodeEmbeddingModel();
  onnx ??= loadNodeOnnxModel(data.onnxModel).catch((err: unknown) => {
    onnx = null;
    throw err;
  });
  return onnx;
}

let queue: Promise<unknown> = Promise.resolve();
port.on('message', (req: EmbedRequest) => {
  queue = queue.then(async () => {
    try {
      const m = await model();
      if (req.type === 'load') return reply({ id: req.id, type: 'ready', modelId: m.id, dims: m.dims });
      let vectors = await m.embed(req.texts);
      // only a whole buffer of its own is moved (onnxruntime's outputs may be views)
      if (vectors.byteOffset !== 0 || vectors.byteLength !== vectors.buffer.byteLength)
        vectors = vectors.slice();
      reply({ id: req.id, type: 'vectors', vectors }, [vectors.buffer as ArrayBuffer]);
    } catch (err) {
      reply({ id: req.id, type: 'error', message: err instanceof Error ? err.message : String(err) });
    }
  });
});
