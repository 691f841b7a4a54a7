/**
 * Golden ranking (after zoekt's internal/e2e): the queries in ranking.expectations.ts over
 * @babel/core's lib, each with hand-written expectations (which chunk should come first, which
 * belong in the top K). Both rankers answer every query: the contract ranker (codebase_search,
 * seed 004's BM25: ChunkIndex.search) and Ranked mode's ranker (rankChunks).
 *
 * Each ranker keeps a floor on MRR@10 (of the expected first hit) and recall@5 (of every
 * expected chunk) over all cases, as relevance.test.ts does for the larger labelled set: a
 * ranking change that costs either ranker fails here. Floors sit a little under the measured
 * values (printed), so a tie-break moving one case does not fail; raise them when ranking
 * improves. Each case's verdict is printed for diagnosis, not asserted. It writes no file.
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../../src/adapters/node/grammars';
import { NodeFsSource } from '../../src/adapters/node/fs';
import { Chunker } from '../../src/core/chunk';
import type { IndexedChunk } from '../../src/core/rank/bm25';
import { rankChunks } from '../../src/core/rank/ranked';
import { CodeIndexService } from '../../src/core/rank/service';
import { Workspace } from '../../src/core/source/workspace';
import { GOLDEN_CASES, TOP_K, type GoldenCase, type Want } from './ranking.expectations';

const ROOT = path.resolve('node_modules/@babel/core/lib');
/** MRR counts the expected first hit within this many results */
const MRR_DEPTH = 10;

type Ranker = 'codebase_search' | 'Ranked';
type Floor = { mrrAt10: number; recallAt5: number };

/**
 * Measured over all 28 cases and lowered by 0.02, rounded down (one case whose expected first hit
 * slips from 1st to 2nd costs 0.018 of MRR): codebase_search MRR@10 .326, R@5 .399 (6 of 28
 * cases fully met); Ranked MRR@10 .851, R@5 .887 (16 of 28).
 */
const FLOORS: Record<Ranker, Floor> = {
  codebase_search: { mrrAt10: 0.3, recallAt5: 0.37 },
  Ranked: { mrrAt10: 0.83, recallAt5: 0.86 },
};

type Hit = Pick<IndexedChunk, 'path' | 'symbolName' | 'startLine'>;

const matches = (h: Hit, w: Want) =>
  h.path === w.path && (w.symbol === undefined || h.symbolName === w.symbol);
const show = (w: Want) => (w.symbol ? `${w.path}#${w.symbol}` : `${w.path} (any chunk)`);
const showHit = (h: Hit | undefined) => (h ? `${h.path}#${h.symbolName}` : '(nothing)');

interface CaseResult {
  /** 1-based rank of the expected first hit within MRR_DEPTH, 0 when absent */
  firstRank: number;
  /** expectations (first and alsoTop) found in the top K */
  foundInTopK: number;
  wanted: number;
  /** the case's own bar: the expected first is first and every alsoTop is in the top K */
  pass: boolean;
  missing: string[];
}

function judge(c: GoldenCase, hits: Hit[]): CaseResult {
  const top = hits.slice(0, TOP_K);
  const firstRank = hits.slice(0, MRR_DEPTH).findIndex((h) => matches(h, c.first)) + 1;
  const wants = [c.first, ...(c.alsoTop ?? [])];
  const missing: string[] = [];
  let foundInTopK = 0;
  for (const w of wants) {
    if (top.some((h) => matches(h, w))) foundInTopK++;
    else missing.push(`${show(w)} not in top ${TOP_K}`);
  }
  if (firstRank !== 1)
    missing.unshift(
      `first should be ${show(c.first)}, got ${showHit(hits[0])}${firstRank ? ` (expected at ${firstRank})` : ''}`,
    );
  return {
    firstRank,
    foundInTopK,
    wanted: wants.length,
    pass: firstRank === 1 && missing.length === 0,
    missing,
  };
}

describe('golden ranking over @babel/core (hand-written expectations)', () => {
  it('each ranker keeps its MRR@10 and recall@5 floor', async () => {
    const chunker = await Chunker.create(nodeGrammarLoader);
    const svc = new CodeIndexService(new Workspace([new NodeFsSource(ROOT)]), async () => chunker);
    await svc.refresh();
    const index = svc.index!;

    // an expectation naming a chunk that does not exist is a mistake in the expectations
    const allChunks = index.paths().flatMap((p) => index.chunksOf(p));
    const unknown = GOLDEN_CASES.flatMap((c) => [c.first, ...(c.alsoTop ?? [])]).filter(
      (w) => !allChunks.some((h) => matches(h, w)),
    );
    expect(unknown.map(show), 'expectations that name no chunk of @babel/core/lib').toEqual([]);

    const rankers: Record<Ranker, (q: string) => Hit[]> = {
      codebase_search: (q) => index.search(q, MRR_DEPTH).map((h) => h.chunk),
      Ranked: (q) => rankChunks(index, q, MRR_DEPTH).map((h) => h.chunk),
    };
    const n = GOLDEN_CASES.length;
    const lines: string[] = [];
    const summary = {} as Record<Ranker, Floor & { pass: number }>;
    for (const id of Object.keys(rankers) as Ranker[]) {
      let recall = 0;
      let mrr = 0;
      let pass = 0;
      for (const c of GOLDEN_CASES) {
        const r = judge(c, rankers[id](c.query));
        recall += r.foundInTopK / r.wanted;
        mrr += r.firstRank ? 1 / r.firstRank : 0;
        if (r.pass) pass++;
        // per case, for diagnosis only: the floors below are the assertion
        lines.push(
          `  ${id.padEnd(15)} ${r.pass ? 'pass' : 'miss'}  first@${r.firstRank || '-'}  top${TOP_K} ${r.foundInTopK}/${r.wanted}  "${c.query}"${r.pass ? '' : `: ${r.missing.join('; ')}`}`,
        );
      }
      summary[id] = { mrrAt10: mrr / n, recallAt5: recall / n, pass };
    }
    console.log(
      [
        `golden ranking over @babel/core/lib, ${n} hand-judged queries (MRR@${MRR_DEPTH} of the expected first hit; recall@${TOP_K} over all expectations):`,
        ...(Object.keys(summary) as Ranker[]).map(
          (id) =>
            `  ${id}: MRR@${MRR_DEPTH} ${summary[id].mrrAt10.toFixed(3)} (floor ${FLOORS[id].mrrAt10}), ` +
            `R@${TOP_K} ${summary[id].recallAt5.toFixed(3)} (floor ${FLOORS[id].recallAt5}), cases fully met ${summary[id].pass}/${n}`,
        ),
        ...lines,
      ].join('\n'),
    );
    for (const id of Object.keys(summary) as Ranker[]) {
      expect(summary[id].mrrAt10, `${id} MRR@${MRR_DEPTH}`).toBeGreaterThanOrEqual(FLOORS[id].mrrAt10);
      expect(summary[id].recallAt5, `${id} recall@${TOP_K}`).toBeGreaterThanOrEqual(FLOORS[id].recallAt5);
    }
    // Ranked mode exists to do better for people than the contract's whole-identifier tokens
    expect(summary.Ranked.mrrAt10).toBeGreaterThan(summary.codebase_search.mrrAt10);
  }, 120_000);
});

describe('judge', () => {
  const c: GoldenCase = {
    query: 'q',
    why: '',
    first: { path: 'a.js', symbol: 'f' },
    alsoTop: [{ path: 'b.js' }],
  };
  const hit = (path: string, symbolName: string): Hit => ({ path, symbolName, startLine: 1 });

  it('passes only when the first is first and every alsoTop is in the top K', () => {
    expect(judge(c, [hit('a.js', 'f'), hit('b.js', 'g')]).pass).toBe(true);
    expect(judge(c, [hit('b.js', 'g'), hit('a.js', 'f')])).toMatchObject({
      pass: false,
      firstRank: 2,
      foundInTopK: 2,
    });
    expect(
      judge(c, [
        hit('a.js', 'f'),
        hit('x', '1'),
        hit('x', '2'),
        hit('x', '3'),
        hit('x', '4'),
        hit('b.js', 'g'),
      ]),
    ).toMatchObject({
      pass: false,
      firstRank: 1,
      foundInTopK: 1,
    });
    expect(judge(c, [hit('a.js', 'g')])).toMatchObject({ pass: false, firstRank: 0, foundInTopK: 0 });
  });
});
