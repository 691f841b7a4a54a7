/**
 * A parsing thread of the Node pool (parse-pool.ts): chunks each file it is sent with its own
 * web-tree-sitter runtime, loading a grammar the first time a file of that language comes.
 */
import { parentPort } from 'node:worker_threads';
import { inThreadChunker } from '../../core/chunk/any';
import { serveChunks, type ChunkMessage } from '../../core/chunk/pool';
import { MAX_PARSE_MS } from '../../core/limits';
import { nodeGrammarLoader } from './grammars';

const port = parentPort;
if (!port) throw new Error('parse-thread runs as a worker thread');
let chunker: ReturnType<typeof inThreadChunker> | null = null;
const serve = serveChunks(
  () => (chunker ??= inThreadChunker(nodeGrammarLoader, { maxParseMs: MAX_PARSE_MS })),
  (reply) => port.postMessage(reply),
);
port.on('message', (req: ChunkMessage) => serve(req));
