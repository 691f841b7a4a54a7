/**
 * The search tool's select:file: `count:` and `limit` count files there (as Sourcegraph's count:
 * counts selected results), each listed file with all of its matching lines counted; a limit that
 * cuts the list says the answer is not complete.
 */
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { callTool } from '.';

/** Five files of 30 matching lines each: 150 lines, 5 files. */
const TREE = Object.fromEntries(
  ['a', 'b', 'c', 'd', 'e'].map((n) => [`src/${n}.ts`, 'const needle = 1;\n'.repeat(30)]),
);
const ctx = {
  workspace: new Workspace([new MemorySource(TREE, { name: 'repo', absoluteRoot: '/work/repo' })]),
};
type Selected = {
  type: 'file';
  select: 'file';
  results: { path: string; matches: number }[];
  total: number;
  complete: boolean;
};
const search = (args: Record<string, unknown>) => callTool('search', args, ctx) as Promise<Selected>;

describe('search select:file', () => {
  it('count:N lists N files, each with every matching line counted', async () => {
    const r = await search({ query: 'needle select:file count:2' });
    expect(r.results).toEqual([
      { path: 'src/a.ts', matches: 30 },
      { path: 'src/b.ts', matches: 30 },
    ]);
    expect(r.complete).toBe(false);
  });

  it('limit counts files too; a limit over the files found lists them all, complete', async () => {
    const three = await search({ query: 'needle select:file', limit: 3 });
    expect(three.results.map((f) => f.path)).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts']);
    const all = await search({ query: 'needle select:file', limit: 10 });
    expect(all.results).toHaveLength(5);
    expect(all.results.every((f) => f.matches === 30)).toBe(true);
    expect(all).toMatchObject({ total: 5, complete: true });
  });

  it('without select:file the limit counts lines', async () => {
    const r = (await callTool('search', { query: 'needle', limit: 40 }, ctx)) as {
      results: unknown[];
      total: number;
    };
    expect(r.results).toHaveLength(40);
    expect(r.total).toBe(150);
  });
});
