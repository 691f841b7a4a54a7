/** The seed-004 index over a workspace: what it indexes, its refresh modes, its stored form. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NodeFsSource } from '../../adapters/node/fs';
import { MemoryIndexStore } from '../rank/persist';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { tokenSource } from './chunks';
import { CodebaseIndex } from './codebase-index';
import { tokenize } from '../rank/tokenize';
import { CodebaseIndexService } from './service';

const FILES: Record<string, string> = {
  'src/db/pool.ts':
    "import { Pool } from 'pg';\n\nexport function createPool(config) {\n  return new Pool(config);\n}\n\nexport class PoolManager {\n  get(name) { return name; }\n}\n",
  'src/db/connection.ts':
    'export const connect = async (url) => {\n  return url;\n};\nfunction helper() { return 1 }\n',
  'README.md': '# Title\ndatabase connection pool docs\n',
  'lib/x.py': 'def pooled(x):\n    return x\n',
  'UP.TS': 'export function upper() {}\n',
  'notes.txt': 'pool\n',
  'node_modules/m/index.ts': 'export function pool() {}\n',
  'dist/out.js': 'function pool() {}\n',
  'a/target/t.rs': 'function pool() {}\n',
  '.hidden/h.ts': 'export function hiddenPool() {}\n',
  '.gitignore': 'ignored.ts\n',
  'ignored.ts': 'export function ignoredPool() {}\n',
};

const service = (files = FILES, store = new MemoryIndexStore()) =>
  new CodebaseIndexService(new Workspace([new MemorySource({ ...files })]), store);
const rows = (index: CodebaseIndex, q: string) =>
  index.search(q, 100).map((h) => `${h.chunk.path}:${h.chunk.startLine}`);

describe('what the seed-004 index holds', () => {
  it("the seed's extensions (case-sensitive) outside node_modules, dist, target and .git; hidden and git-ignored files too", async () => {
    const s = service();
    const stats = await s.refresh();
    expect(new Set(s.index!.paths())).toEqual(
      new Set([
        'src/db/pool.ts',
        'src/db/connection.ts',
        'README.md',
        'lib/x.py',
        '.hidden/h.ts',
        'ignored.ts',
      ]),
    );
    expect(stats).toMatchObject({
      refreshMode: 'full',
      filesScanned: 6,
      chunksIndexed: 8,
      filesChanged: 6,
      filesRemoved: 0,
    });
  });
  it('ranks with BM25 over every chunk, query tokens repeated as given', async () => {
    const s = service();
    await s.refresh();
    const once = s.index!.search('pool', 10);
    const twice = s.index!.search('pool pool', 10);
    expect(twice.map((h) => h.score)).toEqual(once.map((h) => h.score * 2));
    expect(twice[0].matchedTerms).toEqual(['pool', 'pool']);
    expect(twice[0].scoreComponents).toHaveLength(2);
    // df counts chunks: README, createPool (path word and text), PoolManager (path word and text)
    expect(once[0].scoreComponents[0].documentFrequency).toBe(3);
  });
  it('finds related chunks: shared tokens with repeats over the union, the seed left out', async () => {
    const s = service();
    await s.refresh();
    const idx = s.index!;
    const seed = idx.chunkAt('src/db/pool.ts', 8)!;
    expect(seed).toMatchObject({ startLine: 7, endLine: 9, symbolName: 'PoolManager' });
    expect(idx.chunkAt('src/db/pool.ts', 1)).toBeNull(); // the preamble
    const seedTerms = new Set(
      tokenize(tokenSource((await s.chunksOf('src/db/pool.ts'))!.find((c) => c.startLine === 7)!)),
    );
    expect(seedTerms.size).toBe(seed.uniq);
    const related = idx.related(seed, seedTerms, 100);
    expect(related.some((r) => r.chunk === seed)).toBe(false);
    expect(related.length).toBeGreaterThan(2);
    for (const r of related) {
      // recount from the candidate's own text
      const tokens = tokenize(
        tokenSource((await s.chunksOf(r.chunk.path))!.find((c) => c.startLine === r.chunk.startLine)!),
      );
      const mine = new Set(tokens);
      const shared = [...mine].filter((t) => seedTerms.has(t)).length;
      expect(r.score).toBe(
        tokens.filter((t) => seedTerms.has(t)).length / (seedTerms.size + mine.size - shared),
      );
    }
  });
});

describe('refresh', () => {
  it('is a cache hit when nothing changed, incremental after a change, and scores as a rebuild would', async () => {
    const files = { ...FILES };
    const source = new MemorySource(files);
    const s = new CodebaseIndexService(new Workspace([source]), new MemoryIndexStore());
    await s.refresh();
    expect((await s.refresh()).refreshMode).toBe('cache_hit');
    source.write('src/db/pool.ts', 'export function createPool() { return pool; }\n');
    source.write('src/new.ts', 'export function freshPool() {}\n');
    source.remove('README.md');
    const inc = await s.refresh();
    expect(inc).toMatchObject({ refreshMode: 'incremental', filesChanged: 2, filesRemoved: 1 });
    const rebuilt = new CodebaseIndexService(new Workspace([source]));
    await rebuilt.refresh();
    for (const q of ['pool', 'connection url', 'fresh pool docs']) {
      expect(s.index!.search(q, 100).map((h) => [h.chunk.path, h.chunk.startLine, h.score])).toEqual(
        rebuilt.index!.search(q, 100).map((h) => [h.chunk.path, h.chunk.startLine, h.score]),
      );
    }
  });
  it('stores the index and loads it back as a cache hit; an unreadable store is rebuilt', async () => {
    const store = new MemoryIndexStore();
    const ws = new Workspace([new MemorySource({ ...FILES })]);
    const first = new CodebaseIndexService(ws, store);
    await first.refresh();
    const again = new CodebaseIndexService(ws, store);
    expect((await again.refresh()).refreshMode).toBe('cache_hit');
    expect(rows(again.index!, 'pool connection')).toEqual(rows(first.index!, 'pool connection'));
    expect(again.index!.search('pool', 3).map((h) => h.score)).toEqual(
      first.index!.search('pool', 3).map((h) => h.score),
    );
    store.data.set('seed004', new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]));
    expect((await new CodebaseIndexService(ws, store).refresh()).refreshMode).toBe('full');
  });
  it('shares one running refresh between concurrent callers', async () => {
    const s = service();
    const [a, b] = await Promise.all([s.refresh(), s.refresh()]);
    expect(a).toBe(b);
  });
  it("one caller's cancel ends only its own wait; the shared work stops when every caller has cancelled", async () => {
    const s = service();
    const a = new AbortController();
    const first = s.refresh({ signal: a.signal });
    const second = s.refresh();
    a.abort();
    await expect(first).rejects.toMatchObject({ code: 'Cancelled' });
    expect((await second).refreshMode).toBe('full');
    expect(s.index!.paths().length).toBe(6);

    const t = service();
    const [x, y] = [new AbortController(), new AbortController()];
    const both = [t.refresh({ signal: x.signal }), t.refresh({ signal: y.signal })];
    x.abort();
    y.abort();
    for (const p of both) await expect(p).rejects.toMatchObject({ code: 'Cancelled' });
    expect(t.index).toBeNull(); // the work stopped before it was applied
    expect((await t.refresh()).refreshMode).toBe('full'); // and a later caller starts afresh
  });
  it('stops when cancelled and keeps the previous index', async () => {
    const s = service();
    await s.refresh();
    const before = s.index;
    const controller = new AbortController();
    controller.abort();
    await expect(s.refresh({ signal: controller.signal, force: true })).rejects.toMatchObject({
      code: 'Cancelled',
    });
    expect(s.index).toBe(before);
  });
});

describe('on disk', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  it('follows a symlinked file but not a symlinked directory; skips files over 1 MiB', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-seed-'));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'src/a.ts'), 'export function a() {}\n');
    fs.writeFileSync(path.join(dir, 'src/exact.ts'), 'x'.repeat(1_048_576));
    fs.writeFileSync(path.join(dir, 'src/big.ts'), 'x'.repeat(1_048_577));
    fs.symlinkSync(path.join(dir, 'src/a.ts'), path.join(dir, 'link.ts'));
    fs.symlinkSync(path.join(dir, 'src'), path.join(dir, 'linkdir'));
    const s = new CodebaseIndexService(new Workspace([new NodeFsSource(dir)]));
    await s.refresh();
    expect(s.index!.paths().sort()).toEqual(['link.ts', 'src/a.ts', 'src/exact.ts']);
  });
});
