import { configDefaults, defineConfig } from 'vitest/config';

const INCLUDE = ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts', 'bench/**/*.test.ts'];
/**
 * Files that change process-wide state a later file in the same worker would see: globals
 * stubbed (vi.stubGlobal), fake timers, process.env set at load, IndexedDB. They run isolated, each in a
 * fresh worker; every other file shares its worker's module cache with the files before it
 * (isolate: false), so the engine's modules and grammars load once per worker, not once per
 * file (measured on 57 files of src/core: 65 s -> 50 s, the same results). A file that adds such
 * state (grep for vi.mock, vi.stubGlobal, vi.stubEnv, useFakeTimers, process.env.X =, fake-indexeddb,
 * node-shims.testutil) belongs here.
 */
const ISOLATED = [
  'src/adapters/browser/served-source.test.ts',
  'src/core/chunk/pool.test.ts',
  'test/hostile/worker-kill.test.ts',
  // fake-indexeddb/auto and a global navigator (src/adapters/git/node-shims.testutil.ts): the
  // stored repositories outlive the file (git.test.ts's cancelled clone was listed once, shared)
  'src/adapters/browser/idb-index-store.test.ts',
  'src/adapters/git/git.test.ts',
  'src/adapters/git/source.test.ts',
  'src/worker/file-git.test.ts',
  'src/worker/history-job.test.ts',
  'src/worker/git-engine.test.ts',
  // the embedding model's tfjs backend is process state: a model loaded by an earlier file in the
  // worker answers with another backend's rounding (embed-pool's exact-equality check saw it)
  'src/adapters/node/embed-pool.test.ts',
  'src/adapters/node/use-lite.test.ts',
  'src/worker/semantic.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    // fixture repositories are built with the git CLI in beforeAll hooks: seconds on a loaded machine
    hookTimeout: 60_000,
    // the `quarry` bin bundled once before the files that spawn it start (test/quarry-bundle.setup.ts)
    globalSetup: ['test/quarry-bundle.setup.ts'],
    pool: 'threads',
    // Vitest's default is one worker per core but one: on a 2-core machine, one. Two run the
    // suite ~15% faster here (many tests wait on git, child processes and worker threads).
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
      {
        extends: true,
        test: {
          name: 'shared',
          include: INCLUDE,
          exclude: [...configDefaults.exclude, ...ISOLATED],
          isolate: false,
        },
      },
    ],
  },
});
