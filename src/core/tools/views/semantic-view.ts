/**
 * semantic_search: the app's Semantic mode (and Ranked's hybrid once the model is loaded).
 * semantic_code_search's engine over every root, its vectors brought level with the code index
 * first by the host's semantic service (ToolContext.semantic: the app's SemanticService, the
 * CLI's cliSemantic), with the view's path filters, snippets and each hit's why. The words
 * marked in a snippet are the lexical terms that matched, else the question's own words.
 * A question embeds for at most SEMANTIC_SEARCH_BUDGET_MS: when chunks are still unembedded, the
 * answer says how many were searched (`searched` of `of`) and the host embeds the rest meanwhile.
 * `near` (the file open in the app) has the chunks of that file and of the folders around it
 * embedded first, so a first answer covers what the question is likely about.
 */
import { QuarryError } from '../../errors';
import { elapsedSince, now } from '../../jobs/yielder';
import { queryWords } from '../../rank/ranked';
import { semanticSearch, type SemanticType } from '../../semantic/search';
import type { Tool } from '../types';
import { ensureObject, optionalEnum, optionalString } from '../validate';
import { chunkRef, lineReader, listArgs, listSchema, routeAmong, snippetLines, toolRoots } from './shared';
import type { ChunkRef, SemanticHitView, SemanticResult } from './types';

/** Words of a question marked in no snippet. */
const QUESTION_WORDS = new Set(
  'the and for into from with that this what where when which who how why does did are was were has have had can could should would will not but all any our your their its his her them they there here then than also just only over under about after before while each every some such very more most other out off upon via per get set use'.split(
    ' ',
  ),
);

/** How long a question waits for embedding before it is answered from the chunks embedded so far. */
export const SEMANTIC_SEARCH_BUDGET_MS = 20_000;

export const semanticSearchView: Tool<SemanticResult> = {
  name: 'semantic_search',
  description:
    "The app's Semantic mode, in its shape: semantic_code_search's engine (type 'semantic': vectors only; 'hybrid', the default: fused with the Ranked list) with include/exclude/extensions filters on root-relative paths, each hit with snippet lines (matched words as UTF-16 ranges) and why it matched. Needs the embedding model. Programs usually want semantic_code_search.",
  inputSchema: listSchema({
    type: {
      type: 'string',
      enum: ['semantic', 'hybrid'],
      default: 'hybrid',
      description: "'semantic' (vectors only) or 'hybrid' (fused with the Ranked list)",
    },
    near: {
      type: 'string',
      description:
        "The open file (a workspace path): while chunks are still being embedded, its chunks and its folders' are embedded first",
    },
  }),
  async execute(raw, ctx) {
    const t0 = now();
    if (!ctx.semantic)
      throw new QuarryError(
        'EngineError',
        'semantic search needs the embedding model, and this host provides none',
      );
    const args = ensureObject(raw);
    const { query, limit, pathTest } = listArgs(args);
    const type = optionalEnum<SemanticType>(args, 'type', ['semantic', 'hybrid'], 'hybrid');
    const near = optionalString(args, 'near');
    const { words } = queryWords(query);
    if (!query.trim()) return { hits: [], type, words, elapsedMs: elapsedSince(t0) };
    const roots = toolRoots(ctx, 'semantic_search');
    // an answer within the budget: from the chunks embedded so far, the rest embedded in the background
    const {
      model,
      roots: semanticRoots,
      coverage,
    } = await ctx.semantic(ctx.signal, { budgetMs: SEMANTIC_SEARCH_BUDGET_MS, ...(near ? { near } : {}) });
    // a question's little words ("where do we...") are not what a hit is about: not marked
    const questionWords = words.filter((w) => w.length > 2 && !QUESTION_WORDS.has(w));
    const results = await semanticSearch(semanticRoots, model, {
      query,
      type,
      limit,
      ...(pathTest ? { pathTest } : {}),
    });
    const read = lineReader();
    const hits: SemanticHitView[] = [];
    for (const r of results) {
      const { root, rel } = routeAmong(roots, r.path);
      const ref: ChunkRef = {
        path: rel,
        startLine: r.startLine,
        endLine: r.endLine,
        symbolName: r.symbol,
        chunkType: r.chunkType as ChunkRef['chunkType'],
      };
      const terms = new Set(r.why.terms.length ? r.why.terms : questionWords);
      const lines = snippetLines(await read(root, rel), ref, terms);
      hits.push({ ...chunkRef(ref, root.prefix), score: r.score, why: r.why, lines });
    }
    const partial =
      coverage && coverage.searched < coverage.of ? { searched: coverage.searched, of: coverage.of } : {};
    const device = model.device ? { device: model.device } : {};
    return { hits, type, words, model: model.id, ...device, elapsedMs: elapsedSince(t0), ...partial };
  },
};
