/**
 * The object store against `git cat-file --batch` (the peer): every object of repositories
 * whose packs hold OFS_DELTA and REF_DELTA chains, plus loose objects; then damaged stores.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../test/rejection';
import { applyDelta, findGitdir, GitObjectStore, normalizePath } from './objects';
import { ScratchRepo } from './scratch-repo.testutil';

/** Every object as git prints it: oid -> {type, bytes}. */
function catAll(repo: ScratchRepo): Map<string, { type: string; bytes: Buffer }> {
  const oids = repo
    .git(['cat-file', '--batch-all-objects', '--batch-check=%(objectname)'])
    .trim()
    .split('\n');
  const out = execBytes(repo, oids.join('\n') + '\n');
  const objects = new Map<string, { type: string; bytes: Buffer }>();
  let p = 0;
  while (p < out.length) {
    const nl = out.indexOf(10, p);
    const [oid, type, size] = out.subarray(p, nl).toString().split(' ');
    const start = nl + 1;
    objects.set(oid, { type, bytes: out.subarray(start, start + Number(size)) });
    p = start + Number(size) + 1;
  }
  return objects;
}

function execBytes(repo: ScratchRepo, input: string): Buffer {
  return execFileSync('git', ['cat-file', '--batch'], { cwd: repo.dir, input, maxBuffer: 256 * 1024 * 1024 });
}

/**
 * Commits that change one growing file a little each time (git deltifies those blobs and trees),
 * their objects loose as `git commit` leaves them (made by one fast-import, unpacked: 120 git
 * processes one commit at a time took ~4 s).
 */
function buildHistory(repo: ScratchRepo): void {
  let text = '';
  const commits = Array.from({ length: 40 }, (_, i) => {
    text += `line ${i}: ${'x'.repeat(i % 7)} the quick brown fox\n`;
    return {
      message: `Commit ${i}`,
      files: {
        'src/grow.ts': text,
        [`src/dir${i % 4}/f${i % 5}.ts`]: `export const v = ${i};\n`,
        'empty.txt': '',
      },
    };
  });
  repo.importCommits(commits, { loose: true });
  expect(repo.git(['rev-list', '--count', 'HEAD']).trim()).toBe('40');
}

async function expectSameObjects(repo: ScratchRepo) {
  const want = catAll(repo);
  expect(want.size).toBeGreaterThan(100);
  const store = new GitObjectStore(fs, join(repo.dir, '.git'));
  for (const [oid, { type, bytes }] of want) {
    const got = await store.read(oid);
    expect(got?.type, oid).toBe(type);
    expect(Buffer.from(got!.bytes).equals(bytes), `${type} ${oid}`).toBe(true);
  }
}

describe('GitObjectStore against git cat-file', { timeout: 60_000 }, () => {
  let repo: ScratchRepo;
  beforeAll(() => {
    repo = new ScratchRepo();
    buildHistory(repo);
  });
  afterAll(() => repo.dispose());

  it('reads loose objects', async () => {
    expect(fs.readdirSync(join(repo.dir, '.git/objects/pack')).length).toBe(0);
    await expectSameObjects(repo);
  });

  it('reads a pack with OFS_DELTA chains, and loose objects added after it', async () => {
    repo.git(['gc', '-q', '--aggressive']);
    const verify = repo.git([
      'verify-pack',
      '-v',
      ...fs
        .readdirSync(join(repo.dir, '.git/objects/pack'))
        .filter((n) => n.endsWith('.idx'))
        .map((n) => `.git/objects/pack/${n}`),
    ]);
    expect(verify).toMatch(/chain length = [2-9]/); // deltas of deltas are in there
    repo.commit('After the gc', { 'src/grow.ts': 'rewritten\n' });
    await expectSameObjects(repo);
  });

  it('reads a pack with REF_DELTA entries', async () => {
    repo.git(['-c', 'repack.useDeltaBaseOffset=false', 'repack', '-a', '-d', '-f', '-q']);
    await expectSameObjects(repo);
  });

  it('a missing object is null; a bad id is InvalidArgument', async () => {
    const store = new GitObjectStore(fs, join(repo.dir, '.git'));
    expect(await store.read('0'.repeat(40))).toBeNull();
    expect(await store.has('0'.repeat(40))).toBe(false);
    expect((await rejectionOf(store.read('HEAD'))).code).toBe('InvalidArgument');
    expect((await rejectionOf(store.readAs('0'.repeat(40), 'commit'))).code).toBe('NotFound');
    const tree = repo.git(['rev-parse', 'HEAD^{tree}']).trim();
    const wrongType = await rejectionOf(store.readAs(tree, 'commit'));
    expect(wrongType.code).toBe('Unreadable');
    expect(wrongType.message).toContain('is a tree, not a commit');
  });
});

describe('damaged object stores', () => {
  it('a damaged loose object is Unreadable, naming it; a damaged pack index is skipped, saying why', async () => {
    const repo = new ScratchRepo();
    try {
      const oid = repo.commit('One', { 'a.txt': 'a\n' });
      const path = join(repo.dir, '.git/objects', oid.slice(0, 2), oid.slice(2));
      fs.chmodSync(path, 0o644);
      fs.writeFileSync(path, Buffer.from('not zlib at all'));
      const loose = await rejectionOf(new GitObjectStore(fs, join(repo.dir, '.git')).read(oid));
      expect(loose.code).toBe('Unreadable');
      expect(loose.message).toContain(`loose object ${oid}`);
    } finally {
      repo.dispose();
    }
    const packed = new ScratchRepo();
    try {
      packed.commit('Two', { 'b.txt': 'b\n' });
      fs.mkdirSync(join(packed.dir, '.git/objects/pack'), { recursive: true });
      fs.writeFileSync(
        join(packed.dir, '.git/objects/pack/pack-bad.idx'),
        Buffer.from('\xfftOc\0\0\0\x01 cut short'),
      );
      const store = new GitObjectStore(fs, join(packed.dir, '.git'));
      expect((await store.read(packed.head()))?.type).toBe('commit'); // still read (loose)
      expect(store.skippedPacks).toHaveLength(1);
      expect(store.skippedPacks[0].reason).toContain('pack-bad.idx');
    } finally {
      packed.dispose();
    }
  });

  it('a delta that does not fit its base is refused', () => {
    // base size 3, result size 2, copy 5 bytes from offset 0
    expect(() => applyDelta(new Uint8Array([1, 2, 3]), new Uint8Array([3, 2, 0x90, 5]))).toThrow(
      /copies outside its base/,
    );
    expect(() => applyDelta(new Uint8Array([1, 2]), new Uint8Array([3, 2]))).toThrow(
      /3-byte base applied to 2 bytes/,
    );
    expect(
      Array.from(applyDelta(new Uint8Array([7, 8, 9]), new Uint8Array([3, 3, 0x91, 1, 2, 1, 42]))),
    ).toEqual([8, 9, 42]);
  });
});

describe('findGitdir', () => {
  it('follows a .git file (submodules, worktrees) and says null without git data', async () => {
    const root = fs.mkdtempSync(join((await import('node:os')).tmpdir(), 'quarry-gitdir-'));
    try {
      fs.mkdirSync(join(root, 'real/.git'), { recursive: true });
      fs.mkdirSync(join(root, 'sub'));
      fs.writeFileSync(join(root, 'sub/.git'), 'gitdir: ../real/.git\n');
      expect(await findGitdir(fs, join(root, 'real'))).toBe(join(root, 'real/.git'));
      expect(await findGitdir(fs, join(root, 'sub'))).toBe(join(root, 'real/.git'));
      expect(await findGitdir(fs, root)).toBeNull();
      expect(normalizePath('/a/b/../c/./d/')).toBe('/a/c/d');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
