/**
 * read_file's line range over a file too large to hold whole: the bytes are streamed, the
 * asked lines are kept (at most READ_FILE_MAX_BYTES of them) and nothing after the range is
 * decoded; the rest of the file is only counted, newline by newline, in constant memory, so
 * totalLines stays exact. Lines are split and numbered exactly as splitLines() does on the
 * whole text (a final terminator starts no line; a CR before LF is dropped).
 */
import { QuarryError } from '../errors';
import { READ_FILE_MAX_BYTES } from '../limits';
import type { FileSource } from '../source/types';
import { BINARY_SNIFF_BYTES } from '../walk/decode';

/** Split text into lines the way editors number them: a final terminator does not start a line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

const utf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;

export type StreamedRange = { binary: true } | { binary: false; lines: string[]; totalLines: number };

/** Lines lineStart..lineEnd (1-based, inclusive; lineEnd undefined = to the end) of a large file. */
export async function streamLineRange(
  readChunks: NonNullable<FileSource['readChunks']>,
  rel: string,
  display: string,
  lineStart: number,
  lineEnd: number | undefined,
): Promise<StreamedRange> {
  const kept: Uint8Array[] = [];
  let keptBytes = 0;
  let line = 1; // the line the next byte belongs to
  let newlines = 0;
  let lastByte = -1;
  let first = true;
  let total = 0;
  for await (const chunk of withHead(readChunks(rel, CHUNK_BYTES), BINARY_SNIFF_BYTES)) {
    let bytes = chunk;
    if (first) {
      // decided on the first 8 KiB, in decodeBytes()'s order: a UTF-8 BOM, a UTF-16 BOM, a NUL
      first = false;
      if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
        bytes = bytes.subarray(3);
      else if (
        bytes.length >= 2 &&
        ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
      ) {
        throw new QuarryError(
          'InvalidArgument',
          `"${display}" is a UTF-16 file over ${READ_FILE_MAX_BYTES} bytes: read_file reads such files whole only`,
          {
            field: 'filePath',
            value: display,
          },
        );
      } else if (bytes.subarray(0, BINARY_SNIFF_BYTES).indexOf(0) !== -1) return { binary: true };
    }
    total += bytes.length;
    if (bytes.length) lastByte = bytes[bytes.length - 1];
    let at = 0;
    while (at < bytes.length) {
      const nl = bytes.indexOf(NEWLINE, at);
      const stop = nl === -1 ? bytes.length : nl + 1;
      if (line >= lineStart && (lineEnd === undefined || line <= lineEnd)) {
        keptBytes += stop - at;
        if (keptBytes > READ_FILE_MAX_BYTES) {
          throw new QuarryError(
            'InvalidArgument',
            `Lines ${lineStart}-${lineEnd ?? 'end'} of "${display}" are over ${READ_FILE_MAX_BYTES} bytes: ask for fewer lines`,
            {
              field: 'lineEnd',
              value: lineEnd,
            },
          );
        }
        kept.push(new Uint8Array(bytes.subarray(at, stop))); // a copy: the chunk's buffer is reused
      }
      if (nl === -1) break;
      newlines++;
      line++;
      at = stop;
    }
  }
  const totalLines = total === 0 ? 0 : newlines + (lastByte === NEWLINE ? 0 : 1);
  const joined = join(kept, keptBytes);
  // binary was decided on the first 8 KiB, as for a whole file; the range is plain UTF-8
  return { binary: false, lines: splitLines(utf8.decode(joined)), totalLines };
}

/** The same bytes, the first piece holding at least `head` bytes (or the whole file when shorter). */
async function* withHead(chunks: AsyncIterable<Uint8Array>, head: number): AsyncIterable<Uint8Array> {
  let pending: Uint8Array[] | null = [];
  let size = 0;
  for await (const chunk of chunks) {
    if (!pending) {
      yield chunk;
      continue;
    }
    pending.push(new Uint8Array(chunk)); // a copy: the source reuses its buffer
    size += chunk.length;
    if (size >= head) {
      yield join(pending, size);
      pending = null;
    }
  }
  if (pending && size) yield join(pending, size);
}

function join(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}
