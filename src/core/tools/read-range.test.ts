import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBytes } from '../walk/decode';
import { splitLines, streamLineRange } from './read-range';

/** A source that hands the bytes over in the given piece sizes (cycled), reusing one buffer as Node's does. */
function chunked(bytes: Uint8Array, sizes: number[]) {
  return async function* () {
    const buf = new Uint8Array(Math.max(...sizes));
    for (let at = 0, i = 0; at < bytes.length; i++) {
      const n = Math.min(sizes[i % sizes.length], bytes.length - at);
      buf.set(bytes.subarray(at, at + n));
      yield buf.subarray(0, n);
      at += n;
    }
  };
}

describe('streamLineRange', () => {
  it('answers exactly as splitLines over the whole decoded file, however the bytes arrive (property)', async () => {
    const byte = fc.constantFrom(0x61, 0x62, 0x0a, 0x0d, 0x20, 0xc3, 0xa9, 0x00);
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.array(byte, { maxLength: 60 }),
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 12 }),
        fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
        async (bom, body, sizes, start, span) => {
          const bytes = new Uint8Array(bom ? [0xef, 0xbb, 0xbf, ...body] : body);
          const end = span === undefined ? undefined : start + span;
          const got = await streamLineRange((_p, _n) => chunked(bytes, sizes)(), 'f', 'f', start, end);
          const whole = decodeBytes(bytes);
          if (whole.binary) {
            expect(got.binary).toBe(true);
            return;
          }
          const lines = splitLines(whole.text);
          expect(got).toEqual({
            binary: false,
            totalLines: lines.length,
            lines: lines.slice(start - 1, end === undefined ? undefined : end),
          });
        },
      ),
      { numRuns: 3000 },
    );
  });
});
