/**
 * The workspace's resizable columns: a ref for the workspace element (its size is watched and
 * the pane sizes applied to it as CSS variables) and the splitters laid over the pane
 * boundaries (absolutely positioned: they take no grid cell, so the panes' grid stays as it is).
 *
 * The workspace has three arrangements (`workspaceArrangement`, set as its data-layout):
 * - 'split': Search beside the file (or the overview): tree | search | viewer (+ Related);
 * - 'stage': a view with no file open takes the whole area right of the tree;
 * - 'stack': a view, or Search with a diff open, above the file or diff, both the full width
 *   right of the tree (no Related panel: the code gets the room), a splitter between them.
 * Narrow (max-width 900px, workspace.css) the panes stack in one scrolling column instead.
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
    layout.attach(el, el.clientWidth, el.clientHeight);
    observer.current = new ResizeObserver((entries) => {
      const entry = entries[entries.length - 1];
      if (entry) layout.setSize(entry.contentRect.width, entry.contentRect.height);
    });
    observer.current.observe(el);
  }, []);
}

export type Arrangement = 'split' | 'stage' | 'stack';

/** How the workspace is arranged for a view state (see above). */
export function workspaceArrangement(view: { view: string; file: string; diff: string }): Arrangement {
  if (view.view === 'search') return view.file && view.diff ? 'stack' : 'split';
  return view.file ? 'stack' : 'stage';
}

/**
 * The splitters after the tree and, by arrangement, after the middle column ('split') or
 * between the upper part and the file under it ('stack'); `middle` names the middle column
 * ("search panel", "history view").
 */
export function WorkspaceSplitters({ arrangement, middle }: { arrangement: Arrangement; middle: string }) {
  return (
    <>
      <Splitter pane="tree" label="Resize the file tree" className="ws-splitter ws-splitter-tree" />
      {arrangement === 'split' && (
        <Splitter pane="middle" label={`Resize the ${middle}`} className="ws-splitter ws-splitter-middle" />
      )}
      {arrangement === 'stack' && (
        <Splitter pane="stack" label={`Resize the ${middle}`} className="ws-splitter-stack" />
      )}
    </>
  );
}
