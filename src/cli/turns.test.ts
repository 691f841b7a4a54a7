/**
 * turns.ts (issue 34 row 6): heavy work queued fairly (a few at a time, in order, a cancelled
 * waiter leaving the line), and a source that lets the event loop run between reads.
 */
import { describe, expect, it } from 'vitest';
import { rejectionOf } from '../../test/rejection';
import { MemorySource } from '../core/source/memory';
import { walkFiles } from '../core/walk/walk';
import { FairQueue, Turns, yieldingSource } from './turns';

/** Work that ends when the test says so. */
function held() {
  let release = () => {};
  const done = new Promise<void>((resolve) => (release = resolve));
  return { done, release };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('FairQueue', () => {
  it('runs `slots` at a time, the rest in the order they came', async () => {
    const queue = new FairQueue(2);
    const started: number[] = [];
    const works = Array.from({ length: 5 }, () => held());
    const runs = works.map((w, i) =>
      queue.run(async () => {
        started.push(i);
        await w.done;
        return i;
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    expect(queue.load).toEqual({ running: 2, waiting: 3 });
    works[1].release();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    works[0].release();
    works[2].release();
    await settle();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    works[3].release();
    works[4].release();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });

  it('a waiter cancelled leaves the line and never runs; a failure frees its slot', async () => {
    const queue = new FairQueue(1);
    const first = held();
    const ran: string[] = [];
    const a = queue.run(async () => {
      ran.push('a');
      await first.done;
      throw new Error('a failed');
    });
    const controller = new AbortController();
    const b = queue.run(async () => void ran.push('b'), controller.signal);
    const c = queue.run(async () => void ran.push('c'));
    controller.abort();
    expect((await rejectionOf(b)).code).toBe('Cancelled');
    first.release();
    await expect(a).rejects.toThrow('a failed');
    await c;
    expect(ran).toEqual(['a', 'c']);
    expect((await rejectionOf(queue.run(async () => 1, AbortSignal.abort()))).code).toBe('Cancelled');
  });
});

describe('yieldingSource', () => {
  it('answers as the source does, and gives the event loop turns during a long walk', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`d${i % 10}/f${i}.ts`] = `export const x${i} = ${i};\n`;
    const memory = new MemorySource(files, { name: 'm' });
    const source = yieldingSource(memory, new Turns(0)); // a zero budget: a turn before every call
    expect(source.name).toBe('m');
    expect(source).toBeInstanceOf(MemorySource);
    expect(await source.read('d0/f0.ts')).toEqual(await memory.read('d0/f0.ts'));
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const walked: string[] = [];
    try {
      for await (const f of walkFiles(source)) walked.push(f.path);
    } finally {
      clearInterval(ticking);
    }
    expect(walked).toHaveLength(300);
    expect(turns).toBeGreaterThan(0);
  });
});

describe('yieldingSource, transient reads', () => {
  it('offers none (calls resuming together would read each other’s bytes): readers take `read`', async () => {
    const memory = new MemorySource({ 'a.ts': 'a\n' }, { name: 'm' });
    const withTransient = Object.assign(Object.create(memory) as MemorySource, {
      readTransient: (p: string) => memory.read(p),
      readRanges: async () => null,
    });
    const source = yieldingSource(withTransient, new Turns());
    expect(source.readTransient).toBeUndefined();
    expect(source.readRanges).toBeUndefined();
    expect(new TextDecoder().decode(await source.read('a.ts'))).toBe('a\n');
  });
});
