/**
 * semantic_code_search's engine: the query embedded once, then per root the vector list
 * (SemanticIndex.search) and, for `hybrid`, the identifier-aware Ranked list fused with it
 * (fusion.ts); roots merged by score. Each result says why it matched: the lexical terms,
 * the similarity, its rank in each list, and whether it is an exact identifier.
 */
import type { ChunkIndex, IndexedChunk } from '../rank/bm25';
import { rankChunks } from '../rank/ranked';
import { languageForPath } from '../chunk/languages';
import type { LanguageId } from '../chunk/types';
import { QuarryError } from '../errors';
import { fuse, FUSION_DEPTH, type FusedHit } from './fusion';
import type { SemanticIndex } from './index';
import type { EmbeddingModel } from './port';

export type SemanticType = 'semantic' | 'hybrid';

export interface SemanticRoot {
  /** path prefix of the root ('' for a single root) */
  prefix: string;
  index: ChunkIndex;
  vectors: SemanticIndex;
}

export interface SemanticWhy {
  /** cosine similarity of the query and the chunk's better view (absent: not in the vector list's top) */
  similarity?: number;
  /** index terms the lexical ranking matched (hybrid) */
  terms: string[];
  lexicalRank?: number;
  semanticRank?: number;
  /** the chunk's symbol is an identifier the query spells out (hybrid keeps these first) */
  exactIdentifier: boolean;
}

export interface SemanticResult {
  path: string;
  startLine: number;
  endLine: number;
  symbol: string;
  chunkType: string;
  language: LanguageId | null;
  /** the fused score (hybrid) or the similarity (semantic) */
  score: number;
  snippet: string;
  why: SemanticWhy;
}

/** Language names the filter takes: the index's languages and the names people also type. */
const LANGUAGE_ALIASES: Readonly<Record<string, readonly LanguageId[]>> = {
  typescript: ['typescript', 'tsx'],
  ts: ['typescript', 'tsx'],
  tsx: ['tsx'],
  javascript: ['javascript'],
  js: ['javascript'],
  jsx: ['javascript'],
  python: ['python'],
  py: ['python'],
  go: ['go'],
  golang: ['go'],
  rust: ['rust'],
  rs: ['rust'],
  c: ['c'],
  cpp: ['cpp'],
  'c++': ['cpp'],
  java: ['java'],
  csharp: ['csharp'],
  'c#': ['csharp'],
  cs: ['csharp'],
  kotlin: ['kotlin'],
  kt: ['kotlin'],
  swift: ['swift'],
  ruby: ['ruby'],
  rb: ['ruby'],
  php: ['php'],
  bash: ['bash'],
  sh: ['bash'],
  shell: ['bash'],
  css: ['css'],
  scss: ['css'],
  html: ['html'],
  markdown: ['markdown'],
  md: ['markdown'],
};

/** The languages `language` names (case-insensitive), or an InvalidArgument listing the names it takes. */
export function parseLanguage(language: string): ReadonlySet<LanguageId> {
  const ids = LANGUAGE_ALIASES[language.trim().toLowerCase()];
  if (!ids) {
    throw new QuarryError(
      'InvalidArgument',
      `language must be one of: ${Object.keys(LANGUAGE_ALIASES).join(', ')}`,
      { field: 'language', value: language },
    );
  }
  return new Set(ids);
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

function result(prefix: string, c: IndexedChunk, score: number, why: SemanticWhy): SemanticResult {
  return {
    path: prefix + c.path,
    startLine: c.startLine,
    endLine: c.endLine,
    symbol: c.symbolName,
    chunkType: c.chunkType,
    language: languageForPath(c.path),
    score: round(score),
    snippet: c.snippet,
    why,
  };
}

function whyOf(h: FusedHit): SemanticWhy {
  const why: SemanticWhy = { terms: h.terms, exactIdentifier: h.exactIdentifier };
  if (h.similarity !== undefined) why.similarity = round(h.similarity);
  if (h.lexicalRank !== undefined) why.lexicalRank = h.lexicalRank;
  if (h.semanticRank !== undefined) why.semanticRank = h.semanticRank;
  return why;
}

export interface SemanticQuery {
  query: string;
  type: SemanticType;
  limit: number;
  languages?: ReadonlySet<LanguageId>;
  /** a path filter on root-relative paths (the app's include/exclude globs) */
  pathTest?: (path: string) => boolean;
}

export async function semanticSearch(
  roots: readonly SemanticRoot[],
  model: EmbeddingModel,
  q: SemanticQuery,
): Promise<SemanticResult[]> {
  const vec = await model.embed([q.query]);
  const filter = (c: IndexedChunk) =>
    (!q.languages || q.languages.has(languageForPath(c.path) as LanguageId)) &&
    (!q.pathTest || q.pathTest(c.path));
  const out: SemanticResult[] = [];
  for (const root of roots) {
    if (q.type === 'semantic') {
      for (const h of root.vectors.search(root.index, vec, q.limit, filter)) {
        out.push(
          result(root.prefix, h.chunk, h.similarity, {
            similarity: round(h.similarity),
            terms: [],
            exactIdentifier: false,
          }),
        );
      }
      continue;
    }
    const depth = Math.max(FUSION_DEPTH, q.limit);
    const lexical = rankChunks(root.index, q.query, depth, filter);
    const semantic = root.vectors.search(root.index, vec, depth, filter);
    for (const h of fuse(q.query, lexical, semantic, q.limit))
      out.push(result(root.prefix, h.chunk, h.score, whyOf(h)));
  }
  // several roots: merged by score, exact identifiers first (one root: already in this order)
  if (roots.length > 1)
    out.sort(
      (a, b) =>
        Number(b.why.exactIdentifier) - Number(a.why.exactIdentifier) ||
        b.score - a.score ||
        (a.path < b.path ? -1 : 1),
    );
  return out.slice(0, q.limit);
}
