/** A parsing thread of the browser pool (parse-pool.ts): chunks the files the engine worker sends it. */
import { browserGrammarLoader } from '../adapters/browser/grammars';
import { inThreadChunker } from '../core/chunk/any';
import { serveChunks, type ChunkMessage } from '../core/chunk/pool';
import { MAX_PARSE_MS } from '../core/limits';

let chunker: ReturnType<typeof inThreadChunker> | null = null;
const serve = serveChunks(
  () => (chunker ??= inThreadChunker(browserGrammarLoader, { maxParseMs: MAX_PARSE_MS })),
  (reply) => postMessage(reply),
);
addEventListener('message', (e: MessageEvent<ChunkMessage>) => serve(e.data));
