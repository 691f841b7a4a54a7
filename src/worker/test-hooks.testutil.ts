/**
 * Test-only engine hooks, kept out of the production API: a job that busy-loops and ignores
 * cancel (to test the client's restart), added by wrapping an engine before it is exposed.
 */
import { elapsedSince, now } from '../core/jobs/yielder';
import { EngineClient, type Job } from './client';
import { JobEdge } from './edge';
import type { EngineApi, JobEnd, JobId, Outcome } from './protocol';

export interface TestEngineApi extends EngineApi {
  spin(jobId: JobId, ms: number): Promise<Outcome<JobEnd<never>>>;
}

export function wrapApi(api: EngineApi): TestEngineApi {
  const edge = new JobEdge();
  return {
    ...api,
    spin: (jobId, ms) =>
      edge.job(jobId, undefined, async () => {
        const t0 = now();
        while (now() < t0 + ms) {
          // Deliberately ignores cancel: a stand-in for a job that never yields.
        }
        return {
          results: [],
          limitHit: false,
          skipped: [],
          stats: { elapsedMs: elapsedSince(t0), ending: 'complete' as const },
        };
      }),
  };
}

/** The module URL for startNodeWorkerTransport's `wrapModule`. */
export const TEST_HOOKS_MODULE = new URL('./test-hooks.testutil.ts', import.meta.url).href;

export class TestEngineClient extends EngineClient {
  spin(ms: number): Job<JobEnd<never>> {
    return this.job<JobEnd<never>>('spin', (api, id) => (api as TestEngineApi).spin(id, ms));
  }
}
