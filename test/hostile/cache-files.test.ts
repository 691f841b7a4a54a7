/**
 * Issue 34, the CLI's index cache (src/adapters/node/index-store.ts) and what it is compared with.
 *   row 8:  a cache file replaced by a link to /dev/zero or by a FIFO (and a temp file planted
 *           where a save writes): only regular files are read, never past the size they had when
 *           opened, and a save never writes through a planted link or into a FIFO. The loads run in
 *           a child process under a memory limit and a timeout: before the fix, /dev/zero was read
 *           until memory ran out and a FIFO blocked the thread for good, which no test timeout
 *           in the same thread could end.
 *   row 13: a file edited to the same size with its old mtime put back (`touch -r`) is seen as
 *           changed (the Node source's change stamp includes the inode's ctime), not a cache hit.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../../src/adapters/node/grammars';
import { NodeFsSource } from '../../src/adapters/node/fs';
import { FileIndexStore } from '../../src/adapters/node/index-store';
import { Chunker } from '../../src/core/chunk';
import { CodebaseIndexService } from '../../src/core/codebase-index/service';
import { CodeIndexService } from '../../src/core/rank/service';
import { Workspace } from '../../src/core/source/workspace';
import { callTool } from '../../src/core/tools';
import { seedOnlyRoots } from '../../src/core/workspace/roots.testutil';

const HAS_MKFIFO = spawnSync('mkfifo', ['--version']).status === 0;
let base = '';
let bundle = '';

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-cache-hostile-'));
  bundle = path.join(base, 'index-store.mjs');
  buildSync({
    entryPoints: [path.resolve(__dirname, '../../src/adapters/node/index-store.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: bundle,
    logLevel: 'silent',
  });
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

let dirs = 0;
const freshDir = () => {
  const d = path.join(base, `cache-${++dirs}`);
  fs.mkdirSync(d);
  return d;
};

/**
 * `op` ('load' or 'save') on key `k` of a FileIndexStore over `dir`, in a child process with 2 GB
 * of address space and 10 s: its answer, or how it died (status null and a signal: killed).
 */
function inChild(
  op: 'load' | 'save',
  dir: string,
  opts: { plantFifo?: boolean } = {},
): { out: string; status: number | null; signal: string | null } {
  const script = `
    import { execFileSync } from 'node:child_process';
    import { FileIndexStore } from ${JSON.stringify(bundle)};
    const store = new FileIndexStore(${JSON.stringify(dir)});
    // the temp file a save writes first (named by this process's id), planted as a FIFO
    if (${JSON.stringify(!!opts.plantFifo)}) execFileSync('mkfifo', [${JSON.stringify(dir)} + '/k.json.' + process.pid + '.tmp']);
    if (${JSON.stringify(op)} === 'load') {
      const got = await store.load('k');
      process.stdout.write(JSON.stringify(got === null ? null : got.length));
    } else {
      await store.save('k', new Uint8Array([1, 2, 3, 4]));
      process.stdout.write('saved');
    }`;
  const r = spawnSync(
    'sh',
    ['-c', 'ulimit -v 2000000; exec "$0" --input-type=module -e "$1"', process.execPath, script],
    {
      encoding: 'utf8',
      timeout: 10_000,
      killSignal: 'SIGKILL',
    },
  );
  return { out: r.stdout, status: r.status, signal: r.signal };
}

describe('row 8: the cache file is read only when it is a regular file, and only as long as it was', () => {
  it('a cache file that is a link to /dev/zero is a miss (not read until memory runs out)', () => {
    const dir = freshDir();
    fs.symlinkSync('/dev/zero', path.join(dir, 'k.json'));
    expect(inChild('load', dir)).toEqual({ out: 'null', status: 0, signal: null });
  });

  it.skipIf(!HAS_MKFIFO)('a cache file that is a FIFO is a miss at once (never blocks)', () => {
    const dir = freshDir();
    spawnSync('mkfifo', [path.join(dir, 'k.json')]);
    const t0 = Date.now();
    expect(inChild('load', dir)).toEqual({ out: 'null', status: 0, signal: null });
    expect(Date.now() - t0).toBeLessThan(8_000);
  });

  it('a cache file that is a link to a regular file elsewhere is a miss too', async () => {
    const dir = freshDir();
    const elsewhere = path.join(base, 'elsewhere.bin');
    fs.writeFileSync(elsewhere, new Uint8Array([9, 9, 9, 9]));
    fs.symlinkSync(elsewhere, path.join(dir, 'k.json'));
    expect(await new FileIndexStore(dir).load('k')).toBeNull();
  });

  it('a regular cache file still loads, and a save replaces a planted link instead of writing through it', async () => {
    const dir = freshDir();
    const victim = path.join(base, `victim-${dirs}.txt`);
    fs.writeFileSync(victim, 'keep me');
    fs.symlinkSync(victim, path.join(dir, 'k.json'));
    // the temp file a save writes first, planted as a link to the victim
    fs.symlinkSync(victim, path.join(dir, `k.json.${process.pid}.tmp`));
    const store = new FileIndexStore(dir);
    await store.save('k', new Uint8Array([1, 2, 3, 4]));
    expect(fs.readFileSync(victim, 'utf8')).toBe('keep me');
    expect(fs.lstatSync(path.join(dir, 'k.json')).isFile()).toBe(true);
    expect([...((await store.load('k')) ?? [])]).toEqual([1, 2, 3, 4]);
  });

  it.skipIf(!HAS_MKFIFO)('a save whose temp file is a planted FIFO still saves (never blocks)', () => {
    const dir = freshDir();
    expect(inChild('save', dir, { plantFifo: true })).toEqual({ out: 'saved', status: 0, signal: null });
    expect([...fs.readFileSync(path.join(dir, 'k.json'))]).toEqual([1, 2, 3, 4]);
  });
});

describe('row 13: an edit that keeps the size and puts the old mtime back is not a cache hit', () => {
  const T = 1_700_000_000; // a whole second: the same mtime can be put back exactly
  const setup = () => {
    const root = path.join(freshDir(), 'repo');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    const file = path.join(root, 'src', 'words.ts');
    fs.writeFileSync(file, 'export function alphaWord() {\n  return 1;\n}\n');
    fs.writeFileSync(path.join(root, 'src', 'other.ts'), 'export const other = 2;\n');
    fs.utimesSync(file, T, T);
    const store = new FileIndexStore(path.join(root, '..', 'store'));
    const edit = () => {
      fs.writeFileSync(file, 'export function omegaWord() {\n  return 1;\n}\n'); // the same size
      fs.utimesSync(file, T, T); // touch -r: the old mtime back
      expect(fs.statSync(file).size).toBe(44);
    };
    return { root, store, edit };
  };

  it('the seed index (codebase_search), across runs through the cache file', async () => {
    const { root, store, edit } = setup();
    const ws = () => new Workspace([new NodeFsSource(root)]);
    expect((await new CodebaseIndexService(ws(), store).refresh()).refreshMode).toBe('full');
    edit();
    const svc = new CodebaseIndexService(ws(), store);
    const stats = await svc.refresh();
    expect(stats.refreshMode).toBe('incremental');
    const hits = (await callTool(
      'codebase_search',
      { query: 'omegaWord' },
      { workspace: svc.workspace, roots: seedOnlyRoots(svc) },
    )) as { results: Array<{ path: string }> };
    expect(hits.results.map((h) => h.path)).toContain('src/words.ts');
  });

  it('the code index (ranked search, the text prefilter), in one process and across runs', async () => {
    const { root, store, edit } = setup();
    const chunker = await Chunker.create(nodeGrammarLoader);
    const live = new CodeIndexService(new Workspace([new NodeFsSource(root)]), async () => chunker, store);
    expect((await live.refresh()).refreshMode).toBe('full');
    edit();
    expect((await live.refresh()).refreshMode).toBe('incremental');
    expect(live.index!.search('omegaWord', 5).map((h) => h.chunk.path)).toContain('src/words.ts');
    // and a later run, from the stored cache, after another such edit back
    fs.writeFileSync(path.join(root, 'src', 'words.ts'), 'export function alphaWord() {\n  return 1;\n}\n');
    fs.utimesSync(path.join(root, 'src', 'words.ts'), T, T);
    const next = new CodeIndexService(new Workspace([new NodeFsSource(root)]), async () => chunker, store);
    expect((await next.refresh()).refreshMode).toBe('incremental');
    expect(next.index!.search('alphaWord', 5).map((h) => h.chunk.path)).toContain('src/words.ts');
  });
});
