/** The embedding model on a thread, over a fake thread: load once with progress, overlapping embeds, a lost thread, dispose, abort. */
import { describe, expect, it } from 'vitest';
import type { ModelLoadProgress } from './port';
import { FakeEmbedThread } from './fake-thread.testutil';
import { ThreadEmbedder } from './thread-embedder';

class FakeModelThread extends FakeEmbedThread {
  /** Answers every embed request not answered yet with vectors of `dims` numbers a text. */
  answerEmbeds(dims: number, from = 0): void {
    for (const r of this.requests.slice(from))
      if (r.type === 'embed')
        this.send({ id: r.id, type: 'vectors', vectors: new Float32Array(r.texts.length * dims).fill(r.id) });
  }
}

function embedder() {
  const threads: FakeModelThread[] = [];
  const e = new ThreadEmbedder(
    () => {
      const t = new FakeModelThread();
      threads.push(t);
      return t;
    },
    { thread: 'embedding worker', disposed: 'The embedding model was disposed' },
  );
  return { e, threads };
}

const flush = () => new Promise<void>((r) => setTimeout(r, 0));

describe('ThreadEmbedder', () => {
  it('loads once with progress to every caller, then embeds overlapping requests each with its own answer', async () => {
    const { e, threads } = embedder();
    const seen: ModelLoadProgress[] = [];
    const first = e.load((p) => seen.push(p));
    const second = e.load();
    expect(threads).toHaveLength(1);
    expect(threads[0].requests).toEqual([{ id: 1, type: 'load' }]);
    threads[0].send({ id: 1, type: 'progress', loaded: 5, total: 10 });
    threads[0].send({ id: 1, type: 'ready', modelId: 'm', dims: 2 });
    const model = await first;
    expect(await second).toBe(model);
    expect(seen).toEqual([{ phase: 'model', loaded: 5, total: 10 }]);
    expect([model.id, model.dims]).toEqual(['m', 2]);
    const a = model.embed(['x', 'y']);
    const b = model.embed(['z']);
    expect(threads[0].requests.slice(1)).toEqual([
      { id: 2, type: 'embed', texts: ['x', 'y'] },
      { id: 3, type: 'embed', texts: ['z'] },
    ]);
    threads[0].answerEmbeds(2, 1);
    expect(Array.from(await a)).toEqual([2, 2, 2, 2]);
    expect(Array.from(await b)).toEqual([3, 3]);
    expect(await model.embed([])).toHaveLength(0);
    expect(await e.load()).toBe(model);
  });

  it('a failed load rejects with the thread message and ends the thread; the next load starts a fresh one', async () => {
    const { e, threads } = embedder();
    const failed = e.load();
    threads[0].send({ id: 1, type: 'error', message: 'the model files are missing' });
    await expect(failed).rejects.toThrow('the model files are missing');
    expect(threads[0].terminated).toBe(true);
    const again = e.load();
    expect(threads).toHaveLength(2);
    threads[1].send({ id: 1, type: 'ready', modelId: 'm', dims: 1 });
    expect((await again).id).toBe('m');
  });

  it('a thread that stops fails what it held and its model from then on; the next load starts a new thread', async () => {
    const { e, threads } = embedder();
    const loading = e.load();
    threads[0].send({ id: 1, type: 'ready', modelId: 'm', dims: 1 });
    const model = await loading;
    const held = model.embed(['a']);
    threads[0].die('');
    await expect(held).rejects.toThrow('The embedding worker stopped (it could not start, or it crashed)');
    await expect(model.embed(['b'])).rejects.toThrow('The embedding worker stopped');
    const next = e.load();
    expect(threads).toHaveLength(2);
    threads[1].send({ id: 1, type: 'ready', modelId: 'm', dims: 1 });
    const fresh = await next;
    expect(fresh).not.toBe(model);
    const load2 = fresh.embed(['c']);
    threads[1].die('out of memory');
    await expect(load2).rejects.toThrow('The embedding worker stopped: out of memory');
  });

  it('dispose ends the thread and fails what it held; an abort rejects its caller only', async () => {
    const { e, threads } = embedder();
    const ctl = new AbortController();
    const aborted = e.load(undefined, ctl.signal);
    const kept = e.load();
    ctl.abort(new Error('not now'));
    await expect(aborted).rejects.toThrow('not now');
    threads[0].send({ id: 1, type: 'ready', modelId: 'm', dims: 1 });
    const model = await kept;
    const held = model.embed(['a']);
    model.dispose!();
    await expect(held).rejects.toThrow('The embedding model was disposed');
    expect(threads[0].terminated).toBe(true);
    void e.load();
    expect(threads).toHaveLength(2);
    await flush();
  });

  it('a thread that cannot be created, or a wrong answer, rejects with a clear message', async () => {
    let fail = true;
    const threads: FakeModelThread[] = [];
    const e = new ThreadEmbedder(
      () => {
        if (fail) throw new Error('workers are not allowed here');
        const t = new FakeModelThread();
        threads.push(t);
        return t;
      },
      { thread: 'embedding thread', disposed: 'disposed' },
    );
    await expect(e.load()).rejects.toThrow(
      'The embedding thread could not start: workers are not allowed here',
    );
    fail = false;
    const loading = e.load();
    threads[0].send({ id: 1, type: 'vectors', vectors: new Float32Array(0) });
    await expect(loading).rejects.toThrow('The embedding thread answered vectors to load');
    const again = e.load();
    threads[1].send({ id: 1, type: 'ready', modelId: 'm', dims: 2 });
    const model = await again;
    const short = model.embed(['a']);
    threads[1].send({ id: 2, type: 'vectors', vectors: new Float32Array(1) });
    await expect(short).rejects.toThrow('The embedding thread sent 1 numbers for 1 texts of 2');
  });
});
