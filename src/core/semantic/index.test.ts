import fc from 'fast-check';
import { rejectionOf } from '../../../test/rejection';
import { describe, expect, it } from 'vitest';
import type { IndexedChunk } from '../rank/bm25';
import { splitLinesForIndex } from '../rank/lines';
import { decodeIndex, encodeIndex, MemoryIndexStore } from '../rank/persist';
import {
  cosine,
  FAKE_DIMS,
  FAKE_MODEL_ID,
  FakeModel,
  fakeVector,
  indexFiles,
  linesReader,
  setText,
} from './fake-model.testutil';
import { EMBED_BATCH, SemanticIndex, type EmbedProgress, type SemanticHit } from './index';
import { chunkView, VIEWS_VERSION } from './views';

const FILES: Record<string, string> = {
  'src/auth/session.ts':
    'function refreshSession(token) {\n  return renewToken(token);\n}\nfunction endSession(user) {\n  clearCookies(user);\n}\n',
  'src/csv/parse.ts': 'function parseCsv(text) {\n  return splitRows(text);\n}\n',
  // two chunks with the same view: one vector
  'src/twin.ts': 'function twin(x) {\n  return x;\n}\nfunction twin(x) {\n  return x;\n}\n',
};

async function synced(files: Record<string, string> = { ...FILES }, model = new FakeModel()) {
  const index = indexFiles(files);
  const s = new SemanticIndex(model.id, model.dims);
  const stats = await s.sync(index, linesReader(files), model);
  return { files, index, s, model, stats };
}

const q = (text: string) => fakeVector(text);
const brief = (hits: readonly SemanticHit[]) =>
  hits.map((h) => ({ path: h.chunk.path, line: h.chunk.startLine, similarity: h.similarity }));
const symbols = (hits: readonly SemanticHit[]) => hits.map((h) => h.chunk.symbolName);

describe('SemanticIndex.sync', () => {
  it('embeds each distinct view once, shortest first, with progress', async () => {
    const files = { ...FILES };
    const index = indexFiles(files);
    const model = new FakeModel();
    const s = new SemanticIndex(model.id, model.dims);
    const events: EmbedProgress[] = [];
    const stats = await s.sync(index, linesReader(files), model, {
      onProgress: (p) => events.push({ ...p }),
    });
    expect(stats).toEqual({
      filesChanged: 3,
      filesRemoved: 0,
      embedded: 4,
      chunks: 5,
      vectors: 4,
      complete: true,
    });
    expect(model.texts).toBe(4);
    expect(new Set(model.embedded).size).toBe(4);
    // exactly the chunks' views
    const views = new Set(
      index.paths().flatMap((p) => index.chunksOf(p).map((c) => chunkView(c, splitLinesForIndex(files[p])))),
    );
    expect(new Set(model.embedded)).toEqual(views);
    expect(model.embedded.map((t) => t.length)).toEqual(
      model.embedded.map((t) => t.length).sort((a, b) => a - b),
    );
    expect(events).toEqual([
      { phase: 'embedding', loaded: 0, total: 4 },
      { phase: 'embedding', loaded: 4, total: 4 },
    ]);
    expect(s.vectorCount).toBe(4);
    expect(s.byteSize).toBe(4 * (FAKE_DIMS + 4));
  });

  it('sends batches of EMBED_BATCH texts', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < EMBED_BATCH * 2 + 3; i++)
      files[`src/jobs/job${String.fromCharCode(97 + (i % 26), 97 + Math.floor(i / 26))}.ts`] =
        `function runJob(input) {\n  return input;\n}\n`;
    const model = new FakeModel();
    const sizes: number[] = [];
    model.onEmbed = (batch) => sizes.push(batch.length);
    const { stats } = await synced(files, model);
    expect(stats.embedded).toBe(EMBED_BATCH * 2 + 3);
    expect(sizes).toEqual([EMBED_BATCH, EMBED_BATCH, 3]);
  });

  it('embeds nothing on a second sync (and calls no model)', async () => {
    const { index, files, s, model } = await synced();
    const calls = model.calls;
    const events: EmbedProgress[] = [];
    const stats = await s.sync(index, linesReader(files), model, {
      onProgress: (p) => events.push({ ...p }),
    });
    expect(stats).toEqual({
      filesChanged: 0,
      filesRemoved: 0,
      embedded: 0,
      chunks: 5,
      vectors: 4,
      complete: true,
    });
    expect(model.calls).toBe(calls);
    expect(model.texts).toBe(4);
    expect(events).toEqual([{ phase: 'embedding', loaded: 0, total: 0 }]);
  });

  it('embeds only the changed views of a changed file', async () => {
    const { index, files, s, model } = await synced();
    // refreshSession changes (and grows a line); endSession moves down but its view is the same
    files['src/auth/session.ts'] =
      'function refreshSession(token) {\n  const fresh = renewToken(token);\n  return rotateKeys(fresh);\n}\nfunction endSession(user) {\n  clearCookies(user);\n}\n';
    setText(index, 'src/auth/session.ts', files['src/auth/session.ts'], 2);
    expect(s.stale(index)).toEqual(['src/auth/session.ts']);
    expect(s.covers(index)).toBe(false);
    const before = model.texts;
    const stats = await s.sync(index, linesReader(files), model);
    expect(stats).toMatchObject({ filesChanged: 1, filesRemoved: 0, embedded: 1, chunks: 5 });
    expect(model.embedded.slice(before)).toEqual([
      chunkView(index.chunksOf('src/auth/session.ts')[0], splitLinesForIndex(files['src/auth/session.ts'])),
    ]);
    expect(model.embedded.slice(before)[0]).toContain('rotate keys');
    expect(s.stale(index)).toEqual([]);
    expect(s.covers(index)).toBe(true);
    // the old view's vector stays until compact()
    expect(s.vectorCount).toBe(5);
    s.compact();
    expect(s.vectorCount).toBe(4);
    const hits = s.search(index, q('refresh session rotate keys fresh'), 1);
    expect(hits[0].chunk).toMatchObject({ symbolName: 'refreshSession', startLine: 1, endLine: 4 });
    expect(s.search(index, q('end session clear cookies user'), 1)[0].chunk).toMatchObject({
      symbolName: 'endSession',
      startLine: 5,
    });
  });

  it('re-reads a file whose size or mtime changed but embeds nothing when its views are the same', async () => {
    const { index, files, s, model } = await synced();
    setText(index, 'src/csv/parse.ts', files['src/csv/parse.ts'], 99);
    expect(s.stale(index)).toEqual(['src/csv/parse.ts']);
    const before = model.texts;
    expect(await s.sync(index, linesReader(files), model)).toMatchObject({ filesChanged: 1, embedded: 0 });
    expect(model.texts).toBe(before);
    expect(s.covers(index)).toBe(true);
  });

  it('drops a removed file: not answered even before the next sync, gone after it', async () => {
    const { index, files, s, model } = await synced();
    expect(symbols(s.search(index, q('parse csv text split rows'), 1))).toEqual(['parseCsv']);
    index.removeFile('src/csv/parse.ts');
    delete files['src/csv/parse.ts'];
    // nothing to embed, but the vectors hold a file the index no longer has
    expect(s.stale(index)).toEqual([]);
    expect(s.covers(index)).toBe(false);
    expect(symbols(s.search(index, q('parse csv text split rows'), 10))).not.toContain('parseCsv');
    const stats = await s.sync(index, linesReader(files), model);
    expect(stats).toEqual({
      filesChanged: 0,
      filesRemoved: 1,
      embedded: 0,
      chunks: 4,
      vectors: 4,
      complete: true,
    });
    expect(s.covers(index)).toBe(true);
    s.compact();
    expect(s.vectorCount).toBe(3);
    expect(symbols(s.search(index, q('parse csv text split rows'), 10)).sort()).toEqual([
      'endSession',
      'refreshSession',
      'twin',
      'twin',
    ]);
  });

  it('stale() and covers(): new files, and a file whose chunk count changed', async () => {
    const files = { ...FILES };
    const index = indexFiles(files);
    const model = new FakeModel();
    const s = new SemanticIndex(model.id, model.dims);
    expect(s.stale(index).sort()).toEqual(Object.keys(FILES).sort());
    expect(s.covers(index)).toBe(false);
    await s.sync(index, linesReader(files), model);
    expect(s.stale(index)).toEqual([]);
    expect(s.covers(index)).toBe(true);
    setText(index, 'src/new.ts', 'function fresh() {\n}\n');
    expect(s.stale(index)).toEqual(['src/new.ts']);
    expect(s.covers(index)).toBe(false);
    // same size and mtime, one chunk fewer: stale, and its chunks are not answered until the next sync
    const lines = splitLinesForIndex(files['src/twin.ts']);
    const meta = index.fileMeta('src/twin.ts')!;
    index.setFile(
      'src/twin.ts',
      meta,
      [{ path: 'src/twin.ts', startLine: 1, endLine: 6, symbolName: 'twin', chunkType: 'function' }],
      lines,
    );
    expect(s.stale(index).sort()).toEqual(['src/new.ts', 'src/twin.ts']);
    expect(symbols(s.search(index, q('twin x'), 10))).not.toContain('twin');
  });

  it('an aborted sync throws Cancelled, keeps the vectors it made, and the next sync embeds only the rest', async () => {
    const files: Record<string, string> = {};
    const n = 40;
    const word = (i: number) =>
      String.fromCharCode(97 + (i % 26)) + String.fromCharCode(97 + Math.floor(i / 26)) + 'task';
    for (let i = 0; i < n; i++)
      files[`src/tasks/${word(i)}.ts`] =
        `function run${word(i)}(input) {\n  return ${word(i)}Helper(input);\n}\n`;
    const index = indexFiles(files);
    const controller = new AbortController();
    const model = new FakeModel({ onEmbed: () => controller.abort() });
    const s = new SemanticIndex(model.id, model.dims);
    const err = await rejectionOf(s.sync(index, linesReader(files), model, { signal: controller.signal }));
    expect(err.code).toBe('Cancelled');
    expect(model.calls).toBe(1);
    expect(model.texts).toBe(EMBED_BATCH);
    expect(s.vectorCount).toBe(EMBED_BATCH);
    // the chunks embedded are searchable at once; the other files stay stale
    expect(s.stale(index).length).toBe(n - EMBED_BATCH);
    expect(s.covers(index)).toBe(false);
    expect(s.coverage(index)).toEqual({ searched: EMBED_BATCH, of: n });
    expect(s.search(index, q('run task'), 100).length).toBe(EMBED_BATCH);

    model.onEmbed = undefined;
    const stats = await s.sync(index, linesReader(files), model);
    expect(stats).toMatchObject({
      filesChanged: n - EMBED_BATCH,
      embedded: n - EMBED_BATCH,
      chunks: n,
      vectors: n,
    });
    expect(model.texts).toBe(n);
    expect(new Set(model.embedded).size).toBe(n); // nothing embedded twice
    expect(s.covers(index)).toBe(true);
  });

  it('a sync aborted before it starts embeds nothing', async () => {
    const files = { ...FILES };
    const index = indexFiles(files);
    const model = new FakeModel();
    const s = new SemanticIndex(model.id, model.dims);
    const controller = new AbortController();
    controller.abort();
    expect(
      (await rejectionOf(s.sync(index, linesReader(files), model, { signal: controller.signal }))).code,
    ).toBe('Cancelled');
    expect(model.texts).toBe(0);
    expect(s.vectorCount).toBe(0);
  });

  it('refuses a model of another id or size, and a model that answers the wrong amount', async () => {
    const files = { ...FILES };
    const index = indexFiles(files);
    const s = new SemanticIndex(FAKE_MODEL_ID, FAKE_DIMS);
    for (const model of [new FakeModel({ id: 'another-model' }), new FakeModel({ dims: 32 })]) {
      const err = await rejectionOf(s.sync(index, linesReader(files), model));
      expect(err.code).toBe('EngineError');
      expect(model.texts).toBe(0);
    }
    expect(
      (await rejectionOf(s.sync(index, linesReader(files), new FakeModel({ id: 'another-model' })))).message,
    ).toBe(`The semantic index is for model ${FAKE_MODEL_ID}, not another-model`);
    const short = new FakeModel();
    const broken = {
      id: short.id,
      dims: short.dims,
      embed: async (t: readonly string[]) => (await short.embed(t)).subarray(0, FAKE_DIMS),
    };
    const err = await rejectionOf(s.sync(index, linesReader(files), broken));
    expect(err.code).toBe('EngineError');
    expect(err.message).toBe(`The embedding model returned ${FAKE_DIMS} numbers for 4 texts`);
    expect(s.covers(index)).toBe(false);
  });

  it('survives a file it cannot read, embedding its chunks by name and path', async () => {
    const files = { ...FILES };
    const index = indexFiles(files);
    delete files['src/auth/session.ts'];
    const model = new FakeModel();
    const s = new SemanticIndex(model.id, model.dims);
    const stats = await s.sync(index, linesReader(files), model);
    expect(stats.chunks).toBe(5);
    expect(model.embedded).toContain('end session auth');
  });
});

describe('SemanticIndex encode/decode', () => {
  const QUERIES = ['refresh session token', 'parse csv', 'twin x', 'clear cookies of the user'];

  it('round-trips: same vectors, coverage and answers, and nothing to embed', async () => {
    const { index, files, s, model } = await synced();
    const bytes = s.encode();
    const back = SemanticIndex.decode(bytes, FAKE_MODEL_ID, FAKE_DIMS)!;
    expect(back).not.toBeNull();
    expect(back.vectorCount).toBe(s.vectorCount);
    expect(back.byteSize).toBe(s.byteSize);
    expect(back.covers(index)).toBe(true);
    for (const text of QUERIES)
      expect(brief(back.search(index, q(text), 10))).toEqual(brief(s.search(index, q(text), 10)));
    const before = model.texts;
    expect(await back.sync(index, linesReader(files), model)).toMatchObject({ filesChanged: 0, embedded: 0 });
    expect(model.texts).toBe(before);
  });

  it('round-trips after a change: unused vectors are dropped and rows renumbered', async () => {
    const { index, files, s, model } = await synced();
    files['src/csv/parse.ts'] =
      'function parseCsv(text, separator) {\n  return splitRows(text, separator);\n}\n';
    setText(index, 'src/csv/parse.ts', files['src/csv/parse.ts'], 5);
    index.removeFile('src/twin.ts');
    await s.sync(index, linesReader(files), model);
    const answers = QUERIES.map((text) => brief(s.search(index, q(text), 10)));
    const back = SemanticIndex.decode(s.encode(), FAKE_MODEL_ID, FAKE_DIMS)!;
    expect(back.vectorCount).toBe(3);
    expect(back.covers(index)).toBe(true);
    expect(QUERIES.map((text) => brief(back.search(index, q(text), 10)))).toEqual(answers);
    // the encoded index itself still answers the same after its compact()
    expect(QUERIES.map((text) => brief(s.search(index, q(text), 10)))).toEqual(answers);
  });

  it('saves to and loads from a store', async () => {
    const { index, s } = await synced();
    const store = new MemoryIndexStore();
    await s.save(store, 'vectors');
    const back = await SemanticIndex.load(store, 'vectors', FAKE_MODEL_ID, FAKE_DIMS);
    expect(back?.covers(index)).toBe(true);
    expect(await SemanticIndex.load(store, 'missing', FAKE_MODEL_ID, FAKE_DIMS)).toBeNull();
    expect(await SemanticIndex.load(store, 'vectors', 'another-model', FAKE_DIMS)).toBeNull();
  });

  it('decodes bytes that sit at an odd offset', async () => {
    const { index, s } = await synced();
    const bytes = s.encode();
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    const back = SemanticIndex.decode(shifted.subarray(1), FAKE_MODEL_ID, FAKE_DIMS);
    expect(back?.covers(index)).toBe(true);
  });

  it('returns null for another model id or size', async () => {
    const { s } = await synced();
    const bytes = s.encode();
    expect(SemanticIndex.decode(bytes, 'another-model', FAKE_DIMS)).toBeNull();
    expect(SemanticIndex.decode(bytes, FAKE_MODEL_ID, 32)).toBeNull();
  });

  it('returns null for another views version', async () => {
    const { s } = await synced();
    const stored = decodeIndex(s.encode());
    const json = stored.json as { views: number };
    expect(json.views).toBe(VIEWS_VERSION);
    // the same bytes rebuilt decode (so the rebuild is sound) ...
    expect(SemanticIndex.decode(encodeIndex(stored), FAKE_MODEL_ID, FAKE_DIMS)).not.toBeNull();
    // ... and with another views version they do not
    expect(
      SemanticIndex.decode(
        encodeIndex({ json: { ...json, views: VIEWS_VERSION - 1 }, sections: stored.sections }),
        FAKE_MODEL_ID,
        FAKE_DIMS,
      ),
    ).toBeNull();
    expect(
      SemanticIndex.decode(
        encodeIndex({ json: { ...json, views: VIEWS_VERSION + 1 }, sections: stored.sections }),
        FAKE_MODEL_ID,
        FAKE_DIMS,
      ),
    ).toBeNull();
  });

  it('returns null for corrupted, truncated or foreign bytes', async () => {
    const { s } = await synced();
    const bytes = s.encode();
    for (const at of [0, 5, 20, Math.floor(bytes.length / 2), bytes.length - 1]) {
      const bad = bytes.slice();
      bad[at] ^= 0x5a;
      expect(SemanticIndex.decode(bad, FAKE_MODEL_ID, FAKE_DIMS)).toBeNull();
    }
    expect(SemanticIndex.decode(bytes.slice(0, bytes.length - 4), FAKE_MODEL_ID, FAKE_DIMS)).toBeNull();
    expect(SemanticIndex.decode(bytes.slice(0, bytes.length - 3), FAKE_MODEL_ID, FAKE_DIMS)).toBeNull();
    expect(SemanticIndex.decode(new Uint8Array(0), FAKE_MODEL_ID, FAKE_DIMS)).toBeNull();
    expect(
      SemanticIndex.decode(
        new TextEncoder().encode('not an index, just some text....'),
        FAKE_MODEL_ID,
        FAKE_DIMS,
      ),
    ).toBeNull();
  });

  it('returns null for well-formed bytes whose rows or counts do not add up', async () => {
    const { s } = await synced();
    const stored = decodeIndex(s.encode());
    const rows = Int32Array.from(
      new Int32Array(stored.sections[2].buffer, stored.sections[2].byteOffset, stored.sections[2].length),
    );
    const withRows = (r: Int32Array) =>
      encodeIndex({
        json: stored.json,
        sections: [
          stored.sections[0],
          stored.sections[1],
          new Uint32Array(r.buffer),
          ...stored.sections.slice(3),
        ],
      });
    expect(SemanticIndex.decode(withRows(rows), FAKE_MODEL_ID, FAKE_DIMS)).not.toBeNull();
    const outOfRange = rows.slice();
    outOfRange[0] = s.vectorCount;
    expect(SemanticIndex.decode(withRows(outOfRange), FAKE_MODEL_ID, FAKE_DIMS)).toBeNull();
    const negative = rows.slice();
    negative[1] = -2; // -1 is a chunk not embedded yet
    expect(SemanticIndex.decode(withRows(negative), FAKE_MODEL_ID, FAKE_DIMS)).toBeNull();
    // one row more than the files say
    expect(
      SemanticIndex.decode(withRows(Int32Array.from([...rows, 0])), FAKE_MODEL_ID, FAKE_DIMS),
    ).toBeNull();
    // scales that do not match the texts
    expect(
      SemanticIndex.decode(
        encodeIndex({
          json: stored.json,
          sections: [stored.sections[0], stored.sections[1].subarray(1), ...stored.sections.slice(2)],
        }),
        FAKE_MODEL_ID,
        FAKE_DIMS,
      ),
    ).toBeNull();
  });

  it('round-trips with dims that are not a multiple of 4', async () => {
    const model = new FakeModel({ dims: 6 });
    const { 'src/twin.ts': _twin, ...three } = FILES;
    const { index, s } = await synced(three, model);
    expect(s.vectorCount).toBe(3); // 18 bytes of vectors: 4 words and 2 bytes
    const back = SemanticIndex.decode(s.encode(), FAKE_MODEL_ID, 6);
    expect(back).not.toBeNull();
    expect(back!.covers(index)).toBe(true);
  });
});

describe('SemanticIndex.search', () => {
  /** paths whose words are all noise: chunks of the same text in different files have the same view */
  const PATHS = ['src/index.ts', 'lib/index.ts', 'app/index.ts', 'src/main.ts', 'lib/mod.ts', 'pkg/init.ts'];
  const NAMES = ['alpha', 'beta', 'gamma'];
  const WORDS = ['red', 'green', 'blue', 'cyan'];

  const fileText = (chunks: Array<{ name: string; words: string[] }>) =>
    chunks.map((c) => `fn ${c.name}\n${c.words.join(' ')}\n`).join('');
  const byOrder = (a: SemanticHit, b: SemanticHit) =>
    b.similarity - a.similarity ||
    (a.chunk.path < b.chunk.path
      ? -1
      : a.chunk.path > b.chunk.path
        ? 1
        : a.chunk.startLine - b.chunk.startLine);

  const arbChunk = fc.record({ name: fc.constantFrom(...NAMES), words: fc.subarray(WORDS) });
  const arbFiles = fc.uniqueArray(
    fc.tuple(fc.constantFrom(...PATHS), fc.array(arbChunk, { minLength: 1, maxLength: 5 })),
    {
      minLength: 1,
      maxLength: PATHS.length,
      selector: ([p]) => p,
    },
  );
  const arbQuery = fc.subarray([...NAMES, ...WORDS]).map((w) => w.join(' '));

  it('returns exactly the brute-force top k by cosine, ties by path then line, with or without a filter', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbFiles,
        arbQuery,
        fc.integer({ min: 1, max: 8 }),
        fc.subarray(PATHS),
        async (fileList, query, k, allowed) => {
          const files = Object.fromEntries(fileList.map(([p, chunks]) => [p, fileText(chunks)]));
          const { index, s } = await synced(files);
          const all: IndexedChunk[] = index.paths().flatMap((p) => index.chunksOf(p));
          const qv = q(query);
          // every chunk's score, unpruned (the scan trims only past 4 x limit hits)
          const scored = s.search(index, qv, all.length + 1);
          expect(scored.length).toBe(all.length);
          for (const h of scored) {
            const view = chunkView(h.chunk, splitLinesForIndex(files[h.chunk.path]));
            expect(Math.abs(h.similarity - cosine(fakeVector(view), qv))).toBeLessThan(0.01);
          }
          const brute = [...scored].sort(byOrder);
          expect(brief(scored)).toEqual(brief(brute));
          expect(brief(s.search(index, qv, k))).toEqual(brief(brute.slice(0, k)));
          const filter = (c: IndexedChunk) => allowed.includes(c.path);
          const filtered = s.search(index, qv, k, filter);
          expect(brief(filtered)).toEqual(brief(brute.filter((h) => filter(h.chunk)).slice(0, k)));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('orders equal scores by path, then line', async () => {
    const text = fileText([
      { name: 'alpha', words: ['red'] },
      { name: 'alpha', words: ['red'] },
    ]);
    // indexed in reverse order of path
    const files = { 'src/index.ts': text, 'lib/index.ts': text, 'app/index.ts': text };
    const { index, s } = await synced(files);
    expect(s.vectorCount).toBe(1);
    const view = chunkView(index.chunksOf('app/index.ts')[0], splitLinesForIndex(text));
    expect(view).toBe('alpha. takes nothing. uses alpha red');
    const hits = s.search(index, q(view), 5);
    expect(hits.map((h) => `${h.chunk.path}:${h.chunk.startLine}`)).toEqual([
      'app/index.ts:1',
      'app/index.ts:3',
      'lib/index.ts:1',
      'lib/index.ts:3',
      'src/index.ts:1',
    ]);
    expect(new Set(hits.map((h) => h.similarity)).size).toBe(1);
    expect(hits[0].similarity).toBeCloseTo(1, 2);
  });

  it('respects the limit and the filter', async () => {
    const { index, s } = await synced();
    const query = q('session token user');
    expect(s.search(index, query, 2).length).toBe(2);
    expect(s.search(index, query, 100).length).toBe(5);
    expect(s.search(index, query, 0)).toEqual([]);
    const onlyAuth = s.search(index, query, 100, (c) => c.path.startsWith('src/auth/'));
    expect(symbols(onlyAuth).sort()).toEqual(['endSession', 'refreshSession']);
    expect(s.search(index, query, 100, () => false)).toEqual([]);
    expect(new SemanticIndex(FAKE_MODEL_ID, FAKE_DIMS).search(index, query, 5)).toEqual([]);
  });

  it('ranks by meaning: the chunk sharing the query’s words first', async () => {
    const { index, s } = await synced();
    expect(symbols(s.search(index, q('parse the csv text into rows'), 1))).toEqual(['parseCsv']);
    expect(symbols(s.search(index, q('clear the cookies of a user'), 1))).toEqual(['endSession']);
    const hits = s.search(index, q('renew token'), 5);
    expect(hits[0].chunk.symbolName).toBe('refreshSession');
    for (let i = 1; i < hits.length; i++)
      expect(hits[i - 1].similarity).toBeGreaterThanOrEqual(hits[i].similarity);
  });
});
