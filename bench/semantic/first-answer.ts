/**
 * Issue 36's "first answer within a minute": on the quality corpora's chunks (about 6,000 when
 * every corpus is taken; BENCH_FIRST_CORPORA=n takes the first n), the time from the question
 * to the first semantic answer when embedding stops at a budget (model load included; the
 * answer is from the chunks embedded so far, definitions first) against the time to embed every
 * chunk first (what a search waited for before), with chunks/s. Node, one thread, USE lite.
 *   npx tsx bench/semantic/first-answer.ts
 */
import { NodeFsSource } from '../../src/adapters/node/fs';
import { nodeEmbeddingModel } from '../../src/adapters/node/model-files';
import { nodeParsePool } from '../../src/adapters/node/parse-pool';
import type { ChunkIndex } from '../../src/core/rank/bm25';
import { CodeIndexService } from '../../src/core/rank/service';
import { SemanticIndex } from '../../src/core/semantic/index';
import { workspaceLines } from '../../src/core/semantic/provider';
import { semanticSearch } from '../../src/core/semantic/search';
import { Workspace } from '../../src/core/source/workspace';
import { SEMANTIC_SEARCH_BUDGET_MS } from '../../src/core/tools/views/semantic-view';
import { qualityCorpus, QUALITY_CORPORA } from './quality';

const QUESTION = 'where do we parse the arguments of a function call';

async function corpora(count: number) {
  const out: { name: string; index: ChunkIndex; lines: (p: string) => Promise<string[] | null> }[] = [];
  const pool = nodeParsePool();
  try {
    for (const c of QUALITY_CORPORA.slice(0, count)) {
      const ws = new Workspace([new NodeFsSource(qualityCorpus(c))]);
      const service = new CodeIndexService(ws, async () => pool);
      await service.refresh();
      out.push({ name: c.name, index: service.index!, lines: workspaceLines(ws) });
    }
  } finally {
    pool.dispose();
  }
  return out;
}

export async function runFirstAnswerBench(budgetMs = SEMANTIC_SEARCH_BUDGET_MS): Promise<void> {
  const roots = await corpora(Number(process.env.BENCH_FIRST_CORPORA ?? QUALITY_CORPORA.length));
  const chunks = roots.reduce((a, r) => a + r.index.chunkCount, 0);
  console.log(
    `\n== first semantic answer (issue 36): ${chunks} chunks of ${roots.map((r) => r.name).join(', ')}`,
  );
  const t0 = performance.now();
  const model = await nodeEmbeddingModel();
  const loadMs = performance.now() - t0;
  const deadline = t0 + budgetMs;
  const vectors = roots.map(() => new SemanticIndex(model.id, model.dims));
  let embeddedFirst = 0;
  for (const [i, r] of roots.entries()) {
    const s = await vectors[i].sync(r.index, r.lines, model, { deadline });
    embeddedFirst += s.embedded;
  }
  const semanticRoots = roots.map((r, i) => ({ prefix: `${r.name}/`, index: r.index, vectors: vectors[i] }));
  const hits = await semanticSearch(semanticRoots, model, { query: QUESTION, type: 'semantic', limit: 10 });
  const firstMs = performance.now() - t0;
  const searched = vectors.reduce((a, v, i) => a + v.coverage(roots[i].index).searched, 0);
  console.log(
    `first answer (budget ${budgetMs / 1000} s): ${(firstMs / 1000).toFixed(1)} s after the question (model load ${(loadMs / 1000).toFixed(1)} s), searched ${searched} of ${chunks} chunks, top hit ${hits[0]?.path ?? '-'}`,
  );
  const t1 = performance.now();
  let embeddedRest = 0;
  for (const [i, r] of roots.entries())
    embeddedRest += (await vectors[i].sync(r.index, r.lines, model)).embedded;
  const restMs = performance.now() - t1;
  const embedMs = firstMs - loadMs + restMs;
  const embedded = embeddedFirst + embeddedRest;
  console.log(
    `every chunk embedded: ${((loadMs + embedMs) / 1000).toFixed(1)} s after the question (the wait before), ${embedded} distinct views, ${(embedded / (embedMs / 1000)).toFixed(0)} chunks/s`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await runFirstAnswerBench();
