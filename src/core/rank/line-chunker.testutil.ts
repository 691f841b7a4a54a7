/** A stand-in chunker for index tests: a line `fn NAME` starts a chunk that runs to the next one; a file holding BROKEN does not parse. */
import type { SyncChunker } from '../chunk/any';
import type { Chunk } from '../chunk/types';
import { splitLinesForIndex } from './lines';

export const lineChunker: SyncChunker = {
  chunkFile(path: string, text: string): Chunk[] {
    if (text.includes('BROKEN')) throw new Error(`cannot parse ${path}`);
    const lines = splitLinesForIndex(text);
    const out: Chunk[] = [];
    lines.forEach((l, i) => {
      const m = /^fn (\w+)/.exec(l);
      if (m) {
        if (out.length) out[out.length - 1].endLine = i;
        out.push({ path, startLine: i + 1, endLine: lines.length, symbolName: m[1], chunkType: 'function' });
      }
    });
    return out;
  },
};
