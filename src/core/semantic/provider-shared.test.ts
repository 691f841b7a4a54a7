/**
 * Issue 34 row 14: twelve concurrent cold semantic calls on one root embed each chunk view once
 * (one shared run), a caller's cancel ends only its own wait, and a later call embeds nothing.
 */
import { describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../test/rejection';
import { lineChunker } from '../rank/line-chunker.testutil';
import { MemorySource } from '../source/memory';
import { LocalRoot } from '../workspace/local-root';
import type { EmbeddingModel } from './port';

const FILES = {
  'a.ts': 'fn alpha\n  beta\nfn gamma\n  delta\n',
  'b.ts': 'fn epsilon\n  zeta\n',
  'c.ts': 'fn eta\n  theta\n',
};

/** A model that takes a macrotask per batch (as a thread does) and counts every text it is sent. */
function countingModel() {
  const sent: string[] = [];
  let loads = 0;
  const model: EmbeddingModel = {
    id: 'counting',
    dims: 2,
    async embed(texts) {
      sent.push(...texts);
      await new Promise((r) => setTimeout(r, 1));
      return new Float32Array(texts.flatMap(() => [1, 0]));
    },
  };
  return {
    load: async () => {
      loads++;
      return model;
    },
    sent,
    loads: () => loads,
  };
}

describe('LocalRoot.semanticRoot under concurrent calls', () => {
  it('12 cold calls at once embed each view once, and all get the same vectors', async () => {
    const m = countingModel();
    const root = new LocalRoot('/r', new MemorySource({ ...FILES }), {
      chunker: async () => lineChunker,
      model: m.load,
    });
    const progress: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        root.semanticRoot({ onProgress: (p) => void (p.total && progress.push(i)) }),
      ),
    );
    expect(m.sent).toHaveLength(4); // alpha, gamma, epsilon, eta
    expect(new Set(m.sent).size).toBe(4);
    expect(new Set(results.map((r) => r.root.vectors)).size).toBe(1);
    expect(new Set(progress)).toEqual(new Set([0])); // the caller that started the run hears its progress
    // a later call finds everything embedded
    await root.semanticRoot({});
    expect(m.sent).toHaveLength(4);
  });

  it("a caller's cancel ends its own wait; the run goes on for the others", async () => {
    const m = countingModel();
    const root = new LocalRoot('/r', new MemorySource({ ...FILES }), {
      chunker: async () => lineChunker,
      model: m.load,
    });
    const controller = new AbortController();
    const cancelled = root.semanticRoot({ signal: controller.signal });
    const other = root.semanticRoot({});
    controller.abort();
    expect((await rejectionOf(cancelled)).code).toBe('Cancelled');
    expect((await other).root.vectors).toBeTruthy();
    expect(m.sent).toHaveLength(4);
  });
});
