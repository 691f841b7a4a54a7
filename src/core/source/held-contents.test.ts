import { describe, expect, it } from 'vitest';
import { HeldContents } from './held-contents';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : undefined);

describe('HeldContents', () => {
  it('holds files packed in shared blocks and gives each back by path and stamp', () => {
    const held = new HeldContents(1 << 20, 64);
    held.hold('a.ts', bytes('alpha\n'), 10);
    held.hold('b.ts', bytes('beta\n'), 20);
    expect(text(held.get('a.ts'))).toBe('alpha\n');
    expect(text(held.get('b.ts', 5, 20))).toBe('beta\n');
    expect(held.get('b.ts', 6)).toBeUndefined(); // another size: changed since it was held
    expect(held.get('b.ts', 5, 21)).toBeUndefined(); // another time
    expect(held.get('c.ts')).toBeUndefined();
    expect(held.stats()).toMatchObject({ files: 2, bytes: 11, allocated: 64 });
  });

  it('a copy, not the caller buffer: writing the source afterwards changes nothing held', () => {
    const held = new HeldContents();
    const b = bytes('original');
    held.hold('a', b, 1);
    b.fill(0);
    expect(text(held.get('a'))).toBe('original');
  });

  it('replaces a file held again and forgets a dropped one', () => {
    const held = new HeldContents(1 << 20, 64);
    held.hold('a', bytes('one'), 1);
    held.hold('a', bytes('three'), 2);
    expect(text(held.get('a'))).toBe('three');
    expect(held.get('a', 3, 1)).toBeUndefined();
    held.drop('a');
    expect(held.get('a')).toBeUndefined();
    expect(held.stats()).toMatchObject({ files: 0, bytes: 0 });
  });

  it('past its budget holds nothing more, and says which files (and bytes) are read from disk', () => {
    const held = new HeldContents(10, 64);
    expect(held.hold('a', bytes('12345678'), 1)).toBe(true);
    expect(held.hold('b', bytes('1234'), 1)).toBe(false);
    expect(held.get('b')).toBeUndefined();
    expect(held.stats()).toMatchObject({ files: 1, bytes: 8, missedFiles: 1, missedBytes: 4 });
    held.drop('a'); // room again
    expect(held.hold('b', bytes('1234'), 1)).toBe(true);
    expect(held.stats()).toMatchObject({ files: 1, bytes: 4, missedFiles: 0, missedBytes: 0 });
  });

  it('reclaims holes by compacting: every file still reads back whole, and fewer bytes are allocated', () => {
    const held = new HeldContents(1 << 30, 100);
    const want = new Map<string, string>();
    for (let i = 0; i < 200; i++) {
      const s = `file ${i} `.repeat(1 + (i % 7));
      held.hold(`f${i}`, bytes(s), i);
      want.set(`f${i}`, s);
    }
    const before = held.stats().allocated;
    for (let i = 0; i < 200; i += 3) {
      held.drop(`f${i}`);
      want.delete(`f${i}`);
    }
    expect(held.stats().allocated).toBeLessThan(before);
    for (const [p, s] of want) expect(text(held.get(p))).toBe(s);
    expect(held.stats().files).toBe(want.size);
  });

  it('gives a file larger than a block a block of its own', () => {
    const held = new HeldContents(1 << 20, 16);
    held.hold('small', bytes('abc'), 1);
    held.hold('big', bytes('x'.repeat(40)), 1);
    held.hold('small2', bytes('def'), 1);
    expect(text(held.get('big'))).toBe('x'.repeat(40));
    expect(text(held.get('small'))).toBe('abc');
    expect(text(held.get('small2'))).toBe('def');
  });

  it('trim gives back the unused end of the last block, and holding goes on after it', () => {
    const held = new HeldContents(1 << 20, 64);
    held.hold('a', bytes('0123456789'), 1);
    expect(held.stats().allocated).toBe(64);
    held.trim();
    expect(held.stats().allocated).toBe(10);
    expect(text(held.get('a'))).toBe('0123456789');
    held.hold('b', bytes('abc'), 1);
    expect(text(held.get('b'))).toBe('abc');
    expect(text(held.get('a'))).toBe('0123456789');
  });
});
