/**
 * The embedding thread of the CLI and the MCP server (embed-pool.ts): loads the USE-lite model
 * once and embeds the texts it is sent, one request at a time, so the process's own thread
 * stays free to answer while a folder is embedded. An empty request only loads the model.
 */
import { parentPort } from 'node:worker_threads';
import { nodeEmbeddingModel } from './model-files';

export type EmbedThreadRequest = { id: number; texts: string[] };
export type EmbedThreadReply =
  { id: number; modelId: string; dims: number; vectors: Float32Array } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('embed-thread runs as a worker thread');
let queue: Promise<unknown> = Promise.resolve();
port.on('message', (req: EmbedThreadRequest) => {
  queue = queue.then(async () => {
    try {
      const model = await nodeEmbeddingModel();
      const vectors = await model.embed(req.texts);
      port.postMessage(
        { id: req.id, modelId: model.id, dims: model.dims, vectors } satisfies EmbedThreadReply,
        [vectors.buffer as ArrayBuffer],
      );
    } catch (err) {
      port.postMessage({
        id: req.id,
        error: err instanceof Error ? err.message : String(err),
      } satisfies EmbedThreadReply);
    }
  });
});
