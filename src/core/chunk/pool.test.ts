import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  AFFINITY_SLACK_CHARS,
  IN_FLIGHT_CHARS,
  InOrderWindow,
  MAX_HOLD_MS,
  poolSize,
  serveChunks,
  THREAD_BUDGET_MS,
  ThreadPool,
  type ChunkMessage,
  type ChunkReply,
  type ChunkRequest,
  type FileChunker,
  type ChunkThread,
} from './pool';
import { QuarryError } from '../errors';

/** A thread run by the test: it answers when told, and can die. */
class FakeThread implements ChunkThread {
  readonly received: ChunkRequest[] = [];
  readonly preloaded: string[] = [];
  private reply: (r: ChunkReply) => void = () => {};
  private exit: (reason: string) => void = () => {};
  terminated = false;
  post(req: ChunkMessage) {
    if ('preload' in req) this.preloaded.push(req.preload);
    else this.received.push(req);
  }
  listen(onReply: (r: ChunkReply) => void, onExit: (reason: string) => void) {
    this.reply = onReply;
    this.exit = onExit;
  }
  terminate() {
    this.terminated = true;
  }
  answer(req: ChunkRequest) {
    this.reply({
      id: req.id,
      chunks: [{ path: req.path, startLine: 1, endLine: 1, symbolName: req.text, chunkType: 'block' }],
    });
  }
  die(reason: string) {
    this.exit(reason);
  }
}

/** A pool over FakeThreads, and the threads it started, in order. */
function fakePool(size: number): { pool: ThreadPool; threads: FakeThread[] } {
  const threads: FakeThread[] = [];
  const pool = new ThreadPool(() => {
    const t = new FakeThread();
    threads.push(t);
    return t;
  }, size);
  return { pool, threads };
}

describe('ThreadPool', () => {
  it('sends each file to the thread with the least text pending, and returns each its own answer', async () => {
    const { pool, threads } = fakePool(2);
    const a = pool.chunk('a.c', 'A'.repeat(1000));
    const b = pool.chunk('b.c', 'B');
    const c = pool.chunk('c.c', 'C');
    const d = pool.chunk('d.c', 'D');
    // a thread busy with one long file is not free: the short ones go to the other
    expect(threads.map((t) => t.received.map((r) => r.path))).toEqual([['a.c'], ['b.c', 'c.c', 'd.c']]);
    // answers in any order reach their own callers
    threads[1].answer(threads[1].received[1]);
    threads[1].answer(threads[1].received[0]);
    threads[0].answer(threads[0].received[0]);
    threads[1].answer(threads[1].received[2]);
    expect((await a)[0].symbolName).toBe('A'.repeat(1000));
    expect((await b)[0].symbolName).toBe('B');
    expect((await c)[0].symbolName).toBe('C');
    expect((await d)[0].symbolName).toBe('D');
    // answered work no longer counts: the next file goes to the first thread again
    void pool.chunk('e.c', 'E');
    expect(threads[0].received.map((r) => r.path)).toEqual(['a.c', 'e.c']);
  });

  it('holdWhile: while the gate says wait no new file goes to a thread, the files in flight finish, and sending resumes when it is quiet', async () => {
    vi.useFakeTimers();
    try {
      const { pool, threads } = fakePool(1);
      let wait = 0;
      pool.holdWhile(() => wait);
      const a = pool.chunk('a.c', 'A');
      expect(threads[0].received.map((r) => r.path)).toEqual(['a.c']);
      wait = 250; // a search begins
      const b = pool.chunk('b.c', 'B');
      const c = pool.chunk('c.c', 'C');
      expect(threads[0].received.map((r) => r.path)).toEqual(['a.c']); // held, though the thread has room
      threads[0].answer(threads[0].received[0]); // the file in flight finishes; its answer sends nothing new
      expect((await a)[0].symbolName).toBe('A');
      await vi.advanceTimersByTimeAsync(200);
      expect(threads[0].received.map((r) => r.path)).toEqual(['a.c']);
      wait = 0; // quiet again: the next check sends the rest, in order
      await vi.advanceTimersByTimeAsync(60);
      expect(threads[0].received.map((r) => r.path)).toEqual(['a.c', 'b.c', 'c.c']);
      for (const r of threads[0].received.slice(1)) threads[0].answer(r);
      expect((await b)[0].symbolName).toBe('B');
      expect((await c)[0].symbolName).toBe('C');
    } finally {
      vi.useRealTimers();
    }
  });

  it('holdWhile: foreground work that never ends holds files back MAX_HOLD_MS at most', async () => {
    vi.useFakeTimers();
    try {
      const { pool, threads } = fakePool(1);
      pool.holdWhile(() => 250);
      const a = pool.chunk('a.c', 'A');
      expect(threads).toHaveLength(1);
      expect(threads[0].received).toEqual([]);
      await vi.advanceTimersByTimeAsync(MAX_HOLD_MS + 100);
      expect(threads[0].received.map((r) => r.path)).toEqual(['a.c']);
      threads[0].answer(threads[0].received[0]);
      expect((await a)[0].symbolName).toBe('A');
      pool.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('threads: at most that many threads take the file (the caller keeps a core)', async () => {
    const { pool, threads } = fakePool(3);
    for (const name of ['a', 'b', 'c', 'd']) void pool.chunk(`${name}.c`, name, { threads: 2 });
    expect(threads.map((t) => t.received.map((r) => r.path))).toEqual([
      ['a.c', 'c.c'],
      ['b.c', 'd.c'],
    ]);
    void pool.chunk('e.c', 'e');
    expect(threads).toHaveLength(3);
    expect(threads[2].received.map((r) => r.path)).toEqual(['e.c']);
  });

  it('affinity: files needing a grammar go to the thread that has it, unless it is far busier', async () => {
    const { pool, threads } = fakePool(2);
    void pool.chunk('a.c', 'c1', { affinity: 'c' });
    void pool.chunk('b.rb', 'r1', { affinity: 'ruby' }); // a new grammar: the least busy thread
    void pool.chunk('c.c', 'c2', { affinity: 'c' }); // thread 0 has C, a little busier: still there
    void pool.chunk('d.rb', 'r2', { affinity: 'ruby' });
    expect(threads.map((t) => t.received.map((r) => r.path))).toEqual([
      ['a.c', 'c.c'],
      ['b.rb', 'd.rb'],
    ]);
    // far busier than the slack: the other thread takes it (and has C from then on)
    void pool.chunk('big.c', 'x'.repeat(AFFINITY_SLACK_CHARS * 2), { affinity: 'c' });
    void pool.chunk('e.c', 'c3', { affinity: 'c' });
    expect(threads.map((t) => t.received.map((r) => r.path))).toEqual([
      ['a.c', 'c.c', 'big.c'],
      ['b.rb', 'd.rb', 'e.c'],
    ]);
  });

  it('prepare: the grammars start loading at once, shared out among the threads, and their files follow them', async () => {
    const { pool, threads } = fakePool(2);
    pool.prepare(['c', 'cpp', 'ruby']);
    pool.prepare(['c']); // already with a thread: not loaded twice
    expect(threads.map((t) => t.preloaded)).toEqual([['c', 'ruby'], ['cpp']]);
    void pool.chunk('a.cpp', 'x', { affinity: 'cpp' });
    void pool.chunk('b.rb', 'y', { affinity: 'ruby' });
    expect(threads.map((t) => t.received.map((r) => r.path))).toEqual([['b.rb'], ['a.cpp']]);
  });

  it('sends a thread up to IN_FLIGHT_CHARS of text (two files at least); a cancelled build drops the files still waiting', async () => {
    let thread!: FakeThread;
    const pool = new ThreadPool(() => (thread = new FakeThread()), 1);
    const ac = new AbortController();
    const big = (n: string) => n + 'x'.repeat(IN_FLIGHT_CHARS / 2);
    const answers = ['a', 'b', 'c', 'd'].map((n) => pool.chunk(`${n}.c`, big(n), { signal: ac.signal }));
    expect(thread.received.map((r) => r.path)).toEqual(['a.c', 'b.c']);
    thread.answer(thread.received[0]);
    expect(thread.received.map((r) => r.path)).toEqual(['a.c', 'b.c', 'c.c']); // one answered, the next one sent
    ac.abort();
    await expect(answers[3]).rejects.toMatchObject({
      code: 'Cancelled',
      message: 'Parsing d.c was cancelled',
    });
    thread.answer(thread.received[1]);
    thread.answer(thread.received[2]);
    expect((await answers[0])[0].symbolName).toBe(big('a'));
    expect((await answers[2])[0].symbolName).toBe(big('c')); // already with the thread: it finishes
    expect(thread.received.map((r) => r.path)).toEqual(['a.c', 'b.c', 'c.c']); // d.c was never sent
    await expect(pool.chunk('e.c', 'e', { signal: ac.signal })).rejects.toMatchObject({ code: 'Cancelled' });
  });

  it('a thread that dies fails the files it held with the reason; a new thread takes the waiting ones and later ones', async () => {
    const { pool, threads } = fakePool(1);
    const lost = pool.chunk('big.c', 'x'.repeat(IN_FLIGHT_CHARS));
    const lost2 = pool.chunk('big2.c', 'x2');
    const waiting = pool.chunk('waiting.c', 'w');
    threads[0].die('out of memory');
    // not necessarily the file's fault: the index build tries it again next time
    await expect(lost).rejects.toMatchObject({
      code: 'Unreadable',
      message: 'The parser thread stopped while parsing big.c: out of memory',
      data: { transient: true },
    });
    await expect(lost2).rejects.toMatchObject({ code: 'Unreadable' });
    expect(threads).toHaveLength(2);
    expect(threads[1].received.map((r) => r.path)).toEqual(['waiting.c']);
    threads[1].answer(threads[1].received[0]);
    expect((await waiting)[0].symbolName).toBe('w');
    const next = pool.chunk('small.c', 'y');
    threads[1].answer(threads[1].received[1]);
    expect((await next)[0].symbolName).toBe('y');
  });

  it('a thread that hangs over a file past THREAD_BUDGET_MS is ended: that file fails transiently, a new thread takes the rest', async () => {
    vi.useFakeTimers();
    try {
      const { pool, threads } = fakePool(1);
      const stuck = pool.chunk('stuck.c', 'x');
      const failed = expect(stuck).rejects.toMatchObject({
        code: 'Unreadable',
        message: `The parser thread stopped while parsing stuck.c: it gave no answer in ${THREAD_BUDGET_MS} ms`,
        data: { transient: true },
      });
      const next = pool.chunk('next.c', 'y');
      await vi.advanceTimersByTimeAsync(THREAD_BUDGET_MS);
      await failed;
      expect(threads[0].terminated).toBe(true);
      expect(threads[1].received.map((r) => r.path)).toEqual(['next.c']);
      threads[1].answer(threads[1].received[0]);
      expect((await next)[0].symbolName).toBe('y');
      pool.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('passes a thread error on as the QuarryError it was', async () => {
    let thread!: FakeThread;
    const pool = new ThreadPool(() => (thread = new FakeThread()), 1);
    const p = pool.chunk('slow.ts', 'x');
    (thread as unknown as { reply: (r: ChunkReply) => void }).reply({
      id: 1,
      error: {
        code: 'Unreadable',
        message: 'Parsing slow.ts took longer than 5000 ms',
        data: { reason: 'parse-timeout' },
      },
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

  it('a thread that cannot be created fails the file (a rejection, never a throw), and the pool tries again for the next', async () => {
    let attempts = 0;
    const pool = new ThreadPool(() => {
      if (++attempts === 1) throw new Error('SecurityError: workers are not allowed here');
      return new FakeThread();
    }, 1);
    const first = pool.chunk('a.c', 'x');
    await expect(first).rejects.toMatchObject({ code: 'Unreadable', data: { transient: true } });
    pool.prepare(['c']); // no throw either
    void pool.chunk('b.c', 'y');
    expect(attempts).toBe(2);
  });

  it('threads that stop before their first answer, twice in a row: the pool parses on the calling thread from then on, losing no file', async () => {
    const threads: FakeThread[] = [];
    const onThisThread: string[] = [];
    const fallback = async (): Promise<FileChunker> => ({
      parallelism: 1,
      chunk: async (path, text) => (
        onThisThread.push(path),
        [{ path, startLine: 1, endLine: 1, symbolName: text, chunkType: 'block' }]
      ),
    });
    const pool = new ThreadPool(
      () => {
        const t = new FakeThread();
        threads.push(t);
        return t;
      },
      1,
      fallback,
    );
    const first = pool.chunk('a.c', 'a');
    threads[0].die('the worker script failed to load');
    // one failure may be the file's: it fails, transiently
    await expect(first).rejects.toMatchObject({ code: 'Unreadable', data: { transient: true } });
    const second = pool.chunk('b.c', 'b');
    const third = pool.chunk('c.c', 'c');
    threads[1].die('the worker script failed to load');
    expect(pool.fellBack).toBe(true);
    expect((await second)[0].symbolName).toBe('b');
    expect((await third)[0].symbolName).toBe('c');
    expect((await pool.chunk('d.c', 'd'))[0].symbolName).toBe('d');
    expect(onThisThread).toEqual(['b.c', 'c.c', 'd.c']);
    expect(threads).toHaveLength(2);
  });

  it('a thread that answered once and then stops is not a start failure: no fallback', async () => {
    const { pool, threads } = fakePool(1);
    const a = pool.chunk('a.c', 'a');
    threads[0].answer(threads[0].received[0]);
    await a;
    const b = pool.chunk('b.c', 'b');
    threads[0].die('crashed on b.c');
    await expect(b).rejects.toMatchObject({ code: 'Unreadable' });
    expect(pool.fellBack).toBe(false);
  });

  it('refuses a pool of no threads', () => {
    expect(() => new ThreadPool(() => new FakeThread(), 0)).toThrow(
      'A parsing pool needs at least one thread, not 0',
    );
  });

  it('sizes: one thread per core beyond the caller, at least two', () => {
    expect([poolSize(undefined), poolSize(1), poolSize(2), poolSize(3), poolSize(8)]).toEqual([
      2, 2, 2, 2, 7,
    ]);
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
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(5), fc.boolean()), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 8 }),
        async (jobs, maxFiles) => {
          const window = new InOrderWindow<number>(maxFiles, 1_000_000);
          const applied: string[] = [];
          let maxWaiting = 0;
          for (let i = 0; i < jobs.length; i++) {
            const [delay, fails] = jobs[i];
            const answer = new Promise<number>((resolve, reject) =>
              setTimeout(() => (fails ? reject(new Error(`e${i}`)) : resolve(i)), delay),
            );
            await window.push(answer, 1, (r) =>
              applied.push(r.ok ? `ok${r.value}` : `err${(r.error as Error).message}`),
            );
            maxWaiting = Math.max(maxWaiting, window.waiting);
          }
          await window.drain();
          expect(applied).toEqual(jobs.map(([, fails], i) => (fails ? `erre${i}` : `ok${i}`)));
          expect(maxWaiting).toBeLessThanOrEqual(maxFiles);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('stops waiting the moment its signal aborts, even for an answer that never comes', async () => {
    const ac = new AbortController();
    const window = new InOrderWindow<number>(1, 1_000_000, ac.signal);
    const applied: number[] = [];
    await window.push(new Promise<number>(() => {}), 1, (r) => r.ok && applied.push(r.value));
    const waiting = window.push(Promise.resolve(2), 1, (r) => r.ok && applied.push(r.value));
    setTimeout(() => ac.abort(), 10);
    await expect(waiting).rejects.toMatchObject({ code: 'Cancelled' });
    await expect(window.drain()).rejects.toMatchObject({ code: 'Cancelled' });
    expect(applied).toEqual([]);
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
