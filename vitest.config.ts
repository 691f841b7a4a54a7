import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
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

/**
 * Seconds each of the longest files took alone (2 cores), for a run with no stored durations (a
 * fresh clone: Vitest keeps the last run's in node_modules/.vite).
 */
const LONG_FILES: Record<string, number> = {
  'test/parity/locus.test.ts': 38,
  'test/hostile/tools.test.ts': 20,
  'test/golden/relevance.test.ts': 21,
  'src/cli/embed-model-cli.test.ts': 21,
  'src/cli/mcp.test.ts': 17,
  'src/cli/cli.test.ts': 16,
  'src/worker/git-engine.test.ts': 12,
  'src/worker/client.test.ts': 11,
  'src/cli/mcp-hardening.test.ts': 11,
  'test/hosts/two-roots.test.ts': 10,
  'test/hostile/cli.test.ts': 9,
  'src/adapters/git/git.test.ts': 8,
};

/**
 * The longest files first, whichever project they are in. Vitest's own order runs one project's
 * files before the next's (here every isolated file, then the shared ones), so the two longest
 * files (both shared) started ~75 s into the run. Longest first, the run ends on short files, with
 * neither worker idle beside a long one. Duration: the last run's when stored, else LONG_FILES;
 * the rest by size, larger first.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const weight = new Map<TestSpecification, [number, number]>();
    for (const spec of files) {
      const rel = relative(root, spec.moduleId);
      const key = `${spec.project.name}:${rel}`;
      const stored = this.ctx.cache.getFileTestResults(key);
      const ms = stored && !stored.failed ? stored.duration : (LONG_FILES[rel] ?? 0) * 1000;
      weight.set(spec, [stored?.failed ? Infinity : ms, this.ctx.cache.getFileStats(key)?.size ?? 0]);
    }
    return [...files].sort((a, b) => {
      const [x, y] = [weight.get(a)!, weight.get(b)!];
      return y[0] - x[0] || y[1] - x[1];
    });
  }
}

export default defineConfig({
  test: {
    environment: 'node',
    // Inherited by every child process the tests spawn (git above all). glibc's malloc gives
    // freed memory back at once by default; on a VM that hands it to the host each time (here a
    // Firecracker guest with page reporting) a process that allocates and frees by turns pays a
    // fault per page: `git fast-import` of 3,000 commits took 4.7 s (3.4 s system time), 0.2 s
    // with a 16 MiB pad kept on top of the heap. Only allocation tuning: no output changes.
    env: { MALLOC_TOP_PAD_: '16777216' },
    testTimeout: 30_000,
    // fixture repositories are built with the git CLI in beforeAll hooks: seconds on a loaded machine
    hookTimeout: 60_000,
    // the `quarry` bin bundled once before the files that spawn it start (test/quarry-bundle.setup.ts)
    globalSetup: ['test/quarry-bundle.setup.ts'],
    pool: 'threads',
    // Vitest's default is one worker per core but one: on a 2-core machine, one. Two run the
    // suite ~15% faster here (many tests wait on git, child processes and worker threads).
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
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
