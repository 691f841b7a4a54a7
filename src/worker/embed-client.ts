/**
 * The engine worker's side of the embedding thread (embed.worker.ts): a nested Web Worker (as
 * core's PoolThread, the port every pool speaks to) that holds the USE-lite model, started on
 * the first load() and kept from then on. The loading, the requests and what a stopped worker
 * means are core's ThreadEmbedder (semantic/thread-embedder.ts), shared with Node's embedding
 * thread; this file only starts the worker.
 */
import { messagePortThread } from '../core/jobs/pool-thread';
import { ThreadEmbedder, type EmbedThread } from '../core/semantic/thread-embedder';

function spawnWorker(): EmbedThread {
  const worker = new Worker(new URL('./embed.worker.ts', import.meta.url), {
    type: 'module',
    name: 'quarry-embedder',
  });
  // an exit without a message: the embedder says what that means
  return messagePortThread(worker, '');
}

export class BrowserEmbedder extends ThreadEmbedder {
  constructor(spawn: () => EmbedThread = spawnWorker) {
    super(spawn, { thread: 'embedding worker', disposed: 'The embedding model was disposed' });
  }
}

/** Null where this scope cannot start workers: semantic search is then unavailable here. */
export function browserEmbedder(): BrowserEmbedder | null {
  if (typeof Worker === 'undefined') return null;
  return new BrowserEmbedder();
}
