/** Page-wide input: a folder dropped anywhere, and the global shortcuts (Ctrl/Cmd+P, Ctrl/Cmd+Shift+F). */
import { toQuarryError } from '../../core/errors';
import { useEffect, useState } from 'react';
import { folderFromDrop } from '../../adapters/browser/files';
import type { WorkspaceController } from '../workspace/controller';

/** Drag and drop a folder anywhere on the page; returns whether a drag is over the page. */
export function useFolderDrop(controller: WorkspaceController): boolean {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => [...(e.dataTransfer?.types ?? [])].includes('Files');
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth++;
      setDragging(true);
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (!depth) setDragging(false);
    };
    const over = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      if (!e.dataTransfer || !hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      void folderFromDrop(e.dataTransfer).then(
        (folder) => {
          if (!folder)
            controller.setNotice({
              kind: 'error',
              title: 'Nothing to open',
              message: 'Drop a folder (not single files) to open it.',
            });
          else if (folder.kind === 'handle') void controller.openHandle(folder.handle);
          else void controller.openSnapshot(folder.name, folder.files);
        },
        (err) =>
          controller.setNotice({
            kind: 'error',
            title: 'Could not read the dropped folder',
            message: toQuarryError(err).message,
          }),
      );
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [controller]);
  return dragging;
}

/**
 * Ctrl/Cmd+P opens quick open; Ctrl/Cmd+Shift+F goes to Search and focuses its box, from every
 * view; Ctrl/Cmd+T goes to a symbol in the workspace (Chrome keeps Ctrl+T for a new tab on
 * Windows and Linux: there, Ctrl+P then `#` does it), Ctrl/Cmd+Shift+O to a symbol in the file.
 */
export function useGlobalShortcuts(handlers: {
  quickOpen: () => void;
  focusSearch: () => void;
  symbols: (mode: 'workspace' | 'file') => void;
}): void {
  const { quickOpen, focusSearch, symbols } = handlers;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && !e.shiftKey && e.key.toLowerCase() === 'p') {
        e.preventDefault();
        quickOpen();
      } else if (mod && e.shiftKey && e.key.toLowerCase() === 'f') {
        e.preventDefault();
        focusSearch();
      } else if (mod && !e.shiftKey && e.key.toLowerCase() === 't') {
        e.preventDefault();
        symbols('workspace');
      } else if (mod && e.shiftKey && e.key.toLowerCase() === 'o') {
        e.preventDefault();
        symbols('file');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [quickOpen, focusSearch, symbols]);
}
