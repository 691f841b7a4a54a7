/**
 * Issue 15's figures, on a corpus: the whole index build (read + parse + BM25 + trigram) on the
 * parsing pool against MiniSearch handed the same files (each file's text a document, its path
 * stored: the same bytes the build reads, text already in memory for MiniSearch), the time to
 * "text index ready" and to "ranked ready", the same build on one thread, parse throughput on
 * one thread and on the pool (text in memory), and what the index covers. The two builds must
 * store the same index (checked). MiniSearch runs BUILD_RUNS times and its fastest run counts;
 * the builds run once each (a build takes seconds; the machine is shared: read the ratios).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import MiniSearch from 'minisearch';
import { nodeGrammarLoader } from '../src/adapters/node/grammars';
import { NodeFsSource } from '../src/adapters/node/fs';
import { nodeParsePool } from '../src/adapters/node/parse-pool';
import { FileIndexStore } from '../src/adapters/node/index-store';
import { inThreadChunker } from '../src/core/chunk/any';
import type { FileChunker } from '../src/core/chunk/pool';
import { NEVER_YIELD } from '../src/core/jobs/yielder';
import { coverageSentence } from '../src/core/rank/coverage-text';
import { CodeIndexService, type RefreshStats } from '../src/core/rank/service';
import { tokenize } from '../src/core/rank/tokenize';
import { Workspace } from '../src/core/source/workspace';
import { readText } from '../src/core/walk/walk';
import { printTable } from './common';
import { buildCCorpus, C_CORPUS_PACKAGE } from './corpus';

const BUILD_RUNS = 3;
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const mb = (b: number) => b / 1024 / 1024;
const rate = (bytes: number, ms: number) => `${(mb(bytes) / (ms / 1000)).toFixed(1)} MB/s`;

interface Timed {
  stats: RefreshStats;
  ms: number;
  textReadyMs: number;
  stored: Buffer;
}

async function timedBuild(ws: Workspace, chunker: FileChunker): Promise<Timed> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-build-'));
  try {
    const svc = new CodeIndexService(ws, async () => chunker, new FileIndexStore(dir), 'bench');
    gc();
    const t0 = performance.now();
    let textReadyMs = NaN;
    const stats = await svc.refresh({
      yielder: NEVER_YIELD,
      onTextReady: () => (textReadyMs = performance.now() - t0),
    });
    const ms = performance.now() - t0;
    // the store's write is part of the build above; the comparison reads it back untimed
    return { stats, ms, textReadyMs, stored: fs.readFileSync(path.join(dir, 'bench.json')) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function runBuildBench(corpusDir: string, label: string): Promise<void> {
  console.log(`\n== the index build on every core (issue 15): ${label}`);
  const ws = new Workspace([new NodeFsSource(corpusDir)]);
  const pool = nodeParsePool();
  const single = await inThreadChunker(nodeGrammarLoader);
  try {
    // warm: the page cache, and every thread's grammars (a first build of a repository pays for loading them once)
    await timedBuild(ws, pool);
    const pooled = await timedBuild(ws, pool);
    const one = await timedBuild(ws, single);
    const same = pooled.stored.equals(one.stored);

    // the files the build read, in memory, for MiniSearch and the parse-only figures
    const files: Array<{ id: number; path: string; text: string }> = [];
    const ranked: Array<{ path: string; text: string }> = [];
    const textOnly = new Set(pooled.stats.skipped.map((s) => s.path));
    for (const p of walkPaths(corpusDir)) {
      const r = await readText(ws.roots[0], p);
      if (!r.ok || fs.statSync(path.join(corpusDir, p)).size > 1024 * 1024) continue;
      files.push({ id: files.length, path: p, text: r.text });
      if (!textOnly.has(p)) ranked.push({ path: p, text: r.text });
    }
    const fileBytes = files.reduce((n, f) => n + Buffer.byteLength(f.text), 0);
    const rankedBytes = ranked.reduce((n, f) => n + Buffer.byteLength(f.text), 0);
    let miniMs = Infinity;
    for (let run = 0; run < BUILD_RUNS; run++) {
      gc();
      const t = performance.now();
      const m = new MiniSearch({
        fields: ['text'],
        storeFields: ['path'],
        tokenize: (x) => tokenize(x),
        processTerm: (x) => x,
      });
      m.addAll(files);
      miniMs = Math.min(miniMs, performance.now() - t);
      if (m.documentCount !== files.length) throw new Error('MiniSearch lost documents');
    }
    const parse = async (c: FileChunker) => {
      gc();
      const t = performance.now();
      await Promise.all(ranked.map((f) => c.chunk(f.path, f.text).catch(() => [])));
      return performance.now() - t;
    };
    const parseOne = await parse(single);
    const parsePool = await parse(pool);

    const c = pooled.stats.coverage!;
    printTable([
      ['figure', 'value'],
      ['files in the text index', `${c.textFiles} (${mb(fileBytes).toFixed(1)} MiB)`],
      ['coverage', coverageSentence(c)],
      ['chunks', String(pooled.stats.chunksIndexed)],
      [
        `whole build on the pool (${pool.parallelism} parsing threads + this one)`,
        `${(pooled.ms / 1000).toFixed(2)} s, ${rate(fileBytes, pooled.ms)}`,
      ],
      [
        '  text index ready after',
        `${(pooled.textReadyMs / 1000).toFixed(2)} s (${((pooled.textReadyMs / pooled.ms) * 100).toFixed(0)}% of the build)`,
      ],
      ['  ranked ready after', `${(pooled.ms / 1000).toFixed(2)} s`],
      [
        'whole build on one thread',
        `${(one.ms / 1000).toFixed(2)} s, ${rate(fileBytes, one.ms)} (text ready after ${(one.textReadyMs / 1000).toFixed(2)} s)`,
      ],
      ['  pool speedup', `${(one.ms / pooled.ms).toFixed(2)}x`],
      ['  same stored index (pool vs one thread)', same ? 'yes' : 'NO'],
      [
        `MiniSearch, the same ${files.length} files (best of ${BUILD_RUNS})`,
        `${(miniMs / 1000).toFixed(2)} s, ${rate(fileBytes, miniMs)}`,
      ],
      [
        'whole build throughput / MiniSearch throughput (pool)',
        `${(miniMs / pooled.ms).toFixed(2)}x (target >= 1.5x)`,
      ],
      ['whole build throughput / MiniSearch throughput (one thread)', `${(miniMs / one.ms).toFixed(2)}x`],
      [
        `parsing alone, ${mb(rankedBytes).toFixed(1)} MiB ranked text in memory: one thread`,
        rate(rankedBytes, parseOne),
      ],
      [
        `parsing alone: the pool (${pool.parallelism} threads)`,
        `${rate(rankedBytes, parsePool)} in total, ${rate(rankedBytes / pool.parallelism, parsePool)} per thread`,
      ],
    ]);
    if (!same) throw new Error('the pool built a different index than one thread');
  } finally {
    pool.dispose();
    single.dispose();
  }
}

/** Every file under dir, relative, in walk order (the build's own walk decides what it indexes). */
function walkPaths(dir: string): string[] {
  const out: string[] = [];
  const visit = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) visit(child);
      else if (e.isFile()) out.push(child);
    }
  };
  visit('');
  return out;
}

/** Both corpora: the JS/TS one and the mostly-C one. */
export async function buildBench(corpusDir: string): Promise<void> {
  await runBuildBench(corpusDir, 'the JS/TS corpus');
  const c = buildCCorpus();
  await runBuildBench(
    c.dir,
    `a corpus that is mostly C (${c.files} files, ${mb(c.bytes).toFixed(1)} MiB: the ${C_CORPUS_PACKAGE} package, which vendors libxml2)`,
  );
}
