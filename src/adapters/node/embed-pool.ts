/**
 * The embedding model on a worker thread (the CLI, the MCP server): embed() posts the texts to
 * embed-thread and waits for its vectors, so an MCP server keeps answering while a folder is
 * embedded. The loading, the requests and what a stopped thread means are core's ThreadEmbedder
 * (semantic/thread-embedder.ts), shared with the browser's embedding worker; the thread starts as
 * the other pools' do (worker-thread.ts: the bundled embed-thread.mjs beside cli.mjs, or
 * embed-thread.ts compiled by tsx), referenced only while it has work (an idle one never keeps the
 * process alive). A thread that dies fails what it held, and the next call starts a new one.
 * The thread holds USE lite, or the ONNX model of a folder (--embed-model) when it is given one.
 */
import { ThreadEmbedder, type EmbedReply, type EmbedRequest } from '../../core/semantic/thread-embedder';
import type { EmbeddingModel } from '../../core/semantic/port';
import { startPoolThread } from './worker-thread';

/** What the embedding thread is told in its workerData: the ONNX model's folder, or none (USE lite). */
export interface EmbedThreadData {
  onnxModel?: string;
}

/** One thread per model ('' is USE lite), each started on its first use. */
const embedders = new Map<string, ThreadEmbedder>();

function embedderFor(onnxModel: string | undefined): ThreadEmbedder {
  const key = onnxModel ?? '';
  let embedder = embedders.get(key);
  if (!embedder) {
    const data: EmbedThreadData = onnxModel ? { onnxModel } : {};
    embedder = new ThreadEmbedder(
      // every request is answered once (this thread sends no progress; were it to, that is no answer)
      () =>
        startPoolThread<EmbedRequest, EmbedReply>(
          'embed-thread',
          () => true,
          (r) => r.type !== 'progress',
          { ...data },
        ),
      { thread: 'embedding thread', disposed: 'The embedding thread stopped: the model was disposed' },
    );
    embedders.set(key, embedder);
  }
  return embedder;
}

/**
 * The model, on its own thread, started once per process (again after a thread dies or the model
 * is disposed): USE lite, or the ONNX model in the folder `onnxModel` (an absolute path).
 */
export function nodeThreadEmbeddingModel(onnxModel?: string): Promise<EmbeddingModel> {
  return embedderFor(onnxModel).load();
}
