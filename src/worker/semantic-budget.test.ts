/**
 * A semantic search with a time budget (semantic_search's path through SemanticService): it
 * answers from the chunks embedded so far (definitions first) with its coverage, the embedding
 * goes on in the background until every chunk is searched, and a continuation stopped half-way
 * leaves stored vectors that the next run completes without embedding anything twice.
 */
import { describe, expect, it } from 'vitest';
import type { ChunkType } from '../core/chunk/types';
import { Foreground } from '../core/jobs/yielder';
import { DEFINITION_TYPES } from '../core/nav/symbol-table';
import { ChunkIndex } from '../core/rank/bm25';
import { MemoryIndexStore } from '../core/rank/persist';
import { SemanticIndex } from '../core/semantic/index';
import { semanticSearch } from '../core/semantic/search';
import type { Roots } from './roots';
import {
  blockAndFunctionFiles,
  rootsOver,
  SlowModel,
  until,
  type FixtureRoot,
} from './semantic-roots.testutil';
import { modelVectorsKey, SemanticService } from './semantic';

const word = (i: number) =>
  String.fromCharCode(97 + (i % 26)) + String.fromCharCode(97 + Math.floor(i / 26)) + 'part';

/** n files of a block and a function each: n definitions, 2n chunks. */
function corpus(n: number): FixtureRoot {
  return blockAndFunctionFiles(
    Array.from({ length: n }, (_, f) => `src/${word(f)}.ts`),
    word,
  );
}

/** One root as SemanticService reads it. */
const rootsOf = (index: ChunkIndex, files: Record<string, string>): Roots =>
  rootsOver({ app: { index, files } });

const N = 200;

describe('semantic search within a budget', () => {
  it('answers from the definitions embedded so far, then the background embeds the rest', async () => {
    const { files, index } = corpus(N);
    const model = new SlowModel();
    const service = new SemanticService({ loadModel: async () => model, foreground: new Foreground() });
    const roots = rootsOf(index, files);
    const first = await service.sync(roots, { budgetMs: 30 });
    const { searched, of } = first.coverage;
    expect(of).toBe(2 * N);
    expect(searched).toBeGreaterThan(0);
    expect(searched).toBeLessThan(N); // only definitions so far
    expect(service.embeddingInBackground).toBe(true);
    expect(service.status(roots).state).toBe('embedding');
    const hits = await semanticSearch(first.roots, model, {
      query: 'read settings',
      type: 'semantic',
      limit: 100,
    });
    expect(hits.length).toBe(Math.min(100, searched));
    expect(hits.every((h) => DEFINITION_TYPES.has(h.chunkType as ChunkType))).toBe(true);

    await until(() => !service.embeddingInBackground);
    const later = await service.sync(roots, { budgetMs: 30 });
    expect(later.coverage).toEqual({ searched: 2 * N, of: 2 * N });
    expect(service.status(roots).state).toBe('ready');
    // every view embedded once (the one other text is the question)
    expect(model.texts).toBe(2 * N + 1);
    expect(new Set(model.embedded).size).toBe(2 * N + 1);
  }, 30_000);

  it('a question while the background embeds answers from its vectors so far; a full sync supersedes it', async () => {
    const { files, index } = corpus(N);
    const model = new SlowModel();
    const service = new SemanticService({ loadModel: async () => model, foreground: new Foreground() });
    const roots = rootsOf(index, files);
    const first = await service.sync(roots, { budgetMs: 20 });
    const second = await service.sync(roots, { budgetMs: 20 });
    expect(second.coverage.searched).toBeGreaterThanOrEqual(first.coverage.searched);
    const full = await service.sync(roots);
    expect(full.coverage).toEqual({ searched: 2 * N, of: 2 * N });
    expect(service.embeddingInBackground).toBe(false);
    expect(new Set(model.embedded).size).toBe(model.texts);
  }, 30_000);

  it('stopping the background embedding keeps usable stored vectors; the next run embeds only the rest', async () => {
    const { files, index } = corpus(N);
    const store = new MemoryIndexStore();
    const model = new SlowModel();
    const service = new SemanticService({
      loadModel: async () => model,
      store,
      foreground: new Foreground(),
    });
    const first = await service.sync(rootsOf(index, files), { budgetMs: 20 });
    await service.stopBackground();
    expect(service.embeddingInBackground).toBe(false);
    const stored = await SemanticIndex.load(store, modelVectorsKey('app', model.id), model.id, model.dims);
    const kept = stored!.coverage(index);
    expect(kept.searched).toBeGreaterThanOrEqual(first.coverage.searched);
    expect(kept.searched).toBe(model.texts);
    expect(kept.of).toBe(2 * N);

    // a reopen (new service, same store): what was stored is not embedded again
    const again = new SlowModel();
    const reopened = new SemanticService({
      loadModel: async () => again,
      store,
      foreground: new Foreground(),
    });
    const out = await reopened.sync(rootsOf(index, files));
    expect(out.coverage).toEqual({ searched: 2 * N, of: 2 * N });
    expect(again.texts).toBe(2 * N - kept.searched);
  }, 30_000);
});
