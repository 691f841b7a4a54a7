import { describe, expect, it } from 'vitest';
import { createBackgroundYielder, Foreground } from './yielder';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('background jobs give way to foreground work', () => {
  it('waits while foreground work runs and for the grace period after it, then goes on', async () => {
    const fg = new Foreground(40);
    const y = createBackgroundYielder(fg, { yieldBudgetMs: 0 });
    const end = fg.begin();
    expect(fg.waitMs()).toBe(40);
    let resumed = false;
    const p = Promise.resolve(y.maybeYield()).then(() => (resumed = true));
    await sleep(80);
    expect(resumed).toBe(false); // still running: the background job waits
    const endedAt = performance.now();
    end();
    end(); // a second end() changes nothing
    await p;
    expect(performance.now() - endedAt).toBeGreaterThanOrEqual(35);
    expect(fg.waitMs()).toBe(0);
  });

  it('only yields on its budget when nothing is in the foreground', async () => {
    const fg = new Foreground(40);
    const y = createBackgroundYielder(fg, { yieldBudgetMs: 1_000_000 });
    expect(y.maybeYield()).toBeUndefined();
    const end = fg.begin();
    expect(y.maybeYield()).toBeInstanceOf(Promise);
    end();
  });

  it('stops waiting when its job is cancelled, and after maxWaitMs of endless foreground work', async () => {
    const fg = new Foreground(1000);
    const end = fg.begin();
    const controller = new AbortController();
    const cancelled = createBackgroundYielder(fg, { yieldBudgetMs: 0, signal: controller.signal });
    let resumed = false;
    const p = Promise.resolve(cancelled.maybeYield()).then(() => (resumed = true));
    await sleep(30);
    expect(resumed).toBe(false);
    controller.abort();
    await p; // lands within one 50 ms step, not after the foreground work
    const capped = createBackgroundYielder(fg, { yieldBudgetMs: 0, maxWaitMs: 60 });
    const t = performance.now();
    await capped.maybeYield();
    expect(performance.now() - t).toBeGreaterThanOrEqual(55);
    expect(performance.now() - t).toBeLessThan(900);
    end();
  });

  it('counts overlapping foreground calls: the last one to end starts the grace', async () => {
    const fg = new Foreground(30);
    const a = fg.begin();
    const b = fg.begin();
    a();
    expect(fg.waitMs()).toBe(30); // b still runs
    b();
    expect(fg.waitMs()).toBeGreaterThan(0);
    await sleep(45);
    expect(fg.waitMs()).toBe(0);
  });
});
