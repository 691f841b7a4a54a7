import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    // fixture repositories are built with the git CLI in beforeAll hooks: seconds on a loaded machine
    hookTimeout: 60_000,
    pool: 'threads',
    // Vitest's default is one worker per core but one: on a 2-core machine, one. Two run the
    // suite ~15% faster here (many tests wait on git, child processes and worker threads).
    maxWorkers: 2,
  },
});
