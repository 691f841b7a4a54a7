/**
 * Issue 15: the index built on a pool of parsing threads equals the one built on one thread,
 * the text index is in use before the symbol chunks are done, and the build says what it covers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SyncChunker } from '../chunk/any';
import type { FileChunker } from '../chunk/pool';
import { QuarryError } from '../errors';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { lineChunker } from './line-chunker.testutil';
import { MemoryIndexStore } from './persist';
import { CodeIndexService } from './service';

const fnChunker = lineChunker;

/** fnChunker on `parallelism` pretend threads: each answer comes after its own delay, so answers arrive out of order. */
function shuffledPool(delays: number[], parallelism = 3): FileChunker {
  let n = 0;
  return {
    parallelism,
    chunk: (path, text) =>
      new Promise((resolve, reject) => {
        const delay = delays[n++ % delays.length];
        setTimeout(() => {
          try {
            resolve(fnChunker.chunkFile(path, text));
          } catch (err) {
            reject(err);
          }
        }, delay);
      }),
  };
}

async function storedBytes(source: MemorySource, chunker: SyncChunker | FileChunker): Promise<Uint8Array> {
  const store = new MemoryIndexStore();
  await new CodeIndexService(new Workspace([source]), async () => chunker, store).refresh();
  return (await store.load('index'))!;
}

describe('a build on a pool of parsing threads', () => {
  const word = fc.constantFrom('alpha', 'beta', 'gamma', 'fn', 'getAlpha', 'beta_gamma', 'BROKEN', 'zz');
  const text = fc
    .array(
      fc.array(word, { maxLength: 5 }).map((w) => w.join(' ')),
      { minLength: 1, maxLength: 8 },
    )
    .map((lines) => ['fn f', ...lines, 'fn g'].join('\n'));
  const files = fc.dictionary(
    fc.constantFrom('a.ts', 'b.c', 'c.py', 'd/e.go', 'f.md', 'g.txt', 'h/Makefile', 'i.json'),
    text,
    { minKeys: 1 },
  );

  it('stores exactly the index one thread builds, whatever order the answers come in', async () => {
    await fc.assert(
      fc.asyncProperty(
        files,
        fc.array(fc.nat(4), { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 1, max: 4 }),
        async (repo, delays, threads) => {
          const source = new MemorySource({ ...repo }); // one source: the same modified times
          const single = await storedBytes(source, fnChunker);
          const pooled = await storedBytes(source, shuffledPool(delays, threads));
          expect(Buffer.from(pooled).equals(Buffer.from(single))).toBe(true);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('uses the text index before the symbol chunks are done', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow: FileChunker = {
      parallelism: 2,
      chunk: async (p, t) => (await gate, fnChunker.chunkFile(p, t)),
    };
    const svc = new CodeIndexService(
      new Workspace([new MemorySource({ 'a.ts': 'fn one\nneedle here\n', 'b.ts': 'fn two\nhay\n' })]),
      async () => slow,
    );
    let textReadyAt: { candidates: number; chunkIndex: boolean } | null = null;
    const done = svc.refresh({
      onTextReady: () => {
        const candidates = svc.prefilter()!.candidates({ requiredLiterals: ['needle'] });
        textReadyAt = { candidates: candidates ? candidates.size : -1, chunkIndex: svc.index !== null };
        release();
      },
    });
    const stats = await done;
    expect(textReadyAt).toEqual({ candidates: 1, chunkIndex: false });
    expect(stats.chunksIndexed).toBe(2);
  });

  it('a cancelled build after the text index leaves no chunk index to trust: the next refresh is full', async () => {
    const source = new MemorySource({ 'a.ts': 'fn one\n', 'b.ts': 'fn two\n' });
    const ac = new AbortController();
    const cancelling: FileChunker = {
      parallelism: 1,
      chunk: async (p, t) => (ac.abort(), fnChunker.chunkFile(p, t)),
    };
    const store = new MemoryIndexStore();
    const svc = new CodeIndexService(new Workspace([source]), async () => cancelling, store);
    await expect(svc.refresh({ signal: ac.signal })).rejects.toMatchObject({ code: 'Cancelled' });
    expect(svc.prefilter()).toBeDefined(); // the text index stays in use
    expect(await store.load('index')).toBeNull(); // nothing half-built was saved
    const again = new CodeIndexService(new Workspace([source]), async () => fnChunker, store);
    expect(await again.refresh()).toMatchObject({ refreshMode: 'full', chunksIndexed: 2 });
    const resumed = await svc.refresh();
    expect(resumed).toMatchObject({ refreshMode: 'full', chunksIndexed: 2 });
  });
});

describe("failures that are not the file's fault", () => {
  it('a grammar that could not be fetched (offline) is tried again on the next refresh, not kept as a parser failure', async () => {
    let online = false;
    const flaky: FileChunker = {
      parallelism: 2,
      chunk: async (path, text) => {
        if (!online && path.endsWith('.c'))
          throw new QuarryError('Unreadable', `Could not load the c grammar: Failed to fetch (for ${path})`, {
            path,
            grammarUnavailable: true,
          });
        return fnChunker.chunkFile(path, text);
      },
    };
    const source = new MemorySource({ 'a.c': 'fn parse_commit\n', 'b.ts': 'fn other\n' });
    const store = new MemoryIndexStore();
    const first = await new CodeIndexService(new Workspace([source]), async () => flaky, store).refresh();
    expect(first.coverage!.textOnly.failed).toBe(1);
    expect(first.skipped.map((s) => `${s.path}: ${s.reason}`)).toEqual(['a.c: parseFailed']);
    online = true;
    const again = await new CodeIndexService(new Workspace([source]), async () => flaky, store).refresh();
    expect(again).toMatchObject({ refreshMode: 'incremental', filesChanged: 1, chunksIndexed: 2 });
    expect(again.coverage!.textOnly.failed).toBe(0);
    // a parse that fails for the file's own sake stays until the file changes
    source.write('b.ts', 'fn BROKEN\n', Date.now() + 1000);
    const svc = new CodeIndexService(new Workspace([source]), async () => flaky, store);
    expect((await svc.refresh()).coverage!.textOnly.failed).toBe(1);
    expect((await svc.refresh()).refreshMode).toBe('cache_hit');
  });
});

describe('coverage', () => {
  it('counts files parsed, as blocks by extension, and text only with the reason per file, on every refresh', async () => {
    const minified = 'var a=function(b,c){return b+c};'.repeat(400);
    const files = {
      'src/a.ts': 'fn one\n',
      'src/b.py': 'fn two\n',
      'tools/run.pl': 'fn three\n',
      'tools/build.pl': 'fn four\n',
      'tools/x.tcl': 'fn five\n',
      Makefile: 'fn six\n',
      'package-lock.json': '{}\n',
      'web/app.min.js': minified,
      'bad.ts': 'fn BROKEN\n',
    };
    const svc = new CodeIndexService(
      new Workspace([new MemorySource(files)]),
      async () => shuffledPool([0]),
      new MemoryIndexStore(),
    );
    for (const expectedMode of ['full', 'cache_hit']) {
      const stats = await svc.refresh();
      expect(stats.refreshMode).toBe(expectedMode);
      expect(stats.coverage).toEqual({
        textFiles: 9,
        symbols: 2,
        blocks: 4,
        blockExtensions: [
          { ext: '.pl', files: 2 },
          { ext: '.tcl', files: 1 },
          { ext: 'Makefile', files: 1 },
        ],
        textOnly: { minified: 1, generated: 1, failed: 1 },
        overBudget: 0,
      });
      expect(stats.filesScanned).toBe(6);
      const why = stats.skipped.map((s) => `${s.path}: ${s.reason} (${s.detail})`).sort();
      expect(why).toEqual([
        'bad.ts: parseFailed (cannot parse bad.ts)',
        'package-lock.json: generated (lockfile)',
        `web/app.min.js: minified (1 line of ${minified.length.toLocaleString('en-US')} characters)`,
      ]);
    }
  });
});
