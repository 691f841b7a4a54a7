/** One piece of work, many waiters: joined while it runs, each cancel ends only its own wait, the last one stops the work. */
import { describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../test/rejection';
import { SharedRun } from './shared-run';

function work() {
  let starts = 0;
  let stopped = false;
  let finish: (v: number) => void = () => undefined;
  const start = (signal: AbortSignal) => {
    starts++;
    signal.addEventListener('abort', () => (stopped = true));
    return new Promise<number>((resolve) => (finish = resolve));
  };
  return { start, starts: () => starts, stopped: () => stopped, finish: (v: number) => finish(v) };
}

describe('SharedRun', () => {
  it('gives concurrent callers one run, and a caller after it ends a new one', async () => {
    const run = new SharedRun<number>('cancelled');
    const w = work();
    const a = run.join(undefined, w.start);
    const b = run.join(undefined, w.start);
    w.finish(7);
    expect(await Promise.all([a, b])).toEqual([7, 7]);
    expect(w.starts()).toBe(1);
    const c = run.join(undefined, w.start);
    w.finish(8);
    expect(await c).toBe(8);
    expect(w.starts()).toBe(2);
  });

  it("a cancel ends that caller's wait; the work stops only when every waiter has cancelled", async () => {
    const run = new SharedRun<number>('The refresh was cancelled');
    const w = work();
    const one = new AbortController();
    const two = new AbortController();
    const a = run.join(one.signal, w.start);
    const b = run.join(two.signal, w.start);
    one.abort();
    expect((await rejectionOf(a)).message).toBe('The refresh was cancelled');
    expect(w.stopped()).toBe(false);
    two.abort();
    expect((await rejectionOf(b)).code).toBe('Cancelled');
    expect(w.stopped()).toBe(true);
    expect((await rejectionOf(run.join(AbortSignal.abort(), w.start))).code).toBe('Cancelled');
    expect(w.starts()).toBe(1);
  });
});
