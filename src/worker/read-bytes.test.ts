/**
 * readBytes: the viewer's images. A text file comes from the snapshot, a file the walk kept out
 * as binary from the source it was read from; a file over the cap, one the walk refused for
 * another reason (ignored), a missing one and bad arguments are refused with clear errors.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EngineClient, inThreadTransport } from './client';
import { createEngineApi } from './engine';
import { READ_BYTES_MAX_BYTES } from './protocol';
import { rejectionOf } from '../../test/rejection';

// A PNG signature and a NUL: the walk sees a binary file.
const PNG = '\u0089PNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR';
const FILES = {
  'README.md': '# Hello\n',
  'img/logo.png': PNG,
  'img/icon.svg': '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>\n',
  '.gitignore': 'secret.png\n',
  'secret.png': PNG,
};
const utf8 = (s: string) => new TextEncoder().encode(s);

let client: EngineClient | null = null;
afterEach(() => {
  client?.dispose();
  client = null;
});

async function open(files: Record<string, string> = FILES, name = 'app'): Promise<EngineClient> {
  client = new EngineClient(() => inThreadTransport(createEngineApi({})));
  await client.openRepo({ kind: 'memory', name, files }).done;
  return client;
}

describe('readBytes', () => {
  it('reads a text file from the snapshot and a binary one from its source, byte for byte', async () => {
    const c = await open();
    const svg = await c.readBytes('img/icon.svg');
    expect(svg.path).toBe('img/icon.svg');
    expect([...svg.bytes]).toEqual([...utf8(FILES['img/icon.svg'])]);
    // the walk skipped it as binary (readFile refuses it), readBytes still has it
    expect((await rejectionOf(c.readFile('img/logo.png'))).data).toMatchObject({ reason: 'binary' });
    const png = await c.readBytes('img/logo.png');
    expect([...png.bytes]).toEqual([...utf8(PNG)]);
  });

  it('refuses a file over the cap, before and whatever the cap asked for', async () => {
    const c = await open();
    const size = utf8(PNG).byteLength;
    const err = await rejectionOf(c.readBytes('img/logo.png', size - 1));
    expect(err.code).toBe('Unreadable');
    expect(err.data).toMatchObject({ reason: 'tooLarge', bytes: size, limit: size - 1 });
    expect(err.message).toMatch(/^"img\/logo.png" is 0\.0 MB: files over 0\.0 MB are not shown$/);
    // exactly the cap is fine
    expect((await c.readBytes('img/logo.png', size)).bytes.byteLength).toBe(size);
    // a cap above the engine's own is lowered to it, not refused
    expect((await c.readBytes('img/logo.png', READ_BYTES_MAX_BYTES * 4)).bytes.byteLength).toBe(size);
  });

  it('refuses what the walk refused for another reason, and what is not there', async () => {
    const c = await open();
    const ignored = await rejectionOf(c.readBytes('secret.png'));
    expect(ignored.code).toBe('Unreadable');
    expect(ignored.data).toMatchObject({ reason: 'ignored' });
    const missing = await rejectionOf(c.readBytes('img/nope.png'));
    expect(missing.code).toBe('NotFound');
    expect(missing.message).toBe('No such file: img/nope.png');
    expect((await rejectionOf(c.readBytes('img'))).code).toBe('NotFound');
  });

  it('checks its arguments', async () => {
    const c = await open();
    for (const bad of [0, -1, Number.NaN, Infinity]) {
      const err = await rejectionOf(c.readBytes('img/logo.png', bad));
      expect(err.code).toBe('InvalidArgument');
      expect(err.data.field).toBe('maxBytes');
    }
    const empty = await rejectionOf(c.readBytes(''));
    expect(empty.code).toBe('InvalidArgument');
    expect(empty.data.field).toBe('path');
  });

  it('routes a path of a workspace of several roots to its root', async () => {
    const c = await open();
    await c.openRepo(
      { kind: 'memory', name: 'lib', files: { 'pic.png': PNG, 'a.ts': 'export const a = 1;\n' } },
      { add: true },
    ).done;
    const png = await c.readBytes('lib/pic.png');
    expect(png.path).toBe('lib/pic.png');
    expect([...png.bytes]).toEqual([...utf8(PNG)]);
    expect((await c.readBytes('app/img/logo.png')).bytes.byteLength).toBe(utf8(PNG).byteLength);
    expect((await rejectionOf(c.readBytes('other/pic.png'))).data).toMatchObject({ reason: 'noSuchRoot' });
  });
});
