/**
 * The embedding thread of the CLI and the MCP server (embed-pool.ts): loads the USE-lite model
 * once and embeds the texts it is sent, one request at a time, so the process's own thread
 * stays free to answer while a folder is embedded. The messages are core's
 * (semantic/thread-embedder.ts): a load is answered ready, an embed its vectors (the buffer
 * moved), either one error.
 */
import { parentPort } from 'node:worker_threads';
import type { EmbedReply, EmbedRequest } from '../../core/semantic/thread-embedder';
import { nodeEmbeddingModel } from './model-files';

const port = parentPort;
if (!port) throw new Error('embed-thread runs as a worker thread');
const reply = (message: EmbedReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
let queue: Promise<unknown> = Promise.resolve();
port.on('message', (req: EmbedRequest) => {
  queue = queue.then(async () => {
    try {
      const model = await nodeEmbeddingModel();
      if (req.type === 'load')
        return reply({ id: req.id, type: 'ready', modelId: model.id, dims: model.dims });
      const vectors = await model.embed(req.texts);
      reply({ id: req.id, type: 'vectors', vectors }, [vectors.buffer as ArrayBuffer]);
    } catch (err) {
      reply({ id: req.id, type: 'error', message: err instanceof Error ? err.message : String(err) });
    }
  });
});
