/**
 * One piece of work several callers wait for: the first caller starts it, later callers join it
 * while it runs (a later one after it ends starts afresh). A caller's cancel ends its own wait;
 * the work itself stops only when every caller waiting for it has cancelled. Both indexes'
 * refresh use it (codebase-index/service.ts, workspace/shared-code-index.ts): `quarry mcp`
 * answers calls concurrently, and two tools asking for the same index wait for one refresh.
 */
import { QuarryError } from '../errors';

interface Run<T> {
  controller: AbortController;
  waiters: number;
  done: Promise<T>;
}

export class SharedRun<T> {
  private current: Run<T> | null = null;

  constructor(private readonly cancelledMessage: string) {}

  private cancelled(): QuarryError {
    return new QuarryError('Cancelled', this.cancelledMessage);
  }

  /** Join the running work, or start it with `start` (given the work's own signal). */
  join(signal: AbortSignal | undefined, start: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (signal?.aborted) return Promise.reject(this.cancelled());
    let entry = this.current;
    if (!entry) {
      const controller = new AbortController();
      const created: Run<T> = { controller, waiters: 0, done: start(controller.signal) };
      created.done
        .catch(() => undefined)
        .finally(() => {
          if (this.current === created) this.current = null;
        });
      this.current = entry = created;
    }
    const run = entry;
    run.waiters++;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        if (--run.waiters === 0) {
          run.controller.abort();
          if (this.current === run) this.current = null; // a later caller starts afresh
        }
        reject(this.cancelled());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      run.done.then(resolve, reject).finally(() => signal?.removeEventListener('abort', onAbort));
    });
  }
}
