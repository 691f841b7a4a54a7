/**
 * Issue 16's quality figures: labelled natural-language questions over real code installed
 * from npm, the answer being the file that implements it. The indexed copy has its comments
 * stripped (stripDocComments), so an answer cannot be read off its doc comment. Four systems
 * answer every question: codebase_search (seed 004's BM25), Ranked (rank/people.ts), semantic
 * (vectors only) and hybrid (fused); each prints recall@1, recall@5 and MRR@10 over files
 * (a file's first chunk in the list is its rank).
 * - lodash@4.17.21: its per-function modules (the monolithic builds lodash.js, core.js, the
 *   .min.js files and fp/ left out: each holds every function). The views were looked at on
 *   this set while building them.
 * - three@0.187.0 (src/math, src/geometries, src/extras/curves): written apart; views were not
 *   tuned on it, but candidate fusion methods were run on it once before the method was fixed.
 * - @babel/core@7.29.16 (lib/, installed as @babel/core-7): held out, never run before the
 *   method (views and fusion) was fixed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeFsSource } from '../../src/adapters/node/fs';
import { nodeEmbeddingModel } from '../../src/adapters/node/model-files';
import { nodeParsePool } from '../../src/adapters/node/parse-pool';
import type { ThreadPool } from '../../src/core/chunk/pool';
import { rankChunks } from '../../src/core/rank/ranked';
import { CodeIndexService } from '../../src/core/rank/service';
import { CodebaseIndexService } from '../../src/core/codebase-index/service';
import { WorkspaceSemantic } from '../../src/core/semantic/provider';
import { semanticSearch } from '../../src/core/semantic/search';
import { Workspace } from '../../src/core/source/workspace';
import { callTool } from '../../src/core/tools';
import { printTable } from '../common';
import {
  formatQualityTable,
  loadQuestions,
  partOf,
  quality,
  rankOfAnswer,
  stripDocComments,
  stripPythonComments,
  type QualityRow,
} from './metrics';
import { seedOnlyRoots } from '../../src/core/workspace/roots.testutil';

const DEPTH = 50;

interface QualityCorpus {
  name: string;
  questions: string;
  pkg: string;
  /** package-relative folders or files to copy ('' for the package root's files only) */
  include: (rel: string) => boolean;
  /** what the set was used for while building (printed with its figures) */
  role: string;
  /** the comment stripper for a file (default: JS/C-style comments) */
  strip?: (rel: string, text: string) => string;
}

/** Text files of a whole package, as a repository holds them (binaries, maps and minified builds left out). */
const PACKAGE_TEXT = /\.(c|h|cc|cpp|hpp|js|cjs|mjs|ts|py|json|md|gyp|gypi|txt|yml|yaml|toml|ps1|sh|bat)$/;
const wholePackage = (rel: string) =>
  PACKAGE_TEXT.test(rel) && !rel.endsWith('.min.js') && !rel.endsWith('.d.ts.map');
const stripByLanguage = (rel: string, text: string) =>
  rel.endsWith('.py')
    ? stripPythonComments(text)
    : /\.(c|h|cc|cpp|hpp|js|cjs|mjs|ts)$/.test(rel)
      ? stripDocComments(text)
      : text;

export const QUALITY_CORPORA: QualityCorpus[] = [
  {
    name: 'lodash',
    questions: 'questions-lodash.json',
    pkg: 'lodash',
    include: (rel) =>
      !rel.includes('/') && rel.endsWith('.js') && !/^(lodash|core|fp)\.js$|\.min\.js$/.test(rel),
    role: 'the tuning set',
  },
  {
    name: 'three',
    questions: 'questions-three.json',
    pkg: 'three',
    include: (rel) => /^src\/(math|geometries|extras\/curves)\/.*\.js$/.test(rel),
    role: 'views not tuned on it; fusion candidates were run on it once',
  },
  {
    name: 'babel',
    questions: 'questions-babel.json',
    pkg: '@babel/core-7',
    include: (rel) => rel.startsWith('lib/') && rel.endsWith('.js'),
    role: 'held out: first run after the method was fixed',
  },
  {
    name: 'libxml2',
    questions: 'questions-libxml2.json',
    pkg: 'libxmljs2',
    include: wholePackage,
    role: 'C (libxml2 vendored), C++ binding, JS; written for the relevance issue (31) before any ranking change',
    strip: stripByLanguage,
  },
  {
    name: 'gyp',
    questions: 'questions-gyp.json',
    pkg: 'node-gyp',
    include: wholePackage,
    role: 'Python (gyp) and node-gyp JS, docs, changelog, package.json; written for issue 31 before any ranking change',
    strip: stripByLanguage,
  },
];

/** The package's chosen files, comments stripped, under <under>/semantic-<name> (made once; tests pass a temporary folder). */
export function qualityCorpus(c: QualityCorpus, under = '.bench'): string {
  const dir = path.resolve(under, `semantic-${c.name}`);
  const stamp = `${dir}.complete`;
  if (fs.existsSync(stamp)) return dir;
  const base = path.resolve('node_modules', c.pkg);
  if (!fs.existsSync(base)) throw new Error(`bench: npm package ${c.pkg} is not installed (run npm ci)`);
  fs.rmSync(dir, { recursive: true, force: true });
  const visit = (rel: string) => {
    for (const e of fs.readdirSync(path.join(base, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() && e.name !== 'node_modules') visit(child);
      else if (e.isFile() && c.include(child)) {
        const dest = path.join(dir, child);
        fs.mkdirSync(path.dirname(dest), { recursive: true });
        const text = fs.readFileSync(path.join(base, child), 'utf8');
        fs.writeFileSync(dest, c.strip ? c.strip(child, text) : stripDocComments(text));
      }
    }
  };
  visit('');
  fs.writeFileSync(stamp, new Date().toISOString());
  return dir;
}

export type SystemName = 'codebase_search' | 'Ranked' | 'semantic' | 'hybrid';
export const SYSTEMS: SystemName[] = ['codebase_search', 'Ranked', 'semantic', 'hybrid'];
export type Part = 'tune' | 'held' | 'all';

export interface QualityReport {
  name: string;
  files: number;
  chunks: number;
  /** per part (tuning, held out, all), one row per system */
  parts: Record<Part, { name: string; row: QualityRow }[]>;
  misses: Record<string, string[]>;
}

/** The systems to run: BENCH_QUALITY_SYSTEMS=codebase_search,Ranked (say) skips the model. */
export function systemsFromEnv(env: string | undefined): SystemName[] {
  if (!env) return SYSTEMS;
  const names = env.split(',').map((x) => x.trim());
  for (const n of names)
    if (!SYSTEMS.includes(n as SystemName))
      throw new Error(`BENCH_QUALITY_SYSTEMS: unknown system ${n} (${SYSTEMS.join(', ')})`);
  return names as SystemName[];
}

/**
 * `under`: where the corpus copy is made (tests pass a temporary folder). `pool`: the parsing
 * threads to use, kept open (a caller measuring several corpora starts them once: each start
 * costs its threads' boot and grammars); by default a pool of its own, closed at the end.
 */
export async function measureQuality(
  c: QualityCorpus,
  only: SystemName[] = SYSTEMS,
  under?: string,
  shared?: { pool: ThreadPool },
): Promise<QualityReport> {
  const dir = qualityCorpus(c, under);
  const questions = loadQuestions(fs.readFileSync(path.join(import.meta.dirname, c.questions), 'utf8'));
  const workspace = new Workspace([new NodeFsSource(dir)]);
  const pool = shared?.pool ?? nodeParsePool();
  try {
    const service = new CodeIndexService(workspace, async () => pool);
    await service.refresh();
    const index = service.index!;
    const needsModel = only.includes('semantic') || only.includes('hybrid');
    const semantic = needsModel
      ? await new WorkspaceSemantic(service, () => nodeEmbeddingModel()).root()
      : null;
    const seedIndex = new CodebaseIndexService(workspace);
    const all: Record<SystemName, (q: string) => Promise<string[]>> = {
      codebase_search: async (q) => {
        const r = (await callTool(
          'codebase_search',
          { query: q, limit: DEPTH },
          { workspace, roots: seedOnlyRoots(seedIndex) },
        )) as { results: { path: string }[] };
        return r.results.map((x) => x.path);
      },
      Ranked: async (q) => rankChunks(index, q, DEPTH).map((h) => h.chunk.path),
      semantic: async (q) =>
        (
          await semanticSearch([semantic!.root], semantic!.model, {
            query: q,
            type: 'semantic',
            limit: DEPTH,
          })
        ).map((r) => r.path),
      hybrid: async (q) =>
        (
          await semanticSearch([semantic!.root], semantic!.model, { query: q, type: 'hybrid', limit: DEPTH })
        ).map((r) => r.path),
    };
    const parts: QualityReport['parts'] = { tune: [], held: [], all: [] };
    const misses: Record<string, string[]> = {};
    for (const name of only) {
      const ranks: Record<Part, (number | null)[]> = { tune: [], held: [], all: [] };
      for (const q of questions) {
        const rank = rankOfAnswer(await all[name](q.q), q.answers);
        const part = partOf(q.q);
        ranks[part].push(rank);
        ranks.all.push(rank);
        // misses are listed for the tuning part only: the held-out part is scored, never read
        if (part === 'tune' && (rank === null || rank > 10))
          (misses[name] ??= []).push(`${q.q} -> ${q.answers.join(' | ')} (${rank ?? '-'})`);
      }
      for (const p of ['tune', 'held', 'all'] as Part[]) parts[p].push({ name, row: quality(ranks[p]) });
    }
    return { name: c.name, files: index.paths().length, chunks: index.chunkCount, parts, misses };
  } finally {
    if (!shared) pool.dispose();
  }
}

export async function runQualityBench(): Promise<void> {
  const only = systemsFromEnv(process.env.BENCH_QUALITY_SYSTEMS);
  const names = process.env.BENCH_QUALITY_CORPORA?.split(',');
  console.log(
    '\n== ranking quality (issues 16, 31): labelled questions, answer = the implementing file; comments stripped from the indexed copy',
  );
  console.log(
    '   each set is split by question text: 2/3 tuning, 1/3 held out (scored only, never used to choose)',
  );
  const summary: string[][] = [];
  for (const c of QUALITY_CORPORA.filter((x) => !names || names.includes(x.name))) {
    const r = await measureQuality(c, only);
    for (const part of ['tune', 'held'] as Part[]) {
      console.log(
        `\n${r.name} (${r.files} files, ${r.chunks} chunks, ${r.parts[part][0].row.n} questions, ${part === 'tune' ? 'tuning part' : 'HELD-OUT part'}; ${c.role})`,
      );
      console.log(formatQualityTable(r.parts[part]));
    }
    const cell = (part: Part, sys: SystemName) =>
      r.parts[part].find((x) => x.name === sys)?.row.mrrAt10.toFixed(3) ?? '-';
    summary.push([r.name, ...only.flatMap((sys) => [cell('tune', sys), cell('held', sys)])]);
    if (process.env.BENCH_VERBOSE)
      for (const [name, list] of Object.entries(r.misses))
        console.log(`  ${name} tuning misses (not in top 10):\n    ${list.join('\n    ')}`);
  }
  printTable([['MRR@10', ...only.flatMap((sys) => [`${sys} tune`, `${sys} held`])], ...summary]);
}

if (import.meta.url === `file://${process.argv[1]}`) await runQualityBench();
