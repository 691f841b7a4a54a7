/** The embedding model on a worker thread: the same vectors as on this thread, and a stopped thread is replaced. */
import { describe, expect, it } from 'vitest';
import { nodeThreadEmbeddingModel } from './embed-pool';
import { nodeEmbeddingModel } from './model-files';

describe('the embedding thread', () => {
  it('embeds exactly as the model on this thread does, and answers overlapping requests in their own order', async () => {
    const thread = await nodeThreadEmbeddingModel();
    const here = await nodeEmbeddingModel();
    expect([thread.id, thread.dims]).toEqual([here.id, here.dims]);
    const texts = ['refresh an expired session', 'parse comma separated values', 'a button'];
    const [a, b] = await Promise.all([thread.embed(texts), thread.embed(texts.slice(1))]);
    expect(Array.from(a)).toEqual(Array.from(await here.embed(texts)));
    expect(Array.from(b)).toEqual(Array.from(a.subarray(here.dims)));
    expect(await thread.embed([])).toHaveLength(0);
  }, 60_000);

  it('a request held by a thread that stops fails with a clear message, and the next call starts a new thread', async () => {
    const first = await nodeThreadEmbeddingModel();
    const held = first.embed(
      Array.from({ length: 64 }, (_, i) => `request ${i} is in flight when the thread stops`),
    );
    first.dispose!();
    await expect(held).rejects.toThrow(/The embedding thread stopped/);
    const second = await nodeThreadEmbeddingModel();
    expect(second).not.toBe(first);
    expect(await second.embed(['still works'])).toHaveLength(second.dims);
  }, 60_000);
});
