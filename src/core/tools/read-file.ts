/**
 * read_file (seed 000): a file by path (absolute or relative to a root), optionally a
 * 1-based inclusive line range. A missing file answers found:false rather than failing.
 * Only regular files are read (a FIFO, socket or device is refused at once), a whole file
 * over READ_FILE_MAX_BYTES is refused (a line range of it is streamed instead), and a path
 * that leads out of the root through a symlink is refused by the source (PathOutsideRoot).
 */
import { QuarryError } from '../errors';
import { READ_FILE_MAX_BYTES } from '../limits';
import { decodeBytes } from '../walk/decode';
import { splitLines, streamLineRange } from './read-range';
import type { Tool } from './types';
import { ensureObject, optionalInt, requiredString } from './validate';

export interface ReadFileResult {
  content: string;
  filePath: string;
  absolutePath: string;
  lineStart: number;
  lineEnd: number;
  totalLines: number;
  found: boolean;
  /** Added: true when the file is binary (content is then empty). */
  binary?: boolean;
}

export { splitLines };

export const readFile: Tool<ReadFileResult> = {
  name: 'read_file',
  description:
    'Read the contents of a code file, optionally with line range selection (1-indexed, inclusive).',
  inputSchema: {
    type: 'object',
    properties: {
      filePath: { type: 'string', description: 'Path to file (absolute or relative to codebase paths)' },
      lineStart: { type: 'integer', minimum: 1, description: 'Starting line number (1-indexed)' },
      lineEnd: { type: 'integer', minimum: 1, description: 'Ending line number (1-indexed, inclusive)' },
    },
    required: ['filePath'],
    additionalProperties: false,
  },
  async execute(raw, ctx) {
    const args = ensureObject(raw);
    const filePath = requiredString(args, 'filePath');
    const lineStart =
      args.lineStart === undefined || args.lineStart === null
        ? undefined
        : optionalInt(args, 'lineStart', 1, 1);
    const lineEnd =
      args.lineEnd === undefined || args.lineEnd === null ? undefined : optionalInt(args, 'lineEnd', 1, 1);
    if (lineStart !== undefined && lineEnd !== undefined && lineStart > lineEnd) {
      throw new QuarryError(
        'InvalidArgument',
        `lineStart (${lineStart}) must not be greater than lineEnd (${lineEnd})`,
        {
          field: 'lineStart',
          value: lineStart,
        },
      );
    }
    const candidates = ctx.workspace.resolveAll(filePath, 'filePath');
    for (const c of candidates) {
      const stat = await c.source.stat(c.rel);
      if (!stat) continue;
      if (stat.kind === 'directory') {
        throw new QuarryError('InvalidArgument', `filePath is a directory, not a file: "${filePath}"`, {
          field: 'filePath',
          value: filePath,
        });
      }
      if (stat.kind !== 'file') {
        throw new QuarryError(
          'InvalidArgument',
          `filePath is not a regular file (${stat.special ?? 'a FIFO, socket or device'}): "${filePath}"`,
          {
            field: 'filePath',
            value: filePath,
            reason: 'notRegular',
          },
        );
      }
      const binaryResult = {
        content: '',
        filePath: c.display,
        absolutePath: c.absolute,
        lineStart: 0,
        lineEnd: 0,
        totalLines: 0,
        found: true,
        binary: true,
      };
      let lines: string[];
      let total: number;
      let offset = 0;
      if (stat.size > READ_FILE_MAX_BYTES) {
        if (lineStart === undefined && lineEnd === undefined) {
          throw new QuarryError(
            'InvalidArgument',
            `"${filePath}" is ${stat.size} bytes, over read_file's limit of ${READ_FILE_MAX_BYTES} bytes for a whole file: ask for a line range (lineStart, lineEnd)`,
            { field: 'filePath', value: filePath, size: stat.size, limit: READ_FILE_MAX_BYTES },
          );
        }
        const source = c.source;
        if (!source.readChunks)
          throw new QuarryError(
            'InvalidArgument',
            `"${filePath}" is over ${READ_FILE_MAX_BYTES} bytes and this source cannot stream it`,
            { field: 'filePath' },
          );
        const streamed = await streamLineRange(
          (p, n) => source.readChunks!(p, n),
          c.rel,
          c.display,
          lineStart ?? 1,
          lineEnd,
        );
        if (streamed.binary) return binaryResult;
        total = streamed.totalLines;
        lines = streamed.lines;
        offset = (lineStart ?? 1) - 1; // lines[0] is line lineStart
      } else {
        const decoded = decodeBytes(await c.source.read(c.rel));
        if (decoded.binary) return binaryResult;
        lines = splitLines(decoded.text);
        total = lines.length;
      }
      const start = lineStart ?? 1;
      if (total > 0 && start > total) {
        throw new QuarryError(
          'InvalidArgument',
          `lineStart (${start}) is past the end of the file (${total} lines)`,
          {
            field: 'lineStart',
            value: start,
            totalLines: total,
          },
        );
      }
      const end = Math.min(lineEnd ?? total, total);
      return {
        content: lines.slice(start - 1 - offset, end - offset).join('\n'),
        filePath: c.display,
        absolutePath: c.absolute,
        lineStart: total === 0 ? 0 : start,
        lineEnd: end,
        totalLines: total,
        found: true,
      };
    }
    const first = candidates[0];
    return {
      content: '',
      filePath: first.display,
      absolutePath: first.absolute,
      lineStart: lineStart ?? 0,
      lineEnd: lineEnd ?? 0,
      totalLines: 0,
      found: false,
    };
  },
};
