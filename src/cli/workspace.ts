/**
 * The CLI's code index (Quarry's symbol chunks, parsed on the thread pool): one per process and
 * workspace, stored under `index-${key}`, and shared by every tool that reads it: ranked_search
 * and related_code (ToolContext.codeIndexes) and semantic_code_search (cliSemantic), so a
 * process builds or loads it once. `quarry mcp` answers calls concurrently, so concurrent
 * refreshes share one run (as SeedIndexService's do): a caller's cancel ends its own wait, and
 * the run stops only when every caller waiting for it has cancelled.
 */
import { nodeParsePool } from '../adapters/node/parse-pool';
import { QuarryError } from '../core/errors';
import type { IndexStore } from '../core/rank/persist';
import { splitLinesForIndex } from '../core/rank/lines';
import { CodeIndexService, type RefreshOptions, type RefreshStats } from '../core/rank/service';
import type { Workspace } from '../core/source/workspace';
import type { ToolContext } from '../core/tools/types';
import { decodeBytes } from '../core/walk/decode';

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

/** The workspace's code index, parsed on a pool of threads, stored under `index-${key}` when there is a store. */
export function cliCodeIndex(
  workspace: Workspace,
  store: IndexStore | undefined,
  key: string,
): CodeIndexService {
  return new SharedCodeIndexService(workspace, async () => nodeParsePool(), store, `index-${key}`);
}

/**
 * A workspace path's lines, read into bytes of their own (source.read), or null. Not readText:
 * with NodeFsSource it reads into one transient buffer that the next read overwrites, so two
 * reads in flight at once (ranked_search reads its hits' files together) decode each other's bytes.
 */
export function workspaceLinesOwned(workspace: Workspace): (path: string) => Promise<string[] | null> {
  return async (path) => {
    const at = workspace.locate(path);
    if (!at) return null;
    try {
      const bytes = await at.source.read(at.rel);
      const decoded = at.source.decode ? at.source.decode(bytes) : decodeBytes(bytes);
      return decoded.binary ? null : splitLinesForIndex(decoded.text);
    } catch {
      return null;
    }
  };
}

/** ToolContext.codeIndexes over one index of the whole workspace (its paths are workspace paths), refreshed on every call. */
export function cliCodeIndexes(service: CodeIndexService): NonNullable<ToolContext['codeIndexes']> {
  const lines = workspaceLinesOwned(service.workspace);
  return async (signal) => {
    await service.refresh({ signal });
    return [{ prefix: '', index: service.index!, lines }];
  };
}
