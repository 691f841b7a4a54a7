/**
 * explore (issue 17), in Node over the real files:
 *   1. `explore` deep on the bench corpus: each analyzer's time and the total, against a plain
 *      walk that reads every file once (the floor any analysis of every file pays), same process;
 *   2. the import graph of a 10,000-file TypeScript repository (generated: relative imports,
 *      tsconfig paths, workspace packages, externals) resolved, against the same read-only walk.
 * Not a test: nothing asserts on time; the targets are printed beside the figures.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeFsSource } from '../../src/adapters/node/fs';
import { ExploreCorpus, resolveExploreRoots } from '../../src/core/explore/corpus';
import { importGraph } from '../../src/core/explore/imports';
import { runExplore } from '../../src/core/explore/run';
import { Workspace } from '../../src/core/source/workspace';
import { readText, walkFiles } from '../../src/core/walk/walk';
import { median, printTable } from '../common';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/** The floor: walk the tree and read every file's text once. */
async function readAll(dir: string): Promise<{ ms: number; files: number }> {
  const src = new NodeFsSource(dir);
  const t = performance.now();
  let files = 0;
  for await (const f of walkFiles(src)) {
    await readText(src, f.path);
    files++;
  }
  return { ms: performance.now() - t, files };
}

/** A 10,000-file TypeScript monorepo: 20 packages x 25 folders x 20 files, each importing 4 others. */
export function writeGraphRepo(files = 10_000): string {
  const dir = path.resolve(`.bench/graph-${files}`);
  const stamp = `${dir}.complete`;
  if (fs.existsSync(stamp)) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  const packages = 20;
  const folders = 25;
  const per = Math.ceil(files / (packages * folders));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  write('package.json', JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }));
  write(
    'tsconfig.json',
    JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@shared/*': ['packages/p0/src/*'] } } }),
  );
  let n = 0;
  for (let p = 0; p < packages; p++) {
    write(
      `packages/p${p}/package.json`,
      JSON.stringify({ name: `@mono/p${p}`, exports: { '.': './src/index.ts', './*': './src/*.ts' } }),
    );
    write(`packages/p${p}/src/index.ts`, `export * from './f0/m0';\n`);
    for (let f = 0; f < folders; f++) {
      for (let i = 0; i < per && n < files; i++, n++) {
        const imports = [
          `import { v${(i + 1) % per} } from './m${(i + 1) % per}';`,
          `import type { T } from '../f${(f + 1) % folders}/m${i}';`,
          `import { v0 as shared } from '@shared/f${f}/m0';`,
          `import * as other from '@mono/p${(p + 1) % packages}/f${f}/m${i}';`,
          `import React from 'react';`,
        ];
        const body = `export type T = { id: number };\nexport const v${i} = (x: number): number => x + ${n};\nexport function run${n}() {\n  return [shared, other, React].length;\n}\n`;
        write(`packages/p${p}/src/f${f}/m${i}.ts`, `${imports.join('\n')}\n${body}`);
      }
    }
  }
  fs.writeFileSync(stamp, String(n));
  return dir;
}

export async function runExploreBench(corpusDir: string): Promise<void> {
  console.log(
    `\n== explore (issue 17): deep on the bench corpus, each analyzer vs one read of every file (median of ${RUNS})`,
  );
  const floor: number[] = [];
  const totals: number[] = [];
  const per = new Map<string, number[]>();
  let last: Awaited<ReturnType<typeof runExplore>> | null = null;
  for (let i = 0; i < RUNS; i++) {
    floor.push((await readAll(corpusDir)).ms);
    const ws = new Workspace([new NodeFsSource(corpusDir)]);
    const t = performance.now();
    last = await runExplore({ workspace: ws }, { path: '.', depth: 'deep', focus: 'parse source file' });
    totals.push(performance.now() - t);
    for (const a of last.analyzers) per.set(a.name, [...(per.get(a.name) ?? []), a.ms]);
  }
  const base = median(floor);
  const rows = [['analyzer', 'status', 'wall ms (median; all share one thread)', 'x one read of every file']];
  for (const [name, ms] of per)
    rows.push([
      name,
      last!.analyzers.find((a) => a.name === name)!.status,
      median(ms).toFixed(0),
      `${(median(ms) / base).toFixed(2)}x`,
    ]);
  rows.push([
    'total (concurrent)',
    last!.errors.length ? 'errors' : 'ok',
    median(totals).toFixed(0),
    `${(median(totals) / base).toFixed(2)}x`,
  ]);
  rows.push(['read every file (baseline)', '', base.toFixed(0), '1.00x']);
  printTable(rows);
  const g = last!.import_graph!;
  console.log(
    `corpus: ${last!.files_scanned} files; graph: ${g.files} source files, ${g.internalEdges} internal imports, ${g.externals} externals, ${g.cycles.length} runtime cycles, ${g.unresolved.length} unresolved shown; ${last!.patterns.length} patterns, ${last!.key_files.length} key files`,
  );

  console.log('\n== import graph of a 10,000-file TypeScript monorepo (target: resolved in under 5 s)');
  const dir = writeGraphRepo();
  const gf: number[] = [];
  const gt: number[] = [];
  let graph: Awaited<ReturnType<typeof importGraph>> | null = null;
  for (let i = 0; i < RUNS; i++) {
    gf.push((await readAll(dir)).ms);
    const ws = new Workspace([new NodeFsSource(dir)]);
    const t = performance.now();
    graph = await importGraph(new ExploreCorpus(ws, await resolveExploreRoots(ws, '.')));
    gt.push(performance.now() - t);
  }
  printTable([
    [
      'files',
      'internal edges',
      'externals',
      'unresolved',
      'cycles',
      'type-only cycles',
      'graph ms',
      'read-all ms',
      'x read-all',
      'under 5 s',
    ],
    [
      String(graph!.files),
      String(graph!.internalEdges),
      String(graph!.externals),
      String(graph!.unresolved.length),
      String(graph!.cycles.length),
      String(graph!.typeCycles.length),
      median(gt).toFixed(0),
      median(gf).toFixed(0),
      `${(median(gt) / median(gf)).toFixed(2)}x`,
      median(gt) < 5000 ? 'yes' : 'NO',
    ],
  ]);
}
