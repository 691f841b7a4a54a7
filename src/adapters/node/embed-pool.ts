/**
 * The embedding model on a worker thread (the CLI, the MCP server): embed() posts the texts to
 * embed-thread and waits for its vectors, so an MCP server keeps answering while a folder is
 * embedded. The loading, the requests and what a stopped thread means are core's ThreadEmbedder
 * (semantic/thread-embedder.ts), shared with the browser's embedding worker; the thread starts as
 * the other pools' do (worker-thread.ts: the bundled embed-thread.mjs beside cli.mjs, or
 * embed-thread.ts compiled by tsx), referenced only while it has work (an idle one never keeps the
 * process alive). A thread that dies fails what it held, and the next call starts a new one.
 */
import { ThreadEmbedder, type EmbedReply, type EmbedRequest } from '../../core/semantic/thread-embedder';
import type { EmbeddingModel } from '../../core/semantic/port';
import { startPoolThread } from './worker-thread';

const embedder = new ThreadEmbedder(
  // every request is answered once (this thread sends no progress; were it to, that is no answer)
  () =>
    startPoolThread<EmbedRequest, EmbedReply>(
      'embed-thread',
      () => true,
      (r) => r.type !== 'progress',
    ),
  { thread: 'embedding thread', disposed: 'The embedding thread stopped: the model was disposed' },
);

/** The model, on its own thread, started once per process (again after a thread dies or the model is disposed). */
export function nodeThreadEmbeddingModel(): Promise<EmbeddingModel> {
  return embedder.load();
}
