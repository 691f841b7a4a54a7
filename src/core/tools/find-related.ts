/**
 * find_related (seed 004): chunks that share tokens with the chunk containing a line.
 * score = (candidate tokens, with repeats, in the seed's token set) / |union of unique sets|;
 * sorted by score descending then path ascending; snippet = first 360 characters;
 * limit 0 becomes 1, no upper cap; scoreComponents empty; top-level route "rust-related".
 */
import { QuarryError } from '../errors';
import { elapsedSince, now } from '../jobs/yielder';
import { SNIPPET_CHARS } from '../rank/indexed-chunk';
import { tokenSource } from '../codebase-index/chunks';
import { tokenize } from '../rank/tokenize';
import { envelope, ROUTE_RELATED, type Envelope } from './envelope';
import { selectRootPrefix } from './index-context';
import { chunkTexts, ensureSeedIndexes, firstChars } from './codebase-context';
import type { Tool } from './types';
import { ensureObject } from './validate';

export const NO_RELATED = 'No related chunks found for that location';

/** The engine lists at most this many of a related chunk's shared tokens. */
export const RELATED_MATCHED_TERMS = 12;

function sharedTokens(text: string, inSeed: (term: string) => boolean): string[] {
  const out: string[] = [];
  for (const term of tokenize(text)) {
    if (!inSeed(term)) continue;
    out.push(term);
    if (out.length === RELATED_MATCHED_TERMS) break;
  }
  return out;
}

export interface FindRelatedArgs {
  path: string;
  /** Checked against 1 only once the index is ready (the seed engine's order: an EngineError, not InvalidArgument). */
  line: number;
  limit: number;
  root?: string;
}

/** find_related's argument rules, shared with the app's Related panel (the same checks, the same errors). */
export function parseFindRelatedArgs(raw: unknown): FindRelatedArgs {
  const args = ensureObject(raw);
  if (!('path' in args))
    throw new QuarryError('InvalidArgument', 'Missing required field: path', { field: 'path' });
  if (typeof args.path !== 'string')
    throw new QuarryError('InvalidArgument', 'path must be a string', { field: 'path', value: args.path });
  if (!('line' in args))
    throw new QuarryError('InvalidArgument', 'Missing required field: line', { field: 'line' });
  if (typeof args.line !== 'number' || !Number.isInteger(args.line)) {
    throw new QuarryError('InvalidArgument', 'line must be a positive integer', {
      field: 'line',
      value: args.line,
    });
  }
  let limit = 10;
  if ('limit' in args) {
    if (typeof args.limit !== 'number' || !Number.isInteger(args.limit)) {
      throw new QuarryError('InvalidArgument', 'limit must be an integer', {
        field: 'limit',
        value: args.limit,
      });
    }
    limit = Math.max(1, args.limit);
  }
  if ('root' in args && (typeof args.root !== 'string' || args.root.trim() === '')) {
    throw new QuarryError('InvalidArgument', 'root must be a non-empty string', {
      field: 'root',
      value: args.root,
    });
  }
  return { path: args.path, line: args.line, limit, root: args.root as string | undefined };
}

/** The seed engine's answer to a line below 1 (after the index is ready). */
export function checkRelatedLine(line: number): void {
  if (line < 1)
    throw new QuarryError('EngineError', 'line must be a positive integer', { field: 'line', value: line });
}

export const findRelated: Tool<Envelope> = {
  name: 'find_related',
  description:
    'Find chunks that share tokens with the chunk containing a known line (path is repo-relative with forward slashes, exactly as indexed). Returns the seed-004 envelope.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Repo-relative path, forward slashes, exactly the indexed path' },
      line: { type: 'integer', minimum: 1, description: "A line inside a chunk's range" },
      root: { type: 'string', description: 'Repository root (defaults to the open root)' },
      limit: { type: 'integer', default: 10, description: '0 becomes 1; no upper cap' },
    },
    required: ['path', 'line'],
    additionalProperties: false,
  },
  async execute(raw, ctx) {
    const args = parseFindRelatedArgs(raw);
    const rootPrefix = selectRootPrefix(ctx, args.root);
    const path = rootPrefix + args.path;
    const line = args.line;
    const { parts, stats } = await ensureSeedIndexes(ctx, rootPrefix);
    checkRelatedLine(line);
    const t = now();
    // The root the path is in (per-root indexes hold root-relative paths).
    const part =
      parts.find((p) => p.prefix !== '' && path.startsWith(p.prefix)) ?? parts.find((p) => p.prefix === '');
    const rel = part ? path.slice(part.prefix.length) : '';
    const seed = part?.index.chunkAt(rel, line);
    const text = part ? chunkTexts(part) : null;
    const seedChunk = seed ? await text!(seed.path, seed.startLine) : null;
    const seedTerms = new Set(seedChunk ? tokenize(tokenSource(seedChunk)) : []);
    const related = seed && seedChunk ? part!.index.related(seed, seedTerms, args.limit) : [];
    if (!related.length) throw new QuarryError('EngineError', NO_RELATED, { path, line });
    const results = await Promise.all(
      related.map(async (r) => {
        const chunk = await text!(r.chunk.path, r.chunk.startLine);
        // the candidate's first RELATED_MATCHED_TERMS tokens (repeats kept) that are in the seed's set
        const matchedTerms = chunk ? sharedTokens(tokenSource(chunk), (term) => seedTerms.has(term)) : [];
        return {
          path: part!.prefix + r.chunk.path,
          startLine: r.chunk.startLine,
          endLine: r.chunk.endLine,
          symbolName: r.chunk.symbolName,
          chunkType: r.chunk.chunkType,
          score: r.score,
          matchedTerms,
          scoreComponents: [],
          snippet: firstChars(chunk?.text ?? '', SNIPPET_CHARS),
        };
      }),
    );
    return envelope('find_related', ROUTE_RELATED, `${args.path}:${line}`, results, elapsedSince(t), stats);
  },
};
