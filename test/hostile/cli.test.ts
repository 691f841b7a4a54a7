/**
 * Issue #14 through the real `quarry` bin and `quarry mcp`: exit codes and messages for user
 * mistakes, the cache that cannot be written, and (run as `nobody`, dropping root's privileges
 * with setpriv) entries the process may not read: a locked directory and a link into it.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHostileRepo, type HostileRepo } from './fixture.testutil';

const BIN = path.resolve(__dirname, '../../bin/quarry.mjs');
const NOBODY = 65534;
let repo: HostileRepo;

/** How to run a command as an unprivileged user here: nothing to do, setpriv, or not possible (null). */
function unprivileged(): string[] | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return [];
  spawnSync(process.execPath, [BIN, '--help']); // bundle the CLI as root first: nobody cannot write it
  const drop = ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--'];
  // nobody must be able to run the CLI from this checkout (node, bin/quarry.mjs, its bundle)
  const probe = spawnSync(drop[0], [...drop.slice(1), process.execPath, BIN, '--help'], { cwd: os.tmpdir() });
  return probe.status === 0 ? drop : null;
}

function quarry(
  args: string[],
  opts: { env?: Record<string, string | undefined>; asNobody?: string[] } = {},
) {
  const argv = [...(opts.asNobody ?? []), process.execPath, BIN, ...args];
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ PATH: process.env.PATH, QUARRY_ROOT: '', ...opts.env }))
    if (v !== undefined) env[k] = v;
  const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', env, cwd: os.tmpdir(), timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: () => JSON.parse(r.stdout) };
}

beforeAll(() => {
  repo = buildHostileRepo({ wide: false, big: false });
  // the CLI is bundled (as this user) before any test file runs: test/quarry-bundle.setup.ts
}, 120_000);
afterAll(() => repo?.cleanup());

describe('row 13: user mistakes exit 2 with a short message', () => {
  it.each([
    ['a NUL in filePath', { filePath: 'src/app.ts\u0000x' }, 'filePath must not contain a NUL character'],
    [
      'a 100 KB path',
      { filePath: 'x/'.repeat(50_000) },
      'filePath is too long: 100000 characters (the limit is 10000)',
    ],
  ])('%s', (_n, args, message) => {
    const r = quarry(['call', 'read_file', JSON.stringify(args), '--root', repo.root, '--no-cache']);
    expect(r.code).toBe(2);
    expect(r.json().error).toMatchObject({ code: 'InvalidArgument', message });
    expect(r.stdout.length).toBeLessThan(400);
  });

  it('a 40,000-character case-insensitive literal', () => {
    const r = quarry([
      'call',
      'search_corpus',
      JSON.stringify({ path: '.', pattern: 'ab'.repeat(20_000), case_sensitive: false }),
      '--root',
      repo.root,
      '--no-cache',
    ]);
    expect(r.code).toBe(2);
    expect(r.json().error.message).toBe('pattern is too long: 40000 characters (the limit is 10000)');
    expect(r.stdout.length).toBeLessThan(400);
  });

  it('a link out of the root exits 2 (PathOutsideRoot), naming the path only', () => {
    const r = quarry([
      'call',
      'read_file',
      '{"filePath":"root_link/etc/passwd"}',
      '--root',
      repo.root,
      '--no-cache',
    ]);
    expect(r.code).toBe(2);
    expect(r.json().error).toMatchObject({
      code: 'PathOutsideRoot',
      message: 'root_link/etc leads outside the root through a symbolic link',
    });
  });
});

describe('row 5: a cache directory that cannot be written', () => {
  it('warns once, answers from an in-memory index, leaves no temp file', () => {
    const file = path.join(repo.outside, 'not-a-dir');
    fs.writeFileSync(file, 'x');
    const r = quarry(['call', 'codebase_search', '{"query":"validateUser"}', '--root', repo.root], {
      env: { QUARRY_CACHE_DIR: path.join(file, 'cache') },
    });
    expect(r.code).toBe(0);
    expect(r.json().results[0].symbolName).toBe('validateUser');
    expect(r.stderr.match(/cannot write the index cache/g)).toHaveLength(1);
    expect(r.stderr).toContain('the index is kept in memory for this run');
    expect(fs.readdirSync(repo.outside).filter((n) => n.includes('.tmp'))).toEqual([]);
  });
});

describe('as an unprivileged user', () => {
  const drop = unprivileged();
  const skip = drop === null;
  if (skip)
    console.warn(
      'running as root and `nobody` cannot run the CLI here (no setpriv, or the checkout is private): the permission cases are skipped',
    );

  it.skipIf(skip)('row 3: a link into a locked directory is a skipped entry, not a failed search', () => {
    const r = quarry(
      ['call', 'search_corpus', '{"path":".","pattern":"validateUser"}', '--root', repo.root, '--no-cache'],
      { asNobody: drop! },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.json().result.total).toBeGreaterThan(0);
    expect(r.json().result.files_skipped).toBeGreaterThan(0);
    for (const tool of ['code_search', 'codebase_search']) {
      const t = quarry(['call', tool, '{"query":"validateUser"}', '--root', repo.root, '--no-cache'], {
        asNobody: drop!,
      });
      expect(t.code, `${tool}: ${t.stdout}`).toBe(0);
    }
    const read = quarry(
      ['call', 'read_file', '{"filePath":"into_locked.ts"}', '--root', repo.root, '--no-cache'],
      { asNobody: drop! },
    );
    expect(read.json().error).toMatchObject({
      code: 'Unreadable',
      message: 'Permission denied: into_locked.ts',
    });
  });

  it.skipIf(skip)(
    'row 14: a directory that cannot be entered is reported as skipped, with its reason',
    () => {
      const inner = quarry(
        ['call', 'list_directory', '{"directoryPath":"locked"}', '--root', repo.root, '--no-cache'],
        { asNobody: drop! },
      );
      expect(inner.code).toBe(0);
      expect(inner.json()).toMatchObject({
        items: [],
        found: true,
        skipped: [{ path: 'locked', reason: 'unreadable', detail: 'Permission denied: locked' }],
      });
      const top = quarry(
        [
          'call',
          'list_directory',
          '{"directoryPath":"","recursive":true}',
          '--root',
          repo.root,
          '--no-cache',
        ],
        { asNobody: drop! },
      );
      expect(top.json().skipped).toContainEqual({
        path: 'locked',
        reason: 'unreadable',
        detail: 'Permission denied: locked',
      });
      expect(top.json().skipped).toContainEqual({
        path: 'into_locked.ts',
        reason: 'unreadable',
        detail: 'Permission denied: into_locked.ts',
      });
    },
  );

  it.skipIf(skip)(
    'row 5: no home directory and a read-only cache directory: a warning and an in-memory index',
    () => {
      const readOnly = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-ro-cache-'));
      fs.chmodSync(readOnly, 0o555);
      try {
        for (const env of [{ QUARRY_CACHE_DIR: readOnly }, { HOME: undefined }, { HOME: '/nonexistent' }]) {
          const r = quarry(['call', 'codebase_search', '{"query":"validateUser"}', '--root', repo.root], {
            env,
            asNobody: drop!,
          });
          expect(r.code, JSON.stringify(env) + r.stdout).toBe(0);
          expect(r.json().results[0].symbolName).toBe('validateUser');
          expect(r.stderr, JSON.stringify(env)).toMatch(
            /(cannot write the index cache|no cache directory).*kept in memory for this run/,
          );
        }
        expect(fs.readdirSync(readOnly)).toEqual([]);
      } finally {
        fs.rmSync(readOnly, { recursive: true, force: true });
      }
    },
  );
});

describe('row 2 over MCP: a FIFO does not stop the server', () => {
  it('read_file on the FIFO is an error at once, and the server answers the next calls', async () => {
    if (!repo.hasFifo) return void console.warn('mkfifo is missing: FIFO case skipped');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--root', repo.root, '--no-cache'],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'quarry-hostile', version: '1.0.0' });
    await client.connect(transport);
    try {
      const fifo = await client
        .callTool({ name: 'read_file', arguments: { filePath: 'pipe.ts' } })
        .catch((e: Error) => e);
      expect(String((fifo as Error).message ?? JSON.stringify(fifo))).toContain('not a regular file (FIFO)');
      await client.ping();
      const ok = await client.callTool({
        name: 'read_file',
        arguments: { filePath: 'src/app.ts', lineStart: 1, lineEnd: 1 },
      });
      expect((ok.structuredContent as { content: string }).content).toBe(
        'export function validateUser(name: string) {',
      );
    } finally {
      await client.close();
    }
  }, 20_000);
});
