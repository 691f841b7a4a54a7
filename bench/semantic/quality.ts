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
import { rankForPeople } from '../../src/core/rank/people';
import { CodeIndexService } from '../../src/core/rank/service';
import { SeedIndexService } from '../../src/core/seed004/service';
import { WorkspaceSemantic } from '../../src/core/semantic/provider';
import { semanticSearch } from '../../src/core/semantic/search';
import { Workspace } from '../../src/core/source/workspace';
import { callTool } from '../../src/core/tools';
import { printTable } from '../common';
import { formatQualityTable, loadQuestions, quality, rankOfAnswer, stripDocComments, type QualityRow } from './metrics';

const DEPTH = 50;

interface QualityCorpus {
  name: string;
  questions: string;
  pkg: string;
  /** package-relative folders or files to copy ('' for the package root's files only) */
  include: (rel: string) => boolean;
  /** what the set was used for while building (printed with its figures) */
  role: string;
}

export const QUALITY_CORPORA: QualityCorpus[] = [
  {
    name: 'lodash',
    questions: 'questions-lodash.json',
    pkg: 'lodash',
    include: (rel) => !rel.includes('/') && rel.endsWith('.js') && !/^(lodash|core|fp)\.js$|\.min\.js$/.test(rel),
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
];

/** The package's chosen files, comments stripped, under .bench/semantic-<name> (made once). */
export function qualityCorpus(c: QualityCorpus): string {
  const dir = path.resolve(`.bench/semantic-${c.name}`);
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
        fs.writeFileSync(dest, stripDocComments(fs.readFileSync(path.join(base, child), 'utf8')));
      }
    }
  };
  visit('');
  fs.writeFileSync(stamp, new Date().toISOString());
  return dir;
}

export interface QualityReport {
  name: string;
  files: number;
  chunks: number;
  rows: { name: string; row: QualityRow }[];
  misses: Record<string, string[]>;
}

export async function measureQuality(c: QualityCorpus): Promise<QualityReport> {
  const dir = qualityCorpus(c);
  const questions = loadQuestions(fs.readFileSync(path.join(import.meta.dirname, c.questions), 'utf8'));
  const workspace = new Workspace([new NodeFsSource(dir)]);
  const pool = nodeParsePool();
  try {
    const service = new CodeIndexService(workspace, async () => pool);
    const semantic = new WorkspaceSemantic(service, () => nodeEmbeddingModel());
    const { model, root } = await semantic.root();
    const index = root.index;
    const seedIndex = new SeedIndexService(workspace);
    const systems: Record<string, (q: string) => Promise<string[]>> = {
      codebase_search: async (q) => {
        const r = (await callTool('codebase_search', { query: q, limit: DEPTH }, { workspace, seedIndex })) as { results: { path: string }[] };
        return r.results.map((x) => x.path);
      },
      Ranked: async (q) => rankForPeople(index, q, DEPTH).map((h) => h.chunk.path),
      semantic: async (q) => (await semanticSearch([root], model, { query: q, type: 'semantic', limit: DEPTH })).map((r) => r.path),
      hybrid: async (q) => (await semanticSearch([root], model, { query: q, type: 'hybrid', limit: DEPTH })).map((r) => r.path),
    };
    const rows: QualityReport['rows'] = [];
    const misses: Record<string, string[]> = {};
    for (const [name, run] of Object.entries(systems)) {
      const ranks: (number | null)[] = [];
      for (const q of questions) {
        const rank = rankOfAnswer(await run(q.q), q.answer);
        ranks.push(rank);
        if (rank === null || rank > 10) (misses[name] ??= []).push(`${q.q} -> ${q.answer}`);
      }
      rows.push({ name, row: quality(ranks) });
    }
    return { name: c.name, files: index.paths().length, chunks: index.chunkCount, rows, misses };
  } finally {
    pool.dispose();
  }
}

export async function runQualityBench(): Promise<void> {
  console.log('\n== semantic search quality (issue 16): labelled questions, answer = the implementing file; comments stripped from the indexed copy');
  const summary: string[][] = [];
  for (const c of QUALITY_CORPORA) {
    const r = await measureQuality(c);
    console.log(`\n${r.name} (${r.files} files, ${r.chunks} chunks, ${r.rows[0].row.n} questions; ${c.role})`);
    console.log(formatQualityTable(r.rows));
    const ranked = r.rows.find((x) => x.name === 'Ranked')!.row.mrrAt10;
    const hybrid = r.rows.find((x) => x.name === 'hybrid')!.row.mrrAt10;
    summary.push([r.name, ranked.toFixed(3), hybrid.toFixed(3), (hybrid - ranked >= 0 ? '+' : '') + (hybrid - ranked).toFixed(3)]);
    if (process.env.BENCH_VERBOSE) for (const [name, list] of Object.entries(r.misses)) console.log(`  ${name} misses (not in top 10):\n    ${list.join('\n    ')}`);
  }
  printTable([['corpus', 'Ranked MRR@10', 'hybrid MRR@10', 'hybrid - Ranked'], ...summary]);
}

if (import.meta.url === `file://${process.argv[1]}`) await runQualityBench();
