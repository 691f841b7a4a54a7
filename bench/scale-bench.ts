/**
 * Issue 14's scale figure: a generated repository of 100,000 files / about 1 GB opened and
 * indexed by the engine in a worker (worker_threads, the browser's worker code, the folder
 * read through a File System Access handle as in the browser). Printed: the time to open and
 * to index, the process's peak memory (sampled every 100 ms, the worker included) against the
 * corpus size, the main thread's longest event-loop stall while the worker works (the UI's
 * responsiveness), what was skipped, and one literal query against ripgrep on the same files.
 *
 *   BENCH_ONLY=scale npm run bench             (BENCH_SCALE_FILES=20000 for a smaller run)
 * The corpus is generated once under $TMPDIR/quarry-scale-<files> and reused.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { INDEX_MAX_TEXT_BYTES } from '../src/core/limits';
import { EngineClient } from '../src/worker/client';
import { startNodeWorkerTransport, type NodeWorkerConstructor } from '../src/worker/node-host';
import { ensureRipgrep, printTable, rgTimed, type Query } from './common';

const FILES = Number(process.env.BENCH_SCALE_FILES ?? 100_000);
const FILE_BYTES = 10_700; // 100,000 x ~10.7 KB = about 1 GB
const PER_DIR = 100;

function generate(dir: string): number {
  const marker = path.join(dir, '.complete');
  if (fs.existsSync(marker)) return Number(fs.readFileSync(marker, 'utf8'));
  fs.rmSync(dir, { recursive: true, force: true });
  let bytes = 0;
  let seed = 12345;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
  const words = [
    'request',
    'response',
    'handler',
    'payload',
    'session',
    'token',
    'buffer',
    'stream',
    'render',
    'widget',
    'config',
    'record',
  ];
  for (let i = 0; i < FILES; i++) {
    const sub = path.join(dir, `pkg${Math.floor(i / (PER_DIR * 10))}`, `mod${Math.floor(i / PER_DIR) % 10}`);
    if (i % PER_DIR === 0) fs.mkdirSync(sub, { recursive: true });
    let text = `// file ${i}\nimport { ${words[i % 12]}Util } from '../shared';\n\n`;
    for (let f = 0; text.length < FILE_BYTES; f++) {
      const a = words[rnd() % 12];
      const b = words[rnd() % 12];
      text += `export function ${a}${b[0].toUpperCase()}${b.slice(1)}${i}_${f}(${a}: number, ${b}: string): string {\n  const value = ${a} * ${rnd() % 1000} + ${b}.length;\n  if (value > ${f}) return \`${a}-${b}-\${value}-id${rnd() % 100000}\`;\n  return ${b}.trim();\n}\n\n`;
    }
    if (i === FILES - 7) text += 'export const SCALE_NEEDLE_UNIQUE = true;\n';
    fs.writeFileSync(path.join(sub, `file${i}.ts`), text);
    bytes += text.length;
  }
  fs.writeFileSync(marker, String(bytes));
  return bytes;
}

export async function runScaleBench(): Promise<void> {
  const dir = path.join(os.tmpdir(), `quarry-scale-${FILES}`);
  console.log(
    `\n== scale (issue 14): ${FILES.toLocaleString('en')} files in a worker, read through a File System Access handle`,
  );
  const t0 = performance.now();
  const bytes = generate(dir);
  console.log(
    `corpus ${dir}: ${(bytes / 1048576).toFixed(0)} MiB (ready in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );

  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  const stall = monitorEventLoopDelay({ resolution: 10 });
  stall.enable();
  const client = new EngineClient(() =>
    startNodeWorkerTransport(Worker as unknown as NodeWorkerConstructor, {
      nodeGrammars: true,
      wrapModule: new URL('./scale-wrap.ts', import.meta.url).href,
    }),
  );
  const t1 = performance.now();
  const opened = await client.openRepo({
    kind: 'handle',
    name: 'scale',
    handle: dir as unknown as FileSystemDirectoryHandle,
  }).done;
  const openMs = performance.now() - t1;
  const openStall = stall.max;
  stall.reset();
  const t2 = performance.now();
  const indexed = await client.indexRepo({}).done;
  const indexMs = performance.now() - t2;
  clearInterval(sampler);
  stall.disable();
  peak = Math.max(peak, process.memoryUsage().rss);
  const s = indexed.stats as unknown as {
    filesScanned: number;
    chunksIndexed: number;
    refreshMode: string;
    saveError?: string;
  };
  const o = opened as unknown as { stats?: { files?: number; skipped?: unknown[] } };

  // one literal query: the indexed engine against ripgrep on the same files, output discarded
  const q: Query = {
    name: 'rare literal',
    req: { pattern: 'SCALE_NEEDLE_UNIQUE', mode: 'literal', caseMode: 'sensitive' },
    rgArgs: ['-F', '-e', 'SCALE_NEEDLE_UNIQUE'],
  };
  let count = 0;
  const t3 = performance.now();
  await client
    .search({ ...q.req, maxResults: 10_000 })
    .onBatch((batch) => batch.forEach((f) => (count += f.matches.length))).done;
  const oursMs = performance.now() - t3;
  const rgMs = ensureRipgrep() ? rgTimed(dir, q, 'default') : null;
  client.dispose();

  printTable([
    ['measure', 'value'],
    ['files opened', String(o.stats?.files ?? '?')],
    ['open (walk + list) s', (openMs / 1000).toFixed(1)],
    ['index build s', (indexMs / 1000).toFixed(1)],
    ['indexed files / chunks', `${s.filesScanned} / ${s.chunksIndexed}`],
    [
      'text indexed MiB (the budget)',
      `${(Math.min(bytes, INDEX_MAX_TEXT_BYTES) / 1048576).toFixed(0)} of ${(bytes / 1048576).toFixed(0)}`,
    ],
    [
      'index build MB/s (of the text indexed)',
      (Math.min(bytes, INDEX_MAX_TEXT_BYTES) / 1048576 / (indexMs / 1000)).toFixed(1),
    ],
    ['peak RSS MiB (process, worker included)', ((peak / 1048576) | 0).toString()],
    ['peak RSS growth / corpus size', ((peak - base) / bytes).toFixed(2) + 'x'],
    [
      'main thread longest stall ms: opening / indexing',
      `${(openStall / 1e6).toFixed(0)} / ${(stall.max / 1e6).toFixed(0)}`,
    ],
    ['store', s.saveError ? `not saved: ${s.saveError}` : 'saved'],
    [`"${q.req.pattern}" matches (ours / rg)`, `${count} / ${rgMs === null ? '-' : 1}`],
    [
      'query ms: ours (indexed, in the worker) / rg',
      `${oursMs.toFixed(0)} / ${rgMs === null ? '-' : rgMs.toFixed(0)}`,
    ],
    ['rg / ours', rgMs === null ? '-' : (rgMs / oursMs).toFixed(2) + 'x'],
  ]);
}
