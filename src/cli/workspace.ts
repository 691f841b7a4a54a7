/**
 * The CLI's workspace: one LocalRoot per --root (core/workspace), each with its own indexes
 * stored under its own keys (`seed004-`, `index-`, `vectors-` + the root's key), its code index
 * parsed on the process's pool of threads and its vectors made by the model on its own thread.
 * `quarry call` and `quarry mcp` hold the same object as the app's engine (RepoWorkspace), so
 * several roots score the same way in both: each root with its own statistics, merged by score.
 */
import { nodeThreadEmbeddingModel } from '../adapters/node/embed-pool';
import { workspaceKey } from '../adapters/node/index-store';
import { nodeParsePool } from '../adapters/node/parse-pool';
import type { IndexStore } from '../core/rank/persist';
import type { ToolContext } from '../core/tools/types';
import type { Workspace } from '../core/source/workspace';
import { localWorkspace, type LocalRoot } from '../core/workspace/local-root';
import type { RepoWorkspace } from '../core/workspace/workspace';

export function cliWorkspace(
  files: Workspace,
  store: IndexStore | undefined,
  embedModel?: string,
): RepoWorkspace<LocalRoot> {
  return localWorkspace(files, (source) => ({
    store,
    storeStem: workspaceKey([source.absoluteRoot]),
    chunker: async () => nodeParsePool(),
    // USE lite, or the ONNX model of --embed-model (its vectors stored apart: core/semantic/index.ts vectorsKeyOf)
    model: () => nodeThreadEmbeddingModel(embedModel),
  }));
}

/**
 * semantic_code_search in the CLI: every root's code index and vectors brought level (the first
 * query of a root embeds every chunk, a line on stderr says so; later ones embed only what changed).
 * With --embed-model, a line on stderr names the model once (the results name it too: `model`).
 */
export function cliSemantic(
  workspace: RepoWorkspace<LocalRoot>,
  stderr: (s: string) => void,
  embedModel?: string,
): NonNullable<ToolContext['semantic']> {
  let named = false;
  return async (signal) => {
    const out = [];
    let model = null;
    for (const { prefix, root } of workspace.toolRoots()) {
      let told = false;
      const r = await (root as LocalRoot).semanticRoot({
        signal,
        onProgress: (p) => {
          if (told || p.total === 0) return;
          told = true;
          stderr(
            `quarry: embedding ${p.total.toLocaleString('en-US')} chunk views for semantic search (once; later searches embed only what changed)\n`,
          );
        },
      });
      model = r.model;
      out.push({ ...r.root, prefix });
    }
    if (embedModel && model && !named) {
      named = true;
      stderr(`quarry: semantic search with the model ${model.id} (${embedModel})\n`);
    }
    return { model: model!, roots: out };
  };
}
