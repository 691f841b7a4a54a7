/**
 * The Node search pool (CLI, MCP, the engine in a worker thread, the bench): worker_threads
 * running search-thread, one per core beyond the caller's (which searches too), scheduled by
 * core's LanePool. From the bundled CLI the thread is the bundled search-thread.mjs beside
 * cli.mjs; from the TypeScript sources thread-boot.mjs has tsx compile search-thread.ts in the
 * thread (worker-thread.ts).
 */
import { availableParallelism } from 'node:os';
import type { LaneMessage, LaneReply } from '../../core/grep/lane';
import { LanePool, searchLaneCount, type LaneThread } from '../../core/grep/lane-pool';
import type { FileSource } from '../../core/source/types';
import { NodeFsSource } from './fs';
import { startPoolThread } from './worker-thread';

function spawnThread(): LaneThread {
  return startPoolThread<LaneMessage, LaneReply>('search-thread', (m) => 'task' in m);
}

/** Where a lane can open the root itself: a directory on this machine. */
function nodeRootRef(source: FileSource): string | null {
  return source instanceof NodeFsSource ? source.absoluteRoot : null;
}

/**
 * A pool of `lanes` search threads (default: one per core beyond the caller's). The caller's
 * thread walks, merges, and searches a chunk whenever it has none (the first one always).
 */
export function nodeSearchPool(lanes = searchLaneCount(availableParallelism())): LanePool {
  return new LanePool(spawnThread, lanes, nodeRootRef);
}
