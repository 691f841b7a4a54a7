/**
 * Sides over the size limits are not read whole: a file's diff (16 MB) and blame. The large
 * blob here is a loose object whose header declares 20,000,000 bytes but whose zlib stream is
 * cut short after it: reading it whole fails, so a result proves only its header was read.
 */
import { zlibSync } from 'fflate';
import fs from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../test/rejection';
import { blameFile, MAX_BLAME_BYTES } from './blame';
import type { GitRepo } from './blob-at';
import { readBlobCapped } from './blob-read';
import { fileDiff } from './file-diff';
import { ScratchRepo } from './scratch-repo.testutil';

const HUGE = 20_000_000;
const FAKE = `ab${'12'.repeat(19)}`;

describe('size limits applied before reading', { timeout: 60_000 }, () => {
  const repo = new ScratchRepo('quarry-blob-read-');
  let base = '';
  let huge = '';
  let shrunk = '';
  const reads: string[] = [];
  const spy = {
    promises: {
      ...fs.promises,
      readFile: (path: string, ...rest: unknown[]) => (
        reads.push(String(path)),
        (fs.promises.readFile as (...a: unknown[]) => Promise<unknown>)(path, ...rest)
      ),
    },
  };
  const at = (): GitRepo => ({ fs: spy as unknown as GitRepo['fs'], dir: repo.dir, cache: {}, name: 'big' });

  beforeAll(() => {
    base = repo.commit('Base', { 'a.txt': 'a\n' });
    const start = zlibSync(
      new Uint8Array([...Buffer.from(`blob ${HUGE}\0`), ...new Uint8Array(100_000).fill(120)]),
    ).subarray(0, 200);
    fs.mkdirSync(join(repo.dir, '.git/objects/ab'), { recursive: true });
    fs.writeFileSync(join(repo.dir, '.git/objects/ab', FAKE.slice(2)), start);
    const a = repo.git(['rev-parse', 'HEAD:a.txt']).trim();
    const tree = repo
      .git(['mktree', '--missing'], { input: `100644 blob ${a}\ta.txt\n100644 blob ${FAKE}\thuge.txt\n` })
      .trim();
    huge = repo.git(['commit-tree', tree, '-p', base, '-m', 'Huge']).trim();
    repo.git(['update-ref', 'refs/heads/main', huge]);
    repo.git(['reset', '-q', '--soft', huge]);
  });
  afterAll(() => repo.dispose());

  it('readBlobCapped: a loose blob over the limit gives its size only; under it, its bytes', async () => {
    expect(await readBlobCapped(at(), FAKE, 16 * 2 ** 20)).toEqual({ size: HUGE, bytes: null });
    const a = repo.git(['rev-parse', `${base}:a.txt`]).trim();
    const small = await readBlobCapped(at(), a, 16 * 2 ** 20);
    expect(small.size).toBe(2);
    expect(new TextDecoder().decode(small.bytes!)).toBe('a\n');
    expect(
      (await rejectionOf(readBlobCapped(at(), repo.git(['rev-parse', `${base}^{tree}`]).trim(), 100)))
        .message,
    ).toMatch(/is a tree, not a blob/);
  });

  it("a commit's diff with a blob over 16 MB: too large, by its header alone", async () => {
    const d = await fileDiff(at(), 'huge.txt', huge);
    expect(d).toMatchObject({
      status: 'added',
      before: { kind: 'absent' },
      after: { kind: 'tooLarge', bytes: HUGE },
      diff: null,
    });
  });

  it('the working tree: a file over 16 MB is not read (its size from a stat), and differs from HEAD by size', async () => {
    fs.truncateSync(join(repo.dir, 'a.txt'), 17 * 2 ** 20); // sparse: 17 MB of zeros
    try {
      reads.length = 0;
      const d = await fileDiff(at(), 'a.txt', 'worktree');
      expect(d).toMatchObject({
        status: 'modified',
        before: { kind: 'text', text: 'a\n' },
        after: { kind: 'tooLarge', bytes: 17 * 2 ** 20 },
        diff: null,
      });
      expect(reads.filter((p) => p.endsWith('/a.txt'))).toEqual([]);
    } finally {
      fs.writeFileSync(join(repo.dir, 'a.txt'), 'a\n');
    }
  });

  it('blame refuses a file, or an earlier version of it, over its limit, saying so', async () => {
    const head = await rejectionOf(blameFile(at(), 'huge.txt'));
    expect(head.code).toBe('InvalidArgument');
    expect(head.reason).toBe('tooLarge');
    expect(head.message).toBe(
      `huge.txt is 19.1 MB: blame reads files up to ${(MAX_BLAME_BYTES / 2 ** 20).toFixed(1)} MB`,
    );
    shrunk = repo.commit('Shrink', { 'huge.txt': 'small now\n' });
    const earlier = await rejectionOf(blameFile(at(), 'huge.txt'));
    expect(earlier.reason).toBe('tooLarge');
    expect(earlier.message).toBe(
      `huge.txt before commit ${shrunk.slice(0, 7)} is 19.1 MB: blame reads files up to 16.0 MB`,
    );
    expect((await blameFile(at(), 'a.txt')).lineCount).toBe(1);
  });
});
