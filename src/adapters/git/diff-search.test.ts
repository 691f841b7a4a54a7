/**
 * Diff search against the git CLI (the peer): the commits listed must be exactly those of
 * `git log --no-renames -G<re>`, `-S<str>` and `-S<re> --pickaxe-regex`, in git's order, on a
 * history with adds, edits, a deletion, a binary file, a rename, a line moved within a file, a
 * mode-only change, CRLF lines, a root commit and a merge; and on a random history of
 * ambiguous edits. Then the hits' details, limit, cancel, progress and bad input.
 */
import fs from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../test/rejection';
import { literalMatcher, regexMatcher, type TextMatcher } from '../../core/git/commit-search';
import type { LogCommit } from '../../core/git/types';
import { ADA, CliRepo, GRACE } from './cli-repo.testutil';
import { searchDiffs, type DiffSearchOptions } from './diff-search';
import { commitLoader } from './history-log';
import { walkLog } from './log-walk';
import { GitObjectStore } from './objects';

const BASE = 1_767_225_600;

async function readLog(repo: CliRepo): Promise<{ objects: GitObjectStore; log: LogCommit[] }> {
  const objects = new GitObjectStore(fs, join(repo.dir, '.git'));
  const log: LogCommit[] = [];
  for await (const c of walkLog(repo.git(['rev-parse', 'HEAD']).trim(), commitLoader(objects))) log.push(c);
  return { objects, log };
}

const gitLog = (repo: CliRepo, args: string[]) =>
  repo
    .git(['log', '--format=%H', '--no-renames', ...args])
    .split('\n')
    .filter(Boolean);

/** A binary blob (a NUL early on) holding `needle` `times` times. */
const binary = (times: number) =>
  Buffer.concat([Buffer.from([0, 1, 2, 0]), ...Array.from({ length: times }, () => Buffer.from(' needle '))]);

describe('diff search: parity with git log -G / -S', () => {
  let repo: CliRepo;
  let objects: GitObjectStore;
  let log: LogCommit[];
  const msg: Record<string, string> = {};

  beforeAll(async () => {
    repo = new CliRepo('quarry-diff-search-');
    let n = 0;
    const commit = (name: string, files: Record<string, string | Uint8Array | null>, who = ADA) => {
      n++;
      msg[name] = repo.commit(files, name, who);
    };
    commit('root', {
      'src/a.ts': 'alpha\nbeta\ngamma\n',
      'README.md': 'Hello world\nneedle in the readme\n',
      'bin/data.bin': binary(1),
      'move.txt': 'one\ntwo\nthree\nfour\n',
    });
    commit('edit a', { 'src/a.ts': 'alpha\nbeta(x)\ngamma\ndelta needle\n' });
    commit('delete readme', { 'README.md': null }, GRACE);
    commit('binary change', { 'bin/data.bin': binary(2) });
    repo.git(['mv', 'src/a.ts', 'src/b.ts']);
    commit('rename a to b', {});
    commit('move a line', { 'move.txt': 'two\nthree\nfour\none\n' });
    fs.chmodSync(join(repo.dir, 'src/b.ts'), 0o755);
    commit('mode only', {});
    commit('crlf', { 'crlf.txt': 'crlf\r\nplain\n', 'empty.txt': '' });
    repo.git(['checkout', '-q', '-b', 'topic']);
    commit('topic Needle', { 'topic.txt': 'A Needle here\n' });
    repo.git(['checkout', '-q', 'main']);
    commit('main after topic', { 'move.txt': 'two\nthree\nfour\none\nfive needle\n' });
    repo.git(['merge', '-q', '--no-ff', '-m', 'merge topic', 'topic'], ADA, BASE + 3600 * (n + 1));
    ({ objects, log } = await readLog(repo));
  });
  afterAll(() => repo.remove());

  const ours = async (matcher: TextMatcher, mode: 'lines' | 'count' = 'lines') =>
    (await searchDiffs({ objects, commits: log, matcher, mode })).hits.map((h) => h.commit.oid);

  it('lists what git log -G lists', async () => {
    expect(log.map((c) => c.oid)).toEqual(gitLog(repo, []));
    const cases: Array<[string[], TextMatcher]> = [
      [['-Gneedle'], regexMatcher('needle')],
      [['-i', '-Gneedle'], regexMatcher('needle', false)],
      [['-Galpha'], regexMatcher('alpha')],
      [['-Gone'], regexMatcher('one')],
      [['-GHello'], regexMatcher('Hello')],
      [['-Gbeta\\(x\\)'], regexMatcher('beta\\(x\\)')],
      [['-Gbeta.x'], regexMatcher('beta.x')],
      [['-G^(two|delta)'], regexMatcher('^(two|delta)')],
      [['-Gcrlf$'], regexMatcher('crlf$')],
      [['-Gplain$'], regexMatcher('plain$')],
      [['-Gzzz'], regexMatcher('zzz')],
    ];
    for (const [args, m] of cases) expect(await ours(m), args.join(' ')).toEqual(gitLog(repo, args));
    // the cases say something: a moved line is -G's, not -S's; a merge is never listed; a binary neither
    expect(gitLog(repo, ['-Gone'])).toContain(msg['move a line']);
    expect(gitLog(repo, ['-Sone'])).not.toContain(msg['move a line']);
    expect(gitLog(repo, ['-i', '-Gneedle'])).toContain(msg['topic Needle']);
    expect(gitLog(repo, ['-Gneedle'])).not.toContain(msg['binary change']);
    expect(gitLog(repo, ['-Sneedle'])).toContain(msg['binary change']);
    expect(gitLog(repo, ['-Galpha'])).toContain(msg['rename a to b']);
  });

  it('lists what git log -S lists (and --pickaxe-regex)', async () => {
    const cases: Array<[string[], TextMatcher]> = [
      [['-Sneedle'], literalMatcher('needle')],
      [['-i', '-SNEEDLE'], literalMatcher('NEEDLE', false)],
      [['-Sone'], literalMatcher('one')],
      [['-Salpha'], literalMatcher('alpha')],
      [['-Sbeta(x)'], literalMatcher('beta(x)')],
      [['-Sbet[a]', '--pickaxe-regex'], regexMatcher('bet[a]')],
      [['-Sne+dle', '--pickaxe-regex'], regexMatcher('ne+dle')],
      [['-i', '-Sne+dle', '--pickaxe-regex'], regexMatcher('ne+dle', false)],
    ];
    for (const [args, m] of cases) expect(await ours(m, 'count'), args.join(' ')).toEqual(gitLog(repo, args));
  });

  it('reports the matching lines, sides and ranges', async () => {
    const r = await searchDiffs({ objects, commits: log, matcher: regexMatcher('needle|beta') });
    const edit = r.hits.find((h) => h.commit.oid === msg['edit a'])!;
    expect(edit.files).toEqual([
      {
        path: 'src/a.ts',
        change: 'modify',
        moreLines: 0,
        lines: [
          { side: '-', line: 2, text: 'beta', column: 0, ranges: [[0, 4]] },
          { side: '+', line: 2, text: 'beta(x)', column: 0, ranges: [[0, 4]] },
          { side: '+', line: 4, text: 'delta needle', column: 0, ranges: [[6, 12]] },
        ],
      },
    ]);
    const del = r.hits.find((h) => h.commit.oid === msg['delete readme'])!;
    expect(del.files[0]).toMatchObject({
      path: 'README.md',
      change: 'delete',
      lines: [{ side: '-', line: 2 }],
    });
    expect(r.skipped.merges).toBe(1);
    const count = await searchDiffs({
      objects,
      commits: log,
      matcher: literalMatcher('needle'),
      mode: 'count',
    });
    const bin = count.hits.find((h) => h.commit.oid === msg['binary change'])!;
    expect(bin.files).toEqual([
      {
        path: 'bin/data.bin',
        change: 'modify',
        lines: [],
        moreLines: 0,
        counts: { before: 1, after: 2 },
        binary: true,
      },
    ]);
  });

  it('filters paths, and skips a shallow boundary', async () => {
    const r = await searchDiffs({
      objects,
      commits: log,
      matcher: regexMatcher('needle'),
      pathFilter: (p) => p.startsWith('src/'),
    });
    expect(r.hits.flatMap((h) => h.files.map((f) => f.path))).toEqual(['src/a.ts', 'src/b.ts', 'src/a.ts']);
    const cut = log.map((c) => (c.oid === msg['edit a'] ? { ...c, parentMissing: true } : c));
    const s = await searchDiffs({ objects, commits: cut, matcher: regexMatcher('needle') });
    expect(s.skipped.boundary).toBe(1);
    expect(s.hits.some((h) => h.commit.oid === msg['edit a'])).toBe(false);
  });

  it('stops at the limit, on cancel, and reports progress and yields', async () => {
    const matcher = regexMatcher('.');
    const limited = await searchDiffs({ objects, commits: log, matcher, limit: 2 });
    expect(limited.hits.length).toBe(2);
    expect(limited.ending).toBe('limit');

    const ac = new AbortController();
    const streamed: string[] = [];
    const cancelled = await searchDiffs({
      objects,
      commits: log,
      matcher,
      signal: ac.signal,
      onHit: (h) => {
        streamed.push(h.commit.oid);
        ac.abort();
      },
    });
    expect(cancelled.ending).toBe('cancelled');
    expect(cancelled.hits.map((h) => h.commit.oid)).toEqual(streamed);
    expect(streamed.length).toBe(1);
    expect(cancelled.searched).toBeLessThan(log.length);

    const progress: Array<{ searched: number; total: number }> = [];
    let yields = 0;
    const done = await searchDiffs({
      objects,
      commits: log,
      matcher,
      onProgress: (p) => progress.push(p),
      maybeYield: () => {
        yields++;
      },
    });
    expect(done.ending).toBe('done');
    expect(progress[progress.length - 1]).toEqual({ searched: log.length, total: log.length });
    expect(yields).toBe(log.length - 1);
  });

  it('refuses bad input', async () => {
    const base = { objects, commits: log, matcher: regexMatcher('x') };
    const bad: Array<Partial<DiffSearchOptions>> = [
      { matcher: undefined },
      { commits: 'HEAD' as unknown as LogCommit[] },
      { limit: -1 },
      { mode: 'words' as DiffSearchOptions['mode'] },
    ];
    for (const b of bad) {
      const err = await rejectionOf(searchDiffs({ ...base, ...b } as DiffSearchOptions));
      expect(err.code).toBe('InvalidArgument');
    }
    expect(() => regexMatcher('needle(')).toThrow(expect.objectContaining({ code: 'InvalidPattern' }));
  });
});

describe('diff search: parity on a random history of ambiguous edits', () => {
  let repo: CliRepo;
  let objects: GitObjectStore;
  let log: LogCommit[];
  const words = ['apple', 'berry', 'cherry', 'date', '}', '', '  return x;', 'fig'];

  beforeAll(async () => {
    let seed = 7;
    const rand = (n: number) => {
      // mulberry32
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return (((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * n;
    };
    const pick = (n: number) => Math.floor(rand(n));
    const files: Record<string, string[]> = { 'a.txt': [], 'b.txt': [], 'c/d.txt': [] };
    const commits: Array<{ files: Record<string, string | null>; message: string }> = [];
    for (let i = 0; i < 160; i++) {
      const name = Object.keys(files)[pick(3)];
      const lines = files[name];
      for (let e = 1 + pick(4); e > 0; e--) {
        const at = pick(lines.length + 1);
        const op = pick(4);
        if (op < 2 || !lines.length) lines.splice(at, 0, words[pick(words.length)]);
        else if (op === 2) lines.splice(Math.min(at, lines.length - 1), 1 + pick(2));
        else lines.splice(at, 0, ...lines.splice(pick(lines.length), 1 + pick(3))); // a move
      }
      commits.push({ files: { [name]: lines.length ? `${lines.join('\n')}\n` : null }, message: `c${i}` });
    }
    repo = new CliRepo('quarry-diff-search-random-');
    repo.fastImport(commits);
    ({ objects, log } = await readLog(repo));
  });
  afterAll(() => repo.remove());

  it('lists the commits git lists for -G and -S', async () => {
    let differ = 0;
    for (const w of ['apple', 'cherry', 'date', 'fig', 'return']) {
      differ += gitLog(repo, [`-G${w}`]).length - gitLog(repo, [`-S${w}`]).length;
      const lines = await searchDiffs({ objects, commits: log, matcher: regexMatcher(w) });
      expect(
        lines.hits.map((h) => h.commit.oid),
        `-G${w}`,
      ).toEqual(gitLog(repo, [`-G${w}`]));
      const count = await searchDiffs({ objects, commits: log, matcher: literalMatcher(w), mode: 'count' });
      expect(
        count.hits.map((h) => h.commit.oid),
        `-S${w}`,
      ).toEqual(gitLog(repo, [`-S${w}`]));
    }
    expect(differ).toBeGreaterThan(0); // moves and re-adds: -G lists more than -S
    const brace = await searchDiffs({ objects, commits: log, matcher: regexMatcher('^\\}$') });
    expect(brace.hits.map((h) => h.commit.oid)).toEqual(gitLog(repo, ['-G^\\}$']));
  });
});
