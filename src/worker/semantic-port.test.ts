/** The app's SemanticPort hands a tool's options (semantic_search's time budget) to the SemanticService. */
import { describe, expect, it } from 'vitest';
import { semanticPort } from './engine-tools';
import type { Roots } from './roots';
import type { SemanticService } from './semantic';

describe('semanticPort', () => {
  it('forwards the budget and the signal, in the background', async () => {
    const seen: unknown[] = [];
    const service = {
      sync: async (_roots: Roots, options: unknown) => {
        seen.push(options);
        return { model: null, roots: [], stats: null };
      },
    } as unknown as SemanticService;
    let backgrounded = 0;
    const port = semanticPort({ roots: [] } as unknown as Roots, service, (fn) => {
      backgrounded++;
      return fn();
    });
    const signal = new AbortController().signal;
    await port(signal, { budgetMs: 1234 });
    await port(undefined);
    expect(seen).toEqual([{ signal, budgetMs: 1234 }, { signal: undefined }]);
    expect(backgrounded).toBe(2);
  });
});
