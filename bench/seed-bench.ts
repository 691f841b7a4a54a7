/**
 * The seed-004 index (codebase_search, find_related) on the bench corpus: full build time and
 * MB/s, memory and stored size as multiples of the corpus (the index targets: heap + buffers
 * < 1.5x corpus; BM25 p95 < 10 ms), MiniSearch handed the very same chunk documents, and the
 * reference engine itself (Locus 0.6.2, when its binary runs here) building and answering on
 * a copy of the same corpus, with the same top 10 checked.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import MiniSearch from 'minisearch';
import { NodeFsSource } from '../src/adapters/node/fs';
import { FileIndexStore } from '../src/adapters/node/index-store';
import { NEVER_YIELD } from '../src/core/jobs/yielder';
import { tokenize } from '../src/core/rank/tokenize';
import { decodeSeedText, seedChunks, tokenSource } from '../src/core/codebase-index/chunks';
import { CodebaseIndexService } from '../src/core/codebase-index/service';
import { Workspace } from '../src/core/source/workspace';
import { findLocus, LocusClient } from '../test/parity/locus.testutil';
import { BM25_QUERIES, settledMemory } from './index-bench';
import { percentile, printTable } from './common';

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const mb = (b: number) => b / 1024 / 1024;
const rate = (bytes: number, ms: number) => `${(mb(bytes) / (ms / 1000)).toFixed(1)} MB/s`;

export async function runSeedBench(corpusDir: string): Promise<void> {
  console.log('\n== seed-004 index (issue 13)');
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-seed-'));
  const memBefore = await settledMemory();
  const svc = new CodebaseIndexService(
    new Workspace([new NodeFsSource(corpusDir)]),
    new FileIndexStore(storeDir),
    'seed',
  );
  const t0 = performance.now();
  const stats = await svc.refresh({ yielder: NEVER_YIELD });
  const buildMs = performance.now() - t0;
  const memAfter = await settledMemory();
  const used = memAfter.heapUsed - memBefore.heapUsed + memAfter.arrayBuffers - memBefore.arrayBuffers;
  let bytes = 0;
  for (const p of svc.index!.paths()) bytes += fs.statSync(path.join(corpusDir, p)).size;
  const stored = fs.readdirSync(storeDir).reduce((n, f) => n + fs.statSync(path.join(storeDir, f)).size, 0);

  const reopen = new CodebaseIndexService(svc.workspace, new FileIndexStore(storeDir), 'seed');
  const tr = performance.now();
  const again = await reopen.refresh({ yielder: NEVER_YIELD });
  const reopenMs = performance.now() - tr;

  // MiniSearch handed the same documents: each chunk's token text, read and chunked before timing
  const docs: Array<{ id: number; text: string }> = [];
  for (const p of svc.index!.paths())
    for (const c of seedChunks(p, decodeSeedText(fs.readFileSync(path.join(corpusDir, p)))))
      docs.push({ id: docs.length, text: tokenSource(c) });
  const docBytes = docs.reduce((n, d) => n + d.text.length, 0);
  gc();
  const tm = performance.now();
  const mini = new MiniSearch({ fields: ['text'], tokenize: (t) => tokenize(t), processTerm: (t) => t });
  mini.addAll(docs);
  const miniMs = performance.now() - tm;
  docs.length = 0;

  const lat: number[] = [];
  for (let r = 0; r < 5; r++)
    for (const q of BM25_QUERIES) {
      const t = performance.now();
      svc.index!.search(q, 10);
      lat.push(performance.now() - t);
    }

  printTable([
    ['figure', 'value'],
    ['files, chunks', `${stats.filesScanned} (${mb(bytes).toFixed(1)} MiB), ${stats.chunksIndexed} chunks`],
    ['full build: walk + read + chunk + BM25', `${(buildMs / 1000).toFixed(2)} s, ${rate(bytes, buildMs)}`],
    [
      `MiniSearch handed the chunk documents (${mb(docBytes).toFixed(0)} MiB of token text, in memory)`,
      `${(miniMs / 1000).toFixed(2)} s; MiniSearch time / our whole build: ${(miniMs / buildMs).toFixed(2)}x`,
    ],
    [
      'index heap + array buffers (after gc)',
      `${mb(used).toFixed(1)} MiB = ${(used / bytes).toFixed(2)}x corpus (target < 1.5x)`,
    ],
    ['stored size', `${mb(stored).toFixed(1)} MiB = ${(stored / bytes).toFixed(2)}x corpus`],
    ['reopen from the store (cache_hit)', `${reopenMs.toFixed(0)} ms (${again.refreshMode})`],
    [
      `BM25 over ${BM25_QUERIES.length} queries x 5`,
      `p50 ${percentile(lat, 50).toFixed(2)} ms, p95 ${percentile(lat, 95).toFixed(2)} ms (target p95 < 10 ms)`,
    ],
  ]);
  await engineComparison(corpusDir, svc);
}

/** The reference engine on a copy of the corpus (it writes `.coderag/` into its root). */
async function engineComparison(corpusDir: string, svc: CodebaseIndexService): Promise<void> {
  const locus = findLocus();
  if ('skip' in locus) {
    console.log(`reference engine: skipped (${locus.skip})`);
    return;
  }
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-locus-'));
  for (const p of svc.index!.paths()) {
    fs.mkdirSync(path.dirname(path.join(copy, p)), { recursive: true });
    fs.copyFileSync(path.join(corpusDir, p), path.join(copy, p));
  }
  const engine = await LocusClient.start(locus.bin);
  try {
    const tb = performance.now();
    await engine.call('codebase_search', { query: 'warm up', root: copy });
    const engineBuild = performance.now() - tb;
    const theirs: number[] = [];
    const ours: number[] = [];
    let same = 0;
    // the engine re-reads its whole stored index on every call (seconds on this corpus): 8 queries
    const queries = BM25_QUERIES.slice(0, 8);
    for (const q of queries) {
      let t = performance.now();
      const e = await engine.call('codebase_search', { query: q, root: copy });
      theirs.push(performance.now() - t);
      t = performance.now();
      await svc.refresh({ yielder: NEVER_YIELD }); // as the tool does on every call
      const mine = svc.index!.search(q, 10);
      ours.push(performance.now() - t);
      const key = (path: string, line: number, score: number) => `${path}:${line}:${score.toFixed(9)}`;
      const a = mine.map((h) => key(h.chunk.path, h.chunk.startLine, h.score)).sort();
      const b = e.ok ? e.results.map((h) => key(h.path, h.startLine, h.score)).sort() : [];
      if (a.join() === b.join()) same++;
    }
    printTable([
      ['reference engine (Locus 0.6.2, MCP stdio) on a copy', 'value'],
      ['its first call (full build)', `${(engineBuild / 1000).toFixed(2)} s`],
      [
        `a call (refresh check + query), median of ${BM25_QUERIES.length}`,
        `engine ${percentile(theirs, 50).toFixed(1)} ms, Quarry ${percentile(ours, 50).toFixed(1)} ms`,
      ],
      ['same top 10 (path, line, score to 1e-9; ties may differ)', `${same}/${queries.length}`],
    ]);
  } finally {
    await engine.close();
    fs.rmSync(copy, { recursive: true, force: true });
  }
}
