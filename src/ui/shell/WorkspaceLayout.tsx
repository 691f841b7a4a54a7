/**
 * The workspace's resizable columns: a ref for the workspace element (its width is watched and
 * the pane sizes applied to it as CSS variables) and the two splitters laid over the column
 * boundaries (absolutely positioned: they take no grid cell, so the panes' grid stays as it is).
 */
import { useCallback, useRef } from 'react';
import { paneLayout } from './pane-layout';
import { Splitter } from './Splitter';

/** A ref callback for the workspace element. */
export function useWorkspaceLayout(): (el: HTMLElement | null) => void {
  const observer = useRef<ResizeObserver | null>(null);
  return useCallback((el: HTMLElement | null) => {
    const layout = paneLayout();
    observer.current?.disconnect();
    observer.current = null;
    if (!el) {
      layout.attach(null);
      return;
    }
    layout.attach(el, el.clientWidth);
    observer.current = new ResizeObserver((entries) => {
      const entry = entries[entries.length - 1];
      if (entry) layout.setWidth(entry.contentRect.width);
    });
    observer.current.observe(el);
  }, []);
}

/**
 * The splitters after the tree and (when the viewer column is shown) after the middle column;
 * `middle` names the middle column ("search panel", "history view").
 */
export function WorkspaceSplitters({ viewer, middle }: { viewer: boolean; middle: string }) {
  return (
    <>
      <Splitter pane="tree" label="Resize the file tree" className="ws-splitter ws-splitter-tree" />
      {viewer && (
        <Splitter pane="middle" label={`Resize the ${middle}`} className="ws-splitter ws-splitter-middle" />
      )}
    </>
  );
}
