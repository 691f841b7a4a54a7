/**
 * The browser's search pool: Web Workers started by the engine worker on the first search
 * that needs more than one chunk, one per core beyond the page's (hardwareConcurrency - 1,
 * at least one). The engine ships each chunk's bytes from its in-memory snapshot (a copy, by
 * structured clone); see src/core/grep/pool.ts and docs/search-pool.md for why not shared memory.
 */
import { LanePool, searchLaneCount, type LaneThread } from '../core/grep/lane-pool';
import { messagePortThread } from '../core/jobs/pool-thread';

function spawnWorker(): LaneThread {
  const worker = new Worker(new URL('./search.worker.ts', import.meta.url), {
    type: 'module',
    name: 'quarry-search',
  });
  return messagePortThread(worker, 'the search worker failed');
}

/** Null where workers cannot start here (no Worker in this scope): the engine then searches alone. */
export function browserSearchPool(): LanePool | null {
  if (typeof Worker === 'undefined') return null;
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency : undefined;
  return new LanePool(spawnWorker, searchLaneCount(cores), () => null);
}
