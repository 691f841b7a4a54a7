/** Core's thread pool over fake threads: queueing, one send per task, lost and hung threads, cancel, dispose, give-up. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Pool, type PoolOptions } from './pool';
import type { PoolThread } from './pool-thread';

type Msg = { id: number; task: string } | { cancel: number } | { note: string };
type Reply = { id: number; value?: string; error?: string; progress?: number };

/** A thread run by the test: it answers when told, and can die. */
class FakeThread implements PoolThread<Msg, Reply> {
  readonly posted: Msg[] = [];
  terminated = false;
  private onReply: (r: Reply) => void = () => {};
  private onExit: (reason: string) => void = () => {};
  post(message: Msg): void {
    this.posted.push(message);
  }
  listen(onReply: (r: Reply) => void, onExit: (reason: string) => void): void {
    this.onReply = onReply;
    this.onExit = onExit;
  }
  terminate(): void {
    this.terminated = true;
  }
  /** The tasks it was sent, by name. */
  get tasks(): string[] {
    return this.posted.flatMap((m) => ('task' in m ? [m.task] : []));
  }
  /** Answers the task named `task` with its name upper-cased. */
  answer(task: string): void {
    const m = this.posted.find((p) => 'task' in p && p.task === task) as { id: number; task: string };
    this.onReply({ id: m.id, value: task.toUpperCase() });
  }
  reply(r: Reply): void {
    this.onReply(r);
  }
  idOf(task: string): number {
    return (this.posted.find((p) => 'task' in p && p.task === task) as { id: number }).id;
  }
  die(reason: string): void {
    this.onExit(reason);
  }
}

type Options = PoolOptions<Msg, Reply, string, string, undefined>;

function fakePool(size: number, more: Partial<Options> = {}) {
  const threads: FakeThread[] = [];
  const pool = new Pool<Msg, Reply, string, string>({
    size,
    spawn: () => {
      const t = new FakeThread();
      threads.push(t);
      return t;
    },
    encode: (id, task) => ({ message: { id, task }, transfer: [] }),
    replyId: (r) => r.id,
    outcome: (r) =>
      r.progress !== undefined
        ? undefined
        : r.error !== undefined
          ? { ok: false, error: new Error(r.error) }
          : { ok: true, value: r.value! },
    lost: (reason, task) => new Error(`the thread stopped while running ${task}: ${reason}`),
    cancelled: (task) => new Error(`${task} was cancelled`),
    closed: (reason, task) => new Error(`${task}: the pool was closed${reason ? ` (${reason})` : ''}`),
    ...more,
  });
  return { pool, threads };
}

/** Lets settled promises run their callbacks. */
const tick = () => new Promise<void>((r) => setTimeout(r, 0));

afterEach(() => {
  vi.useRealTimers();
});

describe('Pool', () => {
  it('queues tasks beyond its threads, sends each once to an idle thread, in order, and returns each its own answer', async () => {
    const { pool, threads } = fakePool(2);
    const names = ['a', 'b', 'c', 'd', 'e'];
    const answers = names.map((n) => pool.run(n));
    expect(threads.map((t) => t.tasks)).toEqual([['a'], ['b']]);
    threads[1].answer('b'); // the idle thread takes the next in line
    expect(threads.map((t) => t.tasks)).toEqual([['a'], ['b', 'c']]);
    threads[0].answer('a');
    threads[0].answer('d');
    threads[1].answer('c');
    threads[0].answer('e');
    expect(await Promise.all(answers)).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(threads).toHaveLength(2);
    const sent = threads.flatMap((t) => t.tasks).sort();
    expect(sent).toEqual(names);
    expect(pool.slots.map((s) => [s.started, s.inFlight])).toEqual([
      [true, 0],
      [true, 0],
    ]);
  });

  it('starts threads only when a task finds none idle', async () => {
    const { pool, threads } = fakePool(3);
    const a = pool.run('a');
    threads[0].answer('a');
    await a;
    const b = pool.run('b');
    expect(threads).toHaveLength(1);
    threads[0].answer('b');
    expect(await b).toBe('B');
  });

  it('a thread that dies fails its task with the reason; a new thread takes the queued ones while the others go on', async () => {
    const { pool, threads } = fakePool(2);
    const a = pool.run('a');
    const b = pool.run('b');
    const c = pool.run('c');
    threads[0].die('out of memory');
    await expect(a).rejects.toThrow('the thread stopped while running a: out of memory');
    expect(threads[0].terminated).toBe(true);
    expect(threads).toHaveLength(3);
    expect(threads[2].tasks).toEqual(['c']);
    threads[1].answer('b');
    threads[2].answer('c');
    expect([await b, await c]).toEqual(['B', 'C']);
    // a late word from the dead thread changes nothing
    threads[0].reply({ id: threads[0].idOf('a'), value: 'late' });
    expect(pool.slots[0].inFlight).toBe(0);
  });

  it('a thread that hangs past the budget is ended: its task fails, the others it held go first to a new thread', async () => {
    vi.useFakeTimers();
    const { pool, threads } = fakePool(1, { budget: () => 1000, room: (s) => s.inFlight < 2 });
    const a = pool.run('a');
    const hung = expect(a).rejects.toThrow(
      'the thread stopped while running a: it gave no answer in 1000 ms',
    );
    const b = pool.run('b');
    const c = pool.run('c');
    expect(threads[0].tasks).toEqual(['a', 'b']);
    await vi.advanceTimersByTimeAsync(999);
    expect(threads[0].terminated).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await hung;
    expect(threads[0].terminated).toBe(true);
    expect(threads[1].tasks).toEqual(['b', 'c']);
    threads[1].answer('b');
    // the budget counts from when a task is the oldest its thread holds
    await vi.advanceTimersByTimeAsync(600);
    threads[1].answer('c');
    await vi.advanceTimersByTimeAsync(2000);
    expect([await b, await c]).toEqual(['B', 'C']);
    expect(threads).toHaveLength(2);
  });

  it('cancel: a queued task is dropped unsent; a running one ends its thread by default, and a new thread takes the rest', async () => {
    const { pool, threads } = fakePool(1);
    const first = new AbortController();
    const second = new AbortController();
    const a = pool.run('a', first.signal);
    const b = pool.run('b', second.signal);
    const c = pool.run('c');
    second.abort();
    await expect(b).rejects.toThrow('b was cancelled');
    first.abort();
    await expect(a).rejects.toThrow('a was cancelled');
    expect(threads[0].terminated).toBe(true);
    expect(threads[1].tasks).toEqual(['c']);
    threads[1].answer('c');
    expect(await c).toBe('C');
    expect(threads.flatMap((t) => t.tasks)).toEqual(['a', 'c']); // b never sent
    await expect(pool.run('d', first.signal)).rejects.toThrow('d was cancelled');
  });

  it("cancel a running task with a message: the thread is asked to drop it and kept, its late answer ignored; 'finish' lets it run", async () => {
    const asked = fakePool(1, { cancelRunning: { message: (id) => ({ cancel: id }) } });
    const ctl = new AbortController();
    const a = asked.pool.run('a', ctl.signal);
    const b = asked.pool.run('b');
    ctl.abort();
    await expect(a).rejects.toThrow('a was cancelled');
    const thread = asked.threads[0];
    expect(thread.posted).toEqual([{ id: 1, task: 'a' }, { cancel: 1 }, { id: 2, task: 'b' }]);
    thread.answer('a');
    thread.answer('b');
    expect(await b).toBe('B');
    expect(thread.terminated).toBe(false);

    const finishing = fakePool(1, { cancelRunning: 'finish' });
    const late = new AbortController();
    const c = finishing.pool.run('c', late.signal);
    late.abort();
    finishing.threads[0].answer('c');
    expect(await c).toBe('C');
  });

  it('dispose terminates the threads and fails every pending task and later ones', async () => {
    const onClose = vi.fn();
    const { pool, threads } = fakePool(1, { onClose });
    const a = pool.run('a');
    const b = pool.run('b');
    pool.dispose('shutting down');
    await expect(a).rejects.toThrow('a: the pool was closed (shutting down)');
    await expect(b).rejects.toThrow('b: the pool was closed (shutting down)');
    expect(threads[0].terminated).toBe(true);
    await expect(pool.run('c')).rejects.toThrow('c: the pool was closed');
    expect(pool.post(0, { note: 'x' })).toBe(false);
    expect(threads).toHaveLength(1);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onClose).toHaveBeenCalledWith('shutting down');
  });

  it('threads that stop before answering, twice in a row (a failed start counts), make it give up: the fallback runs the rest', async () => {
    let attempts = 0;
    const threads: FakeThread[] = [];
    const { pool } = fakePool(1, {
      spawn: () => {
        if (++attempts === 2) throw new Error('workers are not allowed here');
        const t = new FakeThread();
        threads.push(t);
        return t;
      },
      fallback: async (task) => `here:${task}`,
    });
    const a = pool.run('a');
    const b = pool.run('b');
    threads[0].die('the script failed to load');
    await expect(a).rejects.toThrow('running a: the script failed to load');
    // the next thread could not even be created: the second failure in a row
    expect(pool.gaveUp).toBe(true);
    expect(await b).toBe('here:b');
    expect(await pool.run('c')).toBe('here:c');
    expect(attempts).toBe(2);
  });

  it('a thread that answered once is no start failure; without a fallback the pool never gives up', async () => {
    const { pool, threads } = fakePool(1, { fallback: async (t) => `here:${t}` });
    const a = pool.run('a');
    threads[0].answer('a');
    await a;
    const b = pool.run('b');
    threads[0].die('crashed');
    await expect(b).rejects.toThrow('crashed');
    const c = pool.run('c');
    threads[1].die('crashed');
    await expect(c).rejects.toThrow('crashed');
    expect(pool.gaveUp).toBe(false);
    const bare = fakePool(1);
    for (let i = 0; i < 3; i++) {
      const t = bare.pool.run(`t${i}`);
      bare.threads[i].die('no');
      await expect(t).rejects.toThrow('no');
    }
    expect(bare.pool.gaveUp).toBe(false);
  });

  it('place binds a task to a thread that waits for it (weights and room decide when it goes)', async () => {
    const { pool, threads } = fakePool(2, {
      weight: (task) => task.length,
      room: (slot, task) => slot.inFlightWeight + task.length <= 4,
      place: (task) => (task.startsWith('x') ? 1 : 0),
    });
    const answers = ['aa', 'xx', 'bbb', 'xy'].map((t) => pool.run(t));
    // both threads start as tasks are bound to them; 'bbb' waits for thread 0, 'xy' fits thread 1
    expect(threads.map((t) => t.tasks)).toEqual([['aa'], ['xx', 'xy']]);
    expect(pool.slots.map((s) => s.load)).toEqual([5, 4]);
    threads[0].answer('aa');
    expect(threads[0].tasks).toEqual(['aa', 'bbb']);
    for (const t of ['bbb']) threads[0].answer(t);
    for (const t of ['xx', 'xy']) threads[1].answer(t);
    expect(await Promise.all(answers)).toEqual(['AA', 'XX', 'BBB', 'XY']);
    // when its thread dies, a task waiting for it is placed again (a new thread)
    const held = pool.run('xxxx');
    const waiting = pool.run('xz');
    threads[1].die('gone');
    await expect(held).rejects.toThrow('gone');
    expect(threads[2].tasks).toEqual(['xz']);
    threads[2].answer('xz');
    expect(await waiting).toBe('XZ');
  });

  it('replies that end nothing (progress) leave the task running', async () => {
    const seen: number[] = [];
    const { pool, threads } = fakePool(1, {
      outcome: (r) =>
        r.progress !== undefined ? (seen.push(r.progress), undefined) : { ok: true, value: r.value! },
    });
    const a = pool.run('a');
    threads[0].reply({ id: 1, progress: 10 });
    threads[0].reply({ id: 1, progress: 20 });
    threads[0].answer('a');
    expect(await a).toBe('A');
    expect(seen).toEqual([10, 20]);
  });

  it('restart: false: a lost thread closes the pool, failing what it held and later tasks', async () => {
    const onClose = vi.fn();
    const { pool, threads } = fakePool(1, { restart: false, room: () => true, onClose });
    const a = pool.run('a');
    const b = pool.run('b');
    threads[0].die('crashed');
    await expect(a).rejects.toThrow('running a: crashed');
    await expect(b).rejects.toThrow('running b: crashed');
    await expect(pool.run('c')).rejects.toThrow('running c: crashed');
    expect(onClose).toHaveBeenCalledWith('crashed');
    expect(pool.closed).toBe(true);
    expect(threads).toHaveLength(1);
  });

  it('a message that cannot be sent fails its own task only', async () => {
    const { pool, threads } = fakePool(1, {
      encode: (id, task) => {
        if (task === 'bad') throw new Error('could not be cloned');
        return { message: { id, task }, transfer: [] };
      },
    });
    await expect(pool.run('bad')).rejects.toThrow('could not be cloned');
    const ok = pool.run('ok');
    threads[0].answer('ok');
    expect(await ok).toBe('OK');
  });

  it('holdWhile: no task is sent while the gate says wait, for maxHoldMs at most', async () => {
    vi.useFakeTimers();
    const { pool, threads } = fakePool(1, { maxHoldMs: 500 });
    let wait = 100;
    pool.holdWhile(() => wait);
    const a = pool.run('a');
    await vi.advanceTimersByTimeAsync(200);
    expect(threads.flatMap((t) => t.tasks)).toEqual([]);
    wait = 0;
    await vi.advanceTimersByTimeAsync(60);
    expect(threads[0].tasks).toEqual(['a']);
    threads[0].answer('a');
    expect(await a).toBe('A');
    wait = 100; // never quiet: sent after maxHoldMs anyway
    const b = pool.run('b');
    await vi.advanceTimersByTimeAsync(550);
    expect(threads[0].tasks).toEqual(['a', 'b']);
    threads[0].answer('b');
    expect(await b).toBe('B');
    pool.dispose();
  });

  it('post sends a message that is no task, starting the thread', async () => {
    const { pool, threads } = fakePool(2);
    expect(pool.post(1, { note: 'preload' })).toBe(true);
    expect(threads).toHaveLength(1);
    expect(pool.slots.map((s) => s.started)).toEqual([false, true]);
    expect(threads[0].posted).toEqual([{ note: 'preload' }]);
    await tick();
  });

  it('refuses a pool of no threads', () => {
    expect(() => fakePool(0)).toThrow('A pool needs at least one thread, not 0');
  });
});
