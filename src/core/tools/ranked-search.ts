/**
 * ranked_search: Quarry's ranking for people (the app's Ranked mode, core/rank/people.ts) as a
 * tool contract. A query word matches an index term exactly or as a part of an identifier
 * ("user by id" finds getUserById), BM25 per word, boosted when the symbol's name holds the
 * word and again when the name is the whole query as one identifier. Over Quarry's own symbol
 * chunks (every indexed language), not seed 004's: codebase_search keeps that engine's numbers.
 * With several roots each root's index ranks with its own statistics and the lists merge by
 * score, as codebase_search merges them. Each result says why it ranked (whyRanked).
 */
import { languageForPath } from '../chunk/languages';
import { queryWords, type RankedChunkHit } from '../rank/ranked';
import { parseLanguage } from '../semantic/search';
import { compileGlob } from '../walk/glob';
import { rankAcrossRoots } from '../workspace/ranked';
import { chunkSnippet, ensureCodeIndexes } from './index-context';
import type { Tool } from './types';
import { ensureObject, optionalInt, optionalString, requiredString } from './validate';

export const RANKED_LIMIT_MAX = 100;

export interface RankedSearchArgs {
  query: string;
  limit: number;
  path?: string;
  language?: string;
}

export interface RankedSearchResult {
  path: string;
  startLine: number;
  endLine: number;
  symbol: string;
  /** the chunk's type: function, method, class, ... */
  kind: string;
  score: number;
  snippet: string;
  why: string;
}

export function parseRankedSearchArgs(raw: unknown): RankedSearchArgs {
  const args = ensureObject(raw);
  const query = requiredString(args, 'query');
  const limit = optionalInt(args, 'limit', 10, 1, RANKED_LIMIT_MAX);
  const path = optionalString(args, 'path');
  if (path !== undefined) compileGlob(path, 'path');
  const language = optionalString(args, 'language');
  if (language !== undefined) parseLanguage(language);
  return {
    query,
    limit,
    ...(path !== undefined ? { path } : {}),
    ...(language !== undefined ? { language } : {}),
  };
}

/** Scores to four decimals: enough to order by, without float noise in the output. */
export const roundScore = (x: number) => Math.round(x * 1e4) / 1e4;

/** Index terms listed per matched word before "+N more". */
const WHY_VIA_TERMS = 3;

const quoted = (words: readonly string[]) => words.map((w) => `"${w}"`).join(', ');

/**
 * Why a hit ranked, for people, from its RankedChunkHit: one clause per kind of evidence, in this
 * one place (a new RankedChunkHit field, a role or a prior, is one more clause here).
 *   exact symbol match · which query words matched, through which index terms when not the
 *   word itself · the words its symbol name holds (boosted) · the query's words it lacks.
 */
const round2 = (n: number): number => Math.round(n * 100) / 100;

export function whyRanked(hit: RankedChunkHit, words: readonly string[]): string {
  const clauses: string[] = [];
  if (hit.exactSymbol)
    clauses.push(`exact symbol match: ${hit.chunk.symbolName} is the query as one identifier`);
  const matched = hit.components.map((c) => {
    const others = c.via.filter((t) => t !== c.word);
    if (!others.length) return `"${c.word}"`;
    const shown = others.slice(0, WHY_VIA_TERMS).join(', ');
    const more = others.length > WHY_VIA_TERMS ? ` +${others.length - WHY_VIA_TERMS} more` : '';
    return `"${c.word}" (in ${shown}${more})`;
  });
  if (matched.length) clauses.push(`matched ${matched.join(', ')}`);
  const inName = hit.components.filter((c) => c.symbolBoost > 0).map((c) => c.word);
  if (inName.length) clauses.push(`symbol name has ${quoted(inName)}`);
  const missing = words.filter((w) => !hit.components.some((c) => c.word === w));
  if (missing.length) clauses.push(`no match for ${quoted(missing)}`);
  if (hit.discounts.length) clauses.push(`weighed x${round2(hit.prior)} as ${hit.discounts.join(', ')}`);
  return clauses.join('; ');
}

export const rankedSearch: Tool<{ results: RankedSearchResult[] }> = {
  name: 'ranked_search',
  description:
    "Quarry's best keyword ranking over symbol chunks (functions, methods, classes, ... in every indexed language): query words match identifiers and their parts ('user by id' finds getUserById), BM25 with boosts for symbol names and an exact identifier; config keys, style rules, blocks of lines and test, snapshot, locale, changelog or generated files weigh less unless the query names them, and a prototype or declaration less than its definition. A sentence's stopwords are dropped and words match their inflections. Optional path glob and language filters. Each result has its snippet and why it ranked.",
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: "Words or identifiers (e.g. 'user by id', 'parseConfig')" },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: RANKED_LIMIT_MAX,
        default: 10,
        description: 'Maximum results to return',
      },
      path: {
        type: 'string',
        description:
          "Glob on the workspace path ('src/**/*.ts'; without '/' it matches the file name at any depth: '*.py')",
      },
      language: { type: 'string', description: "Language filter (e.g. 'typescript', 'python', 'go')" },
    },
    required: ['query'],
    additionalProperties: false,
  },
  async execute(raw, ctx) {
    const args = parseRankedSearchArgs(raw);
    const pathTest = args.path !== undefined ? compileGlob(args.path, 'path') : null;
    const languages = args.language !== undefined ? parseLanguage(args.language) : null;
    const inLanguages = (path: string) => {
      const language = languageForPath(path);
      return language !== null && languages!.has(language);
    };
    const parts = await ensureCodeIndexes(ctx, 'ranked_search');
    const wordsOf = new Map(parts.map((part) => [part, queryWords(args.query, part.index.tokenizer).words]));
    const hits = rankAcrossRoots(
      parts,
      args.query,
      args.limit,
      pathTest || languages
        ? (part, c) => (!pathTest || pathTest(part.prefix + c.path)) && (!languages || inLanguages(c.path))
        : undefined,
    ).map((m) => ({ ...m, words: wordsOf.get(m.part)! }));
    const results = await Promise.all(
      hits.map(async ({ hit, part, words, path }): Promise<RankedSearchResult> => ({
        path,
        startLine: hit.chunk.startLine,
        endLine: hit.chunk.endLine,
        symbol: hit.chunk.symbolName,
        kind: hit.chunk.chunkType,
        score: roundScore(hit.score),
        snippet: await chunkSnippet(part, hit.chunk),
        why: whyRanked(hit, words),
      })),
    );
    return { results };
  },
};
