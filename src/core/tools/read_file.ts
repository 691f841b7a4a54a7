/**
 * read_file (seed 000): a file by path (absolute or relative to a root), optionally a
 * 1-based inclusive line range. A missing file answers found:false rather than failing.
 */
import { QuarryError } from '../errors';
import { decodeBytes } from '../walk/decode';
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

/** Split text into lines the way editors number them: a final terminator does not start a line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

export const readFile: Tool<ReadFileResult> = {
  name: 'read_file',
  description: 'Read the contents of a code file, optionally with line range selection (1-indexed, inclusive).',
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
    const lineStart = args.lineStart === undefined || args.lineStart === null ? undefined : optionalInt(args, 'lineStart', 1, 1);
    const lineEnd = args.lineEnd === undefined || args.lineEnd === null ? undefined : optionalInt(args, 'lineEnd', 1, 1);
    if (lineStart !== undefined && lineEnd !== undefined && lineStart > lineEnd) {
      throw new QuarryError('InvalidArgument', `lineStart (${lineStart}) must not be greater than lineEnd (${lineEnd})`, {
        field: 'lineStart',
        value: lineStart,
      });
    }
    const candidates = ctx.workspace.resolveAll(filePath, 'filePath');
    for (const c of candidates) {
      const stat = await c.source.stat(c.rel);
      if (!stat) continue;
      if (stat.kind === 'directory') {
        throw new QuarryError('InvalidArgument', `filePath is a directory, not a file: "${filePath}"`, { field: 'filePath', value: filePath });
      }
      const decoded = decodeBytes(await c.source.read(c.rel));
      if (decoded.binary) {
        return { content: '', filePath: c.display, absolutePath: c.absolute, lineStart: 0, lineEnd: 0, totalLines: 0, found: true, binary: true };
      }
      const lines = splitLines(decoded.text);
      const total = lines.length;
      const start = lineStart ?? 1;
      if (total > 0 && start > total) {
        throw new QuarryError('InvalidArgument', `lineStart (${start}) is past the end of the file (${total} lines)`, {
          field: 'lineStart',
          value: start,
          totalLines: total,
        });
      }
      const end = Math.min(lineEnd ?? total, total);
      return {
        content: lines.slice(start - 1, end).join('\n'),
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
