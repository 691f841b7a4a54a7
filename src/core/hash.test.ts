import { describe, expect, it } from 'vitest';
import { fnv1a, fnv1aStep, FNV_OFFSET } from './hash';

describe('fnv1a', () => {
  it('matches the published 32-bit FNV-1a vectors', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });

  it('hashes bytes as it hashes the same code units', () => {
    const bytes = new TextEncoder().encode('foobar');
    expect(fnv1a(bytes)).toBe(fnv1a('foobar'));
    expect(fnv1a(bytes, 3, 6)).toBe(fnv1a('bar'));
  });

  it('continues from a seed, and step by step gives the same bits', () => {
    expect(fnv1a('bar', 0, 3, fnv1a('foo'))).toBe(fnv1a('foobar'));
    let h = FNV_OFFSET;
    for (const c of 'foobar') h = fnv1aStep(h, c.charCodeAt(0));
    expect(h >>> 0).toBe(fnv1a('foobar'));
    expect(h).toBe(fnv1a('foobar') | 0);
  });
});
