/**
 * The CLI's semantic search: the workspace's code index (code-index.ts: the one instance the
 * process's other tools share, cached like the seed-004 index) and its vectors (cached beside
 * it), the USE-lite model read from the installed package on its own thread (so `quarry mcp`
 * answers other calls while it embeds), and the parsing threads. The first query of a folder
 * embeds every chunk (a line on stderr says so); later ones embed only what changed.
 */
import { nodeThreadEmbeddingModel } from '../adapters/node/embed-pool';
import type { IndexStore } from '../core/rank/persist';
import type { CodeIndexService } from '../core/rank/service';
import { WorkspaceSemantic } from '../core/semantic/provider';
import type { ToolContext } from '../core/tools/types';

export function cliSemantic(
  service: CodeIndexService,
  store: IndexStore | undefined,
  key: string,
  stderr: (s: string) => void,
): NonNullable<ToolContext['semantic']> {
  let state: WorkspaceSemantic | null = null;
  return async (signal) => {
    state ??= new WorkspaceSemantic(service, () => nodeThreadEmbeddingModel(), store, `vectors-${key}`);
    let told = false;
    const { model, root } = await state.root({
      signal,
      onProgress: (p) => {
        if (told || p.total === 0) return;
        told = true;
        stderr(
          `quarry: embedding ${p.total.toLocaleString('en-US')} chunk views for semantic search (once; later searches embed only what changed)\n`,
        );
      },
    });
    return { model, roots: [root] };
  };
}
