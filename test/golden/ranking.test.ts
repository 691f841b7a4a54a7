/**
 * Golden ranking (after zoekt's internal/e2e): the queries in ranking.expectations.ts over
 * @babel/core's lib, each with hand-written expectations (which chunk should come first, which
 * belong in the top K). Both rankers answer every query: the contract ranker (codebase_search,
 * seed 004's BM25: ChunkIndex.search) and Ranked mode's people ranker (rankForPeople).
 *
 * The test prints recall@K and MRR per ranker and fails when a case that passed stops passing
 * or a case marked as a known miss starts passing. It writes no file.
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../../src/adapters/node/grammars';
import { NodeFsSource } from '../../src/adapters/node/fs';
import { Chunker } from '../../src/core/chunk';
import type { IndexedChunk } from '../../src/core/rank/bm25';
import { rankForPeople } from '../../src/core/rank/people';
import { CodeIndexService } from '../../src/core/rank/service';
import { Workspace } from '../../src/core/source/workspace';
import { GOLDEN_CASES, TOP_K, type GoldenCase, type RankerId, type Want } from './ranking.expectations';

const ROOT = path.resolve('node_modules/@babel/core/lib');
/** MRR counts the expected first hit within this many results */
const MRR_DEPTH = 10;

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
  it('each ranker meets every expectation not marked as its known miss', async () => {
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

    const rankers: Record<RankerId, (q: string) => Hit[]> = {
      bm25: (q) => index.search(q, MRR_DEPTH).map((h) => h.chunk),
      people: (q) => rankForPeople(index, q, MRR_DEPTH).map((h) => h.chunk),
    };
    const problems: string[] = [];
    const lines: string[] = [];
    const summary: Record<RankerId, { recall: number; mrr: number; pass: number; knownMiss: number }> =
      {} as never;
    for (const id of Object.keys(rankers) as RankerId[]) {
      let recall = 0;
      let mrr = 0;
      let pass = 0;
      let knownMiss = 0;
      for (const c of GOLDEN_CASES) {
        const r = judge(c, rankers[id](c.query));
        recall += r.foundInTopK / r.wanted;
        mrr += r.firstRank ? 1 / r.firstRank : 0;
        const miss = c.knownMiss?.[id];
        if (r.pass) pass++;
        if (miss !== undefined) knownMiss++;
        if (miss !== undefined && r.pass)
          problems.push(
            `${id} "${c.query}": marked as a known miss (${miss}) but passes now: remove the mark`,
          );
        if (miss === undefined && !r.pass) problems.push(`${id} "${c.query}": ${r.missing.join('; ')}`);
        lines.push(
          `  ${id.padEnd(6)} ${r.pass ? 'pass' : miss !== undefined ? 'MISS' : 'FAIL'}  "${c.query}"${r.pass ? '' : `: ${r.missing.join('; ')}`}`,
        );
      }
      const n = GOLDEN_CASES.length;
      summary[id] = { recall: recall / n, mrr: mrr / n, pass, knownMiss };
    }
    const n = GOLDEN_CASES.length;
    console.log(
      [
        `golden ranking over @babel/core/lib, ${n} hand-judged queries (recall@${TOP_K} over all expectations; MRR of the expected first hit, depth ${MRR_DEPTH}):`,
        ...(Object.keys(summary) as RankerId[]).map(
          (id) =>
            `  ${id === 'bm25' ? 'codebase_search BM25' : 'Ranked mode (people)'}: recall@${TOP_K} ${summary[id].recall.toFixed(3)}  MRR ${summary[id].mrr.toFixed(3)}  ` +
            `cases passed ${summary[id].pass}/${n}  known misses ${summary[id].knownMiss}`,
        ),
        ...lines,
      ].join('\n'),
    );
    expect(problems).toEqual([]);
    // Ranked mode exists to do better for people than the contract's whole-identifier tokens
    expect(summary.people.mrr).toBeGreaterThan(summary.bm25.mrr);
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
