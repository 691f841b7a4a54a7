/** The embedding model on several fake threads: load on each, a batch cut across them in order, a stopped thread, dispose. */
import { describe, expect, it } from 'vitest';
import type { ModelLoadProgress } from './port';
import { EmbedderPool, embedThreadCount, MAX_EMBED_THREADS, sliceEnds } from './embedder-pool';
import { FakeEmbedThread } from './fake-thread.testutil';

/** A thread whose model answers each text with its number (the text `t7` → a vector of 7s). */
class FakeThread extends FakeEmbedThread {
  constructor(readonly dims = 2) {
    super();
  }
  ready(modelId = 'm', device?: string): void {
    const load = this.requests.find((r) => r.type === 'load')!;
    this.send({ id: load.id, type: 'ready', modelId, dims: this.dims, ...(device ? { device } : {}) });
  }
  /** The texts of the embed requests sent to this thread, in order. */
  get embeds(): string[][] {
    return this.requests.flatMap((r) => (r.type === 'embed' ? [r.texts] : []));
  }
  /** Answers every embed request not answered yet. */
  answer(): void {
    for (const r of this.requests.splice(0))
      if (r.type === 'embed')
        this.send({
          id: r.id,
          type: 'vectors',
          vectors: Float32Array.from(r.texts.flatMap((t) => Array(this.dims).fill(Number(t.slice(1))))),
        });
  }
}

function pool(threads: number) {
  const spawned: FakeThread[] = [];
  const p = new EmbedderPool(
    () => {
      const t = new FakeThread();
      spawned.push(t);
      return t;
    },
    { thread: 'embedding worker', disposed: 'The embedding model was disposed' },
    threads,
  );
  return { p, spawned };
}

const texts = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `t${from + i}`);
const flush = () => new Promise<void>((r) => setTimeout(r, 0));

describe('embedThreadCount and sliceEnds', () => {
  it.each([
    { cores: undefined, want: 1 },
    { cores: 0, want: 1 },
    { cores: 1, want: 1 },
    { cores: 2, want: 2 },
    { cores: 3.5, want: 3 },
    { cores: 64, want: MAX_EMBED_THREADS },
    { cores: NaN, want: 1 },
  ])('$cores cores: $want threads', ({ cores, want }) => {
    expect(embedThreadCount(cores)).toBe(want);
  });

  it.each([
    { n: 16, parts: 2, want: [8, 16] },
    { n: 5, parts: 2, want: [3, 5] },
    { n: 10, parts: 4, want: [3, 6, 8, 10] },
    { n: 1, parts: 4, want: [1] },
    { n: 3, parts: 4, want: [1, 2, 3] },
    { n: 0, parts: 2, want: [0] },
  ])('$n texts over $parts threads end at $want', ({ n, parts, want }) => {
    expect(sliceEnds(n, parts)).toEqual(want);
  });
});

describe('EmbedderPool', () => {
  it.each<{ devices: Array<string | undefined>; want: string | undefined; size: number }>([
    { devices: ['CPU', 'CPU'], want: 'CPU', size: 2 },
    { devices: [undefined, undefined], want: undefined, size: 2 },
    // on a GPU one thread keeps the model: the GPU one, where another thread fell back to the CPU
    { devices: ['WebGPU', 'WebGPU'], want: 'WebGPU', size: 1 },
    { devices: ['CPU', 'WebGPU'], want: 'WebGPU', size: 1 },
  ])(
    'says where the model runs, and keeps one thread on a GPU: $devices',
    async ({ devices, want, size }) => {
      const { p, spawned } = pool(2);
      const loading = p.load();
      spawned.forEach((t, i) => t.ready('m', devices[i]));
      const model = await loading;
      expect(model.device).toBe(want);
      expect(p.size).toBe(size);
      // the threads left out were stopped; every batch goes to the one kept
      const kept = devices.indexOf('WebGPU');
      spawned.forEach((t, i) => expect(t.terminated).toBe(size === 1 && i !== kept));
      if (size === 1) {
        for (const t of spawned) t.requests.splice(0);
        const out = model.embed(texts(3));
        expect(spawned[kept].embeds).toEqual([texts(3)]);
        spawned[kept].answer();
        expect(Array.from(await out)).toEqual([0, 0, 1, 1, 2, 2]);
        expect(await p.load()).toBe(model);
        // after a dispose (a model switch) every thread is used again
        p.dispose();
        void p.load().catch(() => undefined);
        expect(spawned).toHaveLength(4);
        expect(p.size).toBe(2);
      }
    },
  );

  it("loads the model on every thread with the slowest one's progress, then cuts a batch across them in order", async () => {
    const { p, spawned } = pool(2);
    const seen: ModelLoadProgress[] = [];
    const loading = p.load((x) => seen.push(x));
    expect(spawned).toHaveLength(2);
    spawned[0].send({ id: 1, type: 'progress', loaded: 5, total: 10 });
    expect(seen.at(-1)).toEqual({ phase: 'model', loaded: 0, total: 10 });
    spawned[1].send({ id: 1, type: 'progress', loaded: 2, total: 10 });
    expect(seen.at(-1)).toEqual({ phase: 'model', loaded: 2, total: 10 });
    spawned[1].send({ id: 1, type: 'progress', loaded: 10, total: 10 });
    spawned[0].ready();
    spawned[1].ready();
    const model = await loading;
    expect(seen.at(-1)).toEqual({ phase: 'model', loaded: 5, total: 10 });
    expect([model.id, model.dims]).toEqual(['m', 2]);
    expect(await p.load()).toBe(model);
    for (const t of spawned) t.requests.splice(0);

    const batch = texts(5);
    const out = model.embed(batch);
    // both threads used, each a contiguous slice
    expect(spawned[0].embeds).toEqual([['t0', 't1', 't2']]);
    expect(spawned[1].embeds).toEqual([['t3', 't4']]);
    // the second thread answers first: the vectors still come back in the batch's order
    spawned[1].answer();
    await flush();
    spawned[0].answer();
    expect(Array.from(await out)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
    // one text: one thread; none: no thread
    const one = model.embed(['t9']);
    expect(spawned[0].embeds).toEqual([['t9']]);
    expect(spawned[1].embeds).toEqual([]);
    spawned[0].answer();
    expect(Array.from(await one)).toEqual([9, 9]);
    expect(await model.embed([])).toHaveLength(0);
  });

  it('overlapping batches each get their own vectors', async () => {
    const { p, spawned } = pool(3);
    const loading = p.load();
    for (const t of spawned) t.ready();
    const model = await loading;
    const a = model.embed(texts(6));
    const b = model.embed(texts(4, 100));
    expect(spawned.map((t) => t.embeds.map((e) => e.length))).toEqual([
      [2, 2],
      [2, 1],
      [2, 1],
    ]);
    for (const t of [...spawned].reverse()) t.answer();
    expect(Array.from(await a).filter((_, i) => i % 2 === 0)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(Array.from(await b).filter((_, i) => i % 2 === 0)).toEqual([100, 101, 102, 103]);
  });

  it('a thread that stops fails only what it held; the next load replaces it and keeps the other', async () => {
    const { p, spawned } = pool(2);
    const loading = p.load();
    for (const t of spawned) t.ready();
    const model = await loading;
    const alone = model.embed(['t1']); // on the first thread only
    const split = model.embed(texts(4));
    spawned[1].die('out of memory');
    await expect(split).rejects.toThrow('The embedding worker stopped: out of memory');
    spawned[0].answer();
    expect(Array.from(await alone)).toEqual([1, 1]);
    // the model given before fails from then on (its second thread is gone)
    await expect(model.embed(texts(2))).rejects.toThrow('The embedding worker stopped');
    spawned[0].answer();

    const reloading = p.load();
    // a fresh thread in place of the stopped one; the first is kept, its model still loaded
    expect(spawned).toHaveLength(3);
    expect(spawned[0].terminated).toBe(false);
    spawned[2].ready();
    const fresh = await reloading;
    expect(fresh).not.toBe(model);
    const out = fresh.embed(texts(2, 7));
    expect(spawned[0].embeds).toEqual([['t7']]);
    expect(spawned[2].embeds).toEqual([['t8']]);
    spawned[0].answer();
    spawned[2].answer();
    expect(Array.from(await out)).toEqual([7, 7, 8, 8]);
  });

  it('a load that fails on one thread rejects; the next load retries that thread only', async () => {
    const { p, spawned } = pool(2);
    const failed = p.load();
    spawned[0].ready();
    spawned[1].send({ id: 1, type: 'error', message: 'the model files are missing' });
    await expect(failed).rejects.toThrow('the model files are missing');
    const again = p.load();
    expect(spawned).toHaveLength(3);
    spawned[2].ready();
    const model = await again;
    expect(model.dims).toBe(2);
    expect(spawned[0].requests.filter((r) => r.type === 'load')).toHaveLength(1);
  });

  it('threads that loaded different models are refused', async () => {
    const { p, spawned } = pool(2);
    const loading = p.load();
    spawned[0].ready('m');
    spawned[1].ready('other');
    await expect(loading).rejects.toThrow(
      'The embedding threads loaded different models: m (2) and other (2)',
    );
  });

  it("dispose ends every thread and fails what they held; the model's dispose too; a later load starts new threads", async () => {
    const { p, spawned } = pool(2);
    const loading = p.load();
    for (const t of spawned) t.ready();
    const model = await loading;
    const held = model.embed(texts(4));
    p.dispose();
    await expect(held).rejects.toThrow('The embedding model was disposed');
    expect(spawned.every((t) => t.terminated)).toBe(true);

    const next = p.load();
    expect(spawned).toHaveLength(4);
    for (const t of spawned.slice(2)) t.ready();
    const fresh = await next;
    expect(fresh).not.toBe(model);
    const held2 = fresh.embed(texts(2));
    fresh.dispose!();
    await expect(held2).rejects.toThrow('The embedding model was disposed');
    expect(spawned.slice(2).every((t) => t.terminated)).toBe(true);
    void p.load();
    expect(spawned).toHaveLength(6);
    await flush();
  });

  it('one thread gives that thread’s own model; an abort rejects its caller only', async () => {
    const { p, spawned } = pool(1);
    const ctl = new AbortController();
    const aborted = p.load(undefined, ctl.signal);
    const kept = p.load();
    ctl.abort(new Error('not now'));
    await expect(aborted).rejects.toThrow('not now');
    spawned[0].ready();
    const model = await kept;
    expect(p.size).toBe(1);
    const out = model.embed(texts(3));
    expect(spawned[0].embeds).toEqual([['t0', 't1', 't2']]);
    spawned[0].answer();
    expect(Array.from(await out)).toEqual([0, 0, 1, 1, 2, 2]);
  });
});
