/**
 * A tool call holds the engine's foreground (background work gives way to it), except while it
 * waits for background work itself: an index build, the vectors brought level. Two bugs here
 * made tool calls sleep and the engine slow for good: a semantic tool ran its vector sync inside
 * its own foreground, and two roots' seed indexes built at once (codebase_search) reopened the
 * foreground when the first finished, so the second waited MAX_BACKGROUND_WAIT_MS (2 s) at every
 * yield, and the foreground stayed held after the call: every later background job waited too.
 * The engine cases use the fake model and a zero yield budget, so every file and batch is a
 * yield: a wait costs 2 s a yield, none costs milliseconds.
 */
import { describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../adapters/node/grammars';
import { MAX_BACKGROUND_WAIT_MS } from '../core/jobs/yielder';
import { FakeModel } from '../core/semantic/fake-model.testutil';
import { createEngineApi } from './engine';
import { holdForeground } from './engine/tools';

/** A foreground that counts what is open (each end counts once, as Foreground's does). */
function countingForeground() {
  const fg = {
    active: 0,
    begin: () => {
      fg.active++;
      let ended = false;
      return () => {
        if (!ended) fg.active--;
        ended = true;
      };
    },
  };
  return fg;
}

describe('holdForeground', () => {
  it('background work at once shares one gap: the foreground reopens when the last ends', async () => {
    const fg = countingForeground();
    const held = holdForeground(fg);
    expect(fg.active).toBe(1);
    let release!: () => void;
    const slow = held.background(() => new Promise<void>((r) => (release = r)));
    const seen: number[] = [];
    await held.background(async () => void seen.push(fg.active));
    seen.push(fg.active); // the slow one still runs: still outside
    release();
    await slow;
    expect(seen).toEqual([0, 0]);
    expect(fg.active).toBe(1);
    held.release();
    expect(fg.active).toBe(0);
  });

  it('work that ends after the tool does not reopen it', async () => {
    const fg = countingForeground();
    const held = holdForeground(fg);
    let release!: () => void;
    const late = held.background(() => new Promise<void>((r) => (release = r)));
    held.release();
    release();
    await late;
    expect(fg.active).toBe(0);
  });
});

const FILES: Record<string, string> = Object.fromEntries(
  ['cart', 'user', 'money', 'ledger', 'checkout'].map((name) => [
    `src/${name}.ts`,
    `export function ${name}Total(items: number[]) {\n  return items.reduce((a, b) => a + b, 0);\n}\n`,
  ]),
);

async function engine(model: FakeModel, roots: string[]) {
  const api = createEngineApi({
    grammarLoader: nodeGrammarLoader,
    semanticModel: async () => model,
    yieldBudgetMs: 0,
  });
  for (const [i, name] of roots.entries()) {
    const opened = await api.openRepo(
      `open-${i}`,
      () => {},
      { kind: 'memory', name, files: FILES },
      undefined,
      {
        add: i > 0,
      },
    );
    expect(opened.ok).toBe(true);
  }
  expect((await api.indexRepo('index', () => {}, {})).ok).toBe(true);
  return api;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
}

describe('tool calls in the engine and the foreground', () => {
  it("a semantic tool brings the vectors level without giving way to the caller's own foreground", async () => {
    const model = new FakeModel();
    const api = await engine(model, ['app']);
    const [answer, ms] = await timed(() =>
      api.callTool('semantic_search', { query: 'cart total', limit: 3 }),
    );
    expect(answer.ok, JSON.stringify(answer)).toBe(true);
    expect(model.texts).toBeGreaterThanOrEqual(Object.keys(FILES).length); // it did embed, yielding on the way
    // one foreground grace (250 ms) at most; giving way would sleep 2 s at every one of 6+ yields
    expect(ms).toBeLessThan(MAX_BACKGROUND_WAIT_MS);
  });

  it('codebase_search over two roots builds both without waiting, and leaves no foreground behind', async () => {
    const model = new FakeModel();
    const api = await engine(model, ['shop', 'ledger']);
    const [answer, ms] = await timed(() => api.callTool('codebase_search', { query: 'cart total' }));
    expect(answer.ok, JSON.stringify(answer)).toBe(true);
    expect(ms).toBeLessThan(MAX_BACKGROUND_WAIT_MS);
    // a background job after the call (embedding both roots) does not wait for a call long gone
    const [enabled, enableMs] = await timed(() => api.enableSemantic('sem', () => {}));
    expect(enabled.ok, JSON.stringify(enabled)).toBe(true);
    expect(model.texts).toBeGreaterThanOrEqual(2 * Object.keys(FILES).length);
    expect(enableMs).toBeLessThan(MAX_BACKGROUND_WAIT_MS);
  });
});
