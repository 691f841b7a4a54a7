/** explore through the real `quarry` bin: every depth on a fixture git repository, and on real directories. */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = path.resolve(__dirname, '../../bin/quarry.mjs');
const APPS = path.resolve(__dirname, '../../test/fixtures/apps');

function quarry(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, QUARRY_ROOT: '' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const explore = (args: unknown, root: string) =>
  quarry(['call', 'explore', JSON.stringify(args), '--root', root, '--no-cache']);

let repo = '';
const git = (...args: string[]) => {
  const r = spawnSync(
    'git',
    ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', '-c', 'commit.gpgsign=false', ...args],
    { cwd: repo, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(r.stderr);
};
const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
  fs.writeFileSync(path.join(repo, rel), text);
};

beforeAll(() => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-explore-'));
  write('README.md', '# Mixed\n\nOne repository in four languages.\n');
  write(
    'package.json',
    JSON.stringify({
      name: 'mixed',
      version: '0.3.0',
      main: 'web/index.ts',
      dependencies: { zod: '^3.23.0' },
    }),
  );
  write('web/index.ts', "import { a } from './a';\nexport const run = () => a();\n");
  write('web/a.ts', "import { b } from './b';\nexport const a = () => b();\n");
  write('web/b.ts', "import { a } from './a';\nexport const b = (): number => (a ? 1 : 0);\n");
  write('py/app/__init__.py', '');
  write('py/app/main.py', 'from .models import User\n');
  write('py/app/models.py', 'class User:\n    pass\n');
  write('go.mod', 'module example.com/mixed\n\ngo 1.22\n');
  write(
    'cmd/tool/main.go',
    'package main\n\nimport "example.com/mixed/internal/store"\n\nfunc main() { store.Open() }\n',
  );
  write('internal/store/store.go', 'package store\n\nfunc Open() {}\n');
  write('c/main.c', '#include "util.h"\nint main(void) { return util(); }\n');
  write('c/util.h', 'int util(void);\n');
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'First commit');
  write('web/b.ts', "import { a } from './a';\nexport const b = (): number => (a ? 2 : 0);\n");
  git('commit', '-q', '-am', 'Change b');
  write('web/a.ts', "import { b } from './b';\nexport const a = () => b() + 1;\n");
});
afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

describe('quarry call explore', () => {
  it('shallow: tree and manifests', () => {
    const r = explore({ path: '.', depth: 'shallow' }, repo);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.analyzers.map((a: any) => a.name)).toEqual(['tree', 'manifests']);
    expect(out.tree).toMatch(/^quarry-explore-\w+\/\n/);
    expect(out.dependencies_detail.map((m: any) => m.path).sort()).toEqual(['go.mod', 'package.json']);
    expect(out.key_files[0].path).toBe('README.md');
  }, 60_000);

  it('deep: the import graph across four languages, and the git history with the uncommitted change', () => {
    const r = explore({ path: '.', depth: 'deep', focus: 'store open' }, repo);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.errors).toEqual([]);
    const edges = out.import_graph.edges.map((e: any) => `${e.from} -> ${e.to}`);
    expect(edges).toEqual(
      expect.arrayContaining([
        'web/index.ts -> web/a.ts',
        'py/app/main.py -> py/app/models.py',
        'cmd/tool/main.go -> internal/store/store.go',
        'c/main.c -> c/util.h',
      ]),
    );
    expect(out.import_graph.cycles).toEqual([
      { files: ['web/a.ts', 'web/b.ts'], path: ['web/a.ts', 'web/b.ts', 'web/a.ts'] },
    ]);
    expect(out.git_history_detail).toMatchObject({
      available: true,
      branch: 'main',
      uncommitted: [{ path: 'web/a.ts', status: 'modified' }],
    });
    expect(out.git_history_detail.commits.map((c: any) => c.message)).toEqual(['Change b', 'First commit']);
    expect(out.focus_findings_detail[0].path).toBe('internal/store/store.go');
  }, 60_000);

  it('a subfolder of a repository: its git history is the commits that touched it', () => {
    const r = explore({ path: 'web', depth: 'deep' }, repo);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.files_scanned).toBe(3);
    expect(out.git_history_detail.hotFiles[0]).toEqual({ path: 'web/b.ts', commits: 2 });
  }, 60_000);

  it('answers on real directories: a monorepo fixture and Quarry’s own core', () => {
    const mono = JSON.parse(explore({ path: '.', depth: 'standard' }, path.join(APPS, 'monorepo')).stdout);
    expect(mono.errors).toEqual([]);
    expect(mono.dependencies_detail.length).toBeGreaterThan(1);
    const core = explore({ path: 'explore', depth: 'deep' }, path.resolve(__dirname, '../core'));
    expect(core.code).toBe(0);
    const out = JSON.parse(core.stdout);
    expect(out.errors).toEqual([]);
    expect(out.import_graph.files).toBeGreaterThan(10);
    expect(out.patterns.length).toBeGreaterThan(0);
  }, 90_000);

  it.each([
    [{ depth: 'deep' }, 'InvalidArgument'],
    [{ path: '.', depth: 'everything' }, 'InvalidArgument'],
    [{ path: 'missing/folder' }, 'NotFound'],
    [{ path: '../..' }, 'PathOutsideRoot'],
  ])('refuses %j with %s and exit code 2', (args, code) => {
    const r = explore(args, repo);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe(code);
  });
});
