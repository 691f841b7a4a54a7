/**
 * The walk asks the stats of a directory's files ahead of the one it is at (a File System Access
 * getFile() is a round trip to another process), a bounded number at a time, and still yields
 * every file in the directory's order; files it skips or filters out are never asked for.
 */
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../source/memory';
import type { FileStat } from '../source/types';
import { walkFiles } from './walk';

/** A MemorySource whose stats take a few ms and count how many are in flight at once. */
class SlowStats extends MemorySource {
  inFlight = 0;
  maxInFlight = 0;
  readonly statted: string[] = [];
  override async stat(path: string): Promise<FileStat | null> {
    this.statted.push(path);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await new Promise((r) => setTimeout(r, 2));
      return await super.stat(path);
    } finally {
      this.inFlight--;
    }
  }
}

function tree(): Record<string, string> {
  const files: Record<string, string> = { '.gitignore': '*.log\n', 'sub/a.ts': 'a', 'sub/b.ts': 'b' };
  for (let i = 0; i < 60; i++) files[`src/f${String(i).padStart(2, '0')}.ts`] = `export const v${i} = ${i};`;
  files['src/debug.log'] = 'ignored';
  return files;
}

async function walked(
  source: MemorySource,
  options: Parameters<typeof walkFiles>[1] = {},
): Promise<string[]> {
  const out: string[] = [];
  for await (const f of walkFiles(source, options)) out.push(f.path);
  return out;
}

describe('stats asked ahead', () => {
  it('overlaps a directory’s stats, a bounded number at a time, and yields in order', async () => {
    const source = new SlowStats(tree());
    const paths = await walked(source);
    expect(paths).toEqual(await walked(new MemorySource(tree())));
    expect(paths.filter((p) => p.startsWith('src/'))).toEqual(
      Array.from({ length: 60 }, (_, i) => `src/f${String(i).padStart(2, '0')}.ts`),
    );
    expect(source.maxInFlight).toBeGreaterThan(4);
    expect(source.maxInFlight).toBeLessThanOrEqual(17);
    // an ignored file is neither yielded nor asked for
    expect(paths).not.toContain('src/debug.log');
    expect(source.statted).not.toContain('src/debug.log');
  });

  it('asks nothing ahead for a filtered walk: only the files it accepts are statted', async () => {
    const source = new SlowStats(tree());
    const paths = await walked(source, { acceptFile: (p) => p.endsWith('f07.ts') || p.startsWith('sub/') });
    expect(paths).toEqual(['src/f07.ts', 'sub/a.ts', 'sub/b.ts']);
    expect(source.statted.filter((p) => p.startsWith('src/f'))).toEqual(['src/f07.ts']);
    expect(source.maxInFlight).toBe(1);
  });

  it('a stat that fails ahead is a skip where the walk reaches it, and the walk goes on', async () => {
    const source = new SlowStats(tree());
    const stat = source.stat.bind(source);
    source.stat = async (path) => {
      if (path === 'src/f03.ts') throw new Error('EACCES: permission denied');
      return stat(path);
    };
    const skipped: string[] = [];
    const paths = await walked(source, { onSkip: (s) => skipped.push(`${s.path} ${s.reason}`) });
    expect(paths).not.toContain('src/f03.ts');
    expect(paths).toContain('src/f04.ts');
    expect(skipped.some((s) => s.startsWith('src/f03.ts '))).toBe(true);
  });
});
