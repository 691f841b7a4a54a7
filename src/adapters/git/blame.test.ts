/**
 * Blame and per-file history over real repositories built with the git CLI, with git itself as
 * the peer: `git blame --porcelain --first-parent` line by line (commit and original line),
 * `git log --first-parent -- path` for the history.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuarryError } from '../../core/errors';
import { rejectionOf } from '../../../test/rejection';
import { blameFile, type BlameResult } from './blame';
import { ADA, CliRepo, GRACE } from './cli-repo.testutil';
import { fileHistory } from './file-history';
import { fsAccessGitFs } from './fsa-fs';
import { nodeHandle } from './node-handle.testutil';

/** Per line of HEAD: [commit oid, 1-based line in that commit's version]. */
function perLine(b: BlameResult): Array<{ oid: string; orig: number }> {
  const out: Array<{ oid: string; orig: number }> = [];
  for (const r of b.runs)
    for (let i = 0; i < r.count; i++) out.push({ oid: b.commits[r.commit].oid, orig: r.origStart + i + 1 });
  return out;
}

const lines = (...xs: string[]) => xs.join('\n') + '\n';

describe('blame and file history against git', { timeout: 60_000 }, () => {
  const repo = new CliRepo('quarry-blame-');
  const oids: Record<string, string> = {};
  beforeAll(() => {
    oids.add = repo.commit(
      {
        'src/calc.ts': lines(
          'export function total(items: number[]) {',
          '  let sum = 0;',
          '  for (const i of items) sum += i;',
          '  return sum;',
          '}',
          '',
          'export const unit = "EUR";',
        ),
        'README.md': '# calc\n',
      },
      'Add calc',
      ADA,
    );
    oids.other = repo.commit({ 'README.md': '# calc\n\nAdds numbers.\n' }, 'Describe calc', GRACE);
    // edit a line, add a function at the end
    oids.edit = repo.commit(
      {
        'src/calc.ts': lines(
          'export function total(items: number[]): number {',
          '  let sum = 0;',
          '  for (const i of items) sum += i;',
          '  return sum;',
          '}',
          '',
          'export const unit = "EUR";',
          '',
          'export function average(items: number[]) {',
          '  return total(items) / items.length;',
          '}',
        ),
      },
      'Type total, add average',
      GRACE,
    );
    // move the unit constant to the top, edit one word inside average
    oids.move = repo.commit(
      {
        'src/calc.ts': lines(
          'export const unit = "EUR";',
          '',
          'export function total(items: number[]): number {',
          '  let sum = 0;',
          '  for (const i of items) sum += i;',
          '  return sum;',
          '}',
          '',
          'export function average(values: number[]) {',
          '  return total(values) / values.length;',
          '}',
        ),
      },
      'Move unit up; rename items in average',
      ADA,
    );
    oids.unrelated = repo.commit({ 'src/other.ts': 'export const other = 1;\n' }, 'Unrelated file', GRACE);
  });
  afterAll(() => repo.remove());

  it('blame matches git blame line by line: commit and original line number', async () => {
    const b = await blameFile(repo.repo(), 'src/calc.ts');
    const theirs = repo.blame('src/calc.ts');
    expect(theirs).toHaveLength(11);
    expect(perLine(b)).toEqual(theirs);
    // and it says what a person expects: the moved constant and the renamed lines are the last commit's
    expect(b.lineCount).toBe(11);
    expect(perLine(b)[0].oid).toBe(oids.move);
    expect(perLine(b)[3].oid).toBe(oids.add);
    expect(perLine(b)[2].oid).toBe(oids.edit);
    expect(b.commits.find((c) => c.oid === oids.edit)).toMatchObject({
      author: 'Grace Hopper',
      email: 'grace@example.test',
      summary: 'Type total, add average',
    });
    expect(b.text.split('\n')[0]).toBe('export const unit = "EUR";');
    expect(b.versions).toBe(3);
    expect(structuredClone(b)).toEqual(b);
  });

  it('file history lists the commits that changed the path, as git log --first-parent -- path', async () => {
    const seen: string[] = [];
    const h = await fileHistory(repo.repo(), 'src/calc.ts', { onEntry: (e) => seen.push(e.oid) });
    const theirs = repo.git(['log', '--first-parent', '--format=%H', '--', 'src/calc.ts']).trim().split('\n');
    expect(h.entries.map((e) => e.oid)).toEqual(theirs);
    expect(seen).toEqual(theirs);
    expect(h.entries.map((e) => e.change)).toEqual(['modify', 'modify', 'add']);
    expect(h.entries[0]).toMatchObject({
      summary: 'Move unit up; rename items in average',
      author: 'Ada Lovelace',
    });
    expect(h).toMatchObject({ walked: 5, shallow: false, complete: true });
    expect(h.headBlob).toBe(h.entries[0].blob);
  });

  it('a deleted and re-added file: history shows both lives; blame starts at the re-add', async () => {
    const r = new CliRepo('quarry-blame-readd-');
    try {
      const a = r.commit({ 'a.txt': 'one\ntwo\n' }, 'add a');
      const del = r.commit({ 'a.txt': null, 'b.txt': 'b\n' }, 'delete a');
      const again = r.commit({ 'a.txt': 'one\ntwo\nthree\n' }, 'add a again');
      const h = await fileHistory(r.repo(), 'a.txt');
      expect(h.entries.map((e) => [e.oid, e.change])).toEqual([
        [again, 'add'],
        [del, 'delete'],
        [a, 'add'],
      ]);
      const b = await blameFile(r.repo(), 'a.txt');
      expect(perLine(b)).toEqual(r.blame('a.txt'));
      expect(new Set(perLine(b).map((l) => l.oid))).toEqual(new Set([again]));
    } finally {
      r.remove();
    }
  });

  it('a random history of 40 commits: blame agrees with git on every line', async () => {
    const r = new CliRepo('quarry-blame-random-');
    try {
      let s = 7;
      const rand = () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
      const pool = ['', '}', '  }', '  return x;', 'if (a) {', '  call();', '// note'];
      let file = Array.from({ length: 60 }, (_, i) => `line ${i}`);
      r.commit({ 'f.ts': file.join('\n') + '\n' }, 'start');
      // the 40 edits in one `git fast-import` (120 git processes one commit at a time: ~7 s)
      const edits: Parameters<CliRepo['fastImport']>[0] = [];
      for (let c = 0; c < 40; c++) {
        file = file.slice();
        for (let e = 0; e < 3; e++) {
          const at = Math.floor(rand() * file.length);
          const k = rand();
          if (k < 0.3) file.splice(at, 1 + Math.floor(rand() * 3));
          else if (k < 0.6)
            file.splice(
              at,
              0,
              ...Array.from({ length: 1 + Math.floor(rand() * 3) }, () =>
                rand() < 0.5
                  ? pool[Math.floor(rand() * pool.length)]
                  : `c${c} e${e} ${rand().toString(36).slice(2, 6)}`,
              ),
            );
          else if (k < 0.8) file[at] = `edited ${c} ${e}`;
          else file.splice(Math.floor(rand() * file.length), 0, ...file.splice(at, 2)); // move two lines
        }
        edits.push({
          files: { 'f.ts': file.join('\n') + '\n', 'other.txt': `${c}\n` },
          message: `edit ${c}`,
          author: c % 2 ? ADA : GRACE,
        });
      }
      r.fastImport(edits);
      expect(r.git(['rev-list', '--count', 'HEAD']).trim()).toBe('41');
      const b = await blameFile(r.repo(), 'f.ts');
      expect(perLine(b)).toEqual(r.blame('f.ts'));
    } finally {
      r.remove();
    }
  });

  it('works over an opened folder (File System Access adapter) the same way', async () => {
    const fsRepo = { fs: fsAccessGitFs(nodeHandle(repo.dir)), dir: '/', cache: {} };
    expect(perLine(await blameFile(fsRepo, 'src/calc.ts'))).toEqual(repo.blame('src/calc.ts'));
  });

  it('progress reports the walk and the blame; an aborted signal ends it with Cancelled', async () => {
    const phases = new Set<string>();
    await blameFile(repo.repo(), 'src/calc.ts', { onProgress: (p) => phases.add(p.phase) });
    expect([...phases]).toEqual(['history', 'blame']);
    const controller = new AbortController();
    controller.abort();
    const err = await rejectionOf(blameFile(repo.repo(), 'src/calc.ts', { signal: controller.signal }));
    expect(err).toBeInstanceOf(QuarryError);
    expect(err.code).toBe('Cancelled');
  });

  it('errors: a path not in HEAD, a binary file, a bad path, a folder without git', async () => {
    const missing = await rejectionOf(blameFile(repo.repo(), 'src/nope.ts'));
    expect(missing.code).toBe('NotFound');
    expect(missing.message).toMatch(/"src\/nope\.ts" is not in HEAD \([0-9a-f]{7}\) of test-repo/);
    const r = new CliRepo('quarry-blame-binary-');
    try {
      r.commit({ 'logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]) }, 'logo');
      const bin = await rejectionOf(blameFile(r.repo(), 'logo.png'));
      expect(bin).toMatchObject({
        code: 'InvalidArgument',
        message: 'logo.png is a binary file: blame needs text',
      });
      expect(bin.data.reason).toBe('binary');
    } finally {
      r.remove();
    }
    const bad = await rejectionOf(fileHistory(repo.repo(), '../etc/passwd'));
    expect(bad).toMatchObject({
      code: 'InvalidArgument',
      message: '"../etc/passwd" is not a path inside the repository',
    });
    const fs = await import('node:fs');
    const plain = fs.mkdtempSync(`${(await import('node:os')).tmpdir()}/quarry-nogit-`);
    try {
      const nogit = await rejectionOf(blameFile({ fs, dir: plain, name: 'plain' }, 'a.ts'));
      expect(nogit.code).toBe('NotFound');
      expect(nogit.message).toBe('The repository in plain has no commits yet');
    } finally {
      fs.rmSync(plain, { recursive: true, force: true });
    }
  });
});
