/**
 * search_corpus (seed 002): recursive literal/regex search returning matches with context.
 * Parameters, aliases and defaults are the seed's:
 *   path (alias corpus_path), pattern (aliases query, search), mode literal|regex = literal,
 *   file_glob = '*', context_lines = 2, max_results = 50, max_file_size = 500000,
 *   case_sensitive = false.
 * Regexes use Quarry's one dialect (RE2 / Rust syntax), not Python's `re`.
 */
import { QuarryError } from '../errors';
import { searchAll } from '../grep/search';
import { compileGlob } from '../walk/glob';
import type { Tool } from './types';
import {
  ensureObject,
  firstPresent,
  optionalBoolean,
  optionalEnum,
  optionalInt,
  optionalString,
} from './validate';

export interface CorpusMatch {
  file: string;
  line: number;
  content: string;
  context_before: string[];
  context_after: string[];
}

export interface SearchCorpusResult {
  success: true;
  result: {
    matches: CorpusMatch[];
    total: number;
    truncated: boolean;
    files_searched: number;
    files_skipped: number;
    text_view: string;
  };
}

function requireAlias(args: Record<string, unknown>, fields: string[]): string {
  const found = firstPresent(args, fields);
  const names = fields.join(' / ');
  if (!found)
    throw new QuarryError(
      'InvalidArgument',
      `Missing required field: ${fields[0]} (or ${fields.slice(1).join(', ')})`,
      { field: fields[0] },
    );
  if (typeof found.value !== 'string') {
    throw new QuarryError('InvalidArgument', `${found.field} must be a string`, {
      field: found.field,
      value: found.value,
    });
  }
  if (found.value.trim() === '')
    throw new QuarryError('InvalidArgument', `${names} must not be empty`, { field: found.field });
  return found.value;
}

/** grep -n style: `file:line:content` for matches, `file-line-content` for context, `--` between groups. */
export function formatTextView(matches: CorpusMatch[], total: number, truncated: boolean): string {
  if (!matches.length) return 'No matches found.';
  const lines: string[] = [];
  let lastFile = '';
  let lastLine = -1;
  for (const m of matches) {
    const sameFile = m.file === lastFile;
    const seen = (n: number) => sameFile && n <= lastLine;
    const first = m.line - m.context_before.length;
    if (lines.length && (!sameFile || first > lastLine + 1)) lines.push('--');
    m.context_before.forEach((text, i) => {
      if (!seen(first + i)) lines.push(`${m.file}-${first + i}-${text}`);
    });
    if (!seen(m.line)) lines.push(`${m.file}:${m.line}:${m.content}`);
    else {
      // already printed as context of the previous match: mark it as a match line
      const idx = lines.lastIndexOf(`${m.file}-${m.line}-${m.content}`);
      if (idx >= 0) lines[idx] = `${m.file}:${m.line}:${m.content}`;
    }
    let n = m.line;
    for (const text of m.context_after) {
      n++;
      if (!seen(n)) lines.push(`${m.file}-${n}-${text}`);
    }
    lastLine = sameFile ? Math.max(lastLine, n) : n;
    lastFile = m.file;
  }
  const header = truncated
    ? `Showing ${matches.length} of ${total} matches (truncated; raise max_results to see more).`
    : `${total} ${total === 1 ? 'match' : 'matches'}.`;
  return `${header}\n${lines.join('\n')}`;
}

export const searchCorpus: Tool<SearchCorpusResult> = {
  name: 'search_corpus',
  description:
    'Recursively search a directory for a literal string or regex pattern, returning matches with surrounding context. Useful for code search before generating or reviewing code. Params: {path, pattern, mode?, file_glob?, context_lines?, max_results?, max_file_size?, case_sensitive?}',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Root directory to search (alias: corpus_path)' },
      corpus_path: { type: 'string', description: 'Alias of path' },
      pattern: { type: 'string', description: 'Literal string or regex (aliases: query, search)' },
      query: { type: 'string', description: 'Alias of pattern' },
      search: { type: 'string', description: 'Alias of pattern' },
      mode: { type: 'string', enum: ['literal', 'regex'], default: 'literal' },
      file_glob: { type: 'string', default: '*' },
      context_lines: { type: 'integer', minimum: 0, default: 2 },
      max_results: { type: 'integer', minimum: 1, default: 50 },
      max_file_size: {
        type: 'integer',
        minimum: 1,
        default: 500000,
        description: 'Skip files larger than this many bytes',
      },
      case_sensitive: { type: 'boolean', default: false },
    },
    additionalProperties: false,
  },
  async execute(raw, ctx) {
    const args = ensureObject(raw);
    const path = requireAlias(args, ['path', 'corpus_path']);
    const pattern = requireAlias(args, ['pattern', 'query', 'search']);
    const mode = optionalEnum(args, 'mode', ['literal', 'regex'] as const, 'literal');
    const fileGlob = optionalString(args, 'file_glob') ?? '*';
    compileGlob(fileGlob, 'file_glob');
    const contextLines = optionalInt(args, 'context_lines', 2, 0, 1000);
    const maxResults = optionalInt(args, 'max_results', 50, 1);
    const maxFileSize = optionalInt(args, 'max_file_size', 500000, 1);
    const caseSensitive = optionalBoolean(args, 'case_sensitive', false);

    ctx.workspace.resolveAll(path, 'path'); // refuse '..' escapes naming the tool's own field
    const { matches, summary } = await searchAll(
      ctx.workspace,
      {
        pattern,
        mode,
        caseMode: caseSensitive ? 'sensitive' : 'insensitive',
        directory: path,
        include: fileGlob === '*' ? undefined : [fileGlob],
        contextBefore: contextLines,
        contextAfter: contextLines,
        maxResults,
        maxFileBytes: maxFileSize,
      },
      { signal: ctx.signal, pool: ctx.searchPool },
    );
    const out: CorpusMatch[] = matches.map((m) => ({
      file: m.path,
      line: m.line,
      content: m.text,
      context_before: m.contextBefore,
      context_after: m.contextAfter,
    }));
    // Files, not directories, count as skipped; noisy directories are out of scope, not skipped.
    const filesSkipped = summary.skipped.filter((s) => !s.directory && s.reason !== 'noisyPath').length;
    return {
      success: true,
      result: {
        matches: out,
        total: summary.total,
        truncated: summary.limitHit,
        files_searched: summary.filesSearched,
        files_skipped: filesSkipped,
        text_view: formatTextView(out, summary.total, summary.limitHit),
      },
    };
  },
};
