/**
 * A CodeIndexService whose concurrent refreshes share one run (as CodebaseIndexService's do):
 * `quarry mcp` answers calls concurrently, so two tools asking for the same root's index wait
 * for one refresh. A caller's cancel ends its own wait; the run stops only when every caller
 * waiting for it has cancelled.
 */
import { QuarryError } from '../errors';
import { CodeIndexService, type RefreshOptions, type RefreshStats } from '../rank/service';

const cancelled = () => new QuarryError('Cancelled', 'The index refresh was cancelled');

interface SharedRefresh {
  controller: AbortController;
  waiters: number;
  done: Promise<RefreshStats>;
}

/** A CodeIndexService whose concurrent refreshes share one run (the first caller's options; a forced one runs on its own). */
export class SharedCodeIndexService extends CodeIndexService {
  private shared: SharedRefresh | null = null;

  override refresh(options: RefreshOptions = {}): Promise<RefreshStats> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(cancelled());
    if (options.force) return super.refresh(options);
    let entry = this.shared;
    if (!entry) {
      const controller = new AbortController();
      const created: SharedRefresh = {
        controller,
        waiters: 0,
        done: super.refresh({ ...options, signal: controller.signal }),
      };
      created.done
        .catch(() => undefined)
        .finally(() => {
          if (this.shared === created) this.shared = null;
        });
      this.shared = entry = created;
    }
    const shared = entry;
    shared.waiters++;
    return new Promise<RefreshStats>((resolve, reject) => {
      const onAbort = () => {
        if (--shared.waiters === 0) {
          shared.controller.abort();
          if (this.shared === shared) this.shared = null; // a later caller starts afresh
        }
        reject(cancelled());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      shared.done.then(resolve, reject).finally(() => signal?.removeEventListener('abort', onAbort));
    });
  }
}
