/**
 * Blame (issue 18): a 5,000-line TypeScript file with 1,000 commits of history touching it
 * (built once with `git fast-import` under .bench/), blamed by Quarry (isomorphic-git over
 * node fs, as the worker does over lightning-fs or an opened folder) and by `git blame` on the
 * same file; the two must agree on every line (commit and original line number). Also the
 * file history walk alone, and the second, cached-trees run. Not a test: nothing asserts on
 * time; the ratio to git is printed beside the figures.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { blameFile, type BlameResult } from '../../src/adapters/git/blame';
import { TreeCache } from '../../src/adapters/git/blob-at';
import { fileHistory } from '../../src/adapters/git/file-history';
import { median, printTable } from '../common';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LINES = 5000;
const COMMITS = 1000;
const FILE = 'src/engine.ts';
const AUTHORS = [
  'Ada Lovelace <ada@bench.test>',
  'Grace Hopper <grace@bench.test>',
  'Alan Turing <alan@bench.test>',
  'Edsger Dijkstra <edsger@bench.test>',
];
const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' };

function git(dir: string, args: string[], input?: Buffer): string {
  const r = spawnSync('git', args, {
    cwd: dir,
    input,
    env: GIT_ENV,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

/** Code-like lines: functions of a few statements, blank lines and braces between them (so ambiguous alignments occur, as in real code). */
function initialFile(rand: () => number): string[] {
  const lines: string[] = [];
  let f = 0;
  while (lines.length < LINES) {
    lines.push(`export function step${f}(input: State): State {`);
    const body = 3 + Math.floor(rand() * 6);
    for (let i = 0; i < body; i++)
      lines.push(`  const v${f}_${i} = compute(input, ${Math.floor(rand() * 1000)});`);
    lines.push('  return input;', '}', '');
    f++;
  }
  return lines.slice(0, LINES);
}

/** One commit's edits: lines changed, inserted (sometimes blank lines or braces), deleted, or a block moved. */
function edit(lines: string[], c: number, rand: () => number): string[] {
  const out = lines.slice();
  const edits = 1 + Math.floor(rand() * 5);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rand() * out.length);
    const k = rand();
    if (k < 0.4) out[at] = `  const c${c}_${e} = revise(${JSON.stringify(out[at].trim().slice(0, 24))});`;
    else if (k < 0.65) {
      const n = 1 + Math.floor(rand() * 8);
      out.splice(
        at,
        0,
        ...Array.from({ length: n }, (_, i) =>
          rand() < 0.15 ? (rand() < 0.5 ? '' : '}') : `  log("commit ${c} edit ${e} line ${i}");`,
        ),
      );
    } else if (k < 0.9) out.splice(at, 1 + Math.floor(rand() * 6));
    else out.splice(Math.floor(rand() * out.length), 0, ...out.splice(at, 3)); // move three lines
  }
  // keep the file near its size
  while (out.length > LINES * 1.05) out.splice(Math.floor(rand() * out.length), 5);
  return out;
}

/** The repository, built once (a stamp file marks it complete). */
export function writeBlameRepo(): string {
  const dir = path.resolve(`.bench/blame-${LINES}x${COMMITS}`);
  const stamp = `${dir}.complete`;
  if (fs.existsSync(stamp)) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main']);
  let seed = 20260101;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
  let lines = initialFile(rand);
  const parts: Buffer[] = [];
  const data = (s: string) => {
    const b = Buffer.from(s);
    parts.push(Buffer.from(`data ${b.length}\n`), b, Buffer.from('\n'));
  };
  for (let c = 0; c < COMMITS; c++) {
    if (c > 0) lines = edit(lines, c, rand);
    const who = AUTHORS[c % AUTHORS.length];
    const when = `${1_700_000_000 + c * 3600} +0000`;
    parts.push(
      Buffer.from(
        `commit refs/heads/main\nmark :${c + 1}\nauthor ${who} ${when}\ncommitter ${who} ${when}\n`,
      ),
    );
    data(`Change ${c}`);
    if (c > 0) parts.push(Buffer.from(`from :${c}\n`));
    parts.push(Buffer.from(`M 100644 inline ${FILE}\n`));
    data(lines.join('\n') + '\n');
    // another file changes too, so the walk meets commits that leave this one alone
    if (c % 3 === 0) {
      parts.push(Buffer.from('M 100644 inline src/other.ts\n'));
      data(`export const other = ${c};\n`);
    }
    parts.push(Buffer.from('\n'));
  }
  git(dir, ['fast-import', '--quiet'], Buffer.concat(parts));
  git(dir, ['checkout', '-q', '-f', 'main']);
  // one pack with deltas, as a clone gets it
  git(dir, ['repack', '-a', '-d', '-q']);
  fs.writeFileSync(stamp, '');
  return dir;
}

function perLine(b: BlameResult): string[] {
  const out: string[] = [];
  for (const r of b.runs)
    for (let i = 0; i < r.count; i++) out.push(`${b.commits[r.commit].oid} ${r.origStart + i + 1}`);
  return out;
}

function gitBlame(dir: string): { ms: number; lines: string[] } {
  const t = performance.now();
  const out = git(dir, ['blame', '--porcelain', 'HEAD', '--', FILE]);
  const ms = performance.now() - t;
  return {
    ms,
    lines: [...out.matchAll(/^([0-9a-f]{40}) (\d+) \d+(?: \d+)?$/gm)].map((m) => `${m[1]} ${m[2]}`),
  };
}

export async function runBlameBench(): Promise<void> {
  console.log(
    `\n== blame (issue 18): a ${LINES.toLocaleString('en-US')}-line file, ${COMMITS.toLocaleString('en-US')} commits touching it; Quarry (isomorphic-git over node fs) vs git blame`,
  );
  const t0 = performance.now();
  const dir = writeBlameRepo();
  console.log(`repository: ${dir} (ready in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  const lineCount = fs.readFileSync(path.join(dir, FILE), 'utf8').split('\n').length - 1;

  const walkMs: number[] = [];
  const coldMs: number[] = [];
  const warmMs: number[] = [];
  const gitMs: number[] = [];
  let result: BlameResult | null = null;
  let theirs: string[] = [];
  for (let r = 0; r < RUNS; r++) {
    // cold: a fresh isomorphic-git cache and tree cache, as on a first open in the worker
    let t = performance.now();
    await fileHistory({ fs, dir, cache: {} }, FILE, { stopAtAdd: true });
    walkMs.push(performance.now() - t);
    const repo = { fs, dir, cache: {} };
    const trees = new TreeCache();
    t = performance.now();
    result = await blameFile(repo, FILE, { trees });
    coldMs.push(performance.now() - t);
    // warm: the same repository object and trees (a second file, or a re-blame after a new HEAD)
    t = performance.now();
    await blameFile(repo, FILE, { trees });
    warmMs.push(performance.now() - t);
    const g = gitBlame(dir);
    gitMs.push(g.ms);
    theirs = g.lines;
  }
  const ours = perLine(result!);
  let agree = 0;
  for (let i = 0; i < Math.max(ours.length, theirs.length); i++) if (ours[i] === theirs[i]) agree++;
  const ratio = (xs: number[]) => `${(median(xs) / median(gitMs)).toFixed(2)}x`;
  printTable([
    ['what', 'median ms', 'vs git blame'],
    ['git blame --porcelain', median(gitMs).toFixed(0), '1.00x'],
    ['Quarry: file history walk only', median(walkMs).toFixed(0), ratio(walkMs)],
    ['Quarry: blame, cold caches', median(coldMs).toFixed(0), ratio(coldMs)],
    ['Quarry: blame, warm object + tree caches', median(warmMs).toFixed(0), ratio(warmMs)],
  ]);
  console.log(
    `file at HEAD: ${lineCount.toLocaleString('en-US')} lines; Quarry diffed ${result!.versions} versions, ${result!.commits.length} commits own lines; ` +
      `agreement with git blame (commit + original line): ${agree} of ${theirs.length} lines${agree === theirs.length && ours.length === theirs.length ? ' (all)' : ' — MISMATCH'}`,
  );
}
