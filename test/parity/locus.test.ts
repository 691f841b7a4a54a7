/**
 * codebase_search and find_related side by side with the seed-004 engine itself (Locus 0.6.2,
 * over MCP stdio): the same corpora, the same queries and locations, and the ranked lists
 * must be identical: path, lines, symbol, chunk type, score to 1e-9, matched terms, score
 * components and snippet. Equal scores may come in any order (the seed promises no
 * tie-break), so lists are compared in a canonical order, and a group of equal scores cut by
 * the limit is compared by its score and size only.
 * Skips, saying why, where the engine's binary cannot run.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeFsSource } from '../../src/adapters/node/fs';
import { CodebaseIndexService } from '../../src/core/codebase-index/service';
import { Workspace } from '../../src/core/source/workspace';
import { callTool } from '../../src/core/tools';
import { toQuarryError } from '../../src/core/errors';
import type { ToolContext } from '../../src/core/tools/types';
import { declarationsCorpus, edgeCorpus, threeCorpus, type Corpus } from './corpora.testutil';
import { findLocus, LocusClient, type EngineAnswer, type EngineHit } from './locus.testutil';
import { seedOnlyRoots } from '../../src/core/workspace/roots.testutil';

const locus = findLocus();
if ('skip' in locus) console.warn(`[parity] skipped: ${locus.skip}`);

const EPS = 1e-9;
/**
 * Engine calls in flight at once. Each call is two short CPU-bound processes (the server spawns
 * `locus-cli` to refresh the index, then again to search: ~190 ms a call one at a time); two at
 * once answer in ~105 ms a call on two cores, three or four no faster.
 */
const ENGINE_IN_FLIGHT = 2;

/** Score order, with scores within EPS taken as equal and ordered by path and line (no promised tie-break). */
function canonical(hits: EngineHit[]): EngineHit[] {
  const byScore = [...hits].sort((a, b) => b.score - a.score);
  const out: EngineHit[] = [];
  for (let i = 0; i < byScore.length;) {
    let j = i + 1;
    while (j < byScore.length && byScore[j - 1].score - byScore[j].score <= EPS) j++;
    out.push(
      ...byScore
        .slice(i, j)
        .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.startLine - b.startLine)),
    );
    i = j;
  }
  return out;
}

/**
 * Equal values, numbers to within EPS: V8's Math.log and the engine's (glibc's) may differ in
 * the last bit, so an idf or a component can differ by 1e-16 while everything else is the same.
 */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number')
    return Math.abs(a - b) <= EPS * Math.max(1, Math.abs(a));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return (
      same(ka, kb) &&
      ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    );
  }
  return a === b;
}

/** Differences between two answers, as readable lines (none when they agree). */
function differences(ours: EngineAnswer, theirs: EngineAnswer, limit: number): string[] {
  if (!ours.ok || !theirs.ok) {
    const a = ours.ok ? `${ours.results.length} results` : `error "${ours.message}"`;
    const b = theirs.ok ? `${theirs.results.length} results` : `error "${theirs.message}"`;
    return a === b ? [] : [`quarry: ${a}; engine: ${b}`];
  }
  const out: string[] = [];
  if (ours.results.length !== theirs.results.length)
    out.push(`quarry ${ours.results.length} results, engine ${theirs.results.length}`);
  const a = canonical(ours.results);
  const b = canonical(theirs.results);
  // the last group of equal scores, when the limit may have cut it, is compared by score only
  const cutAt =
    b.length === limit && b.length
      ? b.findIndex((h) => Math.abs(h.score - b[b.length - 1].score) <= EPS)
      : b.length;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i], b[i]];
    if (Math.abs(x.score - y.score) > EPS)
      out.push(
        `#${i + 1}: score ${x.score} vs ${y.score} (${x.path}:${x.startLine} vs ${y.path}:${y.startLine})`,
      );
    if (i >= cutAt) continue;
    // the engine writes object keys in alphabetical order, Quarry in the seed's; it leaves out
    // find_related's scoreComponents, which the seed calls empty
    const fields = (h: EngineHit) => [
      h.path,
      h.startLine,
      h.endLine,
      h.symbolName ?? null,
      h.chunkType,
      h.matchedTerms,
      sortedKeys(h.scoreComponents ?? []),
      h.snippet,
    ];
    if (!same(fields(x), fields(y)))
      out.push(`#${i + 1}: quarry ${firstDifference(JSON.stringify(fields(x)), JSON.stringify(fields(y)))}`);
  }
  return out;
}

function sortedKeys(xs: unknown[]): unknown[] {
  return xs.map((x) => Object.fromEntries(Object.entries(x as object).sort(([a], [b]) => (a < b ? -1 : 1))));
}

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `${a.slice(0, 80)}… differs at ${i}: quarry "${a.slice(Math.max(0, i - 40), i + 80)}" engine "${b.slice(Math.max(0, i - 40), i + 80)}"`;
}

async function ours(ctx: ToolContext, name: string, args: Record<string, unknown>): Promise<EngineAnswer> {
  try {
    const r = (await callTool(name, args, ctx)) as { results: EngineHit[] };
    return { ok: true, results: JSON.parse(JSON.stringify(r.results)) };
  } catch (err) {
    return { ok: false, message: toQuarryError(err).message };
  }
}

const NATURAL = [
  'database connection pool',
  'session token',
  'create a new object from parameters',
  'compute the bounding box of a geometry',
  'matrix multiply inverse transpose',
  'load a texture from an image url',
  'parse json configuration file',
  'dispose of resources and free memory',
  'event listener add remove dispatch',
  'convert color to hex string',
  'interpolate between two values',
  'shader uniform material',
  'camera projection perspective field of view',
  'raycast intersect objects',
  'quaternion from euler angles',
  'resolve plugin preset options',
  'source map file',
  'array buffer typed array length',
  'promise resolve reject then',
  'regular expression match groups',
  'date time locale format',
  'read a file synchronously',
  'error message code frame',
  'cache configuration function',
  'the quick brown fox',
  'pool pool connection',
  'Vector3 length normalize',
];

interface Plan {
  corpus: () => Corpus;
  /** identifier queries taken from the index (every k-th symbol name) */
  identifiers: number;
  /** find_related locations taken from the index (the middle line of every k-th chunk) */
  related: number;
  extra?: Array<['codebase_search' | 'find_related', Record<string, unknown>]>;
  /** change the corpus after the first round and compare again (both refresh incrementally) */
  change?: (dir: string) => void;
}

const PLANS: Plan[] = [
  {
    corpus: edgeCorpus,
    identifiers: 10,
    related: 10,
    extra: [
      ['find_related', { path: 'src/forms.ts', line: 1 }], // preamble
      ['find_related', { path: 'src/missing.ts', line: 3 }],
      ['find_related', { path: 'notes.txt', line: 1 }],
      ['find_related', { path: 'src/db/pool.ts', line: 99 }],
      ['find_related', { path: 'src/long.ts', line: 5, limit: 0 }],
      ['find_related', { path: 'src/wide.ts', line: 2, limit: 100 }],
      ['codebase_search', { query: 'alpha alpha', limit: 3 }],
      ['codebase_search', { query: 'session', limit: 100 }],
      ['codebase_search', { query: 'export function', limit: 100 }],
    ],
    change: (dir) => {
      fs.appendFileSync(
        path.join(dir, 'src/db/pool.ts'),
        'export function drainPool(pool: Pool) {\n  return pool.end();\n}\n',
      );
      fs.rmSync(path.join(dir, 'src/crlf.ts'));
      fs.writeFileSync(
        path.join(dir, 'src/added.ts'),
        'import { createPool } from "./db/pool";\nexport const pool = createPool();\n',
      );
    },
  },
  { corpus: threeCorpus, identifiers: 20, related: 8 },
  { corpus: declarationsCorpus, identifiers: 15, related: 6 },
];

describe.skipIf('skip' in locus)('seed-004 parity with the engine (Locus 0.6.2 over MCP)', () => {
  let engine: LocusClient;
  const dirs: string[] = [];
  const compared = { search: 0, related: 0, answered: 0 };
  beforeAll(async () => {
    engine = await LocusClient.start((locus as { bin: string }).bin);
  });
  afterAll(async () => {
    await engine?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it.each(PLANS.map((p) => [p.corpus.name, p] as const))(
    '%s: identical ranked lists',
    async (_name, plan) => {
      const corpus = plan.corpus();
      dirs.push(corpus.dir);
      const seedIndex = new CodebaseIndexService(new Workspace([new NodeFsSource(corpus.dir)]));
      const ctx: ToolContext = { workspace: seedIndex.workspace, roots: seedOnlyRoots(seedIndex) };
      // Quarry keeps minified files out of the chunks (the engine does not): no corpus file may be one
      expect((await seedIndex.refresh()).skipped.filter((s) => s.reason === 'minified')).toEqual([]);
      const index = seedIndex.index!;
      const chunks = index
        .paths()
        .sort()
        .flatMap((p) => index.chunksOf(p));
      const named = [...new Set(chunks.filter((c) => c.symbolName).map((c) => c.symbolName!))];
      const every = <T>(xs: T[], n: number) =>
        Array.from(
          { length: Math.min(n, xs.length) },
          (_, i) => xs[Math.floor((i * xs.length) / Math.min(n, xs.length))],
        );
      const calls: Array<['codebase_search' | 'find_related', Record<string, unknown>]> = [
        ...NATURAL.map(
          (query) => ['codebase_search', { query }] as ['codebase_search', Record<string, unknown>],
        ),
        ...every(named, plan.identifiers).map(
          (query) =>
            ['codebase_search', { query, limit: 20 }] as ['codebase_search', Record<string, unknown>],
        ),
        ...every(chunks, plan.related).map(
          (c) =>
            ['find_related', { path: c.path, line: Math.floor((c.startLine + c.endLine) / 2) }] as [
              'find_related',
              Record<string, unknown>,
            ],
        ),
        ...(plan.extra ?? []),
      ];
      const failures: string[] = [];
      // the engine's first call indexes the root; the rest only read that index, side by side
      const withRoot = calls.map(([name, args]) => [name, { ...args, root: corpus.dir }] as const);
      const answers = [await engine.call(...withRoot[0])];
      answers.push(...(await engine.callAll(withRoot.slice(1), ENGINE_IN_FLIGHT)));
      for (const [i, [name, args]] of calls.entries()) {
        const mine = await ours(ctx, name, args);
        const theirs = answers[i];
        const limit =
          name === 'find_related'
            ? Math.max(1, (args.limit as number | undefined) ?? 10)
            : ((args.limit as number | undefined) ?? 10);
        const diff = differences(mine, theirs, limit);
        if (process.env.PARITY_LOG)
          console.log(name, JSON.stringify(args), theirs.ok ? theirs.results.length : theirs.message);
        if (diff.length) failures.push(`${name} ${JSON.stringify(args)}:\n  ${diff.join('\n  ')}`);
        if (name === 'codebase_search') compared.search++;
        else compared.related++;
        if (theirs.ok && theirs.results.length) compared.answered++;
      }
      if (plan.change) {
        plan.change(corpus.dir);
        const again: typeof calls = [
          ['codebase_search', { query: 'pool', limit: 20 }],
          ['codebase_search', { query: 'drain pool end' }],
          ['codebase_search', { query: 'crlf two' }],
          ['find_related', { path: 'src/db/pool.ts', line: 13 }],
          ['find_related', { path: 'src/added.ts', line: 2 }],
        ];
        const modes: string[] = [];
        for (const [name, args] of again) {
          const mine = await ours(ctx, name, args);
          modes.push(seedIndex.lastStats!.refreshMode);
          const theirs = await engine.call(name, { ...args, root: corpus.dir });
          const diff = differences(mine, theirs, (args.limit as number | undefined) ?? 10);
          if (diff.length)
            failures.push(`after the change, ${name} ${JSON.stringify(args)}:\n  ${diff.join('\n  ')}`);
        }
        expect(modes).toEqual(['incremental', 'cache_hit', 'cache_hit', 'cache_hit', 'cache_hit']);
      }
      expect(failures, failures.join('\n\n')).toEqual([]);
    },
    300_000,
  );

  it('compared at least 60 queries and 20 locations, nearly all of them answered', () => {
    expect(compared.search).toBeGreaterThanOrEqual(60);
    expect(compared.related).toBeGreaterThanOrEqual(20);
    // two empty lists agree and prove little
    expect(compared.answered).toBeGreaterThan((compared.search + compared.related) * 0.75);
  });
});
