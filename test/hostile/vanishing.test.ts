/**
 * Issue #14, faults: files deleted while they are being read. Every search and index refresh
 * finishes, names what it could not read, keeps its stored index, and the next refresh is
 * consistent with the disk.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeFsSource } from '../../src/adapters/node/fs';
import { nodeGrammarLoader } from '../../src/adapters/node/grammars';
import { Chunker } from '../../src/core/chunk';
import { MemoryIndexStore } from '../../src/core/rank/persist';
import { CodeIndexService } from '../../src/core/rank/service';
import { CodebaseIndexService } from '../../src/core/codebase-index/service';
import { Workspace } from '../../src/core/source/workspace';
import { callTool } from '../../src/core/tools';
import { seedOnlyRoots } from '../../src/core/workspace/roots.testutil';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function repo(files = 40): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-vanish-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'src'));
  for (let i = 0; i < files; i++)
    fs.writeFileSync(
      path.join(dir, 'src', `f${String(i).padStart(2, '0')}.ts`),
      `export function shared${i}() {\n  return 'needle ${i}';\n}\n`,
    );
  return dir;
}

/** Deletes each victim the moment something asks for its bytes or its stat, then answers as the disk does. */
class VanishingSource extends NodeFsSource {
  constructor(
    root: string,
    private readonly victims: Set<string>,
    private readonly on: 'read' | 'stat',
  ) {
    super(root);
  }
  private vanish(rel: string) {
    if (this.victims.delete(rel)) fs.rmSync(path.join(this.absoluteRoot, rel));
  }
  override async stat(rel: string) {
    if (this.on === 'stat') this.vanish(rel);
    return super.stat(rel);
  }
  /** 'read': no descriptor held from the stat, so the read opens the file (and finds it gone). */
  override async statFile(rel: string) {
    if (this.on === 'stat') this.vanish(rel);
    return this.on === 'read' ? super.stat(rel) : super.statFile(rel);
  }
  override async read(rel: string) {
    if (this.on === 'read') this.vanish(rel);
    return super.read(rel);
  }
  override async readTransient(rel: string) {
    if (this.on === 'read') this.vanish(rel);
    return super.readTransient(rel);
  }
}

describe('files deleted while being read', () => {
  it.each(['read', 'stat'] as const)('search_corpus finishes and counts them (deleted at %s)', async (on) => {
    const dir = repo();
    const victims = new Set(['src/f03.ts', 'src/f17.ts', 'src/f39.ts']);
    const ws = new Workspace([new VanishingSource(dir, victims, on)]);
    const r = (await callTool('search_corpus', { path: '.', pattern: 'needle' }, { workspace: ws })) as any;
    expect(r.success).toBe(true);
    expect(r.result.total).toBe(37);
    if (on === 'read') expect(r.result.files_skipped).toBe(3); // a vanished stat is simply not there
    expect(victims.size).toBe(0);
  });

  it('the seed-004 index refresh finishes, answers from the rest, keeps nothing stale', async () => {
    const dir = repo();
    const store = new MemoryIndexStore();
    const stable = new Workspace([new NodeFsSource(dir)]);
    const first = await new CodebaseIndexService(stable, store).refresh();
    expect(first.refreshMode).toBe('full');
    // a file changes, then vanishes while the refresh reads it
    fs.writeFileSync(path.join(dir, 'src/f05.ts'), 'export function changed5() {\n  return 1;\n}\n');
    const victims = new Set(['src/f05.ts']);
    const svc = new CodebaseIndexService(new Workspace([new VanishingSource(dir, victims, 'read')]), store);
    const second = await svc.refresh();
    expect(victims.size).toBe(0);
    const ctx = { workspace: stable, roots: seedOnlyRoots(svc) };
    const hits = (await callTool(
      'codebase_search',
      { query: 'shared7 changed5 shared5', limit: 50 },
      ctx,
    )) as any;
    const paths = hits.results.map((h: any) => h.path);
    expect(paths).toContain('src/f07.ts');
    expect(paths).not.toContain('src/f05.ts');
    expect(
      second.skipped.some((s) => s.path === 'src/f05.ts') || second.filesRemoved === 1,
      JSON.stringify(second),
    ).toBe(true);
    // the next refresh over the real disk agrees with a fresh build
    const third = await new CodebaseIndexService(stable, store).refresh();
    expect(third.filesScanned).toBe(39);
  });

  it("Quarry's code index refresh finishes; the vanished file is gone from its answers", async () => {
    const dir = repo();
    const chunker = await Chunker.create(nodeGrammarLoader);
    const store = new MemoryIndexStore();
    const victims = new Set(['src/f11.ts', 'src/f12.ts']);
    const svc = new CodeIndexService(
      new Workspace([new VanishingSource(dir, victims, 'read')]),
      async () => chunker,
      store,
    );
    const stats = await svc.refresh();
    expect(victims.size).toBe(0);
    expect(stats.skipped.map((s) => s.path).sort()).toEqual(['src/f11.ts', 'src/f12.ts']);
    expect(svc.index!.search('shared11', 5).map((h) => h.chunk.path)).not.toContain('src/f11.ts');
    expect(svc.index!.search('shared10', 5).map((h) => h.chunk.path)).toContain('src/f10.ts');
    const again = await new CodeIndexService(
      new Workspace([new NodeFsSource(dir)]),
      async () => chunker,
      store,
    ).refresh();
    expect(again.refreshMode).not.toBe('full');
    expect(again.skipped).toEqual([]);
  });
});
