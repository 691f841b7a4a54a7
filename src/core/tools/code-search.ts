/**
 * code_search (seed 000): exact text or regex, `fileType`, `maxResults` (default 10),
 * `{ matches: [{ path, line, content }], total }` where total counts every matching line.
 * A query that is not a valid regex is searched as literal text, and the answer says so.
 */
import { QuarryError } from '../errors';
import { searchAll } from '../grep/search';
import { isValidRegex } from '../grep/regex';
import type { Tool } from './types';
import { truncateLine } from './types';
import { ensureObject, optionalInt, optionalString, requiredString } from './validate';

export interface CodeSearchResult {
  matches: Array<{ path: string; line: number; content: string }>;
  total: number;
  /** Added fields (the seed's are never renamed): how the query ran and whether more exist. */
  mode: 'regex' | 'literal';
  truncated: boolean;
  note?: string;
}

export const codeSearch: Tool<CodeSearchResult> = {
  name: 'code_search',
  description:
    'Search the codebase for exact code patterns (text or regex, ripgrep syntax). Use identifiers, type names, function names, or simple regex. Returns matching lines with path and 1-based line number; total counts all matches, not just those returned.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Exact text or regex pattern to search for' },
      fileType: {
        type: 'string',
        description: "File extension without dot to filter results (e.g. 'ts', 'tsx', 'prisma')",
      },
      maxResults: {
        type: 'integer',
        minimum: 1,
        default: 10,
        description: 'Maximum number of results to return',
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
  async execute(raw, ctx) {
    const args = ensureObject(raw);
    const query = requiredString(args, 'query');
    const fileType = optionalString(args, 'fileType');
    if (fileType !== undefined && !/^\.?[^./\\\s]+$/.test(fileType)) {
      throw new QuarryError(
        'InvalidArgument',
        `fileType must be a file extension without dot, got "${fileType}"`,
        {
          field: 'fileType',
          value: fileType,
        },
      );
    }
    const maxResults = optionalInt(args, 'maxResults', 10, 1);
    const regexOk = isValidRegex(query);
    const mode = regexOk ? 'regex' : 'literal';
    const { matches, summary } = await searchAll(
      ctx.workspace,
      {
        pattern: query,
        mode,
        caseMode: 'sensitive',
        extensions: fileType ? [fileType] : undefined,
        maxResults,
      },
      { signal: ctx.signal, pool: ctx.searchPool },
    );
    const result: CodeSearchResult = {
      matches: matches.map((m) => ({ path: m.path, line: m.line, content: truncateLine(m.text) })),
      total: summary.total,
      mode,
      truncated: summary.limitHit,
    };
    if (!regexOk) result.note = `"${query}" is not a valid regex, so it was searched as literal text.`;
    return result;
  },
};
