/** For tests and benchmarks that hold a seed-004 index of their own: the ToolContext roots over it. */
import { QuarryError } from '../errors';
import type { CodebaseIndexService } from '../codebase-index/service';
import type { ToolRoot } from './root';
import { RootState } from './root-state';

export function seedOnlyRoots(service: CodebaseIndexService): ToolRoot[] {
  const source = service.workspace.roots[0];
  return [
    {
      prefix: '',
      name: service.workspace.names[0],
      root: {
        key: source.absoluteRoot,
        source,
        codeIndexReady: false,
        state: new RootState(),
        seedIndex: async (signal) => ({ service, stats: await service.refresh({ signal }) }),
        codeIndex: () => Promise.reject(new QuarryError('EngineError', 'no code index in this test')),
        lines: async () => null,
        close: () => undefined,
      },
    },
  ];
}
