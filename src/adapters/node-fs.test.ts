import fc from 'fast-check';
import * as os from 'node:os';
import { describe, expect, it } from 'vitest';
import { decodeBytes } from '../core/walk/decode';
import { NodeFsSource } from './node-fs';

describe('NodeFsSource.decode', () => {
  const source = new NodeFsSource(os.tmpdir());
  it('answers exactly like decodeBytes for any bytes (property)', () => {
    const byte = fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0, max: 255 }), fc.constantFrom(0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xef, 0xbb, 0xbf, 0xff, 0xfe, 0x0a));
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
