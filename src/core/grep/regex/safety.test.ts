/**
 * Safety: catastrophic-backtracking patterns on a 100,000-char line must finish (a hang here
 * means the bound or the strategy choice is wrong) and give the right hits. No timing asserts.
 */
import { describe, expect, it } from 'vitest';
import { compileMatcher } from './index';

const LONG = 'a'.repeat(100_000);

function run(pattern: string, text: string) {
  const m = compileMatcher(pattern, { mode: 'regex', caseMode: 'sensitive' });
  const hits: Array<[number, number]> = [];
  m.scan(text, (s, e) => {
    hits.push([s, e]);
  });
  return { strategy: m.strategy, hits, lineHits: m.lineHits(text) };
}

describe('pathological patterns on one 100 KB line', () => {
  it('(a+)+$ runs on re2js and matches the whole line', () => {
    const r = run('(a+)+$', LONG);
    expect(r.strategy).toBe('re2');
    expect(r.hits).toEqual([[0, LONG.length]]);
    expect(r.lineHits).toEqual([[0, LONG.length]]);
  });

  it('(a+)+$ with a failing end (the classic exponential case)', () => {
    const r = run('(a+)+$', LONG + '!');
    expect(r.strategy).toBe('re2');
    expect(r.hits).toEqual([]);
  });

  it('(a|a)*b is not native and finds nothing', () => {
    const r = run('(a|a)*b', LONG);
    expect(r.strategy).not.toBe('native');
    expect(r.hits).toEqual([]);
    expect(run('(a|a)*b', LONG + 'b').hits).toEqual([[0, LONG.length + 1]]);
  });

  it('(\\w+\\s?)+$ is not native and matches the whole line', () => {
    const r = run('(\\w+\\s?)+$', LONG);
    expect(r.strategy).toBe('re2');
    expect(r.hits).toEqual([[0, LONG.length]]);
    expect(run('(\\w+\\s?)+$', LONG + '!').hits).toEqual([]);
  });

  it('a*a*a*a*a*b is not native and finds nothing', () => {
    const r = run('a*a*a*a*a*b', LONG);
    expect(r.strategy).not.toBe('native');
    expect(r.hits).toEqual([]);
  });

  it('a long line among short ones: short lines on V8, the long one on re2js', () => {
    const text = ['aab', LONG, 'ab', LONG + 'b', 'b'].join('\n');
    const r = run('a*a*a*a*a*b', text);
    expect(r.strategy).toBe('mixed');
    const off = 3 + 1 + LONG.length + 1 + 2 + 1;
    expect(r.hits).toEqual([
      [0, 3],
      [3 + 1 + LONG.length + 1, 3 + 1 + LONG.length + 1 + 2],
      [off, off + LONG.length + 1],
      [off + LONG.length + 2, off + LONG.length + 3],
    ]);
  });

  it('many short lines of a quadratic pattern stay on V8', () => {
    const text = Array.from({ length: 5_000 }, (_, i) => 'a'.repeat(i % 40) + (i % 3 ? 'b' : '')).join('\n');
    const r = run('\\w*b', text);
    expect(r.strategy).toBe('mixed');
    expect(r.hits.length).toBe(
      Array.from({ length: 5_000 }, (_, i) => (i % 3 ? 1 : 0)).reduce((a: number, b) => a + b, 0),
    );
  });
});
