/**
 * The Node search pool (CLI, MCP, the engine in a worker thread, the bench): worker_threads
 * running search-thread, one per core beyond the caller's (which searches too). From the bundled CLI the thread is
 * the bundled search-thread.mjs beside cli.mjs; from the TypeScript sources the parse pool's
 * .mjs boot file has tsx compile search-thread.ts in the thread.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { LaneMessage, LaneReply } from '../../core/grep/lane';
import { LanePool, searchLaneCount, type LaneThread } from '../../core/grep/lane-pool';
import type { FileSource } from '../../core/source/types';
import { NodeFsSource } from './fs';

function spawnThread(): LaneThread {
  const here = import.meta.url;
  const fromSources = here.endsWith('.ts');
  const worker = fromSources
    ? new Worker(new URL('./parse-thread-boot.mjs', here), { workerData: { entry: new URL('./search-thread.ts', here).href } })
    : new Worker(new URL('./search-thread.mjs', here));
  // referenced only while it has work: an idle pool never keeps the process alive
  let pending = 0;
  worker.unref();
  return {
    post(m: LaneMessage, transfer) {
      if ('task' in m && pending++ === 0) worker.ref();
      worker.postMessage(m, transfer);
    },
    listen(onReply, onExit) {
      let exited = false;
      const exit = (reason: string) => {
        if (exited) return;
        exited = true;
        onExit(reason);
      };
      worker.on('message', (reply: LaneReply) => {
        if (--pending === 0) worker.unref();
        onReply(reply);
      });
      worker.on('error', (err) => exit(err instanceof Error ? err.message : String(err)));
      worker.on('exit', (code) => exit(`the thread exited with code ${code}`));
      if (pending === 0) worker.unref();
    },
    terminate: () => void worker.terminate(),
  };
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
