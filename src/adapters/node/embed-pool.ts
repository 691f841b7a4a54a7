/**
 * The embedding model on worker threads (the CLI, the MCP server): embed() posts the texts to
 * embed-thread and waits for its vectors, so an MCP server keeps answering while a folder is
 * embedded. USE lite runs on one thread per core (os.availableParallelism(), at most
 * MAX_EMBED_THREADS), each batch cut across them; an ONNX model on one thread, as onnxruntime-node
 * already runs a session on every core. The loading, the cutting and what a stopped thread means
 * are core's EmbedderPool (semantic/embedder-pool.ts over thread-embedder.ts), shared with the
 * browser's embedding workers; the threads start as the other pools' do (worker-thread.ts: the
 * bundled embed-thread.mjs beside cli.mjs, or embed-thread.ts compiled by tsx), referenced only
 * while they have work (an idle one never keeps the process alive). A thread that dies fails what
 * it held, and the next call starts a new one in its place.
 * The thread holds USE lite, or the ONNX model of a folder (--embed-model) when it is given one.
 */
import { availableParallelism } from 'node:os';
import { EmbedderPool, embedThreadCount } from '../../core/semantic/embedder-pool';
import type { EmbedReply, EmbedRequest } from '../../core/semantic/thread-embedder';
import type { EmbeddingModel } from '../../core/semantic/port';
import { startPoolThread } from './worker-thread';

/** What the embedding thread is told in its workerData: the ONNX model's folder, or none (USE lite). */
export interface EmbedThreadData {
  onnxModel?: string;
}

/** How many threads USE lite is embedded on: one per core. */
export const nodeEmbedThreads = (): number => embedThreadCount(availableParallelism());

/** The threads of each model ('' is USE lite) and thread count, each started on its first use. */
const embedders = new Map<string, EmbedderPool>();

function embedderFor(onnxModel: string | undefined, threads: number): EmbedderPool {
  const key = `${onnxModel ?? ''}#${threads}`;
  let embedder = embedders.get(key);
  if (!embedder) {
    const data: EmbedThreadData = onnxModel ? { onnxModel } : {};
    embedder = new EmbedderPool(
      // every request is answered once (this thread sends no progress; were it to, that is no answer)
      () =>
        startPoolThread<EmbedRequest, EmbedReply>(
          'embed-thread',
          () => true,
          (r) => r.type !== 'progress',
          { ...data },
        ),
      { thread: 'embedding thread', disposed: 'The embedding thread stopped: the model was disposed' },
      threads,
    );
    embedders.set(key, embedder);
  }
  return embedder;
}

/**
 * The model, on its own threads, started once per process (again after a thread dies or the model
 * is disposed): USE lite, or the ONNX model in the folder `onnxModel` (an absolute path). `threads`
 * (the bench's one-thread figure): how many, instead of one per core for USE lite and one for ONNX.
 */
export function nodeThreadEmbeddingModel(onnxModel?: string, threads?: number): Promise<EmbeddingModel> {
  return embedderFor(onnxModel, threads ?? (onnxModel ? 1 : nodeEmbedThreads())).load();
}
