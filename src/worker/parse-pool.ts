/**
 * The browser's parsing pool: Web Workers started by the engine worker, one per core beyond
 * the page's (navigator.hardwareConcurrency - 1), at least two. A worker that cannot start
 * (an error event before any answer) fails its files; the pool starts a new one for later files.
 */
import { poolSize, ThreadPool, type ChunkReply, type ChunkThread } from '../core/chunk/pool';

function spawnWorker(): ChunkThread {
  const worker = new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module', name: 'quarry-parser' });
  return {
    post: (req) => worker.postMessage(req),
    listen(onReply, onExit) {
      worker.addEventListener('message', (e: MessageEvent<ChunkReply>) => onReply(e.data));
      const exit = (e: Event) => {
        e.preventDefault?.();
        worker.terminate();
        onExit((e as ErrorEvent).message || 'the parser worker failed');
      };
      worker.addEventListener('error', exit);
      worker.addEventListener('messageerror', exit);
    },
    terminate: () => worker.terminate(),
  };
}

/** Null where workers cannot start here (no Worker in this scope): the build then parses on its own thread. */
export function browserParsePool(): ThreadPool | null {
  if (typeof Worker === 'undefined') return null;
  return new ThreadPool(spawnWorker, poolSize(typeof navigator !== 'undefined' ? navigator.hardwareConcurrency : undefined));
}
