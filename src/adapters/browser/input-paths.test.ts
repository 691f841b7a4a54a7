/**
 * Issue 34 row 10: a file named `back\slash.ts` in a folder chosen with the directory input.
 * Chromium gives its webkitRelativePath as "folder/back/slash.ts"; File.name keeps the backslash,
 * and the snapshot must list the file, not a folder `back`.
 */
import { describe, expect, it } from 'vitest';
import { filesFromInput, inputRelativePath, SnapshotSource } from './files';

const file = (name: string, webkitRelativePath: string) =>
  Object.assign(new File(['x'], name), { webkitRelativePath }) as File;

describe('a backslash in a file name from the directory input', () => {
  it('keeps the name File.name gives', () => {
    expect(inputRelativePath({ name: 'back\\slash.ts', webkitRelativePath: 'f/back/slash.ts' })).toBe(
      'f/back\\slash.ts',
    );
    expect(inputRelativePath({ name: 'a\\b\\c.ts', webkitRelativePath: 'f/sub/a/b/c.ts' })).toBe(
      'f/sub/a\\b\\c.ts',
    );
    expect(inputRelativePath({ name: 'back\\slash.ts', webkitRelativePath: '' })).toBe('back\\slash.ts');
    // a browser that kept the backslash, and plain names, are left as they are
    expect(inputRelativePath({ name: 'back\\slash.ts', webkitRelativePath: 'f/back\\slash.ts' })).toBe(
      'f/back\\slash.ts',
    );
    expect(inputRelativePath({ name: 'x.ts', webkitRelativePath: 'f/src/x.ts' })).toBe('f/src/x.ts');
  });

  it('lists the file in the snapshot, not a folder', async () => {
    const folder = await filesFromInput([
      file('back\\slash.ts', 'slashes/back/slash.ts'),
      file('lib.ts', 'slashes/lib.ts'),
    ]);
    expect(folder.name).toBe('slashes');
    expect(folder.files.map((f) => f.path)).toEqual(['back\\slash.ts', 'lib.ts']);
    const source = new SnapshotSource(folder.files, { name: folder.name });
    expect((await source.list('')).map((e) => `${e.kind} ${e.name}`).sort()).toEqual([
      'file back\\slash.ts',
      'file lib.ts',
    ]);
  });
});
