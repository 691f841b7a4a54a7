/**
 * The browser's parsing pool: Web Workers started by the engine worker, one per core beyond
 * the page's (navigator.hardwareConcurrency - 1), at least two. A worker that stops before its
 * first answer fails its files (transiently) and a new one takes later files; after two such
 * workers in a row the pool parses in the engine worker itself.
 */
import { browserGrammarLoader } from '../adapters/browser/grammars';
import { inThreadChunker } from '../core/chunk/any';
import { poolSize, ThreadPool, type ChunkThread } from '../core/chunk/pool';
import { messagePortThread } from '../core/jobs/pool-thread';
import { MAX_PARSE_MS } from '../core/limits';

function spawnWorker(): ChunkThread {
  const worker = new Worker(new URL('./parse.worker.ts', import.meta.url), {
    type: 'module',
    name: 'quarry-parser',
  });
  return messagePortThread(worker, 'the parser worker failed');
}

/**
 * Null where workers cannot start here (no Worker in this scope): the build then parses on its own thread.
 * `hold`: how long foreground work asks the threads to get no new files (ThreadPool.holdWhile).
 */
export function browserParsePool(hold?: () => number): ThreadPool | null {
  if (typeof Worker === 'undefined') return null;
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency : undefined;
  // workers that cannot start (a browser without nested workers, a script that fails to load): parse in the engine worker
  const pool = new ThreadPool(spawnWorker, poolSize(cores), () =>
    inThreadChunker(browserGrammarLoader, { maxParseMs: MAX_PARSE_MS }),
  );
  pool.holdWhile(hold ?? null);
  return pool;
}
