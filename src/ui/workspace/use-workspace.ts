/** React's view of the WorkspaceController: one controller per engine, its state as React state. */
import { startTransition, useEffect, useMemo, useState } from 'react';
import { ensureReadPermission } from '../../adapters/browser/fs-access';
import { servedRootName } from '../../adapters/browser/served-source';
import type { EngineClient } from '../../worker/client';
import type { ViewState } from '../url-state';
import type { UpdateView } from '../use-view-state';
import { WorkspaceController, type WorkspaceState } from './controller';
import { whenIdle } from '../idle';

export function useWorkspace(
  engine: EngineClient,
  getView: () => ViewState,
  update: UpdateView,
): [WorkspaceState, WorkspaceController] {
  const controller = useMemo(
    () =>
      new WorkspaceController({
        engine,
        view: { get: getView, update },
        // The swap renders as a transition, in time slices: setState inside startTransition (a
        // store read with useSyncExternalStore would always render synchronously).
        transition: startTransition,
        whenIdle: (fn: () => void) => whenIdle(fn, 1000, 100),
        ensureReadPermission,
        mark: (name) => performance.mark(name),
        servedRoot: servedRootName(),
      }),
    [engine, getView, update],
  );
  const [state, setState] = useState(controller.state);
  useEffect(() => {
    setState(controller.state);
    // Every change of the workspace (an open starting, the index ready, Recent read again)
    // re-renders the shell: as a transition, in time slices. The index becoming ready was one
    // render of every panel in one task, 2 s after a load (Chrome trace, performance.spec).
    return controller.subscribe(() => startTransition(() => setState(controller.state)));
  }, [controller]);
  return [state, controller];
}
