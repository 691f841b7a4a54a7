/**
 * The browser's search pool: Web Workers started by the engine worker on the first search
 * that needs more than one chunk, one per core beyond the page's (hardwareConcurrency - 1,
 * at least one). The engine ships each chunk's bytes from its in-memory snapshot (a copy, by
 * structured clone); see src/core/grep/pool.ts and docs/search-pool.md for why not shared memory.
 */
import type { LaneReply } from '../core/grep/lane';
import { LanePool, searchLaneCount, type LaneThread } from '../core/grep/lane-pool';

function spawnWorker(): LaneThread {
  const worker = new Worker(new URL('./search.worker.ts', import.meta.url), {
    type: 'module',
    name: 'quarry-search',
  });
  return {
    post: (m, transfer) => worker.postMessage(m, transfer),
    listen(onReply, onExit) {
      worker.addEventListener('message', (e: MessageEvent<LaneReply>) => onReply(e.data));
      const exit = (e: Event) => {
        e.preventDefault?.();
        onExit((e as ErrorEvent).message || 'the search worker failed');
      };
      worker.addEventListener('error', exit);
      worker.addEventListener('messageerror', exit);
    },
    terminate: () => worker.terminate(),
  };
}

/** Null where workers cannot start here (no Worker in this scope): the engine then searches alone. */
export function browserSearchPool(): LanePool | null {
  if (typeof Worker === 'undefined') return null;
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency : undefined;
  return new LanePool(spawnWorker, searchLaneCount(cores), () => null);
}
