/**
 * Lines past the delivered ones are only counted; a plain case-sensitive literal's lines are then
 * counted from their bytes, never decoded. The counts (and the delivered lines) are exactly the
 * reference path's (every file decoded whole), for CRLF files, invalid UTF-8 around the literal,
 * long lines, a whole-word or case-insensitive literal (which must still be decoded), regexes
 * (whose lines past the cap are tested for a hit, with no number or context), and caps.
 */
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { compileMatcher } from './regex';
import { searchAll } from './search';
import type { GrepRequest } from './types';

function files(): Record<string, string | Uint8Array> {
  const out: Record<string, string | Uint8Array> = {};
  for (let i = 0; i < 12; i++)
    out[`src/f${i}.ts`] = Array.from({ length: 50 }, (_, k) =>
      k % 3 === 0
        ? `  return x${k}; // returned`
        : k % 5 === 0
          ? `  const returnValue = ${k};`
          : `  y(${k});`,
    ).join(i % 2 ? '\r\n' : '\n');
  out['src/bad.ts'] = new Uint8Array([0xe2, 0x82, ...new TextEncoder().encode('return 1;\n'), 0xff, 0x0a]);
  out['src/long.ts'] = 'x'.repeat(5000) + ' return ' + 'y'.repeat(5000) + '\nreturn\n';
  return out;
}

const CASES: GrepRequest[] = [
  { pattern: 'return', mode: 'literal', caseMode: 'sensitive' },
  { pattern: 'return', mode: 'regex', caseMode: 'sensitive' },
  { pattern: 'return', mode: 'literal', caseMode: 'sensitive', wholeWord: true },
  { pattern: 'RETURN', mode: 'literal', caseMode: 'insensitive' },
  { pattern: 'return x', mode: 'literal', caseMode: 'sensitive', contextBefore: 1 },
  // regexes past the cap: a line holding the literal but no hit is not counted (`returned`,
  // `returnValue`); the long line is decided by its byte windows, the others decoded
  { pattern: 'return\\s+x\\d+', mode: 'regex', caseMode: 'sensitive' },
  { pattern: 'x return y+', mode: 'regex', caseMode: 'sensitive' },
  { pattern: '\\breturn\\b', mode: 'regex', caseMode: 'sensitive', contextAfter: 1 },
];

describe('lines only counted', () => {
  it('the matcher says when a line is found by its bytes alone', () => {
    const m = (p: string, o: Partial<Parameters<typeof compileMatcher>[1]> = {}) =>
      compileMatcher(p, { mode: 'literal', caseMode: 'sensitive', ...o }).plainBytesLiteral;
    expect(m('return')).toBe('return');
    expect(m('return', { wholeWord: true })).toBeNull();
    expect(m('return', { caseMode: 'insensitive' })).toBeNull();
    expect(m('ret.rn', { mode: 'regex' })).toBeNull();
  });

  for (const req of CASES)
    for (const maxResults of [0, 3, 40, 10_000])
      it(`${JSON.stringify(req)} delivering ${maxResults}: the reference path's lines and count`, async () => {
        const ws = new Workspace([new MemorySource(files())]);
        const r = { ...req, maxResults, maxLineChars: 200 };
        const fast = await searchAll(ws, r);
        const reference = await searchAll(ws, r, { literalLines: false });
        expect(fast.summary.total).toBe(reference.summary.total);
        expect(fast.matches).toEqual(reference.matches);
        expect(fast.summary.total).toBeGreaterThan(0);
      });
});
