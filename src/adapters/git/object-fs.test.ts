/** The object-reading fs: what isomorphic-git asks of the disk while walking a file's history. */
import * as nodeFs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { CliRepo } from './cli-repo.testutil';
import { fileHistory } from './file-history';
import type { GitFs } from './blob-at';

/** node's fs, counting calls by kind of path. */
function countingFs() {
  const calls: Record<string, number> = {};
  const promises: Record<string, (...a: any[]) => Promise<unknown>> = {};
  for (const name of [
    'readFile',
    'writeFile',
    'unlink',
    'readdir',
    'mkdir',
    'rmdir',
    'stat',
    'lstat',
    'readlink',
    'symlink',
    'chmod',
  ]) {
    promises[name] = (...a: any[]) => {
      const what =
        typeof a[0] !== 'string'
          ? 'probe'
          : /\/objects\/[0-9a-f]{2}\/[0-9a-f]{38}$/.test(a[0])
            ? 'loose object'
            : a[0].replace(/^.*\/\.git/, '.git');
      const key = `${name} ${what}`;
      calls[key] = (calls[key] ?? 0) + 1;
      return (nodeFs.promises as unknown as Record<string, (...a: any[]) => Promise<unknown>>)[name](...a);
    };
  }
  return { fs: { promises } as unknown as GitFs, calls };
}

describe('object-reading fs', { timeout: 60_000 }, () => {
  const packed = new CliRepo('quarry-objfs-packed-');
  packed.fastImport(
    Array.from({ length: 40 }, (_, i) => ({
      message: `c${i}`,
      files: { 'src/a.ts': `export const a = ${i};\n`, 'b.txt': `${i % 3}\n` },
    })),
  );
  packed.git(['repack', '-a', '-d', '-q']);
  const loose = new CliRepo('quarry-objfs-loose-');
  for (let i = 0; i < 5; i++) loose.commit({ 'src/a.ts': `export const a = ${i};\n` }, `c${i}`);
  afterAll(() => {
    packed.remove();
    loose.remove();
  });

  it('a packed repository: the pack listed once, no loose-object opens, no probes reach the disk', async () => {
    const { fs, calls } = countingFs();
    const h = await fileHistory({ fs, dir: packed.dir, cache: {} }, 'src/a.ts');
    expect(h.entries).toHaveLength(40);
    expect(calls['readdir .git/objects/pack']).toBe(1);
    expect(calls['readFile loose object']).toBeUndefined();
    expect(calls['readFile probe']).toBeUndefined();
    expect(calls['stat .git']).toBe(1);
    expect(Object.values(calls).reduce((a, b) => a + b, 0)).toBeLessThan(20);
  });

  it('loose objects are found through the listings, and read', async () => {
    const { fs, calls } = countingFs();
    const h = await fileHistory({ fs, dir: loose.dir, cache: {} }, 'src/a.ts');
    expect(h.entries.map((e) => e.summary)).toEqual(['c4', 'c3', 'c2', 'c1', 'c0']);
    // every object read is a loose file that exists: one open each, never a failed one
    expect(calls['readFile loose object']).toBeGreaterThan(5);
    expect(calls['readdir .git/objects']).toBe(1);
  });
});
