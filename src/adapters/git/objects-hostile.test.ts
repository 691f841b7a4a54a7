/**
 * The object store on damaged and hostile stores built in memory: delta chains that loop or
 * never end, sizes that lie, damaged or missing packs beside good ones, and what a missing
 * object costs (packs already loaded are not read again).
 */
import { describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../test/rejection';
import { applyDelta, GitObjectStore } from './objects';
import {
  buildPack,
  bytes,
  insertDelta,
  looseFile,
  memoryFs,
  oidOf,
  varint,
  type PackEntry,
} from './pack-builder.testutil';

const GIT = '/repo/.git';
const PACKS = `${GIT}/objects/pack`;
const MIB = 1024 * 1024;
const loosePath = (oid: string) => `${GIT}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

function packFiles(name: string, entries: PackEntry[]): Record<string, Uint8Array> {
  const { pack, idx } = buildPack(entries);
  return { [`${PACKS}/${name}.pack`]: pack, [`${PACKS}/${name}.idx`]: idx };
}

function storeOf(entries: PackEntry[], options?: { maxObjectBytes?: number }) {
  const fs = memoryFs(packFiles('pack-a', entries));
  return { fs, store: new GitObjectStore(fs, GIT, options) };
}

const blob = (oid: string, content: string): PackEntry => ({ oid, type: 'blob', body: bytes(content) });

describe('delta chains that loop or never end', { timeout: 20_000 }, () => {
  it('a REF_DELTA whose base is itself is a corrupt pack, not a hang', async () => {
    const x = oidOf(1);
    const { store } = storeOf([{ oid: x, type: 'ref', baseOid: x, body: insertDelta(3, bytes('abc')) }]);
    const err = await rejectionOf(store.read(x));
    expect(err.code).toBe('Unreadable');
    expect(err.message).toMatch(/corrupt pack \/repo\/\.git\/objects\/pack\/pack-a\.pack: .*a delta cycle/);
  });

  it('two REF_DELTAs based on each other are a corrupt pack', async () => {
    const [x, y] = [oidOf(1), oidOf(2)];
    const { store } = storeOf([
      { oid: x, type: 'ref', baseOid: y, body: insertDelta(3, bytes('abc')) },
      { oid: y, type: 'ref', baseOid: x, body: insertDelta(3, bytes('abc')) },
    ]);
    for (const oid of [x, y])
      expect((await rejectionOf(store.read(oid))).message).toMatch(/corrupt pack .*a delta cycle/);
  });

  it('the delta depth carries across REF_DELTA bases: a chain past the limit is refused', async () => {
    const entries: PackEntry[] = [blob(oidOf(0), 'v')];
    for (let i = 1; i <= 4200; i++)
      entries.push({ oid: oidOf(i), type: 'ref', baseOid: oidOf(i - 1), body: insertDelta(1, bytes('v')) });
    const { store } = storeOf(entries);
    expect(text((await store.read(oidOf(100)))?.bytes)).toBe('v'); // a chain of 100 is fine
    const err = await rejectionOf(store.read(oidOf(4200)));
    expect(err.code).toBe('Unreadable');
    expect(err.message).toMatch(/corrupt pack .*delta chain deeper than 4096/);
  });

  it('an OFS_DELTA pointing at itself or before the pack starts is a corrupt pack', async () => {
    for (const back of [0, 5000]) {
      const { store } = storeOf([
        blob(oidOf(1), 'abc'),
        { oid: oidOf(2), type: 'ofs', back, body: insertDelta(3, bytes('abd')) },
      ]);
      expect(text((await store.read(oidOf(1)))?.bytes)).toBe('abc');
      const err = await rejectionOf(store.read(oidOf(2)));
      expect(err.code).toBe('Unreadable');
      expect(err.message).toMatch(
        new RegExp(`corrupt pack .*names a base ${back} bytes back, which is not an earlier entry`),
      );
    }
  });
});

describe('sizes that lie', () => {
  it('a pack entry declaring more than the maximum object size is refused before anything is allocated', async () => {
    const { store } = storeOf([{ ...blob(oidOf(1), 'abc'), size: 600 * MIB }]);
    const err = await rejectionOf(store.read(oidOf(1)));
    expect(err.code).toBe('Unreadable');
    expect(err.reason).toBe('tooLarge');
    expect(err.message).toMatch(/declares 629145600 bytes, over the 512 MiB limit/);
  });

  it('a pack entry that inflates past its declared size is refused (not cut to it)', async () => {
    const { store } = storeOf([{ ...blob(oidOf(1), 'x'.repeat(100)), size: 10 }]);
    const err = await rejectionOf(store.read(oidOf(1)));
    expect(err.code).toBe('Unreadable');
    expect(err.message).toMatch(/inflates past its declared 10 bytes/);
  });

  it('a delta declaring a result over the maximum is refused; an honest one applies', () => {
    const huge = new Uint8Array([3, ...varint(2 ** 40)]);
    expect(() => applyDelta(new Uint8Array(3), huge)).toThrow(/over the 512 MiB limit/);
    expect(() => applyDelta(new Uint8Array(3), new Uint8Array([3, ...varint(600 * MIB)]))).toThrow(
      /declares 629145600 bytes/,
    );
    expect(() => applyDelta(new Uint8Array(3), new Uint8Array([3, 2, 0x91, 1]))).toThrow(
      /copy instruction cut short/,
    );
    expect(text(applyDelta(bytes('abc'), insertDelta(3, bytes('xyz'))))).toBe('xyz');
  });

  it('a loose object over the maximum, or longer than its header says, fails cleanly', async () => {
    const [big, liar, noisy, huge] = [oidOf(1), oidOf(2), oidOf(3), oidOf(4)];
    let seed = 7;
    const random = Uint8Array.from(
      { length: 600 * 1024 },
      () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) >>> 16,
    );
    const fs = memoryFs({
      [loosePath(big)]: looseFile('blob', new Uint8Array(2 * MIB)),
      [loosePath(liar)]: looseFile('blob', new Uint8Array(2 * MIB), 10),
      [loosePath(noisy)]: looseFile('blob', random), // too large to inflate in one call under a 1 MiB limit: streamed
      [loosePath(huge)]: looseFile('blob', bytes('abc'), 600 * MIB),
    });
    const store = new GitObjectStore(fs, GIT, { maxObjectBytes: MIB });
    const over = await rejectionOf(store.read(big));
    expect(over.code).toBe('Unreadable');
    expect(over.reason).toBe('tooLarge');
    expect(over.message).toMatch(
      new RegExp(`loose object ${big} declares 2097152 bytes, over the 1 MiB limit`),
    );
    const lie = await rejectionOf(store.read(liar));
    expect(lie.message).toMatch(/inflates past its declared 10 bytes/);
    expect(Buffer.from((await store.read(noisy))!.bytes).equals(Buffer.from(random))).toBe(true);
    // the default limit refuses a header that claims 600 MiB
    const claim = await rejectionOf(new GitObjectStore(fs, GIT).read(huge));
    expect(claim.reason).toBe('tooLarge');
  });
});

describe('packs: reuse after a miss, damaged packs skipped', () => {
  const count = (list: string[], suffix: string) => list.filter((p) => p.endsWith(suffix)).length;

  it('a missing object keeps the packs loaded: each index and pack is read once', async () => {
    const { fs, store } = storeOf([blob(oidOf(1), 'one'), blob(oidOf(2), 'two')]);
    expect(text((await store.read(oidOf(1)))?.bytes)).toBe('one');
    expect(await Promise.all([store.read(oidOf(7)), store.read(oidOf(8)), store.read(oidOf(9))])).toEqual([
      null,
      null,
      null,
    ]);
    expect(await store.read(oidOf(9))).toBeNull();
    expect(text((await store.read(oidOf(2)))?.bytes)).toBe('two');
    expect(count(fs.reads, '.idx')).toBe(1);
    expect(count(fs.reads, '.pack')).toBe(1);
    // the first listing, one shared by the three misses at once, one for the last miss
    expect(fs.listings.length).toBeLessThanOrEqual(3);
  });

  it('a pack written after the first listing (a gc) is found on a miss; the loaded one is not read again', async () => {
    const { fs, store } = storeOf([blob(oidOf(1), 'one')]);
    expect(text((await store.read(oidOf(1)))?.bytes)).toBe('one');
    for (const [path, data] of Object.entries(packFiles('pack-b', [blob(oidOf(5), 'five')])))
      fs.files.set(path, data);
    expect(text((await store.read(oidOf(5)))?.bytes)).toBe('five');
    expect(text((await store.read(oidOf(1)))?.bytes)).toBe('one');
    expect(count(fs.reads, 'pack-a.idx')).toBe(1);
    expect(count(fs.reads, 'pack-a.pack')).toBe(1);
  });

  it('a damaged index is skipped, saying why; other packs and loose objects are still read', async () => {
    const fs = memoryFs({
      ...packFiles('pack-good', [blob(oidOf(1), 'packed')]),
      [`${PACKS}/pack-bad.idx`]: bytes('\xfftOc\0\0\0\x01 cut short'),
      [`${PACKS}/pack-bad.pack`]: bytes('PACK garbage'),
      [loosePath(oidOf(2))]: looseFile('blob', bytes('loose')),
    });
    const store = new GitObjectStore(fs, GIT);
    expect(text((await store.read(oidOf(1)))?.bytes)).toBe('packed');
    expect(text((await store.read(oidOf(2)))?.bytes)).toBe('loose');
    expect(store.skippedPacks).toEqual([
      {
        path: `${PACKS}/pack-bad.pack`,
        reason: expect.stringMatching(/pack-bad\.idx is not a version 2 pack index/),
      },
    ]);
  });

  it('an index whose pack is missing is skipped on first use; the object is read loose', async () => {
    const { idx } = buildPack([blob(oidOf(1), 'packed'), blob(oidOf(3), 'only packed')]);
    const fs = memoryFs({
      [`${PACKS}/pack-gone.idx`]: idx,
      [loosePath(oidOf(1))]: looseFile('blob', bytes('loose copy')),
    });
    const store = new GitObjectStore(fs, GIT);
    expect(text((await store.read(oidOf(1)))?.bytes)).toBe('loose copy');
    expect(await store.read(oidOf(3))).toBeNull();
    expect(store.skippedPacks).toEqual([
      {
        path: `${PACKS}/pack-gone.pack`,
        reason: expect.stringMatching(/pack-gone\.pack is missing or not a pack file/),
      },
    ]);
    expect(count(fs.reads, 'pack-gone.pack')).toBe(1); // not tried again for every object
  });
});
