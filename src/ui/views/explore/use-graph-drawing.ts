/**
 * The drawn import graph's elements for a view, laid out in the layout worker (layout-client.ts)
 * while the page stays free: the worker starts with the first view, lives as long as the
 * component, and is terminated with it. Until a view's layout comes back, the last drawing stays
 * on the canvas and `pending` is true (the canvas says it is still drawing); a layout that comes
 * back after a newer view was asked for is dropped.
 */
import { useEffect, useRef, useState } from 'react';
import type { GraphView } from '../../../core/explore/graph-folders';
import { drawingOf, layoutInputOf, type Drawing } from './graph-elements';
import { LayoutClient } from './layout-client';

const NOTHING: Drawing = { elements: [], bounds: { x1: 0, y1: 0, x2: 1, y2: 1 } };

export function useGraphDrawing(view: GraphView): { drawing: Drawing; pending: boolean } {
  const clientRef = useRef<LayoutClient | null>(null);
  const [done, setDone] = useState<{ view: GraphView; drawing: Drawing } | null>(null);
  const [failure, setFailure] = useState<Error | null>(null);
  // declared first, so under StrictMode's mount-unmount-mount the client of the second mount is a fresh one
  useEffect(
    () => () => {
      clientRef.current?.dispose();
      clientRef.current = null;
    },
    [],
  );
  useEffect(() => {
    let live = true;
    const client = (clientRef.current ??= new LayoutClient());
    client.layoutGraph(layoutInputOf(view)).then(
      (placed) => {
        if (live && placed) setDone({ view, drawing: drawingOf(view, placed) });
      },
      (e: unknown) => {
        if (live) setFailure(e instanceof Error ? e : new Error(String(e)));
      },
    );
    return () => {
      live = false;
    };
  }, [view]);
  // as when the layout ran during the render: the view's error boundary shows it
  if (failure) throw failure;
  return { drawing: done?.drawing ?? NOTHING, pending: done?.view !== view };
}
