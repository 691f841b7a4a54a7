/**
 * The Node parsing pool (CLI, MCP, tests, bench): worker_threads running parse-thread.
 * From the bundled CLI (node_modules/.cache/quarry/cli.mjs) the thread is the bundled
 * parse-thread.mjs beside it; from the TypeScript sources a small .mjs boot file has tsx
 * compile parse-thread.ts in the thread.
 */
import { availableParallelism } from 'node:os';
import { inThreadChunker } from '../../core/chunk/any';
import { poolSize, ThreadPool, type ChunkReply, type ChunkThread } from '../../core/chunk/pool';
import { MAX_PARSE_MS } from '../../core/limits';
import { nodeGrammarLoader } from './grammars';
import { startPoolThread } from './worker-thread';

type ChunkRequestLike = Parameters<ChunkThread['post']>[0];

function spawnThread(): ChunkThread {
  // only a file is answered: a grammar preload is not work to wait for
  return startPoolThread<ChunkRequestLike, ChunkReply>('parse-thread', (req) => !('preload' in req));
}

/** A pool of `size` parsing threads (default: one per core beyond the caller's, at least two). */
export function nodeParsePool(size = poolSize(availableParallelism())): ThreadPool {
  // threads that cannot start (a bundle without parse-thread.mjs, say): parse on the calling thread
  return new ThreadPool(spawnThread, size, () =>
    inThreadChunker(nodeGrammarLoader, { maxParseMs: MAX_PARSE_MS }),
  );
}
