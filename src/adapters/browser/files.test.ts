/** The main-thread side of snapshot reading: what a pull answers for small, oversized, missing and unreadable files. */
import { describe, expect, it } from 'vitest';
import { snapshotPuller } from './files';

const MB = 1024 * 1024;

describe('snapshotPuller', () => {
  it('answers bytes under the limit, only the size over it, and an error for a path it does not hold', async () => {
    const big = new Uint8Array(2 * MB).fill(7);
    const pull = snapshotPuller([
      { path: 'src/a.ts', file: new Blob([new TextEncoder().encode('export const a = 1;\n')]) },
      { path: 'dist/bundle.js', file: new Blob([big]) },
      { path: 'logs/huge.log', file: new Blob([big]) },
      { path: 'media/clip.mp4', file: new Blob([big]) },
      { path: 'empty.txt', file: new Blob([]) },
    ]);
    const out = await pull(
      ['src/a.ts', 'dist/bundle.js', 'media/clip.mp4', 'empty.txt', 'missing.ts', 'logs/huge.log'],
      MB,
    );
    expect(out.map((f) => f.path)).toEqual([
      'src/a.ts',
      'dist/bundle.js',
      'media/clip.mp4',
      'empty.txt',
      'missing.ts',
      'logs/huge.log',
    ]);
    expect(new TextDecoder().decode(out[0].bytes!)).toBe('export const a = 1;\n');
    expect(out[0].size).toBe(20);
    // Over the limit: no bytes come back, only the size.
    expect(out[1]).toEqual({ path: 'dist/bundle.js', size: 2 * MB });
    expect(out[2]).toEqual({ path: 'media/clip.mp4', size: 2 * MB });
    expect(out[3]).toMatchObject({ path: 'empty.txt', size: 0 });
    expect(out[3].bytes!.byteLength).toBe(0);
    expect(out[4]).toEqual({ path: 'missing.ts', size: 0, error: 'not in the snapshot' });
    // Every file is streamed: one over the limit is counted, never held whole.
    expect(out[5]).toEqual({ path: 'logs/huge.log', size: 2 * MB });
  });
});
