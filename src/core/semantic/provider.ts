/**
 * One root's semantic search state for hosts that index a Workspace directly (the CLI, MCP,
 * benchmarks): its code index (CodeIndexService, stored as the app stores it) and its vectors
 * (SemanticIndex, stored beside it), both refreshed before a query: changed files are
 * re-chunked, and only chunks whose views changed are embedded.
 */
import type { Workspace } from '../source/workspace';
import type { CodeIndexService } from '../rank/service';
import { splitLinesForIndex } from '../rank/lines';
import { readText } from '../walk/walk';
import type { IndexStore } from '../rank/persist';
import { SharedRun } from '../jobs/shared-run';
import type { EmbeddingModel } from './port';
import { SemanticIndex, vectorsKeyOf, type EmbedProgress } from './index';
import type { SemanticRoot } from './search';

/** A workspace path's lines (a multi-root path names its root first), or null when unreadable. */
export function workspaceLines(workspace: Workspace): (path: string) => Promise<string[] | null> {
  return async (path) => {
    const at = workspace.locate(path);
    if (!at) return null;
    const r = await readText(at.source, at.rel);
    return r.ok ? splitLinesForIndex(r.text) : null;
  };
}

/**
 * Concurrent callers share one run (core/jobs/shared-run.ts): `quarry mcp` answers calls at once,
 * and twelve cold semantic calls would otherwise each embed the same chunks. Progress goes to the
 * caller that started the run; a caller's cancel ends its own wait.
 */
export class WorkspaceSemantic {
  private vectors: SemanticIndex | null = null;
  private readonly shared = new SharedRun<{ model: EmbeddingModel; root: SemanticRoot }>(
    'Embedding was cancelled',
  );

  constructor(
    private readonly service: CodeIndexService,
    private readonly model: () => Promise<EmbeddingModel>,
    private readonly store?: IndexStore,
    private readonly storeKey = 'vectors',
  ) {}

  root(
    options: { signal?: AbortSignal; onProgress?: (p: EmbedProgress) => void } = {},
  ): Promise<{ model: EmbeddingModel; root: SemanticRoot }> {
    return this.shared.join(options.signal, (signal) => this.bringLevel({ ...options, signal }));
  }

  private async bringLevel(options: {
    signal: AbortSignal;
    onProgress?: (p: EmbedProgress) => void;
  }): Promise<{ model: EmbeddingModel; root: SemanticRoot }> {
    const model = await this.model();
    await this.service.refresh({ signal: options.signal });
    const index = this.service.index!;
    // each model's vectors under its own key (another model's are never used: they are embedded anew)
    const key = vectorsKeyOf(this.storeKey, model.id);
    if (this.vectors?.modelId !== model.id) this.vectors = null;
    if (!this.vectors && this.store)
      this.vectors = await SemanticIndex.load(this.store, key, model.id, model.dims);
    this.vectors ??= new SemanticIndex(model.id, model.dims);
    await this.vectors.sync(index, workspaceLines(this.service.workspace), model, options);
    if (this.store) await this.vectors.save(this.store, key);
    return { model, root: { prefix: '', index, vectors: this.vectors } };
  }
}
