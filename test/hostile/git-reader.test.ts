/**
 * Issue 34, rows 2 and 3: explore's git agent in the CLI (`cliHistory`, deep mode) over hostile
 * `.git` entries.
 *   row 2: a `.git` that is a link to another repository's, a `.git` file naming one elsewhere,
 *          an enclosing repository's `.git` above the root, `.git/objects` linked outside: nothing
 *          outside the root is read (no other repository's messages, authors, files or changes).
 *   row 3: a FIFO named `.git` (at the root or above it), or at `.git/HEAD`, `.git/index`,
 *          `.git/packed-refs`, a pack's `.idx` or `.pack`: only regular files are opened, and the
 *          answer comes at once. Each call runs against a deadline, and a reader the old code left
 *          blocked on a FIFO is released after (the FIFO opened for writing), so nothing hangs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADA, CliRepo, GRACE } from '../../src/adapters/git/cli-repo.testutil';
import { cliHistory } from '../../src/cli/history';
import type { HistoryPortResult } from '../../src/core/tools/types';

const HAS_MKFIFO = spawnSync('mkfifo', ['--version']).status === 0;
const OTHER_MESSAGE = 'other-repository-secret-message';
const OTHER_FILE = 'other-secret-file.ts';
const MINE_MESSAGE = 'my own commit';

let other: CliRepo; // another repository: nothing of it may show
let mine: CliRepo; // a repository of the root's own (packed), copied per case
let base = '';
const fifos: string[] = [];

beforeAll(() => {
  other = new CliRepo('quarry-git-other-');
  other.commit(
    { [OTHER_FILE]: 'export const x = 1;\n', 'sub/inner.ts': 'export const y = 2;\n' },
    OTHER_MESSAGE,
    GRACE,
  );
  other.write(OTHER_FILE, 'export const x = 2; // uncommitted\n');
  mine = new CliRepo('quarry-git-mine-');
  mine.commit({ 'src/app.ts': 'export const app = 1;\n' }, MINE_MESSAGE, ADA);
  mine.git(['repack', '-a', '-d', '-q']);
  mine.git(['prune-packed']);
  mine.git(['pack-refs', '--all']);
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-git-hostile-'));
});
afterEach(() => {
  // a reader blocked opening a FIFO (the old code) is released: opening it for writing wakes it
  for (const f of fifos.splice(0)) {
    try {
      fs.closeSync(fs.openSync(f, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
    } catch {
      // no reader waiting (ENXIO) or already gone
    }
  }
});
afterAll(() => {
  other?.remove();
  mine?.remove();
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

let cases = 0;
/** A fresh directory under the test's base. */
function fresh(name: string): string {
  const dir = path.join(base, `${++cases}-${name}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
/** A copy of `mine` (working tree and .git). */
function copyOfMine(name: string): string {
  const dir = fresh(name);
  fs.cpSync(mine.dir, dir, { recursive: true });
  return dir;
}
function mkfifo(at: string): void {
  fs.rmSync(at, { recursive: true, force: true });
  execFileSync('mkfifo', [at]);
  fifos.push(at);
}

const DEADLINE_MS = 5_000;
/** cliHistory for one root, or 'hung' when it has not settled by the deadline. */
async function historyOf(root: string): Promise<HistoryPortResult | 'hung' | { threw: string }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), DEADLINE_MS)));
  const run = cliHistory([root])(0, 20).catch((err: unknown) => ({
    threw: err instanceof Error ? err.message : String(err),
  }));
  try {
    return await Promise.race([run, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function expectNothingOfOther(answer: unknown): void {
  const text = JSON.stringify(answer);
  for (const s of [OTHER_MESSAGE, OTHER_FILE, GRACE.name, 'sub/inner.ts']) expect(text).not.toContain(s);
}

describe('row 2: nothing outside the root is read', () => {
  it('the root’s own repository still answers (a control)', async () => {
    const h = await historyOf(copyOfMine('control'));
    expect(h).toMatchObject({ available: true, branch: 'main' });
    expect((h as { commits: Array<{ message: string }> }).commits.map((c) => c.message.trim())).toEqual([
      MINE_MESSAGE,
    ]);
  });

  it('a .git link that stays inside the root, and a .git file naming a folder inside it, are followed', async () => {
    const linked = copyOfMine('inside-link');
    fs.renameSync(path.join(linked, '.git'), path.join(linked, 'git-data'));
    fs.symlinkSync('git-data', path.join(linked, '.git'));
    expect(await historyOf(linked)).toMatchObject({ available: true, commits: [{ author: ADA.name }] });
    const named = copyOfMine('inside-gitdir-file');
    fs.renameSync(path.join(named, '.git'), path.join(named, 'git-data'));
    fs.writeFileSync(path.join(named, '.git'), 'gitdir: git-data\n');
    expect(await historyOf(named)).toMatchObject({ available: true, commits: [{ author: ADA.name }] });
  });

  it('a .git that is a link to another repository’s .git', async () => {
    const root = fresh('link-out');
    fs.writeFileSync(path.join(root, OTHER_FILE), 'export const x = 3;\n');
    fs.symlinkSync(path.join(other.dir, '.git'), path.join(root, '.git'));
    const h = await historyOf(root);
    expectNothingOfOther(h);
    expect(h).toMatchObject({ available: false, reason: expect.stringMatching(/outside the root/) });
  });

  it('a .git file naming another repository’s .git (gitdir: /elsewhere/.git)', async () => {
    const root = fresh('gitdir-out');
    fs.writeFileSync(path.join(root, OTHER_FILE), 'export const x = 3;\n');
    fs.writeFileSync(path.join(root, '.git'), `gitdir: ${path.join(other.dir, '.git')}\n`);
    const h = await historyOf(root);
    expectNothingOfOther(h);
    expect(h).toMatchObject({ available: false, reason: expect.stringMatching(/outside the root/) });
    const relative = fresh('gitdir-out-relative');
    fs.writeFileSync(
      path.join(relative, '.git'),
      `gitdir: ${path.relative(relative, path.join(other.dir, '.git'))}\n`,
    );
    expectNothingOfOther(await historyOf(relative));
  });

  it('a root inside another repository: the enclosing .git above the root is not read', async () => {
    const h = await historyOf(path.join(other.dir, 'sub'));
    expectNothingOfOther(h);
    expect(h).toMatchObject({ available: false });
  });

  it('.git/objects linked to another repository’s objects', async () => {
    const root = copyOfMine('objects-out');
    const otherHead = other.git(['rev-parse', 'HEAD']).trim();
    fs.rmSync(path.join(root, '.git', 'objects'), { recursive: true });
    fs.symlinkSync(path.join(other.dir, '.git', 'objects'), path.join(root, '.git', 'objects'));
    fs.rmSync(path.join(root, '.git', 'packed-refs'), { force: true });
    fs.mkdirSync(path.join(root, '.git', 'refs', 'heads'), { recursive: true });
    fs.writeFileSync(path.join(root, '.git', 'refs', 'heads', 'main'), `${otherHead}\n`);
    expectNothingOfOther(await historyOf(root));
  });
});

describe.skipIf(!HAS_MKFIFO)('row 3: a FIFO anywhere the git reader looks is never opened', () => {
  it('a FIFO named .git at the root', async () => {
    const root = fresh('fifo-root');
    fs.writeFileSync(path.join(root, 'a.ts'), 'export const a = 1;\n');
    mkfifo(path.join(root, '.git'));
    const h = await historyOf(root);
    expect(h).not.toBe('hung');
    expect(h).toMatchObject({ available: false });
  });

  it('a FIFO named .git above the root', async () => {
    const above = fresh('fifo-above');
    const root = path.join(above, 'project');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'a.ts'), 'export const a = 1;\n');
    mkfifo(path.join(above, '.git'));
    const h = await historyOf(root);
    expect(h).not.toBe('hung');
    expect(h).toMatchObject({ available: false });
  });

  it.each([['HEAD'], ['index'], ['packed-refs'], ['objects/pack/*.idx'], ['objects/pack/*.pack']])(
    'a FIFO at .git/%s',
    async (what) => {
      const root = copyOfMine(`fifo-${what.replace(/\W/g, '')}`);
      const gitdir = path.join(root, '.git');
      const packDir = path.join(gitdir, 'objects', 'pack');
      const ext = what.startsWith('objects/pack/') ? what.slice('objects/pack/*'.length) : null;
      const at = ext
        ? path.join(
            packDir,
            fs.readdirSync(packDir).find((n) => n.endsWith(ext))!,
          )
        : path.join(gitdir, what);
      mkfifo(at);
      const t0 = Date.now();
      const h = await historyOf(root);
      expect(h).not.toBe('hung');
      expect(Date.now() - t0).toBeLessThan(DEADLINE_MS);
    },
  );
});
