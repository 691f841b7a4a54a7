/**
 * The Node parsing pool (CLI, MCP, tests, bench): worker_threads running parse-thread.
 * From the bundled CLI (node_modules/.cache/quarry/cli.mjs) the thread is the bundled
 * parse-thread.mjs beside it; from the TypeScript sources a small .mjs boot file has tsx
 * compile parse-thread.ts in the thread.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { inThreadChunker } from '../../core/chunk/any';
import { poolSize, ThreadPool, type ChunkReply, type ChunkThread } from '../../core/chunk/pool';
import { MAX_PARSE_MS } from '../../core/limits';
import { nodeGrammarLoader } from './grammars';

function spawnThread(): ChunkThread {
  const here = import.meta.url;
  const fromSources = here.endsWith('.ts');
  const worker = fromSources
    ? new Worker(new URL('./parse-thread-boot.mjs', here), { workerData: { entry: new URL('./parse-thread.ts', here).href } })
    : new Worker(new URL('./parse-thread.mjs', here));
  // referenced only while it has work: an idle pool never keeps the process alive
  let pending = 0;
  worker.unref();
  return {
    post: (req) => {
      // only a file is answered: a grammar preload is not work to wait for
      if (!('preload' in req) && pending++ === 0) worker.ref();
      worker.postMessage(req);
    },
    listen(onReply, onExit) {
      let exited = false;
      const exit = (reason: string) => {
        if (exited) return;
        exited = true;
        onExit(reason);
      };
      worker.on('message', (reply: ChunkReply) => {
        if (--pending === 0) worker.unref();
        onReply(reply);
      });
      worker.on('error', (err) => exit(err instanceof Error ? err.message : String(err)));
      worker.on('exit', (code) => exit(`the thread exited with code ${code}`));
      // a 'message' listener references the worker again: a thread with nothing to answer must not hold the process
      if (pending === 0) worker.unref();
    },
    terminate: () => void worker.terminate(),
  };
}

/** A pool of `size` parsing threads (default: one per core beyond the caller's, at least two). */
export function nodeParsePool(size = poolSize(availableParallelism())): ThreadPool {
  // threads that cannot start (a bundle without parse-thread.mjs, say): parse on the calling thread
  return new ThreadPool(spawnThread, size, () => inThreadChunker(nodeGrammarLoader, { maxParseMs: MAX_PARSE_MS }));
}
