/**
 * related_code: the app's Related panel (core/rank/related.ts, related-people.ts) as a tool
 * contract. The seed is the innermost of Quarry's symbol chunks at path:line; the answer is the
 * chunks most like it (cosine of tf-idf vectors, siblings first, big containers last), each
 * with the terms it shares with the seed and why it is a sibling ("same class", "same file",
 * "similar name", ...). A code seed lists no config key, style rule or block of lines, and a seed
 * in a source file no snapshot or translation (related-people.ts, besideAnchor: the panel's rule).
 * find_related answers the same question with seed 004's formula and chunks; a line in no chunk
 * gets its words ("No related chunks found for that location").
 */
import { QuarryError } from '../errors';
import type { IndexedChunk } from '../rank/bm25';
import { relatedAtLine } from '../rank/related';
import { NO_RELATED } from './find-related';
import { ensureCodeIndexes } from './index-context';
import { roundScore } from './ranked-search';
import type { CodeIndexPart, Tool } from './types';
import { ensureObject, optionalInt, requiredInt, requiredString } from './validate';

export const RELATED_LIMIT_MAX = 100;
/** Shared terms listed per result (sorted; the rest are counted by the score, not listed). */
export const RELATED_SHARED_TERMS_MAX = 20;

export interface RelatedCodeArgs {
  path: string;
  line: number;
  limit: number;
}

export interface RelatedChunkRef {
  path: string;
  startLine: number;
  endLine: number;
  symbol: string;
  kind: string;
}

export interface RelatedCodeResult extends RelatedChunkRef {
  score: number;
  sharedTerms: string[];
  reasons: string[];
}

export function parseRelatedCodeArgs(raw: unknown): RelatedCodeArgs {
  const args = ensureObject(raw);
  const path = requiredString(args, 'path');
  const line = requiredInt(args, 'line', 1);
  const limit = optionalInt(args, 'limit', 10, 1, RELATED_LIMIT_MAX);
  return { path, line, limit };
}

const ref = (prefix: string, c: IndexedChunk): RelatedChunkRef => ({
  path: prefix + c.path,
  startLine: c.startLine,
  endLine: c.endLine,
  symbol: c.symbolName,
  kind: c.chunkType,
});

/** The index that holds a workspace path, and the path as that index has it. */
function partOf(parts: CodeIndexPart[], path: string): { part: CodeIndexPart; rel: string } | null {
  const part =
    parts.find((p) => p.prefix !== '' && path.startsWith(p.prefix)) ?? parts.find((p) => p.prefix === '');
  return part ? { part, rel: path.slice(part.prefix.length) } : null;
}

export const relatedCode: Tool<{ seed: RelatedChunkRef; results: RelatedCodeResult[] }> = {
  name: 'related_code',
  description:
    "Code related to the symbol chunk at path:line (Quarry's symbol chunks, every indexed language): the most similar chunks by their words, sibling methods and same-file or same-folder code first, big containers last; for code, no config keys, style rules or blocks of lines (a key, rule or block lists them). Each result has the terms it shares with that chunk and why it is related; `seed` is the chunk at the line.",
  inputSchema: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        description:
          'File path, relative to the root (prefixed by the root name with several roots) or absolute',
      },
      line: {
        type: 'integer',
        minimum: 1,
        description: 'A 1-based line inside a symbol (its innermost chunk is the seed)',
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: RELATED_LIMIT_MAX,
        default: 10,
        description: 'Maximum results to return',
      },
    },
    required: ['path', 'line'],
    additionalProperties: false,
  },
  async execute(raw, ctx) {
    const args = parseRelatedCodeArgs(raw);
    // absolute, './', '..' (refused past the root), a root's name: every workspace path the argument can mean
    const candidates = ctx.workspace.resolveAll(args.path, 'path');
    const parts = await ensureCodeIndexes(ctx, 'related_code');
    for (const candidate of candidates) {
      const at = partOf(parts, candidate.display);
      if (!at) continue;
      const found = await relatedAtLine(
        at.part.index,
        at.rel,
        args.line,
        () => at.part.lines(at.rel),
        args.limit,
      );
      if (!found) continue;
      return {
        seed: ref(at.part.prefix, found.seed),
        results: found.related.map((r) => ({
          ...ref(at.part.prefix, r.chunk),
          score: roundScore(r.score),
          sharedTerms: r.sharedTerms.slice(0, RELATED_SHARED_TERMS_MAX),
          reasons: r.reasons,
        })),
      };
    }
    throw new QuarryError('EngineError', NO_RELATED, { path: args.path, line: args.line, reason: 'noChunk' });
  },
};
