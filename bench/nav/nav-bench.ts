/**
 * Code navigation (issue 18) on the bench corpus, through the real engine in a worker_threads
 * Worker (the app's path minus React): 200 "clicks" on names sampled from source files
 * (seeded, so every run clicks the same names). For each: Go to definition (request to
 * answer) and Find references (request to the first files, which the panel shows at once,
 * and to the last), p50 / p95 / max on this thread. The peer is
 * what a reader without an IDE runs: `rg -w -F -s NAME` with its default threads, output
 * discarded while timed; references are compared line by line with it (ripgrep reads files
 * Quarry's walk leaves out, so differences are listed, not hidden).
 */
import { Worker } from 'node:worker_threads';
import type { ReferenceFile } from '../../src/core/nav/types';
import { EngineClient } from '../../src/worker/client';
import { startNodeWorkerTransport, type NodeWorkerConstructor } from '../../src/worker/node-host';
import { median, percentile, printTable, rgPairs, rgTimed, type Query } from '../common';
import { loadCorpus } from '../worker-bench';

const CLICKS = Number(process.env.BENCH_NAV_CLICKS ?? 200);
const KEYWORDS = new Set(
  'abstract as async await boolean break case catch class const constructor continue debugger default delete do else enum export extends false finally for from function get if implements import in instanceof interface let new null number of package private protected public readonly return set static string super switch this throw true try type typeof undefined var void while with yield any unknown never object symbol bigint declare module namespace require keyof infer is asserts'.split(
    ' ',
  ),
);

/** A seeded generator (mulberry32), so the same names are clicked every run. */
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sampleClicks(files: Record<string, string>, n: number): { path: string; name: string }[] {
  const random = rng(18);
  const sources = Object.keys(files)
    .filter(
      (p) => /\.(ts|tsx|js|mjs|cjs|jsx)$/.test(p) && !p.endsWith('.min.js') && files[p].length < 400_000,
    )
    .sort();
  const out: { path: string; name: string }[] = [];
  for (let tries = 0; out.length < n && tries < n * 50; tries++) {
    const path = sources[Math.floor(random() * sources.length)];
    const lines = files[path].split('\n');
    const line = lines[Math.floor(random() * lines.length)] ?? '';
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) continue;
    const words = line.match(/[A-Za-z_$][\w$]{2,}/g)?.filter((w) => !KEYWORDS.has(w)) ?? [];
    if (!words.length) continue;
    out.push({ path, name: words[Math.floor(random() * words.length)] });
  }
  return out;
}

export async function runNavBench(corpusDir: string) {
  console.log(
    '\n== navigation (issue 18): go to definition and find references, engine in a worker_threads Worker, corpus in memory',
  );
  const files = loadCorpus(corpusDir);
  const client = new EngineClient(() =>
    startNodeWorkerTransport(Worker as unknown as NodeWorkerConstructor, { nodeGrammars: true }),
  );
  try {
    await client.openRepo({ kind: 'memory', name: 'corpus', files }).done;
    const t0 = performance.now();
    await client.indexRepo({}).done;
    console.log(
      `indexed ${Object.keys(files).length} files in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const clicks = sampleClicks(files, CLICKS);
    // the first lookup builds the symbol table once per index state: timed apart
    const first = performance.now();
    await client.definitions(clicks[0]);
    const tableMs = performance.now() - first;

    const defMs: number[] = [];
    const refMs: number[] = [];
    const refFirstMs: number[] = [];
    const rgMs: number[] = [];
    let withDefs = 0;
    let compared = 0;
    let same = 0;
    const differences: string[] = [];
    for (const c of clicks) {
      let t = performance.now();
      const defs = await client.definitions(c);
      defMs.push(performance.now() - t);
      if (defs.definitions.length) withDefs++;
      t = performance.now();
      let firstAt = -1;
      const got: ReferenceFile[] = [];
      const end = await client.references(c).onBatch((batch) => {
        if (firstAt < 0) firstAt = performance.now() - t;
        got.push(...batch);
      }).done;
      refMs.push(performance.now() - t);
      // no reference at all: the panel's first paint is the end
      refFirstMs.push(firstAt < 0 ? performance.now() - t : firstAt);
      const refs = { files: got, limitHit: end.stats.limitHit };
      const q: Query = {
        name: c.name,
        req: { pattern: c.name, mode: 'literal', caseMode: 'sensitive' },
        rgArgs: ['-w', '-F', '-s', '--', c.name],
      };
      const rg = rgTimed(corpusDir, q, 'default');
      if (rg !== null) rgMs.push(rg);
      if (!refs.limitHit && compared < 60) {
        const theirs = rgPairs(corpusDir, q);
        if (theirs) {
          compared++;
          const ours = new Set(refs.files.flatMap((f) => f.lines.map((l) => `${f.path}:${l.line}`)));
          // the memory corpus leaves out files over 1 MB (loadCorpus): compare over the files both read
          const theirSet = new Set(theirs.filter((p) => p.slice(0, p.lastIndexOf(':')) in files));
          const onlyRg = [...theirSet].filter((p) => !ours.has(p));
          const onlyUs = [...ours].filter((p) => !theirSet.has(p));
          if (!onlyRg.length && !onlyUs.length) same++;
          else
            differences.push(
              `${c.name}: ${onlyUs.length} only in Quarry, ${onlyRg.length} only in rg (e.g. ${[...onlyUs, ...onlyRg][0]})`,
            );
        }
      }
    }
    const row = (name: string, xs: number[], target: string) => [
      name,
      median(xs).toFixed(1),
      percentile(xs, 95).toFixed(1),
      Math.max(...xs).toFixed(1),
      target,
    ];
    printTable([
      ['lookup (200 clicks)', 'p50 ms', 'p95 ms', 'max ms', 'target p95'],
      row('go to definition', defMs, '< 50 ms'),
      row('find references: first files on screen', refFirstMs, '< 150 ms'),
      row('find references: all of them', refMs, '-'),
      ...(rgMs.length ? [row('rg -w -F -s NAME (default threads)', rgMs, '-')] : []),
    ]);
    console.log(
      `symbol table built on the first lookup: ${tableMs.toFixed(0)} ms (once per index state); ${withDefs} of ${clicks.length} clicked names have a definition in the index`,
    );
    if (rgMs.length)
      console.log(
        `find references p50 = ${(median(refMs) / median(rgMs)).toFixed(2)}x rg's p50 (lower is better)`,
      );
    if (compared) {
      console.log(`references equal to rg's line for line on ${same} of ${compared} names compared`);
      for (const d of differences.slice(0, 8)) console.log(`  differs: ${d}`);
    }
  } finally {
    client.dispose();
  }
}
