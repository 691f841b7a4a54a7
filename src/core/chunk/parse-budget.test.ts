/**
 * Issue 34 row 5: one file's parse budget holds over its whole chunking. Deeply nested code
 * (20,000 nested Ruby `def`s, C# namespaces, Java classes) parses in about a second, but the
 * walk of its tree is quadratic (a node's parent costs as much as it is deep): it ran 30-130 s
 * and the file was reported parsed. Now it stops at the budget and fails with 'parse-timeout',
 * so the index build reports it `parseFailed` and keeps it in the text index.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../../adapters/node/grammars';
import { QuarryError } from '../errors';
import { CodeIndexService } from '../rank/service';
import { MemoryIndexStore } from '../rank/persist';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { inThreadChunker, type AnyFileChunker } from './any';
import { CHECK_EVERY, ParseBudget } from './budget';

const N = 20_000;
const nested = (open: string, close: string) => open.repeat(N) + close.repeat(N);
const REPROS: Record<string, string> = {
  'deep.rb': nested('def f\n', 'end\n'), // 200 KB
  'deep.cs': nested('namespace A {\n', '}\n'),
  'Deep.java': nested('class A {\n', '}\n'),
};

/** Short, so the test is quick; the product's is MAX_PARSE_MS. */
const BUDGET_MS = 1000;
/** What a stopped file may take beyond its budget (the query's partial matches, a loaded machine). */
const SLACK_MS = 1500;

let chunker: AnyFileChunker;
beforeAll(async () => {
  chunker = await inThreadChunker(nodeGrammarLoader, {
    languages: ['ruby', 'csharp', 'java'],
    maxParseMs: BUDGET_MS,
  });
});

describe('a per-file parse budget over parse, query and walk', () => {
  for (const [path, text] of Object.entries(REPROS)) {
    it(`stops ${path} (${N} levels deep) at the budget with parse-timeout`, async () => {
      const t0 = performance.now();
      const caught = await chunker.chunk(path, text).then(
        (chunks) => `parsed into ${chunks.length} chunks`,
        (err: unknown) => err,
      );
      const ms = performance.now() - t0;
      expect(caught).toBeInstanceOf(QuarryError);
      expect((caught as QuarryError).code).toBe('Unreadable');
      expect((caught as QuarryError).data).toMatchObject({ path, reason: 'parse-timeout' });
      expect(ms).toBeLessThan(BUDGET_MS + SLACK_MS);
      // the parser is fine afterwards
      const ext = path.slice(path.lastIndexOf('.'));
      const ok = { '.rb': 'def g\nend\n', '.cs': 'namespace B {}\n', '.java': 'class B {}\n' }[ext]!;
      expect((await chunker.chunk(`ok${ext}`, ok)).map((c) => c.symbolName)).toEqual([
        ext === '.rb' ? 'g' : 'B',
      ]);
    }, 20_000);
  }

  it('reports the file parseFailed in the index build, and text search still has it', async () => {
    const files = { 'Deep.java': REPROS['Deep.java'], 'Small.java': 'class Small {\n  void run() {}\n}\n' };
    const svc = new CodeIndexService(
      new Workspace([new MemorySource(files)]),
      async () => chunker,
      new MemoryIndexStore(),
    );
    const t0 = performance.now();
    const stats = await svc.refresh();
    expect(performance.now() - t0).toBeLessThan(BUDGET_MS + 2 * SLACK_MS);
    expect(stats.skipped.map((s) => [s.path, s.reason, s.detail])).toEqual([
      ['Deep.java', 'parseFailed', `Parsing Deep.java took longer than ${BUDGET_MS} ms`],
    ]);
    expect(stats.coverage?.textOnly.failed).toBe(1);
    const prefilter = svc.prefilter()!;
    expect(prefilter.has('Deep.java')).toBe(true);
    expect(prefilter.has('Small.java')).toBe(true);
  }, 20_000);
});

describe('ParseBudget', () => {
  it('reads the clock once every CHECK_EVERY asks, and stays spent', () => {
    let clock = 0;
    let reads = 0;
    const budget = new ParseBudget(10, () => (reads++, clock));
    expect(reads).toBe(1); // the deadline
    for (let i = 0; i < 10 * CHECK_EVERY; i++) expect(budget.spent()).toBe(false);
    expect(reads).toBe(11);
    clock = 11;
    for (let i = 0; i < CHECK_EVERY - 1; i++) expect(budget.spent()).toBe(false);
    expect(budget.spent()).toBe(true);
    clock = 0;
    expect(budget.spent()).toBe(true);
    expect(() => budget.check()).toThrow(/budget of 10 ms/);
  });
});
