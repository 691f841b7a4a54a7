/**
 * The Node parsing pool (CLI, MCP, tests, bench): worker_threads running parse-thread,
 * scheduled by core's ThreadPool. From the bundled CLI (node_modules/.cache/quarry/cli.mjs) the
 * thread is the bundled parse-thread.mjs beside it; from the TypeScript sources thread-boot.mjs
 * has tsx compile parse-thread.ts in the thread (worker-thread.ts).
 */
import { availableParallelism } from 'node:os';
import { inThreadChunker } from '../../core/chunk/any';
import {
  poolSize,
  ThreadPool,
  type ChunkMessage,
  type ChunkReply,
  type ChunkThread,
} from '../../core/chunk/pool';
import { MAX_PARSE_MS } from '../../core/limits';
import { nodeGrammarLoader } from './grammars';
import { startPoolThread } from './worker-thread';

function spawnThread(): ChunkThread {
  // only a file is answered: a grammar preload is not work to wait for
  return startPoolThread<ChunkMessage, ChunkReply>('parse-thread', (req) => !('preload' in req));
}

/** A pool of `size` parsing threads (default: one per core beyond the caller's, at least two). */
export function nodeParsePool(size = poolSize(availableParallelism())): ThreadPool {
  // threads that cannot start (a bundle without parse-thread.mjs, say): parse on the calling thread
  return new ThreadPool(spawnThread, size, () =>
    inThreadChunker(nodeGrammarLoader, { maxParseMs: MAX_PARSE_MS }),
  );
}
