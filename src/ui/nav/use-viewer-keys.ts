/**
 * The viewer's keys, page-wide while a file is open (as in VS Code): F3 / Shift+F3 next and
 * previous match, F12 go to definition, Shift+F12 find references (the name at the caret),
 * Ctrl+G go to line. Not while typing in a field. The caret's own keys are the viewer's
 * (use-caret.ts); Alt+←/→ are page-wide (jump-history.ts).
 */
import { useEffect, useEffectEvent } from 'react';
import type { NavAction } from './WordMenu';

export function useViewerKeys(o: {
  hitLines: readonly number[];
  line: number;
  onLine: (line: number) => void;
  lookUp: (action: NavAction) => void;
  /** Ctrl+G: the Go to line field. */
  gotoLine?: () => void;
}): void {
  const onKey = useEffectEvent((e: KeyboardEvent) => {
    const t = e.target as HTMLElement | null;
    if (
      t &&
      (t.tagName === 'INPUT' ||
        t.tagName === 'TEXTAREA' ||
        t.isContentEditable ||
        t.closest('[role="dialog"]'))
    )
      return;
    if (e.key === 'F3') {
      if (!o.hitLines.length) return;
      e.preventDefault();
      stepMatch(o.hitLines, o.line, e.shiftKey ? -1 : 1, o.onLine);
    } else if (e.key === 'F12' && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      o.lookUp(e.shiftKey ? 'references' : 'definition');
    } else if (
      o.gotoLine &&
      (e.ctrlKey || e.metaKey) &&
      !e.shiftKey &&
      !e.altKey &&
      e.key.toLowerCase() === 'g'
    ) {
      e.preventDefault();
      o.gotoLine();
    }
  });
  useEffect(() => {
    const handler = (e: KeyboardEvent) => onKey(e);
    window.addEventListener('keydown', handler);
    return () => window.removeEventListener('keydown', handler);
  }, []);
}

/** The next (dir 1) or previous (-1) matching line from `line`, wrapping around. */
export function stepMatch(
  hitLines: readonly number[],
  line: number,
  dir: 1 | -1,
  onLine: (line: number) => void,
): void {
  if (!hitLines.length) return;
  const next =
    dir === 1
      ? (hitLines.find((n) => n > line) ?? hitLines[0])
      : ([...hitLines].reverse().find((n) => n < line) ?? hitLines[hitLines.length - 1]);
  onLine(next);
}
