/** The Chunker's lazy grammar loading (index.ts): only the grammars asked for or met, loaded once, retried after a failure. */
import { describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../../adapters/node/grammars';
import { QuarryError } from '../errors';
import { Chunker } from './index';
import { chunksOf } from './rows.testutil';
import type { GrammarLanguageId, GrammarLoader } from './types';

/** A loader that counts grammar loads, and can be told to fail some of them once. */
function countingLoader(failOnce: GrammarLanguageId[] = []) {
  const calls: GrammarLanguageId[] = [];
  const failing = new Set(failOnce);
  const loader: GrammarLoader = {
    runtimeWasm: () => nodeGrammarLoader.runtimeWasm(),
    grammarWasm: async (lang) => {
      calls.push(lang);
      if (failing.delete(lang)) throw new Error('offline');
      return nodeGrammarLoader.grammarWasm(lang);
    },
    tagsQuery: (lang) => nodeGrammarLoader.tagsQuery(lang),
  };
  return { loader, calls };
}

describe('lazy grammar loading', () => {
  it('create() loads no grammar; chunk() loads only the grammars of the files it gets', async () => {
    const { loader, calls } = countingLoader();
    const c = await Chunker.create(loader);
    expect(calls).toEqual([]);
    expect(c.loadedLanguages).toEqual([]);
    expect(() => c.chunkFile('a.c', 'int f(void);')).toThrowError(/No c grammar loaded/);
    expect(await c.chunk('a.c', 'int f(void) { return 0; }\n')).toEqual(
      chunksOf('a.c', [[1, 1, 'function', 'f']]),
    );
    expect(await c.chunk('b.h', 'int g(void);\n')).toEqual(chunksOf('b.h', [[1, 1, 'function', 'g']]));
    expect(await c.chunk('README.md', '# A\n')).toEqual(chunksOf('README.md', [[1, 1, 'section', 'A']]));
    expect(calls).toEqual(['c']);
    expect(c.loadedLanguages).toEqual(['c']);
    expect(c.chunkFile('c.c', 'int h(void);\n')).toEqual(chunksOf('c.c', [[1, 1, 'function', 'h']])); // now loaded: synchronous
    await expect(c.chunk('a.txt', 'x')).rejects.toMatchObject({ code: 'Unreadable' });
    expect(calls).toEqual(['c']);
    c.dispose();
  });

  it('create({ languages }) loads just those', async () => {
    const { loader, calls } = countingLoader();
    const c = await Chunker.create(loader, { languages: ['java', 'ruby'] });
    expect([...calls].sort()).toEqual(['java', 'ruby']);
    expect(c.chunkFile('a.rb', 'def f; end\n')).toEqual(chunksOf('a.rb', [[1, 1, 'function', 'f']]));
    c.dispose();
  });

  it('concurrent load() and chunk() calls share one load; load() again is a no-op', async () => {
    const { loader, calls } = countingLoader();
    const c = await Chunker.create(loader);
    const [, , a, b] = await Promise.all([
      c.load('bash'),
      c.load('bash'),
      c.chunk('a.sh', 'f() { :; }\n'),
      c.chunk('b.bash', 'g() { :; }\n'),
    ]);
    expect(a.map((x) => x.symbolName)).toEqual(['f']);
    expect(b.map((x) => x.symbolName)).toEqual(['g']);
    await c.load('bash');
    expect(calls).toEqual(['bash']);
    // a second Chunker over the same loader reuses the loaded grammar
    const d = await Chunker.create(loader);
    expect((await d.chunk('c.sh', 'h() { :; }\n')).map((x) => x.symbolName)).toEqual(['h']);
    expect(calls).toEqual(['bash']);
    c.dispose();
    d.dispose();
  });

  it('a failed load rejects (Internal from load(), Unreadable from chunk()) and is retried next time', async () => {
    const { loader, calls } = countingLoader(['css', 'html']);
    const c = await Chunker.create(loader);
    const failed = await c.load('css').catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(QuarryError);
    expect((failed as QuarryError).code).toBe('Internal');
    expect((failed as QuarryError).message).toMatch(/css grammar: offline/);
    expect((await c.chunk('a.css', '.a { }\n')).map((x) => x.symbolName)).toEqual(['.a']); // retried
    const unreadable = await c.chunk('a.html', '<p id="x"></p>').catch((err: unknown) => err);
    expect(unreadable).toBeInstanceOf(QuarryError);
    expect((unreadable as QuarryError).code).toBe('Unreadable');
    expect((unreadable as QuarryError).data).toMatchObject({
      path: 'a.html',
      language: 'html',
      grammarUnavailable: true,
    });
    expect((await c.chunk('a.html', '<p id="x"></p>')).map((x) => x.symbolName)).toEqual(['#x']);
    expect(calls).toEqual(['css', 'css', 'html', 'html']);
    c.dispose();
  });
});
