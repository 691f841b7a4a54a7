/**
 * ranked_view: the app's Ranked mode. Chunks ranked for people over every root's code index
 * (core/workspace/ranked.ts, as ranked_search ranks them: each root with its own statistics,
 * merged by score), in the view's shape: each hit with its snippet lines (the query's matched
 * terms marked) and its score's parts. ranked_search is the same ranking for programs.
 */
import { elapsedSince, now } from '../../jobs/yielder';
import { queryWords } from '../../rank/ranked';
import { rankAcrossRoots } from '../../workspace/ranked';
import type { Tool } from '../types';
import { ensureObject } from '../validate';
import { answeringIndexes, chunkRef, lineReader, listArgs, listSchema, snippetLines } from './shared';
import type { RankedHitView, RankedResult } from './types';

export const rankedView: Tool<RankedResult> = {
  name: 'ranked_view',
  description:
    "The app's Ranked mode, in its shape: ranked_search's ranking over Quarry's symbol chunks, each hit with snippet lines (matched words as UTF-16 ranges) and its score's components, prior and discounts. include/exclude/extensions filter root-relative paths. Programs usually want ranked_search.",
  inputSchema: listSchema(),
  async execute(raw, ctx) {
    const t0 = now();
    const { query, limit, pathTest } = listArgs(ensureObject(raw));
    const { words } = queryWords(query);
    if (!words.length) return { hits: [], words, elapsedMs: elapsedSince(t0) };
    const parts = await answeringIndexes(ctx, 'ranked_view');
    // filters read paths within each root, as Text search does with several roots
    const merged = rankAcrossRoots(parts, query, limit, pathTest ? (_, c) => pathTest(c.path) : undefined);
    const read = lineReader();
    const hits: RankedHitView[] = [];
    for (const { hit: h, part } of merged) {
      const terms = new Set<string>();
      for (const comp of h.components) for (const v of comp.via) terms.add(v);
      hits.push({
        ...chunkRef(h.chunk, part.prefix),
        score: h.score,
        exactSymbol: h.exactSymbol,
        prior: h.prior,
        discounts: [...h.discounts],
        components: h.components.map((x) => ({ ...x, via: [...x.via] })),
        lines: snippetLines(await read(part.root, h.chunk.path), h.chunk, terms),
      });
    }
    return { hits, words, elapsedMs: elapsedSince(t0) };
  },
};
