/** The CLI's one code index: concurrent refreshes share a run, a cancel ends only its own wait, and the port answers workspace paths. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rejectionOf } from '../../test/rejection';
import { NodeFsSource } from '../adapters/node/fs';
import { lineChunker } from '../core/rank/line-chunker.testutil';
import { MemorySource } from '../core/source/memory';
import { Workspace } from '../core/source/workspace';
import { cliCodeIndexes, SharedCodeIndexService, workspaceLinesOwned } from './code-index';

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

  it('the codeIndexes port: one index over the workspace, its lines read by workspace path', async () => {
    const { svc } = service();
    const parts = await cliCodeIndexes(svc)();
    expect(parts.map((p) => p.prefix)).toEqual(['']);
    expect(parts[0].index.chunksOf('a.ts').map((c) => c.symbolName)).toEqual(['alpha', 'gamma']);
    expect(await parts[0].lines('a.ts')).toEqual(['fn alpha', '  beta', 'fn gamma', '  delta']);
    expect(await parts[0].lines('nope.ts')).toBeNull();
  });

  it('reads files whose reads overlap, each into its own bytes (NodeFsSource reuses one buffer for transient reads)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-lines-'));
    writeFileSync(path.join(dir, 'long.ts'), 'export const a = 1;\nexport const b = 2;\n');
    writeFileSync(path.join(dir, 'short.py'), 'x = 1\n');
    const lines = workspaceLinesOwned(new Workspace([new NodeFsSource(dir)]));
    expect(await Promise.all([lines('long.ts'), lines('short.py'), lines('missing.ts')])).toEqual([
      ['export const a = 1;', 'export const b = 2;'],
      ['x = 1'],
      null,
    ]);
  });
});
