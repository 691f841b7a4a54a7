/**
 * A CodeIndexService whose concurrent refreshes share one run (core/jobs/shared-run.ts, as the
 * codebase index's do): `quarry mcp` answers calls concurrently, so two tools asking for the
 * same root's index wait for one refresh; a forced refresh runs on its own.
 */
import { QuarryError } from '../errors';
import { SharedRun } from '../jobs/shared-run';
import { CodeIndexService, type RefreshOptions, type RefreshStats } from '../rank/service';

export class SharedCodeIndexService extends CodeIndexService {
  private readonly shared = new SharedRun<RefreshStats>('The index refresh was cancelled');

  override refresh(options: RefreshOptions = {}): Promise<RefreshStats> {
    if (options.force) {
      if (options.signal?.aborted)
        return Promise.reject(new QuarryError('Cancelled', 'The index refresh was cancelled'));
      return super.refresh(options);
    }
    return this.shared.join(options.signal, (signal) => super.refresh({ ...options, signal }));
  }
}
