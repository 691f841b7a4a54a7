/**
 * File contents held in the engine (issue 33): the index status says how many files' bytes the
 * search holds and how many it reads from the folder (over the budget); text search answers the
 * same either way.
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

async function searched(holdContents?: boolean | number) {
  const client = new EngineClient(() =>
    inThreadTransport(
      createEngineApi({
        grammarLoader: nodeGrammarLoader,
        ...(holdContents === undefined ? {} : { holdContents }),
      }),
    ),
  );
  try {
    await client.openRepo({ kind: 'memory', name: 'held', files: files() }).done;
    await client.indexRepo({}).done;
    const found: GrepFileResult[] = [];
    await client
      .search({ pattern: 'return request', mode: 'literal', caseMode: 'sensitive', maxResults: 100 })
      .onBatch((batch) => found.push(...batch)).done;
    return { status: await client.indexStatus(), found };
  } finally {
    client.dispose();
  }
}

describe('file contents held in the engine', () => {
  it('holds every indexed file when asked, and says so in the index status', async () => {
    const { status, found } = await searched(true);
    expect(status.contents).toMatchObject({ files: 30, missedFiles: 0, missedBytes: 0 });
    expect(status.contents!.bytes).toBe(Object.values(files()).reduce((n, t) => n + t.length, 0));
    expect(found).toHaveLength(30);
  });

  it('past its budget says how many files (and bytes) are read from the folder, and finds the same', async () => {
    const { status, found } = await searched(1000);
    expect(status.contents!.bytes).toBeLessThanOrEqual(1000);
    expect(status.contents!.missedFiles).toBeGreaterThan(0);
    expect(status.contents!.files + status.contents!.missedFiles).toBe(30);
    expect(found.map((f) => f.path)).toEqual((await searched(true)).found.map((f) => f.path));
  });

  it('holds nothing when turned off (the default: a session reads its files into memory already)', async () => {
    for (const off of [false, undefined]) {
      const { status } = await searched(off);
      expect(status.contents).toBeUndefined();
    }
    const { found } = await searched(false);
    expect(found).toHaveLength(30);
  });
});
