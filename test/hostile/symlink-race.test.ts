/**
 * Issue 34, row 1: a directory swapped for a link to an outside folder while a search runs.
 * The search's reads (readTransient, readRanges, the descriptor statFile holds) used to trust
 * the directory check made when the walk listed the directory, so a swap between the listing and
 * the read returned the outside file's text. Every open is now checked where the kernel says the
 * descriptor points. Deterministic first (the swap done right after the walk lists the
 * directory), then a short real race against a shell loop swapping every 2 ms.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NodeFsSource } from '../../src/adapters/node/fs';
import { CodebaseIndexService } from '../../src/core/codebase-index/service';
import { MemoryIndexStore } from '../../src/core/rank/persist';
import { Workspace } from '../../src/core/source/workspace';
import { callTool } from '../../src/core/tools';
import type { ToolContext } from '../../src/core/tools/types';
import { seedOnlyRoots } from '../../src/core/workspace/roots.testutil';
import { rejectionOf } from '../rejection';

const SECRET = 'race-secret-only-outside-the-root';
let base = '';
let root = '';
let outside = '';
const swapDir = () => path.join(root, 'd');
const parked = () => path.join(root, 'd.real');

/** d -> d.real, and d becomes a link to the outside folder (which holds a notes.ts of its own). */
function swapOut(): void {
  fs.renameSync(swapDir(), parked());
  fs.symlinkSync(outside, swapDir());
}
/** Undo swapOut (whatever state the race loop left). */
function restore(): void {
  const st = fs.lstatSync(swapDir(), { throwIfNoEntry: false });
  if (st?.isSymbolicLink()) fs.unlinkSync(swapDir());
  if (fs.existsSync(parked())) {
    if (fs.existsSync(swapDir())) fs.rmSync(swapDir(), { recursive: true, force: true });
    fs.renameSync(parked(), swapDir());
  }
}

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-race-'));
  root = path.join(base, 'repo');
  outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.mkdirSync(path.join(root, 'd'));
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(root, 'src', 'app.ts'), 'export const app = 1;\n');
  // the same name inside and outside: the listing made inside names a file the link also has
  fs.writeFileSync(path.join(root, 'd', 'notes.ts'), 'export const notes = "inside, nothing to see";\n');
  fs.writeFileSync(path.join(outside, 'notes.ts'), `export const notes = "${SECRET}";\n`);
  // files read before notes.ts: they widen the race's window between listing d and reading notes.ts
  for (let i = 0; i < 300; i++)
    fs.writeFileSync(
      path.join(root, 'd', `a${String(i).padStart(3, '0')}.ts`),
      `export const a${i} = ${i};\n`,
    );
});
afterEach(() => restore());
afterAll(() => fs.rmSync(base, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

describe('the adapter: a directory checked, then swapped for an outside link, then read', () => {
  const checkedThenSwapped = async () => {
    const source = new NodeFsSource(root);
    await source.list('');
    await source.list('d'); // d is checked (inside) and remembered
    swapOut();
    return source;
  };

  it('readTransient (the search hot path) refuses it with PathOutsideRoot', async () => {
    const source = await checkedThenSwapped();
    const err = await rejectionOf(source.readTransient('d/notes.ts'));
    expect(err.code).toBe('PathOutsideRoot');
    expect(err.data.reason).toBe('outsideRoot');
  });

  it('readRanges (the indexed search) refuses it', async () => {
    const source = await checkedThenSwapped();
    const size = fs.statSync(path.join(outside, 'notes.ts')).size;
    const err = await rejectionOf(source.readRanges('d/notes.ts', [[0, size]], size));
    expect(err.code).toBe('PathOutsideRoot');
  });

  it('the descriptor statFile holds is checked before its read', async () => {
    const source = await checkedThenSwapped();
    await source.statFile('d/notes.ts').catch(() => null);
    const err = await rejectionOf(source.readTransient('d/notes.ts'));
    expect(err.code).toBe('PathOutsideRoot');
  });

  it('a listing through the swapped directory is refused too', async () => {
    const source = await checkedThenSwapped();
    expect((await rejectionOf(source.list('d'))).code).toBe('PathOutsideRoot');
  });
});

/** Swaps `d` for the outside link the moment the walk has listed it (armed once per test). */
class SwappingSource extends NodeFsSource {
  armed = false;
  override async list(dir: string) {
    const entries = await super.list(dir);
    if (dir === 'd' && this.armed) {
      this.armed = false;
      swapOut();
    }
    return entries;
  }
}

describe('the search tools: the directory swapped between the walk listing it and the read', () => {
  let source: SwappingSource;
  let ctx: ToolContext;
  beforeAll(() => {
    source = new SwappingSource(root);
    const workspace = new Workspace([source]);
    ctx = { workspace, roots: seedOnlyRoots(new CodebaseIndexService(workspace, new MemoryIndexStore())) };
  });
  const call = (tool: string, args: unknown) => {
    source.armed = true;
    return callTool(tool, args, ctx) as Promise<Record<string, unknown>>;
  };

  it('code_search', async () => {
    const r = await call('code_search', { query: SECRET });
    expect(source.armed).toBe(false); // the swap happened during the search
    expect(JSON.stringify(r)).not.toContain(SECRET);
    expect(r.total).toBe(0);
  });

  it('search_files', async () => {
    const r = await call('search_files', { path: '.', regex: SECRET });
    expect(source.armed).toBe(false);
    expect(String(r)).not.toContain(SECRET);
    expect(String(r)).toContain('No results found');
  });

  it('search_corpus', async () => {
    const r = (await call('search_corpus', { path: '.', pattern: SECRET })) as {
      result: { total: number; matches: unknown[] };
    };
    expect(source.armed).toBe(false);
    expect(JSON.stringify(r)).not.toContain(SECRET);
    expect(r.result.total).toBe(0);
  });
});

describe('a real race: a shell loop swapping the directory every 2 ms', () => {
  let loop: ChildProcess | null = null;
  afterEach(async () => {
    if (loop && loop.exitCode === null) {
      const done = new Promise((resolve) => loop!.once('exit', resolve));
      // the whole group: an `mv` or `ln` the shell started must not finish after the restore
      // (a fresh-clone run's cleanup then met a directory still changing: ENOTEMPTY)
      process.kill(-loop.pid!, 'SIGKILL');
      await done;
    }
    loop = null;
  });

  it('no search run returns the outside text', async () => {
    const source = new NodeFsSource(root);
    const workspace = new Workspace([source]);
    const ctx: ToolContext = {
      workspace,
      roots: seedOnlyRoots(new CodebaseIndexService(workspace, new MemoryIndexStore())),
    };
    const script = `cd "${root}"; while :; do mv d d.real && ln -s "${outside}" d; sleep 0.002; rm -f d && mv d.real d; sleep 0.002; done`;
    loop = spawn('sh', ['-c', script], { stdio: 'ignore', detached: true });
    const until = Date.now() + 2500;
    let runs = 0;
    while (Date.now() < until) {
      const answers = await Promise.all([
        callTool('code_search', { query: SECRET }, ctx),
        callTool('search_files', { path: '.', regex: SECRET }, ctx),
        callTool('search_corpus', { path: '.', pattern: SECRET }, ctx),
      ]);
      for (const a of answers) expect(JSON.stringify(a)).not.toContain(SECRET);
      runs++;
    }
    expect(runs).toBeGreaterThan(0);
  }, 20_000);
});
