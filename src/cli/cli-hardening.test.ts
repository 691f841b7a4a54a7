/**
 * Issue 34 row 7: `--root ""` / `--root=` (a `--root "$REPO"` with REPO unset) is refused with
 * exit 2 and "--root is empty", in every command, instead of searching the working directory.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from './main';

async function run(argv: string[], env: Record<string, string> = {}) {
  let out = '';
  const stdin = new PassThrough();
  stdin.end(); // `quarry mcp` would otherwise read this process's stdin
  const code = await runCli(argv, {
    stdout: (s) => void (out += s),
    stderr: () => {},
    env,
    stdin,
  });
  return { code, out };
}

describe('row 7: an empty --root', () => {
  it.each([
    ['call, --root ""', ['call', 'read_file', '{"filePath":"package.json"}', '--root', '']],
    ['call, --root=', ['call', 'read_file', '{"filePath":"package.json"}', '--root=']],
    ['call, a second empty --root', ['call', 'list_directory', '{}', '--root', '.', '--root', '']],
    ['mcp', ['mcp', '--root', '']],
    ['chunks', ['chunks', '--stats', '--root=']],
    ['serve', ['serve', '--port', '0', '--root', '']],
  ])('%s: exit 2, "--root is empty"', async (_name, argv) => {
    const { code, out } = await run(argv, { QUARRY_ROOT: process.cwd() });
    expect(code).toBe(2);
    expect(JSON.parse(out)).toEqual({
      error: { code: 'InvalidArgument', message: '--root is empty', data: { field: 'root', value: '' } },
    });
  });

  it('a --root with no value at all is still "--root needs a directory"', async () => {
    const { code, out } = await run(['call', 'read_file', '{}', '--root']);
    expect(code).toBe(2);
    expect(JSON.parse(out).error.message).toBe('--root needs a directory');
  });
});
