/**
 * Which of explore's analyzers a run at a depth starts, in order (docs on each in run.ts):
 *
 *   shallow   tree (with key files), manifests
 *   standard  + patterns, + focus when a focus is given
 *   deep      + imports (the import graph), + git (history)
 *
 * Its own module, importing types only, so the page (ui/views/ExploreView.tsx shows each
 * analyzer's progress) can use it without pulling run.ts — the analyzers, the walk, the
 * chunkers and web-tree-sitter — into its bundle. e2e/bundle.spec.ts checks that.
 */
import type { AnalyzerName, ExploreDepth } from './types';

export function analyzersFor(depth: ExploreDepth, focus?: string): AnalyzerName[] {
  const list: AnalyzerName[] = ['tree', 'manifests'];
  if (depth !== 'shallow') list.push('patterns');
  if (depth !== 'shallow' && focus) list.push('focus');
  if (depth === 'deep') list.push('imports', 'git');
  return list;
}
