/**
 * search_files (seed 001): Rust-syntax regex under `path`, optional `file_pattern` glob,
 * printed in the seed's text format to the character:
 *   # rel/path
 *    11 | context line
 *    12 | matching line
 *   ----
 * one line of context, nearby matches merged into one block, a blank line between files,
 * at most 300 results with the seed's notice, lines over 500 characters cut with [truncated...].
 * A path with a control, bidi or invisible character, or a leading `"`, is printed as a JSON
 * string (quote-path.ts), so no name can split its header or forge another.
 *
 * A result is a match, i.e. a matching line ("Limits results to a maximum of 300 matches with
 * notification"); context lines and merged blocks do not count. The notice ("300 of 300+") says
 * there are more than 300, so it prints only when a 301st match exists: the search counts up
 * to one match past the cap (countLimit 301), then stops. Counting only to 300 cannot tell:
 * when the 300th match is a file's last, the engine stops at that file's end without looking
 * further, and limitHit (set only when a match past the cap is seen) stays false.
 */
import { searchAll, mergeBlocks } from '../grep/search';
import { compileGlob } from '../walk/glob';
import { quotePath } from './quote-path';
import type { Tool } from './types';
import { truncateLine } from './types';
import { ensureObject, optionalString, requiredString } from './validate';

export const SEARCH_FILES_MAX_RESULTS = 300;
export const SEARCH_FILES_NOTICE = `# Showing first ${SEARCH_FILES_MAX_RESULTS} of ${SEARCH_FILES_MAX_RESULTS}+ results. Use a more specific search if necessary.`;

export function formatLineNumber(n: number): string {
  return String(n).padStart(3, ' ');
}

export const searchFiles: Tool<string> = {
  name: 'search_files',
  description:
    'Regex search (Rust regex syntax) across files under a directory, showing each match with 1 line of context, line numbers, nearby matches merged, at most 300 results.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'The path of the directory to search in, relative to the root' },
      regex: {
        type: 'string',
        description: 'The regular expression pattern to search for (uses Rust regex syntax)',
      },
      file_pattern: {
        type: 'string',
        description: "Glob pattern to filter files (e.g., '*.ts' for TypeScript files)",
      },
    },
    required: ['path', 'regex'],
    additionalProperties: false,
  },
  async execute(raw, ctx) {
    const args = ensureObject(raw);
    const path = requiredString(args, 'path');
    const regex = requiredString(args, 'regex', { allowEmpty: true });
    const filePattern = optionalString(args, 'file_pattern');
    if (filePattern !== undefined) compileGlob(filePattern, 'file_pattern');
    ctx.workspace.resolveAll(path, 'path'); // refuse '..' escapes naming the tool's own field
    const { matches, summary } = await searchAll(
      ctx.workspace,
      {
        pattern: regex,
        mode: 'regex',
        caseMode: 'sensitive',
        directory: path,
        include: filePattern ? [filePattern] : undefined,
        contextBefore: 1,
        contextAfter: 1,
        maxResults: SEARCH_FILES_MAX_RESULTS,
        countLimit: SEARCH_FILES_MAX_RESULTS + 1, // one past the cap: enough to know there are more
      },
      { signal: ctx.signal, pool: ctx.searchPool },
    );
    if (!matches.length) return 'No results found';
    let out = '';
    let currentPath: string | null = null;
    for (const block of mergeBlocks(matches)) {
      if (block.path !== currentPath) {
        if (currentPath !== null) out += '\n';
        out += `# ${quotePath(block.path)}\n`;
        currentPath = block.path;
      }
      for (const row of block.lines)
        out += `${formatLineNumber(row.line)} | ${truncateLine(row.text.trimEnd())}\n`;
      out += '----\n';
    }
    // after the last block's ----, a blank line, then the notice (the seed's example)
    if (summary.total > SEARCH_FILES_MAX_RESULTS) out += `\n${SEARCH_FILES_NOTICE}\n`;
    return out.trimEnd();
  },
};
