/**
 * The index text budget through the engine (issue #14): a repository larger than the budget is
 * indexed up to it, the index status says how many files are over it, and Text search through
 * the engine (which uses the index's prefilter) still finds what is in those files.
 */
import { describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../adapters/node/grammars';
import type { GrepFileResult } from '../core/grep/types';
import { EngineClient, inThreadTransport } from './client';
import { createEngineApi } from './engine';

function files(): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < 30; i++)
    out[`src/f${String(i).padStart(2, '0')}.ts`] =
      `export function handler${i}(request: string) {\n  return request + 'marker${i}';\n}\n`;
  return out;
}

describe('the index text budget in the engine', () => {
  it('indexes up to the budget, counts the rest, and text search still finds them', async () => {
    const client = new EngineClient(() =>
      inThreadTransport(createEngineApi({ grammarLoader: nodeGrammarLoader, indexMaxTextBytes: 800 })),
    );
    try {
      await client.openRepo({ kind: 'memory', name: 'budget', files: files() }).done;
      const end = await client.indexRepo({}).done;
      expect(end.stats.overBudget).toBeGreaterThanOrEqual(15);
      expect(end.stats.filesScanned).toBe(30 - end.stats.overBudget!);
      expect(end.skipped.filter((s) => s.reason === 'indexBudget').map((s) => s.path)).toContain(
        'src/f29.ts',
      );
      const found: GrepFileResult[] = [];
      await client
        .search({ pattern: 'marker29', mode: 'literal', caseMode: 'sensitive', maxResults: 10 })
        .onBatch((batch) => found.push(...batch)).done;
      expect(found.map((f) => f.path)).toEqual(['src/f29.ts']);
      const early: GrepFileResult[] = [];
      await client
        .search({ pattern: "'marker1'", mode: 'literal', caseMode: 'sensitive', maxResults: 10 })
        .onBatch((batch) => early.push(...batch)).done;
      expect(early.map((f) => f.path)).toEqual(['src/f01.ts']);
    } finally {
      client.dispose();
    }
  });
});
