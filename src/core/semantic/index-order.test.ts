/**
 * SemanticIndex.sync's order and deadline: definitions are embedded before other chunks, shortest
 * first within each; with an open file (`near`), its chunks come first, then its folder's, then each
 * folder above's, then the rest, definitions first within each; a deadline stops after a batch,
 * what was embedded is searchable with its coverage, and the next sync embeds only the rest.
 */
import { describe, expect, it } from 'vitest';
import type { Chunk, ChunkType } from '../chunk/types';
import { now } from '../jobs/yielder';
import { ChunkIndex } from '../rank/bm25';
import { splitLinesForIndex } from '../rank/lines';
import { DEFINITION_TYPES } from '../nav/symbol-table';
import { FakeModel, fakeVector, linesReader } from './fake-model.testutil';
import { EMBED_BATCH, nearness, SemanticIndex } from './index';
import { chunkView } from './views';

/** a distinct word per file (views drop digits) */
const word = (i: number) =>
  String.fromCharCode(97 + (i % 26)) + String.fromCharCode(97 + Math.floor(i / 26)) + 'mod';

/** n files, each a short block, a long block, a long function and a short function (one per line). */
function mixedIndex(n: number) {
  const files: Record<string, string> = {};
  const index = new ChunkIndex();
  const kinds: ChunkType[] = ['block', 'block', 'function', 'function'];
  for (let f = 0; f < n; f++) {
    const path = `src/mod${f}.ts`;
    const w = word(f);
    const text = [
      `${w}Step = 1;`,
      `${w}Total = compute the running total of every order line ${w} and tax;`,
      `function ${w}LongDefinition() { return fetch the user profile and merge the settings ${w}; }`,
      `function ${w}Short() {}`,
    ].join('\n');
    files[path] = text;
    const lines = splitLinesForIndex(text);
    const chunks: Chunk[] = kinds.map((chunkType, i) => ({
      path,
      startLine: i + 1,
      endLine: i + 1,
      symbolName: chunkType === 'function' ? `${w}Fn${'x'.repeat(i)}` : '',
      chunkType,
    }));
    index.setFile(path, { size: text.length, mtimeMs: 1 }, chunks, lines);
  }
  return { files, index };
}

/** The view text → whether a definition chunk has it. */
function definitionViews(index: ChunkIndex, files: Record<string, string>): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const p of index.paths())
    for (const c of index.chunksOf(p))
      out.set(chunkView(c, splitLinesForIndex(files[p])), DEFINITION_TYPES.has(c.chunkType));
  return out;
}

describe('SemanticIndex.sync order', () => {
  it('embeds definitions first, shortest first within each kind, the same way every time', async () => {
    const { files, index } = mixedIndex(10);
    const model = new FakeModel();
    const s = new SemanticIndex(model.id, model.dims);
    const stats = await s.sync(index, linesReader(files), model);
    expect(stats).toMatchObject({ embedded: 40, complete: true });
    const defs = definitionViews(index, files);
    const kinds = model.embedded.map((t) => defs.get(t));
    expect(kinds).toEqual([...Array(20).fill(true), ...Array(20).fill(false)]);
    for (const part of [model.embedded.slice(0, 20), model.embedded.slice(20)]) {
      const lengths = part.map((t) => t.length);
      expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
    }
    const again = new FakeModel();
    await new SemanticIndex(again.id, again.dims).sync(index, linesReader(files), again);
    expect(again.embedded).toEqual(model.embedded);
  });

  it('a deadline stops after a batch: the definitions embedded are searchable, the next sync embeds the rest', async () => {
    const { files, index } = mixedIndex(10);
    const model = new FakeModel();
    const s = new SemanticIndex(model.id, model.dims);
    const stats = await s.sync(index, linesReader(files), model, { deadline: now() - 1 });
    expect(stats).toMatchObject({ embedded: EMBED_BATCH, complete: false, chunks: 40 });
    expect(s.coverage(index)).toEqual({ searched: EMBED_BATCH, of: 40 });
    expect(s.covers(index)).toBe(false);
    const hits = s.search(index, fakeVector('fetch user profile settings'), 100);
    expect(hits.length).toBe(EMBED_BATCH);
    expect(hits.every((h) => h.chunk.chunkType === 'function')).toBe(true);
    // stored and read back mid-way: the chunks not embedded stay unembedded, not wrong
    const back = SemanticIndex.decode(s.encode(), model.id, model.dims)!;
    expect(back.coverage(index)).toEqual({ searched: EMBED_BATCH, of: 40 });
    const rest = await back.sync(index, linesReader(files), model);
    expect(rest).toMatchObject({ embedded: 40 - EMBED_BATCH, complete: true, vectors: 40 });
    expect(new Set(model.embedded).size).toBe(40);
    expect(back.coverage(index)).toEqual({ searched: 40, of: 40 });
    expect(back.covers(index)).toBe(true);
  });
});

/** Files of a block and a function each, at the given paths (a distinct word per file). */
function filesAt(paths: readonly string[]) {
  const files: Record<string, string> = {};
  const index = new ChunkIndex();
  paths.forEach((path, f) => {
    const w = word(f);
    const text = [
      `${w}Count = tally the ${w} rows;`,
      `function ${w}Load() { return read ${w} settings; }`,
    ].join('\n');
    files[path] = text;
    const chunks: Chunk[] = (['block', 'function'] as const).map((chunkType, i) => ({
      path,
      startLine: i + 1,
      endLine: i + 1,
      symbolName: chunkType === 'function' ? `${w}Load` : '',
      chunkType,
    }));
    index.setFile(path, { size: text.length, mtimeMs: 1 }, chunks, splitLinesForIndex(text));
  });
  return { files, index };
}

/** The view text → its file and whether it is a definition's. */
function viewPlaces(index: ChunkIndex, files: Record<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of index.paths())
    for (const c of index.chunksOf(p))
      out.set(
        chunkView(c, splitLinesForIndex(files[p])),
        `${p} ${DEFINITION_TYPES.has(c.chunkType) ? 'def' : 'block'}`,
      );
  return out;
}

describe('nearness to the open file', () => {
  it.each([
    { path: 'src/ui/panel/Open.tsx', want: 0 },
    { path: 'src/ui/panel/Sibling.tsx', want: 1 },
    { path: 'src/ui/panel/deep/Child.tsx', want: 1 },
    { path: 'src/ui/Other.tsx', want: 2 },
    { path: 'src/ui/menu/Menu.tsx', want: 2 },
    { path: 'src/core/Far.ts', want: 3 },
    { path: 'README.ts', want: 4 },
    { path: 'lib/x/y.ts', want: 4 },
  ])('$path from src/ui/panel/Open.tsx: $want', ({ path, want }) => {
    expect(nearness(path, 'src/ui/panel/Open.tsx')).toBe(want);
  });

  it('nothing open: every file the same; a file at the root: the file, then the rest', () => {
    expect(nearness('src/a.ts', undefined)).toBe(0);
    expect(nearness('src/a.ts', '')).toBe(0);
    expect(nearness('top.ts', 'top.ts')).toBe(0);
    expect(nearness('other.ts', 'top.ts')).toBe(1);
    expect(nearness('src/deep/a.ts', 'top.ts')).toBe(1);
  });
});

describe('SemanticIndex.sync order near the open file', () => {
  const paths = [
    'README.ts',
    'src/core/Far.ts',
    'src/ui/Other.tsx',
    'src/ui/panel/deep/Child.tsx',
    'src/ui/panel/Open.tsx',
    'src/ui/panel/Sibling.tsx',
  ];

  it('embeds the open file, then its folder, then the folders above, then the rest; definitions first in each', async () => {
    const { files, index } = filesAt(paths);
    const model = new FakeModel();
    const s = new SemanticIndex(model.id, model.dims);
    await s.sync(index, linesReader(files), model, { near: 'src/ui/panel/Open.tsx' });
    const places = viewPlaces(index, files);
    const order = model.embedded.map((t) => places.get(t)!);
    const group = (p: string) => nearness(p.split(' ')[0], 'src/ui/panel/Open.tsx');
    expect(order.slice(0, 2)).toEqual(['src/ui/panel/Open.tsx def', 'src/ui/panel/Open.tsx block']);
    // the groups in order, and within each, definitions before blocks
    expect(order.map(group)).toEqual([0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4]);
    for (const g of [0, 1, 2, 3, 4]) {
      const kinds = order.filter((p) => group(p) === g).map((p) => p.split(' ')[1]);
      expect(kinds).toEqual(g === 1 ? ['def', 'def', 'block', 'block'] : ['def', 'block']);
    }
    expect(new Set(order).size).toBe(12);
  });

  it('a deadline with an open file: the first batch is the open file and its folder, and the order without one is unchanged', async () => {
    const many = [...paths, ...Array.from({ length: 20 }, (_, i) => `lib/part${i}/mod.ts`)];
    const { files, index } = filesAt(many);
    const model = new FakeModel();
    const s = new SemanticIndex(model.id, model.dims);
    await s.sync(index, linesReader(files), model, { near: 'src/ui/panel/Sibling.tsx', deadline: now() - 1 });
    expect(model.embedded).toHaveLength(EMBED_BATCH);
    const places = viewPlaces(index, files);
    const first = model.embedded.slice(0, 6).map((t) => places.get(t)!.split(' ')[0]);
    expect(new Set(first)).toEqual(
      new Set(['src/ui/panel/Sibling.tsx', 'src/ui/panel/Open.tsx', 'src/ui/panel/deep/Child.tsx']),
    );

    const plain = new FakeModel();
    await new SemanticIndex(plain.id, plain.dims).sync(index, linesReader(files), plain);
    const kinds = plain.embedded.map((t) => places.get(t)!.split(' ')[1]);
    expect(kinds).toEqual([...Array(many.length).fill('def'), ...Array(many.length).fill('block')]);
  });
});
