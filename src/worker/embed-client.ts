/**
 * The engine worker's side of the embedding threads (embed.worker.ts): nested Web Workers (as
 * core's PoolThread, the port every pool speaks to), one per core (navigator.hardwareConcurrency,
 * at most MAX_EMBED_THREADS), each holding the model, started on the first load() and kept from
 * then on. The loading, the batches cut across the workers and what a stopped worker means are
 * core's EmbedderPool (semantic/embedder-pool.ts over thread-embedder.ts), shared with Node's
 * embedding threads; this file only starts the workers. Each worker runs its wasm on one thread
 * (embed.worker.ts), so the workers are what puts every core to work.
 */
import { messagePortThread } from '../core/jobs/pool-thread';
import { EmbedderPool, embedThreadCount } from '../core/semantic/embedder-pool';
import type { EmbedThread } from '../core/semantic/thread-embedder';

function spawnWorker(): EmbedThread {
  const worker = new Worker(new URL('./embed.worker.ts', import.meta.url), {
    type: 'module',
    name: 'quarry-embedder',
  });
  // an exit without a message: the embedder says what that means
  return messagePortThread(worker, '');
}

export class BrowserEmbedder extends EmbedderPool {
  constructor(
    spawn: () => EmbedThread = spawnWorker,
    threads = embedThreadCount(typeof navigator === 'undefined' ? 1 : navigator.hardwareConcurrency),
  ) {
    super(spawn, { thread: 'embedding worker', disposed: 'The embedding model was disposed' }, threads);
  }
}

/** Null where this scope cannot start workers: semantic search is then unavailable here. */
export function browserEmbedder(): BrowserEmbedder | null {
  if (typeof Worker === 'undefined') return null;
  return new BrowserEmbedder();
}
