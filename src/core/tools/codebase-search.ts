/**
 * codebase_search (seed 004): BM25 over the seed's chunks (src/core/seed004), ranked as the
 * reference engine ranks them. Every validation message is the seed's, word for word, and
 * parsing fails before the index is refreshed.
 */
import { QuarryError } from '../errors';
import { elapsedSince, now } from '../jobs/yielder';
import type { SeedChunkRecord } from '../codebase-index/codebase-index';
import { extensionOf } from '../source/types';
import { pathContains } from '../walk/glob';
import { envelope, ROUTE_TFIDF, type Envelope } from './envelope';
import { selectRootPrefix } from './index-context';
import { chunkTexts, ensureSeedIndexes } from './codebase-context';
import type { Tool } from './types';
import { ensureObject } from './validate';

const invalid = (message: string, field: string, value?: unknown) =>
  new QuarryError('InvalidArgument', message, value === undefined ? { field } : { field, value });
const invalidFilter = (field: string, detail: string, value?: unknown) =>
  new QuarryError('InvalidFilter', `INVALID_FILTER: ${field} ${detail}`, {
    field,
    value,
    kind: 'INVALID_FILTER',
  });

function stringArray(args: Record<string, unknown>, field: string): string[] | undefined {
  if (!(field in args)) return undefined;
  const v = args[field];
  if (!Array.isArray(v) || v.length === 0 || v.some((x) => typeof x !== 'string')) {
    throw invalidFilter(field, 'must be a non-empty array of strings', v);
  }
  return v as string[];
}

export interface CodebaseSearchArgs {
  query: string;
  root?: string;
  limit: number;
  includeContent: boolean;
  extensions?: string[];
  pathFilter?: string;
  excludePaths?: string[];
}

/** The seed's argument table; throws the seed's messages. Exported for the tests and the UI. */
export function parseCodebaseSearchArgs(raw: unknown): CodebaseSearchArgs {
  const args = ensureObject(raw);
  if (!('query' in args)) throw invalid('Missing required field: query', 'query');
  const query = args.query;
  if (typeof query !== 'string') throw invalid('query must be a string', 'query', query);
  if (query.trim() === '') throw invalid('query must not be empty', 'query');
  let root: string | undefined;
  if ('root' in args) {
    if (typeof args.root !== 'string' || args.root.trim() === '')
      throw invalid('root must be a non-empty string', 'root', args.root);
    root = args.root;
  }
  let limit = 10;
  if ('limit' in args) {
    const l = args.limit;
    if (typeof l !== 'number' || !Number.isInteger(l) || l < 1 || l > 100)
      throw invalid('limit must be an integer from 1 to 100', 'limit', l);
    limit = l;
  }
  let includeContent = true;
  if ('include_content' in args) {
    if (typeof args.include_content !== 'boolean')
      throw invalid('include_content must be a boolean', 'include_content', args.include_content);
    includeContent = args.include_content;
  }
  const rawExt = stringArray(args, 'file_extensions');
  let extensions: string[] | undefined;
  if (rawExt) {
    extensions = rawExt.map((e) => (e.startsWith('.') ? e.slice(1) : e));
    if (extensions.some((e) => e === '' || /[./\\\s]/.test(e))) {
      throw new QuarryError('InvalidFilter', 'file_extensions contains an invalid extension', {
        field: 'file_extensions',
        value: rawExt,
      });
    }
  }
  let pathFilter: string | undefined;
  if ('path_filter' in args) {
    const p = args.path_filter;
    if (typeof p !== 'string' || p.trim() === '')
      throw invalidFilter('path_filter', 'must be a non-empty string', p);
    pathFilter = p; // matched as written, or with its backslashes read as '/' (pathContains)
  }
  const excludePaths = stringArray(args, 'exclude_paths');
  return { query, root, limit, includeContent, extensions, pathFilter, excludePaths };
}

export const codebaseSearch: Tool<Envelope> = {
  name: 'codebase_search',
  description:
    'Search the index with BM25 over symbol chunks (exported and top-level functions, classes and consts, Python defs; a file without one is one chunk). Filters run before limit. Returns the seed-004 envelope with scores and their components.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Non-empty search text' },
      root: { type: 'string', description: 'Repository root (defaults to the open root)' },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
      include_content: { type: 'boolean', default: true, description: 'false sets snippet to null' },
      file_extensions: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
        description: "Final extensions, 'ts' or '.ts' (case-sensitive)",
      },
      path_filter: { type: 'string', description: 'Case-sensitive substring of the repo-relative path' },
      exclude_paths: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
        description: 'Case-sensitive substrings to exclude',
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
  async execute(raw, ctx) {
    const a = parseCodebaseSearchArgs(raw);
    const rootPrefix = selectRootPrefix(ctx, a.root);
    const { parts, stats } = await ensureSeedIndexes(ctx, rootPrefix);
    const t = now();
    const exts = a.extensions ? new Set(a.extensions) : null;
    const tests: Array<(path: string) => boolean> = [];
    if (rootPrefix) tests.push((p) => p.startsWith(rootPrefix));
    if (exts) tests.push((p) => exts.has(extensionOf(p)));
    if (a.pathFilter) tests.push((p) => pathContains(p, a.pathFilter!));
    if (a.excludePaths) tests.push((p) => !a.excludePaths!.some((x) => pathContains(p, x)));
    // Every root's best `limit` hits, merged by score (then path and line, for a stable order).
    // Per-root indexes score with their own corpus statistics, as zoekt scores each shard.
    const hits = parts
      .flatMap((part) => {
        const filter = tests.length
          ? (c: SeedChunkRecord) => tests.every((f) => f(part.prefix + c.path))
          : undefined;
        return part.index
          .search(a.query, a.limit, filter)
          .map((h) => ({ ...h, part, path: part.prefix + h.chunk.path }));
      })
      .sort(
        (x, y) =>
          y.score - x.score ||
          (x.path < y.path ? -1 : x.path > y.path ? 1 : x.chunk.startLine - y.chunk.startLine),
      )
      .slice(0, a.limit);
    const texts = new Map(parts.map((p) => [p, chunkTexts(p)]));
    const results = await Promise.all(
      hits.map(async (h) => ({
        path: h.path,
        startLine: h.chunk.startLine,
        endLine: h.chunk.endLine,
        symbolName: h.chunk.symbolName,
        chunkType: h.chunk.chunkType,
        score: h.score,
        matchedTerms: h.matchedTerms,
        scoreComponents: h.scoreComponents,
        // the engine's snippet is the whole chunk text (its preamble included)
        snippet: a.includeContent
          ? ((await texts.get(h.part)!(h.chunk.path, h.chunk.startLine))?.text ?? '')
          : null,
      })),
    );
    return envelope('codebase_search', ROUTE_TFIDF, a.query, results, elapsedSince(t), stats);
  },
};
