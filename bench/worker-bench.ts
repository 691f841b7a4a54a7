/**
 * Issue 3's figure: the worker round trip. The engine runs in a real worker (worker_threads,
 * the same worker code as the browser's), holding the corpus in memory; for each query we
 * time query -> first batch and query -> last batch (job end) on the main thread.
 * Target: first batch under 50 ms for a literal query.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { EngineClient } from '../src/worker/client';
import { startNodeWorkerTransport, type NodeWorkerConstructor } from '../src/worker/node-host';
import { PREVIEW_LINE_CHARS } from '../src/core/grep/types';
import { median, printTable, type Query } from './common';

/** What the app's search panel asks for (src/ui/SearchPanel.tsx). */
const UI_MAX_RESULTS = 5000;
const UI_COUNT_LIMIT = 100_000;

export function loadCorpus(dir: string, maxFileBytes = 1_048_576): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && fs.statSync(path.join(dir, p)).size <= maxFileBytes)
        files[p] = fs.readFileSync(path.join(dir, p), 'utf8');
    }
  };
  walk('');
  return files;
}

export async function runWorkerBench(corpusDir: string, queries: Query[], runs: number) {
  console.log(
    '\n== worker round trip (issues 3, 19): engine in a worker_threads Worker searching on its pool of worker_threads, corpus in memory',
  );
  const files = loadCorpus(corpusDir);
  const client = new EngineClient(() =>
    startNodeWorkerTransport(Worker as unknown as NodeWorkerConstructor, {
      nodeGrammars: true,
      searchThreads: true,
    }),
  );
  const t0 = performance.now();
  await client.openRepo({ kind: 'memory', name: 'corpus', files }).done;
  console.log(
    `opened ${Object.keys(files).length} files in the worker in ${(performance.now() - t0).toFixed(0)} ms`,
  );
  const scan = await measure(client, queries, runs);
  const t1 = performance.now();
  await client.indexRepo({}).done;
  console.log(
    `indexed in the worker in ${((performance.now() - t1) / 1000).toFixed(1)} s; the same queries, scanning and then indexed:`,
  );
  const indexed = await measure(client, queries, runs);
  const rows: string[][] = [
    [
      'query',
      'matches',
      'first batch ms (scan)',
      'last batch ms (scan)',
      'first batch ms (indexed)',
      'last batch ms (indexed)',
    ],
  ];
  queries.forEach((q, i) =>
    rows.push([
      q.name,
      String(scan[i].count),
      scan[i].first,
      scan[i].last,
      indexed[i].first,
      indexed[i].last,
    ]),
  );
  printTable(rows);
  console.log(
    '(the app\'s request: 5,000 lines delivered, counted to 100,000, two lines of context; target: first batch under 50 ms for every query; "-" = no match)',
  );
  client.dispose();
}

async function measure(client: EngineClient, queries: Query[], runs: number) {
  const out: Array<{ count: number; first: string; last: string }> = [];
  for (const q of queries) {
    const firsts: number[] = [];
    const lasts: number[] = [];
    let count = 0;
    for (let i = 0; i < runs; i++) {
      let first = -1;
      count = 0;
      const t = performance.now();
      const job = client
        .search({
          ...q.req,
          maxResults: UI_MAX_RESULTS,
          countLimit: UI_COUNT_LIMIT,
          maxLineChars: PREVIEW_LINE_CHARS,
          contextBefore: 2,
          contextAfter: 2,
        })
        .onBatch((batch) => {
          if (first < 0) first = performance.now() - t;
          for (const f of batch) count += f.matches.length;
        });
      await job.done;
      lasts.push(performance.now() - t);
      firsts.push(first < 0 ? NaN : first);
    }
    const f = median(firsts);
    out.push({ count, first: Number.isNaN(f) ? '-' : f.toFixed(1), last: median(lasts).toFixed(1) });
  }
  return out;
}
