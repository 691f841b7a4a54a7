/**
 * Uncommitted changes against `git status --porcelain` (the peer) on temporary repositories:
 * edits, same-size edits, touched files, deletions, staged adds, ignore rules (nested, negated,
 * info/exclude, ignored directories with tracked files), a racily clean file, version 4
 * indexes; and that only stat-changed files are hashed. Then the index parser's bad input.
 */
import fs from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../test/rejection';
import { blobOid, parseIndex, readIndexFile } from './index-file';
import { GitObjectStore, type GitFs } from './objects';
import { ScratchRepo } from './scratch-repo.testutil';
import { worktreeStatus, type UncommittedFile } from './worktree-status';

const repos: ScratchRepo[] = [];
afterEach(() => {
  for (const r of repos.splice(0)) r.dispose();
});
function scratch(): ScratchRepo {
  const r = new ScratchRepo();
  repos.push(r);
  return r;
}

/** git's answer, in our terms (renames off, every untracked file listed). */
function porcelain(repo: ScratchRepo): UncommittedFile[] {
  const out = repo.git(['--no-optional-locks', 'status', '--porcelain=v1', '-z', '-uall', '--no-renames']);
  const files: UncommittedFile[] = [];
  for (const rec of out.split('\0').filter(Boolean)) {
    const [x, y, path] = [rec[0], rec[1], rec.slice(3)];
    if (x === '?' && y === '?') files.push({ path, status: 'untracked' });
    else if (x === 'A' && y !== 'D') files.push({ path, status: 'added' });
    else if (x === 'D' || y === 'D') files.push({ path, status: 'deleted' });
    else files.push({ path, status: 'modified' });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

async function ours(repo: ScratchRepo) {
  const gitdir = join(repo.dir, '.git');
  let head: string | null = null;
  try {
    head = repo.head();
  } catch {
    // no commits yet
  }
  return worktreeStatus(fs, new GitObjectStore(fs, gitdir), { dir: repo.dir, gitdir, head });
}

/** Every tracked file an hour old, and the index refreshed to say so: nothing is racily clean. */
function settle(repo: ScratchRepo): void {
  const old = Date.now() / 1000 - 3600;
  for (const p of repo.git(['ls-files', '-z']).split('\0').filter(Boolean))
    fs.utimesSync(join(repo.dir, p), old, old);
  repo.git(['update-index', '-q', '--really-refresh']);
}

describe('worktreeStatus against git status --porcelain', { timeout: 60_000 }, () => {
  it('edits, deletions, staged adds, untracked files and ignore rules', async () => {
    const repo = scratch();
    repo.commit('base', {
      '.gitignore': '*.log\n!keep.log\nbuild/\n/root-only.txt\n',
      'src/app.ts': 'export const app = 1;\n',
      'src/same-size.ts': 'aaaa\n',
      'src/touched.ts': 'touch me\n',
      'src/gone.ts': 'bye\n',
      'src/nested/.gitignore': 'secret.*\n',
      'src/nested/kept.ts': 'kept\n',
      'docs/readme.md': '# docs\n',
    });
    repo.write('build/tracked.js', 'forced\n');
    repo.git(['add', '-f', 'build/tracked.js']);
    repo.commit('force-add a file in an ignored directory');
    settle(repo);

    repo.write('src/app.ts', 'export const app = 2; // longer\n');
    repo.write('src/same-size.ts', 'bbbb\n', Date.now() / 1000 - 60);
    fs.utimesSync(join(repo.dir, 'src/touched.ts'), Date.now() / 1000, Date.now() / 1000); // same bytes, new mtime
    repo.remove('src/gone.ts');
    repo.write('src/staged.ts', 'new\n');
    repo.git(['add', 'src/staged.ts']);
    repo.write('docs/readme.md', '# docs, staged edit\n');
    repo.git(['add', 'docs/readme.md']);
    repo.write('build/tracked.js', 'changed inside an ignored directory\n');
    repo.write('build/out.js', 'ignored\n');
    repo.write('debug.log', 'ignored\n');
    repo.write('keep.log', 'negated: not ignored\n');
    repo.write('root-only.txt', 'ignored at the root\n');
    repo.write('src/root-only.txt', 'not ignored below the root\n');
    repo.write('src/nested/secret.key', 'ignored by the nested file\n');
    repo.write('src/secret.key', 'the nested rule does not reach up\n');
    repo.write('new-dir/deep/file.txt', 'untracked in a new directory\n');
    repo.write('excluded.tmp', 'info/exclude\n');
    fs.appendFileSync(join(repo.dir, '.git/info/exclude'), '*.tmp\n');

    const got = await ours(repo);
    const want = porcelain(repo);
    expect(got.files).toEqual(want);
    // the peer agrees on what matters here (not a vacuous comparison)
    expect(want).toContainEqual({ path: 'src/same-size.ts', status: 'modified' });
    expect(want).toContainEqual({ path: 'build/tracked.js', status: 'modified' });
    expect(want).toContainEqual({ path: 'keep.log', status: 'untracked' });
    expect(want.map((f) => f.path)).not.toContain('src/touched.ts');
    // only files whose stat changed were hashed: app, same-size, touched, readme, build/tracked, staged
    expect(got.tracked).toBe(10);
    expect(got.hashed).toBeLessThanOrEqual(6);
  });

  it('a racily clean file (changed in the instant the index was written) is hashed and found', async () => {
    const repo = scratch();
    repo.commit('base', { 'a.txt': 'AAAA\n' });
    const t = new Date(Date.now() - 10_000);
    fs.utimesSync(join(repo.dir, 'a.txt'), t, t);
    repo.git(['update-index', '-q', '--really-refresh']);
    repo.write('a.txt', 'BBBB\n'); // same size
    fs.utimesSync(join(repo.dir, 'a.txt'), t, t); // and the mtime the index holds
    fs.utimesSync(join(repo.dir, '.git/index'), t, t); // written in that same instant
    const got = await ours(repo);
    expect(got.files).toEqual([{ path: 'a.txt', status: 'modified' }]);
    expect(got.files).toEqual(porcelain(repo));
  });

  it('a repository without commits lists staged files as added; a version 4 index reads the same', async () => {
    const repo = scratch();
    repo.write('a/one.txt', '1\n');
    repo.write('a/two.txt', '2\n');
    repo.write('b.txt', 'b\n');
    repo.git(['add', 'a']);
    const got = await ours(repo);
    expect(got.files).toEqual(porcelain(repo));
    expect(got.files).toEqual([
      { path: 'a/one.txt', status: 'added' },
      { path: 'a/two.txt', status: 'added' },
      { path: 'b.txt', status: 'untracked' },
    ]);
    repo.git(['update-index', '--index-version', '4']);
    const v4 = await readIndexFile(fs, join(repo.dir, '.git'));
    expect(v4.version).toBe(4);
    expect(v4.entries.map((e) => e.path)).toEqual(['a/one.txt', 'a/two.txt']);
    expect((await ours(repo)).files).toEqual(got.files);
  });

  it('a clean tree has no changes and hashes nothing', async () => {
    const repo = scratch();
    repo.fastImport(200);
    settle(repo);
    const got = await ours(repo);
    expect(got.files).toEqual([]);
    expect(porcelain(repo)).toEqual([]);
    expect(got.tracked).toBeGreaterThan(100);
    expect(got.hashed).toBe(0);
  });
});

describe('what is read', () => {
  it("a tracked file whose size differs from the index (HEAD's blob) is modified unread; a staged new file is added unread", async () => {
    const repo = scratch();
    repo.commit('base', {
      'big.txt': `${'x'.repeat(1000)}\n`,
      'same-size.txt': 'aaaa\n',
      'staged-edit.txt': 'one\n',
    });
    settle(repo);
    repo.write('big.txt', `${'y'.repeat(5000)}\n`);
    repo.write('same-size.txt', 'bbbb\n', Date.now() / 1000 - 60); // same size, new mtime: only its bytes can tell
    repo.write('staged-edit.txt', 'one, then more\n');
    repo.git(['add', 'staged-edit.txt']); // the index's blob is not HEAD's: the size proves nothing against HEAD
    repo.write('staged-edit.txt', 'one\n'); // back to HEAD's bytes
    repo.write('new.txt', 'new\n');
    repo.git(['add', 'new.txt']);
    const reads: string[] = [];
    const counting = {
      promises: {
        readFile: (path: string, opts?: unknown) => {
          reads.push(path);
          return fs.promises.readFile(path, opts as undefined);
        },
        readdir: (path: string) => fs.promises.readdir(path),
        stat: (path: string) => fs.promises.stat(path),
        lstat: (path: string) => fs.promises.lstat(path),
        readlink: (path: string) => fs.promises.readlink(path),
      },
    } as unknown as GitFs;
    const gitdir = join(repo.dir, '.git');
    const got = await worktreeStatus(counting, new GitObjectStore(counting, gitdir), {
      dir: repo.dir,
      gitdir,
      head: repo.head(),
    });
    expect(got.files).toEqual([
      { path: 'big.txt', status: 'modified' },
      { path: 'new.txt', status: 'added' },
      { path: 'same-size.txt', status: 'modified' },
    ]);
    const worktreeReads = reads.filter((p) => !p.startsWith(gitdir)).map((p) => p.slice(repo.dir.length + 1));
    expect(worktreeReads.sort()).toEqual(['same-size.txt', 'staged-edit.txt']);
    expect(got.hashed).toBe(2);
  });
});

describe('the index file', () => {
  it('blob ids are what git hash-object prints', async () => {
    const repo = scratch();
    repo.write('x.bin', new Uint8Array([0, 1, 2, 255]));
    expect(await blobOid(new Uint8Array([0, 1, 2, 255]))).toBe(repo.git(['hash-object', 'x.bin']).trim());
    expect(await blobOid(new Uint8Array())).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
  });

  it('bad input is Unreadable, saying what is wrong', async () => {
    const repo = scratch();
    repo.commit('one', { 'a.txt': 'a\n' });
    const good = fs.readFileSync(join(repo.dir, '.git/index'));
    expect(() => parseIndex(new Uint8Array(10))).toThrow(/too short/);
    expect(() => parseIndex(new Uint8Array(Buffer.concat([Buffer.from('XXXX'), good.subarray(4)])))).toThrow(
      /DIRC/,
    );
    const v9 = Buffer.from(good);
    v9.writeUInt32BE(9, 4);
    expect(() => parseIndex(new Uint8Array(v9))).toThrow(/version 9/);
    const many = Buffer.from(good);
    many.writeUInt32BE(1000, 8);
    expect(() => parseIndex(new Uint8Array(many))).toThrow(/cut short|no end|past its end/);
    const flipped = Buffer.from(good);
    flipped[70] ^= 1;
    fs.writeFileSync(join(repo.dir, '.git/index'), flipped);
    const err = await rejectionOf(readIndexFile(fs, join(repo.dir, '.git')));
    expect(err.code).toBe('Unreadable');
    expect(err.message).toContain('checksum');
    fs.rmSync(join(repo.dir, '.git/index'));
    expect((await readIndexFile(fs, join(repo.dir, '.git'))).entries).toEqual([]);
  });

  it('a version 4 index whose prefix length overflows or does not end is unreadable, not a wrong path or a RangeError', async () => {
    const repo = scratch();
    repo.commit('two', { 'a/one.txt': '1\n', 'a/two.txt': '2\n' });
    repo.git(['update-index', '--index-version', '4']);
    const good = new Uint8Array(fs.readFileSync(join(repo.dir, '.git/index')));
    expect(parseIndex(good).entries.map((e) => e.path)).toEqual(['a/one.txt', 'a/two.txt']);
    // entry 1: 62 bytes, prefix length 0 (one byte), "a/one.txt\0"; entry 2's prefix length follows its 62 bytes
    const at = 12 + 62 + 1 + 10 + 62;
    expect(good[at]).toBe(7); // "a/two.txt" keeps "a/" of "a/one.txt": strip 7
    const withStrip = (varint: number[]) =>
      new Uint8Array([...good.subarray(0, at), ...varint, ...good.subarray(at + 1)]);
    // 32-bit shifts make this -1 (a path with a stray byte); it is a huge count
    expect(() => parseIndex(withStrip([0x8e, 0xfe, 0xfe, 0xfe, 0x7f]))).toThrow(
      /not readable: entry 2's path is malformed/,
    );
    expect(() => parseIndex(withStrip([0x86, 0xfe, 0xff, 0xff, 0x00]))).toThrow(
      /not readable: entry 2's path is malformed/,
    );
    // a prefix length that runs to the end of the file
    const endless = new Uint8Array([...good.subarray(0, at), ...new Uint8Array(good.length - at).fill(0xff)]);
    expect(() => parseIndex(endless)).toThrow(/not readable: entry 2's path is malformed/);
  });
});
