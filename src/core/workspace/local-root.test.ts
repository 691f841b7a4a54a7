/**
 * A root indexed on demand (the CLI's and `quarry mcp`'s): concurrent refreshes share a run, a
 * cancel ends only its own wait, each root keeps its indexes under its own keys, lines are read
 * into bytes of their own.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../test/rejection';
import { NodeFsSource } from '../../adapters/node/fs';
import { MemoryIndexStore } from '../rank/persist';
import { lineChunker } from '../rank/line-chunker.testutil';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { LocalRoot, localWorkspace } from './local-root';
import { SharedCodeIndexService } from './shared-code-index';

const FILES = { 'a.ts': 'fn alpha\n  beta\nfn gamma\n  delta\n', 'b.ts': 'fn epsilon\n' };

function service() {
  let chunkers = 0;
  const svc = new SharedCodeIndexService(new Workspace([new MemorySource({ ...FILES })]), async () => {
    chunkers++;
    return lineChunker;
  });
  return { svc, chunkers: () => chunkers };
}

describe('SharedCodeIndexService', () => {
  it('gives concurrent callers one refresh, and a later caller a new one', async () => {
    const { svc } = service();
    const [a, b] = await Promise.all([svc.refresh(), svc.refresh()]);
    expect(a).toBe(b);
    expect(a.refreshMode).toBe('full');
    expect((await svc.refresh()).refreshMode).toBe('cache_hit');
    expect(svc.index!.chunkCount).toBe(3);
  });

  it("a caller's cancel ends its own wait; the run goes on for the others", async () => {
    const { svc } = service();
    const controller = new AbortController();
    const cancelled = svc.refresh({ signal: controller.signal });
    const other = svc.refresh();
    controller.abort();
    expect((await rejectionOf(cancelled)).code).toBe('Cancelled');
    expect((await other).refreshMode).toBe('full');
    expect((await rejectionOf(svc.refresh({ signal: AbortSignal.abort() }))).code).toBe('Cancelled');
  });
});

describe('LocalRoot', () => {
  it('indexes on demand: the code index is not ready before its first refresh, then answers root-relative paths', async () => {
    const root = new LocalRoot('/a', new MemorySource({ ...FILES }), { chunker: async () => lineChunker });
    expect(root.codeIndexReady).toBe(false);
    const index = await root.codeIndex();
    expect(root.codeIndexReady).toBe(true);
    expect(index.chunksOf('a.ts').map((c) => c.symbolName)).toEqual(['alpha', 'gamma']);
    expect(await root.lines('a.ts')).toEqual(['fn alpha', '  beta', 'fn gamma', '  delta']);
    expect(await root.lines('nope.ts')).toBeNull();
    const { service, stats } = await root.seedIndex();
    expect(stats.refreshMode).toBe('full');
    expect(service.index!.chunkCount).toBeGreaterThan(0);
    expect((await root.seedIndex()).stats.refreshMode).toBe('cache_hit');
  });

  it('without a parser the code index is refused with a clear error; without a model, semantic search', async () => {
    const root = new LocalRoot('/a', new MemorySource({ ...FILES }));
    expect((await rejectionOf(root.codeIndex())).message).toBe('This host has no parser for the code index');
    expect((await rejectionOf(root.semanticRoot({}))).message).toMatch(/needs the embedding model/);
  });

  it('each root stores its indexes under its own keys; a second process loads them', async () => {
    const store = new MemoryIndexStore();
    const files = new Workspace([
      new MemorySource({ ...FILES }, { name: 'one' }),
      new MemorySource({ 'c.ts': 'fn zeta\n' }, { name: 'two' }),
    ]);
    const make = () =>
      localWorkspace(files, (source) => ({
        store,
        storeStem: source.name,
        chunker: async () => lineChunker,
      }));
    const first = make();
    for (const { root } of first.toolRoots()) {
      await root.codeIndex();
      await root.seedIndex();
    }
    expect([...store.data.keys()].sort()).toEqual(['index-one', 'index-two', 'seed004-one', 'seed004-two']);
    const again = make().roots[1];
    expect((await again.seedIndex()).stats.refreshMode).toBe('cache_hit');
  });

  it('reads files whose reads overlap, each into its own bytes (NodeFsSource reuses one buffer for transient reads)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-lines-'));
    writeFileSync(path.join(dir, 'long.ts'), 'export const a = 1;\nexport const b = 2;\n');
    writeFileSync(path.join(dir, 'short.py'), 'x = 1\n');
    const root = new LocalRoot(dir, new NodeFsSource(dir));
    expect(
      await Promise.all([root.lines('long.ts'), root.lines('short.py'), root.lines('missing.ts')]),
    ).toEqual([['export const a = 1;', 'export const b = 2;'], ['x = 1'], null]);
  });
});
