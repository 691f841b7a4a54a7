/**
 * The engine client's contract (batching, cancel, restart, error rebuild), run as a matrix:
 * the same expectations through createEngineApi on this thread and through Comlink over a
 * real worker_threads Worker (after ripgrep's SearcherTester).
 */
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuarryError } from '../core/errors';
import type { GrepFileResult } from '../core/grep/types';
import { EngineClient, inThreadTransport, type EngineTransport } from './client';
import { TEST_HOOKS_MODULE, TestEngineClient } from './test-hooks.testutil';
import { Batcher } from './edge';
import { createEngineApi } from './engine';
import { startNodeWorkerTransport, type NodeWorkerConstructor } from './node-host';
import { ENGINE_METHODS, type EngineApi, type Outcome } from './protocol';

/** 120 files with one hit each, plus a few that must be skipped. */
function fixture(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 120; i++) {
    const n = String(i).padStart(3, '0');
    files[`src/mod${n}.ts`] =
      `// module ${n}\nexport const value${n} = 'needle';\nexport function f${n}() { return ${i}; }\n`;
  }
  files['README.md'] = '# Fixture\n\nSearch for the needle.\n';
  files['.gitignore'] = 'generated/\n';
  files['generated/out.ts'] = 'needle in an ignored file\n';
  files['node_modules/pkg/index.js'] = 'needle in a noisy directory\n';
  return files;
}

/** Many files, so a search takes long enough to be cancelled mid-way. */
function bigFixture(): Record<string, string> {
  const files: Record<string, string> = {};
  const body = 'const filler = 1;\n'.repeat(200) + 'needle\n';
  for (let i = 0; i < 3000; i++) files[`d${i % 30}/f${i}.ts`] = body;
  return files;
}

type Host = {
  name: string;
  make: (opts?: ConstructorParameters<typeof EngineClient>[1]) => EngineClient;
  worker: boolean;
};

const hosts: Host[] = [
  {
    name: 'createEngineApi (same thread)',
    worker: false,
    make: (o) => new EngineClient(() => inThreadTransport(createEngineApi()), o),
  },
  {
    name: 'Comlink over a worker_threads Worker',
    worker: true,
    make: (o) =>
      new EngineClient(() => startNodeWorkerTransport(Worker as unknown as NodeWorkerConstructor), o),
  },
];

describe('EngineClient derived from the method table', () => {
  it('has a method for every engine call and job, and each reaches the engine with its arguments', async () => {
    const seen: string[] = [];
    const engine = createEngineApi();
    // every method of the table, answered here: the client must reach it under its own name
    const spy = new Proxy(engine, {
      get(target, name: string) {
        const real = (target as unknown as Record<string, unknown>)[name];
        if (typeof real !== 'function') return real;
        return (...args: unknown[]) => {
          seen.push(name);
          return (real as (...a: unknown[]) => unknown)(...args);
        };
      },
    }) as EngineApi;
    const client = new EngineClient(() => inThreadTransport(spy));
    const names = Object.values(ENGINE_METHODS).flatMap((s) => Object.keys(s));
    const missing = names.filter(
      (n) => n !== 'stagePaths' && typeof (client as unknown as Record<string, unknown>)[n] !== 'function',
    );
    expect(missing).toEqual([]);
    await client.openRepo({ kind: 'memory', name: 'fx', files: fixture() }).done;
    // a call's defaults are the engine's (quickOpen's limit 50, skipped's page of 500)
    expect((await client.quickOpen('mod')).length).toBe(50);
    expect((await client.skipped()).total).toBeGreaterThan(0);
    const files: GrepFileResult[] = [];
    const end = await client.search({ pattern: 'needle', mode: 'literal' }).onBatch((f) => files.push(...f))
      .done;
    expect(end.stats.ending).toBe('complete');
    expect(files.length).toBe(121); // 120 modules and the README, each once
    expect(seen).toEqual(expect.arrayContaining(['openRepo', 'quickOpen', 'skipped', 'search']));
    client.dispose();
  });
});

describe('Batcher', () => {
  it('flushes every 50 items and hands back the rest', () => {
    const batches: number[][] = [];
    const b = new Batcher<number>((items) => batches.push(items));
    for (let i = 0; i < 120; i++) b.push(i);
    const rest = b.drain();
    expect(batches.map((x) => x.length)).toEqual([50, 50]);
    expect(rest).toHaveLength(20);
    expect([...batches.flat(), ...rest]).toEqual(Array.from({ length: 120 }, (_, i) => i));
  });

  it('weighs items (matches per file) and flushes on time', async () => {
    const batches: number[][] = [];
    const b = new Batcher<number>(
      (items) => batches.push(items),
      (n) => n,
    );
    b.push(30);
    b.push(30); // weight 60 >= 50: flush
    expect(batches).toEqual([[30, 30]]);
    b.push(1);
    await new Promise((r) => setTimeout(r, 60));
    expect(batches).toEqual([[30, 30], [1]]);
  });
});

for (const host of hosts) {
  describe(`engine client via ${host.name}`, () => {
    let client: EngineClient;
    beforeAll(async () => {
      client = host.make();
      await client.openRepo({ kind: 'memory', name: 'fixture', files: fixture() }).done;
    }, 60_000);
    afterAll(() => client?.dispose());

    it('reports where it runs and what is open', async () => {
      const info = await client.ping();
      expect(info.host).toBe(host.worker ? 'node-worker' : 'main-thread');
      expect(info.repo?.name).toBe('fixture');
      expect(info.repo?.files).toBe(122);
      expect(info.repo?.skippedByReason).toMatchObject({ ignored: 1, noisyPath: 1 });
    });

    it('streams search results in batches of about 50 and delivers each once, in order', async () => {
      const batches: GrepFileResult[][] = [];
      const end = await client
        .search({ pattern: 'needle', mode: 'literal', contextBefore: 1, contextAfter: 1 })
        .onBatch((b) => batches.push(b)).done;
      const files = batches.flat();
      expect(end.stats.ending).toBe('complete');
      expect(end.stats.total).toBe(121);
      expect(files.map((f) => f.path)).toEqual([
        'README.md',
        ...Array.from({ length: 120 }, (_, i) => `src/mod${String(i).padStart(3, '0')}.ts`),
      ]);
      expect(batches.length).toBeGreaterThanOrEqual(3);
      for (const b of batches.slice(0, -1))
        expect(b.reduce((n, f) => n + f.matches.length, 0)).toBeLessThanOrEqual(50);
      const m = files[1].matches[0];
      expect(m).toMatchObject({
        line: 2,
        ranges: [[25, 31]],
        contextBefore: ['// module 000'],
        contextAfter: ['export function f000() { return 0; }'],
      });
      expect(end).toHaveProperty('limitHit', false);
      expect(Array.isArray(end.skipped)).toBe(true);
    });

    it('caps results and says so', async () => {
      const got: GrepFileResult[] = [];
      const end = await client
        .search({ pattern: 'needle', mode: 'literal', maxResults: 10 })
        .onBatch((b) => got.push(...b)).done;
      expect(got.flatMap((f) => f.matches)).toHaveLength(10);
      expect(end.limitHit).toBe(true);
      expect(end.stats.total).toBe(121);
    });

    it('rebuilds engine errors as QuarryError with code and data', async () => {
      const err = await client.search({ pattern: '(unclosed', mode: 'regex' }).done.catch((e) => e);
      expect(err).toBeInstanceOf(QuarryError);
      expect(err.code).toBe('InvalidPattern');
      const missing = await client.readFile('nope.ts').catch((e) => e);
      expect(missing).toBeInstanceOf(QuarryError);
      expect(missing.code).toBe('NotFound');
      expect(missing.data).toEqual({ path: 'nope.ts' });
      const skipped = await client.readFile('generated').catch((e) => e);
      expect(skipped.code).toBe('Unreadable');
    });

    it('lists directories with skipped entries marked, reads files with hits, ranks quick open', async () => {
      const root = await client.listDir('');
      expect(root.map((e) => [e.name, e.kind, e.skipped])).toEqual([
        ['generated', 'directory', 'ignored'],
        ['node_modules', 'directory', 'noisyPath'],
        ['src', 'directory', undefined],
        ['.gitignore', 'file', undefined],
        ['README.md', 'file', undefined],
      ]);
      const file = await client.readFile('src/mod007.ts', { pattern: 'value\\d+', mode: 'regex' });
      expect(file.lineCount).toBe(3);
      expect(file.hits).toEqual([[2, [[13, 21]]]]);
      const hits = await client.quickOpen('mod007', 5);
      expect(hits[0].path).toBe('src/mod007.ts');
      expect(hits[0].positions).toEqual([4, 5, 6, 7, 8, 9]);
      expect((await client.quickOpen('readme', 5))[0].path).toBe('README.md');
    });

    it('cancel ends a running search early as a normal ending', async () => {
      const big = host.make();
      try {
        await big.openRepo({ kind: 'memory', name: 'big', files: bigFixture() }).done;
        let seen = 0;
        const job = big.search({ pattern: 'needle', mode: 'literal' }).onBatch((b) => {
          seen += b.length;
          job.cancel();
        });
        const end = await job.done;
        expect(end.stats.ending).toBe('cancelled');
        expect(end.stats.total).toBeLessThan(3000);
        expect(seen).toBeLessThan(3000);
        // The repo is still there and answers.
        const again = await big.search({ pattern: 'needle', mode: 'literal', maxResults: 1 }).done;
        expect(again.stats.delivered).toBe(1);
      } finally {
        big.dispose();
      }
    }, 60_000);

    it('a cancelled open keeps the repository that was already loaded', async () => {
      const job = client
        .openRepo({ kind: 'memory', name: 'other', files: bigFixture() })
        .onProgress(() => job.cancel());
      const end = await job.done;
      expect(end.stats.ending).toBe('cancelled');
      expect((await client.ping()).repo?.name).toBe('fixture');
    });
  });
}

describe('restart when a job ignores cancel', () => {
  it('terminates the worker, rejects every pending call, starts a fresh engine', async () => {
    const restarts: QuarryError[] = [];
    const client = new TestEngineClient(
      () =>
        startNodeWorkerTransport(Worker as unknown as NodeWorkerConstructor, {
          wrapModule: TEST_HOOKS_MODULE,
        }),
      {
        graceMs: 300,
        onRestart: (e) => restarts.push(e),
      },
    );
    try {
      await client.openRepo({ kind: 'memory', name: 'fixture', files: fixture() }).done;
      const stuck = client.spin(20_000);
      const other = client.listDir(''); // queued behind the stuck job
      await new Promise((r) => setTimeout(r, 100));
      const t0 = Date.now();
      stuck.cancel();
      const [a, b] = await Promise.all([stuck.done.catch((e) => e), other.catch((e) => e)]);
      expect(Date.now() - t0).toBeLessThan(5000);
      for (const e of [a, b]) {
        expect(e).toBeInstanceOf(QuarryError);
        expect(e.code).toBe('EngineRestarted');
        expect(e.message).toMatch(/restarted/);
      }
      const info = await client.ping();
      expect(restarts).toHaveLength(1);
      expect(client.generation).toBe(1);
      expect(info.repo).toBeNull(); // a fresh engine: the app re-opens the repo
    } finally {
      client.dispose();
    }
  }, 60_000);

  it('rejects pending calls of a transport that never answers (same-thread transport)', async () => {
    const never = new Proxy({} as EngineApi, { get: () => () => new Promise<Outcome<unknown>>(() => {}) });
    let made = 0;
    const client = new EngineClient(
      (): EngineTransport => {
        made++;
        return inThreadTransport(made === 1 ? never : createEngineApi());
      },
      { graceMs: 50 },
    );
    const job = client.search({ pattern: 'x', mode: 'literal' });
    job.cancel();
    const err = await job.done.catch((e) => e);
    expect(err).toBeInstanceOf(QuarryError);
    expect(err.code).toBe('EngineRestarted');
    expect((await client.ping()).host).toBe('main-thread');
    client.dispose();
  });
});
