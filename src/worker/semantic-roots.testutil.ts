/**
 * Test fixtures for SemanticService (semantic-budget, semantic-near and semantic-recover tests):
 * a fake model that takes a few milliseconds a batch, files of a block and a function each with
 * their code index, and roots as the service reads them.
 */
import { expect } from 'vitest';
import type { Chunk, ChunkType } from '../core/chunk/types';
import { ChunkIndex } from '../core/rank/bm25';
import { splitLinesForIndex } from '../core/rank/lines';
import { FakeModel, linesReader } from '../core/semantic/fake-model.testutil';
import { RootState } from '../core/workspace/root-state';
import type { Roots } from './roots';

/** The fake model, a few milliseconds a batch (so a small budget runs out). */
export class SlowModel extends FakeModel {
  override async embed(texts: readonly string[]): Promise<Float32Array> {
    await new Promise((r) => setTimeout(r, 5));
    return super.embed(texts);
  }
}

export interface FixtureRoot {
  files: Record<string, string>;
  index: ChunkIndex;
}

/** A file at each of `paths` with a block and a function (`wordOf(i)` names the i-th file's): 2 chunks a file. */
export function blockAndFunctionFiles(paths: readonly string[], wordOf: (i: number) => string): FixtureRoot {
  const files: Record<string, string> = {};
  const index = new ChunkIndex();
  const kinds: ChunkType[] = ['block', 'function'];
  paths.forEach((path, f) => {
    const w = wordOf(f);
    const text = `${w}Total = sum every order line ${w};\nfunction ${w}Load() { return read ${w} settings; }`;
    files[path] = text;
    const chunks: Chunk[] = kinds.map((chunkType, i) => ({
      path,
      startLine: i + 1,
      endLine: i + 1,
      symbolName: i ? `${w}Load` : '',
      chunkType,
    }));
    index.setFile(path, { size: text.length, mtimeMs: 1 }, chunks, splitLinesForIndex(text));
  });
  return { files, index };
}

/** Roots as SemanticService reads them, one per key; with several, each under the prefix `key/`. */
export function rootsOver(roots: Record<string, FixtureRoot>): Roots {
  const sessions = Object.entries(roots).map(([key, r]) => ({
    key,
    name: key,
    state: new RootState(),
    readyIndex: () => ({ index: r.index }),
    fileLines: linesReader(r.files),
  }));
  const prefixOf = (s: { key: string }) => (sessions.length > 1 ? `${s.key}/` : '');
  return { roots: sessions, prefixOf } as unknown as Roots;
}

/** Polls `test` (every 5 ms, up to 10 s) and expects it true. */
export async function until(test: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !test(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(test()).toBe(true);
}
