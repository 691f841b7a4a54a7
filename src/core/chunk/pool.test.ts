import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InOrderWindow, poolSize, serveChunks, ThreadPool, type ChunkReply, type ChunkRequest, type ChunkThread } from './pool';
import { QuarryError } from '../errors';

/** A thread run by the test: it answers when told, and can die. */
class FakeThread implements ChunkThread {
  readonly received: ChunkRequest[] = [];
  private reply: (r: ChunkReply) => void = () => {};
  private exit: (reason: string) => void = () => {};
  terminated = false;
  post(req: ChunkRequest) {
    this.received.push(req);
  }
  listen(onReply: (r: ChunkReply) => void, onExit: (reason: string) => void) {
    this.reply = onReply;
    this.exit = onExit;
  }
  terminate() {
    this.terminated = true;
  }
  answer(req: ChunkRequest) {
    this.reply({ id: req.id, chunks: [{ path: req.path, startLine: 1, endLine: 1, symbolName: req.text, chunkType: 'block' }] });
  }
  die(reason: string) {
    this.exit(reason);
  }
}

describe('ThreadPool', () => {
  it('sends each file to the thread with the least text pending, and returns each its own answer', async () => {
    const threads: FakeThread[] = [];
    const pool = new ThreadPool(() => {
      const t = new FakeThread();
      threads.push(t);
      return t;
    }, 2);
    const a = pool.chunk('a.c', 'A'.repeat(1000));
    const b = pool.chunk('b.c', 'B');
    const c = pool.chunk('c.c', 'C');
    const d = pool.chunk('d.c', 'D');
    // a thread busy with one long file is not free: the short ones go to the other
    expect(threads.map((t) => t.received.map((r) => r.path))).toEqual([['a.c'], ['b.c', 'c.c', 'd.c']]);
    // answers in any order reach their own callers
    threads[1].answer(threads[1].received[2]);
    threads[1].answer(threads[1].received[0]);
    threads[0].answer(threads[0].received[0]);
    threads[1].answer(threads[1].received[1]);
    expect((await a)[0].symbolName).toBe('A'.repeat(1000));
    expect((await b)[0].symbolName).toBe('B');
    expect((await c)[0].symbolName).toBe('C');
    expect((await d)[0].symbolName).toBe('D');
    // answered work no longer counts: the next file goes to the first thread again
    void pool.chunk('e.c', 'E');
    expect(threads[0].received.map((r) => r.path)).toEqual(['a.c', 'e.c']);
  });

  it('threads: at most that many threads take the file (the caller keeps a core)', async () => {
    const threads: FakeThread[] = [];
    const pool = new ThreadPool(() => {
      const t = new FakeThread();
      threads.push(t);
      return t;
    }, 3);
    for (const name of ['a', 'b', 'c', 'd']) void pool.chunk(`${name}.c`, name, 2);
    expect(threads.map((t) => t.received.map((r) => r.path))).toEqual([
      ['a.c', 'c.c'],
      ['b.c', 'd.c'],
    ]);
    void pool.chunk('e.c', 'e');
    expect(threads).toHaveLength(3);
    expect(threads[2].received.map((r) => r.path)).toEqual(['e.c']);
  });

  it('a thread that dies fails its pending files with the reason and a new thread takes later ones', async () => {
    const threads: FakeThread[] = [];
    const pool = new ThreadPool(() => {
      const t = new FakeThread();
      threads.push(t);
      return t;
    }, 1);
    const lost = pool.chunk('big.c', 'x');
    threads[0].die('out of memory');
    await expect(lost).rejects.toMatchObject({ code: 'Unreadable', message: 'The parser thread stopped while parsing big.c: out of memory' });
    const next = pool.chunk('small.c', 'y');
    expect(threads).toHaveLength(2);
    threads[1].answer(threads[1].received[0]);
    expect((await next)[0].symbolName).toBe('y');
  });

  it('passes a thread error on as the QuarryError it was', async () => {
    let thread!: FakeThread;
    const pool = new ThreadPool(() => (thread = new FakeThread()), 1);
    const p = pool.chunk('slow.ts', 'x');
    (thread as unknown as { reply: (r: ChunkReply) => void }).reply({
      id: 1,
      error: { code: 'Unreadable', message: 'Parsing slow.ts took longer than 5000 ms', data: { reason: 'parse-timeout' } },
    });
    await expect(p).rejects.toMatchObject({ code: 'Unreadable', data: { reason: 'parse-timeout' } });
  });

  it('dispose terminates the threads, fails what was pending and refuses new files', async () => {
    let thread!: FakeThread;
    const pool = new ThreadPool(() => (thread = new FakeThread()), 1);
    const p = pool.chunk('a.c', 'x');
    pool.dispose();
    expect(thread.terminated).toBe(true);
    await expect(p).rejects.toMatchObject({ code: 'Cancelled' });
    await expect(pool.chunk('b.c', 'y')).rejects.toMatchObject({ code: 'Cancelled' });
  });

  it('refuses a pool of no threads', () => {
    expect(() => new ThreadPool(() => new FakeThread(), 0)).toThrow('A parsing pool needs at least one thread, not 0');
  });

  it('sizes: one thread per core beyond the caller, at least two', () => {
    expect([poolSize(undefined), poolSize(1), poolSize(2), poolSize(3), poolSize(8)]).toEqual([2, 2, 2, 2, 7]);
  });
});

describe('serveChunks', () => {
  it('answers with the chunks, or with the error as plain data', async () => {
    const replies: ChunkReply[] = [];
    const serve = serveChunks(
      async () => ({
        chunk: async (path: string, text: string) => {
          if (text === 'bad') throw new QuarryError('Unreadable', `Could not parse ${path}`, { path });
          return [{ path, startLine: 1, endLine: 1, symbolName: text, chunkType: 'block' as const }];
        },
      }),
      (r) => replies.push(r),
    );
    serve({ id: 1, path: 'a.c', text: 'ok' });
    serve({ id: 2, path: 'b.c', text: 'bad' });
    await new Promise((r) => setTimeout(r, 0));
    expect(replies).toEqual([
      { id: 1, chunks: [{ path: 'a.c', startLine: 1, endLine: 1, symbolName: 'ok', chunkType: 'block' }] },
      { id: 2, error: { code: 'Unreadable', message: 'Could not parse b.c', data: { path: 'b.c' } } },
    ]);
  });
});

describe('InOrderWindow', () => {
  it('applies answers in the order asked, whatever order they settle in, failures in their turn', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.nat(5), fc.boolean()), { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 8 }), async (jobs, maxFiles) => {
        const window = new InOrderWindow<number>(maxFiles, 1_000_000);
        const applied: string[] = [];
        let maxWaiting = 0;
        for (let i = 0; i < jobs.length; i++) {
          const [delay, fails] = jobs[i];
          const answer = new Promise<number>((resolve, reject) => setTimeout(() => (fails ? reject(new Error(`e${i}`)) : resolve(i)), delay));
          await window.push(answer, 1, (r) => applied.push(r.ok ? `ok${r.value}` : `err${(r.error as Error).message}`));
          maxWaiting = Math.max(maxWaiting, window.waiting);
        }
        await window.drain();
        expect(applied).toEqual(jobs.map(([, fails], i) => (fails ? `erre${i}` : `ok${i}`)));
        expect(maxWaiting).toBeLessThanOrEqual(maxFiles);
      }),
      { numRuns: 40 },
    );
  });

  it('holds no more characters than allowed, but always at least one file', async () => {
    const window = new InOrderWindow<number>(100, 10);
    await window.push(Promise.resolve(1), 6, () => {});
    await window.push(Promise.resolve(2), 6, () => {});
    expect(window.waiting).toBe(1);
    await window.push(Promise.resolve(3), 50, () => {});
    expect(window.waiting).toBe(1);
  });
});
