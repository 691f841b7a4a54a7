/**
 * A damaged stored index (zeroed bytes, a flipped byte anywhere, a cut, a tail) is never a
 * cache hit: both indexes (Quarry's and seed 004's) rebuild quietly and answer exactly as a
 * fresh index does.
 */
import { describe, expect, it } from 'vitest';
import { CodebaseIndexService } from '../codebase-index/service';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import type { Chunk } from '../chunk/types';
import { splitLinesForIndex } from './lines';
import { decodeIndex, encodeIndex, MemoryIndexStore, payloadChecksum } from './persist';
import { CodeIndexService, type ChunkerLike } from './service';

/** A stand-in chunker: a line `fn NAME` starts a chunk that runs to the next one. */
const lineChunker: ChunkerLike = {
  chunkFile(path, text) {
    const lines = splitLinesForIndex(text);
    const out: Chunk[] = [];
    lines.forEach((l, i) => {
      const m = /^fn (\w+)/.exec(l);
      if (!m) return;
      if (out.length) out[out.length - 1].endLine = i;
      out.push({ path, startLine: i + 1, endLine: lines.length, symbolName: m[1], chunkType: 'function' });
    });
    return out;
  },
};

const FILES: Record<string, string> = {
  'src/db/pool.ts':
    "import { Pool } from 'pg';\nfn createPool\nexport function createPool(config) {\n  return new Pool(config);\n}\nfn PoolManager\nclass PoolManager { get(name) { return name; } }\n",
  'src/db/connection.ts':
    'fn connect\nexport const connect = async (url) => {\n  return url;\n};\nfn helper\nfunction helper() { return 1 }\n',
  'src/auth/session.ts':
    'fn token\nexport function token(user) { return user.session + pool; }\nfn refresh\nfunction refresh(token) { return token; }\n',
  'README.md': '# Title\ndatabase connection pool docs, session tokens\n',
  'lib/x.py': 'fn pooled\ndef pooled(x):\n    return x\n',
};
/** One source for every service (its files keep their modified times). */
const SOURCE = new MemorySource({ ...FILES });
const QUERIES = ['pool', 'connection url', 'session token refresh', 'return'];

interface Harness {
  key: string;
  /** refresh a new service over the store; its mode and its answers to QUERIES */
  open(store: MemoryIndexStore): Promise<{ mode: string; answers: unknown[] }>;
}

const quarry: Harness = {
  key: 'index',
  async open(store) {
    const svc = new CodeIndexService(new Workspace([SOURCE]), async () => lineChunker, store);
    const { refreshMode } = await svc.refresh();
    const answers: unknown[] = QUERIES.map((q) =>
      svc
        .index!.search(q, 100)
        .map((h) => [h.chunk.path, h.chunk.startLine, h.chunk.endLine, h.score, h.matchedTerms]),
    );
    answers.push(svc.trigrams!.candidates({ requiredLiterals: ['pool'] }));
    return { mode: refreshMode, answers };
  },
};

const seed004: Harness = {
  key: 'seed004',
  async open(store) {
    const svc = new CodebaseIndexService(new Workspace([SOURCE]), store);
    const { refreshMode } = await svc.refresh();
    const answers = QUERIES.map((q) =>
      svc.index!.search(q, 100).map((h) => [h.chunk.path, h.chunk.startLine, h.chunk.endLine, h.score]),
    );
    return { mode: refreshMode, answers };
  },
};

/** The damages, each a function of the stored bytes (a copy is passed). */
function damages(bytes: Uint8Array): Array<[string, (b: Uint8Array) => Uint8Array]> {
  const { sections } = decodeIndex(bytes);
  const at = (s: Uint32Array, frac: number) =>
    s.byteOffset - bytes.byteOffset + Math.floor(s.byteLength * frac);
  const flip = (pos: number) => (b: Uint8Array) => ((b[pos] ^= 0x01), b);
  const postings = sections[1]; // both stores: the second section is postings (chunk ids)
  const lastPart = sections[sections.length - 1]; // a JSON part (the file table / the terms)
  const mid = bytes.length >> 1;
  expect(bytes[16]).toBe('{'.charCodeAt(0)); // the JSON head starts after magic, version, checksum, length
  expect(postings.length).toBeGreaterThan(4);
  return [
    ['64 zeroed bytes in the middle', (b) => b.fill(0, mid & ~3, (mid & ~3) + 64)],
    ['one flipped byte in the JSON head', flip(20)],
    ['one flipped byte in the postings (start)', flip(at(postings, 0))],
    ['one flipped byte in the postings (middle)', flip(at(postings, 0.5))],
    ['one flipped byte in the postings (high byte of a word)', flip(at(postings, 0.5) + 3)],
    ['one flipped byte in a JSON part', flip(at(lastPart, 0.6))],
    ['one flipped byte in a section length', flip(postings.byteOffset - bytes.byteOffset - 4)],
    ['the last byte flipped', flip(bytes.length - 1)],
    ['the checksum flipped', flip(8)],
    ['the version changed', flip(4)],
    ['cut by one word', (b) => b.slice(0, b.length - 4)],
    ['cut by one byte', (b) => b.slice(0, b.length - 1)],
    ['cut in half', (b) => b.slice(0, mid)],
    ['a garbage tail of one word', (b) => concat(b, new Uint8Array([1, 2, 3, 4]))],
    ['a garbage tail of zeros', (b) => concat(b, new Uint8Array(64))],
    ['a garbage tail of text', (b) => concat(b, new TextEncoder().encode('garbage'))],
  ];
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

describe.each([
  ['Quarry index', quarry],
  ['seed-004 index', seed004],
])('a damaged stored %s', (_, h) => {
  it('is rebuilt quietly (full, not cache_hit) and answers exactly as a fresh index', async () => {
    const store = new MemoryIndexStore();
    const fresh = await h.open(store);
    expect(fresh.mode).toBe('full');
    expect(fresh.answers.flat().length).toBeGreaterThan(10);
    expect((await h.open(store)).mode).toBe('cache_hit');
    const good = store.data.get(h.key)!;
    for (const [what, damage] of damages(good)) {
      store.data.set(h.key, damage(good.slice()));
      const again = await h.open(store);
      expect({ what, mode: again.mode }).toEqual({ what, mode: 'full' });
      expect(again.answers, what).toEqual(fresh.answers);
      // the rebuild was stored again: the next load is a cache hit
      expect((await h.open(store)).mode, what).toBe('cache_hit');
    }
  });
});

describe('the stored checksum', () => {
  it('changes with any single flipped bit of any word, and with the length', () => {
    const words = Uint32Array.from({ length: 64 }, (_, i) => (i * 0x9e3779b1) >>> 0);
    const base = payloadChecksum(words);
    for (let i = 0; i < words.length; i++) {
      for (let bit = 0; bit < 32; bit++) {
        words[i] ^= 1 << bit;
        expect(payloadChecksum(words)).not.toBe(base);
        words[i] ^= 1 << bit;
      }
    }
    expect(payloadChecksum(words.subarray(0, 63))).not.toBe(base);
    expect(payloadChecksum(new Uint32Array(8))).not.toBe(payloadChecksum(new Uint32Array(9)));
  });
  it('is read back by decode (an index whose bytes were not changed loads)', () => {
    const bytes = encodeIndex({
      json: { a: [1, 'x'] },
      sections: [Uint32Array.of(1, 2, 3), new Uint32Array(0)],
    });
    const back = decodeIndex(bytes);
    expect(back.json).toEqual({ a: [1, 'x'] });
    expect(back.sections.map((s) => [...s])).toEqual([[1, 2, 3], []]);
    // at any byte offset (a stored Uint8Array need not be aligned)
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(decodeIndex(shifted.subarray(1)).json).toEqual({ a: [1, 'x'] });
  });
});
