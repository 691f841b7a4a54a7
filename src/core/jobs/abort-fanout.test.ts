/**
 * Issue 34 row 14: a signal many tasks share (an index refresh's, handed to every file it
 * parses) carries one 'abort' listener, not one per task, so Node never warns
 * "11 abort listeners added to [AbortSignal]".
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { onAbort } from './abort-fanout';
import { Pool } from './pool';
import type { PoolThread } from './pool-thread';

const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('onAbort', () => {
  it('hangs one listener on the signal for any number of callbacks, and calls each once', () => {
    const controller = new AbortController();
    const called: number[] = [];
    const offs = Array.from({ length: 20 }, (_, i) => onAbort(controller.signal, () => called.push(i)));
    expect(listeners(controller.signal)).toBe(1);
    offs[3]();
    offs[3](); // twice is once
    controller.abort();
    controller.abort();
    expect(called).toEqual(Array.from({ length: 20 }, (_, i) => i).filter((i) => i !== 3));
    expect(listeners(controller.signal)).toBe(0);
    for (const off of offs) off(); // after the abort: nothing to do
  });

  it('takes its listener off when the last callback is removed', () => {
    const controller = new AbortController();
    const a = onAbort(controller.signal, () => {});
    const b = onAbort(controller.signal, () => {});
    a();
    expect(listeners(controller.signal)).toBe(1);
    b();
    expect(listeners(controller.signal)).toBe(0);
    let later = 0;
    onAbort(controller.signal, () => later++);
    expect(listeners(controller.signal)).toBe(1);
    controller.abort();
    expect(later).toBe(1);
  });
});

/** A thread that never answers (the tasks stay in flight until cancelled). */
class SilentThread implements PoolThread<unknown, { id: number }> {
  post(): void {}
  listen(): void {}
  terminate(): void {}
}

describe('Pool.run with one signal for many tasks', () => {
  it('adds one abort listener, cancels every task on abort, and leaves none behind', async () => {
    const pool = new Pool<unknown, { id: number }, string, string>({
      size: 2,
      spawn: () => new SilentThread(),
      encode: (id, task) => ({ message: { id, task }, transfer: [] }),
      replyId: (r) => r.id,
      outcome: () => ({ ok: true, value: 'done' }),
      lost: (reason) => new Error(reason),
      cancelled: (task) => new Error(`${task} was cancelled`),
      closed: (_reason, task) => new Error(`${task}: closed`),
    });
    const controller = new AbortController();
    const tasks = Array.from({ length: 20 }, (_, i) => pool.run(`t${i}`, controller.signal));
    expect(listeners(controller.signal)).toBe(1);
    controller.abort();
    const outcomes = await Promise.allSettled(tasks);
    expect(outcomes.map((o) => (o.status === 'rejected' ? (o.reason as Error).message : 'ok'))).toEqual(
      Array.from({ length: 20 }, (_, i) => `t${i} was cancelled`),
    );
    expect(listeners(controller.signal)).toBe(0);
    pool.dispose();
  });
});
