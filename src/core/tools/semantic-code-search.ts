/**
 * semantic_code_search (seed 000): natural-language questions over the code, answered from
 * sentence vectors of the symbol chunks (core/semantic), fully offline. `type` "semantic" is
 * the vectors alone; "hybrid" (the default) fuses them with the identifier-aware Ranked
 * ranking (see core/semantic/fusion.ts). Returns an array of results, best first, each with
 * its score, a snippet, why it matched and the model that answered (`model`: seed 000 fixes the
 * parameters, and its results only as "semantic similarity scores and code snippets").
 */
import { QuarryError } from '../errors';
import { parseLanguage, semanticSearch, type SemanticResult, type SemanticType } from '../semantic/search';
import type { Tool } from './types';
import { ensureObject, optionalEnum, optionalInt, optionalString, requiredString } from './validate';

export const SEMANTIC_LIMIT_MAX = 100;

export interface SemanticArgs {
  query: string;
  type: SemanticType;
  limit: number;
  language?: string;
}

export function parseSemanticArgs(raw: unknown): SemanticArgs {
  const args = ensureObject(raw);
  const query = requiredString(args, 'query');
  const type = optionalEnum<SemanticType>(args, 'type', ['semantic', 'hybrid'], 'hybrid');
  const limit = optionalInt(args, 'limit', 5, 1, SEMANTIC_LIMIT_MAX);
  const language = optionalString(args, 'language');
  if (language !== undefined) parseLanguage(language);
  return { query, type, limit, ...(language !== undefined ? { language } : {}) };
}

/** One result of semantic_code_search: core's result and the id of the model that answered. */
export type SemanticCodeResult = SemanticResult & { model: string };

export const semanticCodeSearch: Tool<SemanticCodeResult[]> = {
  name: 'semantic_code_search',
  description:
    "Semantic search over the codebase for conceptual queries using vector embeddings (e.g. 'where do we handle authentication'). type: 'semantic' (vector only) or 'hybrid' (vector + identifier-aware rerank, the default). Runs offline: the model ships with Quarry (or is one the host was given: each result's `model` names it).",
  inputSchema: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        description: "Natural language query about code (e.g. 'where do we handle authentication')",
      },
      type: {
        type: 'string',
        enum: ['semantic', 'hybrid'],
        default: 'hybrid',
        description: "'semantic' (vector only) or 'hybrid' (vector + rerank)",
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: SEMANTIC_LIMIT_MAX,
        default: 5,
        description: 'Maximum results to return',
      },
      language: { type: 'string', description: "Language filter (e.g. 'typescript', 'python')" },
    },
    required: ['query'],
    additionalProperties: false,
  },
  async execute(raw, ctx) {
    const args = parseSemanticArgs(raw);
    if (!ctx.semantic)
      throw new QuarryError(
        'EngineError',
        'semantic_code_search needs the embedding model, and this host provides none',
      );
    const { model, roots } = await ctx.semantic(ctx.signal);
    const results = await semanticSearch(roots, model, {
      query: args.query,
      type: args.type,
      limit: args.limit,
      ...(args.language !== undefined ? { languages: parseLanguage(args.language) } : {}),
    });
    // which model answered: the vectors (and so the results) are that model's
    return results.map((r) => ({ ...r, model: model.id }));
  },
};
