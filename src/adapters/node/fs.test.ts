import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { searchAll } from '../../core/grep/search';
import { NEVER_YIELD } from '../../core/jobs/yielder';
import { CodeIndexService } from '../../core/rank/service';
import { Workspace } from '../../core/source/workspace';
import { readText } from '../../core/walk/walk';
import { decodeBytes } from '../../core/walk/decode';
import { ASCII_CHECK_BYTES, NodeFsSource } from './fs';

describe('NodeFsSource.decode', () => {
  const source = new NodeFsSource(os.tmpdir());
  it('answers exactly like decodeBytes for any bytes (property)', () => {
    const byte = fc.oneof(
      fc.integer({ min: 0x20, max: 0x7e }),
      fc.integer({ min: 0, max: 255 }),
      fc.constantFrom(
        0xc3,
        0xa9,
        0xe2,
        0x82,
        0xac,
        0xf0,
        0x9f,
        0x98,
        0x80,
        0xef,
        0xbb,
        0xbf,
        0xff,
        0xfe,
        0x0a,
      ),
    );
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 64 }), (arr) => {
        const bytes = new Uint8Array(arr);
        expect(source.decode(bytes)).toEqual(decodeBytes(bytes));
      }),
      { numRuns: 3000 },
    );
  });
  it.each([
    ['ascii', [0x61, 0x62]],
    ['utf-8', [0x63, 0x61, 0x66, 0xc3, 0xa9]],
    ['invalid', [0x61, 0xe2, 0x82, 0x62, 0xff]],
    ['bom', [0xef, 0xbb, 0xbf, 0x61]],
    ['utf-16le', [0xff, 0xfe, 0x61, 0x00]],
    ['binary', [0x61, 0x00, 0x62]],
  ])('%s', (_n, arr) => expect(source.decode(new Uint8Array(arr))).toEqual(decodeBytes(new Uint8Array(arr))));
});

describe('NodeFsSource.decodeUtf8', () => {
  const source = new NodeFsSource(os.tmpdir());
  const reference = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
  it('decodes any range of any bytes exactly as TextDecoder does, from a Buffer or a plain Uint8Array (property)', () => {
    const byte = fc.oneof(
      fc.integer({ min: 0x20, max: 0x7e }),
      fc.integer({ min: 0, max: 255 }),
      fc.constantFrom(
        0xc3,
        0xa9,
        0xe2,
        0x82,
        0xac,
        0xf0,
        0x9f,
        0x98,
        0x80,
        0xed,
        0xa0,
        0xef,
        0xbb,
        0xbf,
        0xff,
        0x0a,
        0x00,
      ),
    );
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 64 }), fc.nat(), fc.nat(), fc.boolean(), (arr, x, y, plain) => {
        const start = arr.length ? x % (arr.length + 1) : 0;
        const end = start + (arr.length - start ? y % (arr.length - start + 1) : 0);
        // a view into a larger buffer: offsets are the view's
        const backing = new Uint8Array(arr.length + 7).fill(0x41);
        backing.set(arr, 3);
        const view = plain ? backing.subarray(3, 3 + arr.length) : Buffer.from(backing.buffer, 3, arr.length);
        expect(source.decodeUtf8(view, start, end)).toBe(
          reference.decode(new Uint8Array(arr).subarray(start, end)),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('decodes long ranges (ASCII or with one other byte anywhere) exactly as TextDecoder does (property)', () => {
    const ascii = fc.array(fc.integer({ min: 0, max: 0x7f }), {
      minLength: ASCII_CHECK_BYTES - 2,
      maxLength: 4 * ASCII_CHECK_BYTES,
    });
    const other = fc.option(fc.tuple(fc.nat(), fc.constantFrom(0x80, 0xc3, 0xa9, 0xe2, 0xef, 0xf0, 0xff)), {
      nil: undefined,
    });
    fc.assert(
      fc.property(ascii, other, fc.nat(8), fc.nat(8), fc.boolean(), (arr, put, cutStart, cutEnd, plain) => {
        if (put) arr[put[0] % arr.length] = put[1];
        const start = Math.min(cutStart, arr.length);
        const end = Math.max(start, arr.length - cutEnd);
        const backing = new Uint8Array(arr.length + 7).fill(0xe9); // not ASCII around the view: the check must stay inside it
        backing.set(arr, 3);
        const view = plain ? backing.subarray(3, 3 + arr.length) : Buffer.from(backing.buffer, 3, arr.length);
        expect(source.decodeUtf8(view, start, end)).toBe(
          reference.decode(new Uint8Array(arr).subarray(start, end)),
        );
      }),
      { numRuns: 2000 },
    );
  });
});

describe('NodeFsSource.readRanges and the segmented index on disk', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-ranges-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const lines = Array.from({ length: 3000 }, (_, i) =>
    i % 997 === 500
      ? `  const needle${i} = find(haystack) // line ${i + 1}`
      : `  filler line ${i + 1} with some words`,
  );
  const text = lines.join('\n') + '\n';
  fs.writeFileSync(path.join(dir, 'big.ts'), text);
  fs.writeFileSync(path.join(dir, 'small.ts'), 'const needle = 1\n');

  it('fills exactly the asked ranges, and answers null when the size is not the indexed one', async () => {
    const source = new NodeFsSource(dir);
    const got = await source.readRanges(
      'big.ts',
      [
        [10, 20],
        [5000, 5100],
      ],
      text.length,
    );
    expect(got).not.toBeNull();
    expect(got!.length).toBe(text.length);
    expect(Buffer.from(got!.subarray(10, 20)).toString()).toBe(text.slice(10, 20));
    expect(Buffer.from(got!.subarray(5000, 5100)).toString()).toBe(text.slice(5000, 5100));
    expect(await source.readRanges('big.ts', [[0, 4]], text.length + 1)).toBeNull();
    // the same size, another modified time: changed since it was indexed (also through statFile's held descriptor)
    const mtimeMs = fs.statSync(path.join(dir, 'big.ts')).mtimeMs;
    expect(await source.readRanges('big.ts', [[0, 4]], text.length, mtimeMs)).not.toBeNull();
    expect(await source.readRanges('big.ts', [[0, 4]], text.length, mtimeMs - 1000)).toBeNull();
    expect((await source.statFile('big.ts'))?.mtimeMs).toBe(mtimeMs);
    expect(await source.readRanges('big.ts', [[0, 4]], text.length, mtimeMs + 1000)).toBeNull();
    expect(await source.statFile('big.ts')).toMatchObject({ size: text.length });
    expect(await source.readRanges('big.ts', [[0, 4]], text.length, mtimeMs)).not.toBeNull();
    await expect(source.readRanges('missing.ts', [[0, 4]], 4)).rejects.toMatchObject({
      code: 'NotFound',
      message: 'No such file or directory: missing.ts',
    });
  });

  it('reads only candidate segments and finds the same lines, numbers and context as the scan', async () => {
    const source = new NodeFsSource(dir);
    let ranged = 0;
    const readRanges = source.readRanges.bind(source);
    source.readRanges = async (p, r, size) => {
      ranged++;
      const bytes = r.reduce((n, [s, e]) => n + e - s, 0);
      expect(bytes).toBeLessThan(text.length / 4); // a few segments, not the file
      return readRanges(p, r, size);
    };
    const ws = new Workspace([source]);
    const svc = new CodeIndexService(ws, async () => ({ chunkFile: () => [] }), undefined, 'index', {
      segmentChars: 2048,
    });
    await svc.refresh({ yielder: NEVER_YIELD });
    for (const req of [
      { pattern: 'needle\\d+ = find', mode: 'regex' as const, contextBefore: 2, contextAfter: 2 },
      { pattern: 'NEEDLE', mode: 'literal' as const, caseMode: 'insensitive' as const },
    ]) {
      const plain = await searchAll(ws, req);
      const indexed = await searchAll(ws, req, { prefilter: svc.prefilter() });
      expect(indexed.matches.length).toBeGreaterThan(2);
      expect(indexed.matches).toEqual(plain.matches);
    }
    expect(ranged).toBe(2);
    // a file that changed size since it was indexed is searched whole, with its new lines
    fs.writeFileSync(path.join(dir, 'big.ts'), 'const needle9 = find(x)\n' + text);
    const req = { pattern: 'needle\\d+ = find', mode: 'regex' as const };
    const after = await searchAll(ws, req, { prefilter: svc.prefilter() });
    expect(after.matches.map((m) => m.line)).toEqual((await searchAll(ws, req)).matches.map((m) => m.line));
    expect(after.matches[0].line).toBe(1);
  });
});

describe('NodeFsSource.statFile (the search opens each file once for its stat and its read)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-statfile-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dir, 'sub'));
  fs.writeFileSync(path.join(dir, 'a.ts'), 'const needle = 1\n');
  fs.writeFileSync(path.join(dir, 'sub', 'b.ts'), 'let needle = 2\n');
  fs.symlinkSync('a.ts', path.join(dir, 'link.ts'));
  fs.symlinkSync('/etc/hostname', path.join(dir, 'out.ts'));
  fs.symlinkSync('missing.ts', path.join(dir, 'broken.ts'));
  try {
    execFileSync('mkfifo', [path.join(dir, 'pipe.ts')]);
  } catch {
    // no mkfifo: the FIFO case is left out
  }
  const real = fs.realpathSync(dir);
  /** Descriptors of this process open on files of `dir` (other tests' threads share the table: only ours count). */
  const openFds = () =>
    fs.readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(real + '/');
      } catch {
        return false;
      }
    }).length;

  it('answers exactly what stat answers for files, links in and out of the root, broken links, FIFOs, directories and missing paths', async () => {
    const source = new NodeFsSource(dir);
    if (fs.existsSync(path.join(dir, 'pipe.ts')))
      expect((await source.statFile('pipe.ts'))?.special).toBe('FIFO');
    for (const rel of [
      'a.ts',
      'sub/b.ts',
      'link.ts',
      'out.ts',
      'broken.ts',
      'pipe.ts',
      'sub',
      'nope.ts',
      'sub/nope/x.ts',
    ]) {
      const viaStat = await source.stat(rel).then(
        (s) => s,
        (e: Error) => e.message,
      );
      const viaOpen = await source.statFile(rel).then(
        (s) => s,
        (e: Error) => e.message,
      );
      expect(viaOpen, rel).toEqual(viaStat);
    }
  });

  it('the read that follows uses the file it opened; any other call closes it, so no descriptor is left behind', async () => {
    const source = new NodeFsSource(dir);
    const before = openFds();
    expect(before).toBe(0);
    await source.statFile('a.ts');
    expect(openFds()).toBe(before + 1);
    // the same bytes through the held descriptor, even after the path is gone (as any open file)
    fs.renameSync(path.join(dir, 'a.ts'), path.join(dir, 'a.moved'));
    try {
      expect(Buffer.from(await source.readTransient('a.ts')).toString()).toBe('const needle = 1\n');
      expect(openFds()).toBe(before);
      await source.statFile('sub/b.ts');
      await source.stat('sub'); // another call: the held file is closed
      expect(openFds()).toBe(before);
      await expect(source.read('a.ts')).rejects.toThrow(/No such file/);
    } finally {
      fs.renameSync(path.join(dir, 'a.moved'), path.join(dir, 'a.ts'));
    }
    const ws = new Workspace([source]);
    const { matches } = await searchAll(ws, { pattern: 'needle', mode: 'literal' }, { yielder: NEVER_YIELD });
    expect(matches.map((m) => `${m.path}:${m.line}`).sort()).toEqual(['a.ts:1', 'link.ts:1', 'sub/b.ts:1']);
    expect(openFds()).toBeLessThanOrEqual(1); // at most the last file the search opened
  });
});

describe('readText with several readers in flight', () => {
  it("gives each caller its own file's text (a transient buffer would hand the first the second's bytes)", async () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-readtext-'));
    fs.writeFileSync(path.join(d, 'main.c'), '#include "util.h"\nint main(void) { return util(); }\n');
    fs.writeFileSync(path.join(d, 'package.json'), '{"name":"mixed"}\n');
    const source = new NodeFsSource(d);
    const [c, json] = await Promise.all([readText(source, 'main.c'), readText(source, 'package.json')]);
    expect(c.ok && c.text).toBe('#include "util.h"\nint main(void) { return util(); }\n');
    expect(json.ok && json.text).toBe('{"name":"mixed"}\n');
    fs.rmSync(d, { recursive: true, force: true });
  });
});
