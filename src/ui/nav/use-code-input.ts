/**
 * The viewer's code takes clicks and keys: a click places the caret (on a name it also offers
 * Go to definition / Find references; Ctrl/Cmd+click goes at once), the caret keys move it,
 * the context-menu key or Shift+F10 opens the same menu at the caret, Ctrl+K Ctrl+I shows the
 * hover card there, Esc closes what is open. A lookup writes the caret's place first, so Back
 * returns to it exactly.
 */
import { useRef, useState, type RefObject } from 'react';
import { identifierAtPoint, columnAtPoint } from './code-click';
import type { CaretApi } from './use-caret';
import type { useHover } from './use-hover';
import type { NavAction } from './WordMenu';

export interface WordMenuState {
  name: string;
  x: number;
  y: number;
  /** Opened from the keyboard: it has the focus, which goes back to the code when it closes. */
  byKey: boolean;
}

/** Keys that only hold a modifier down (between a chord's two keys). */
const MODIFIERS = new Set(['Control', 'Meta', 'Shift', 'Alt']);
/** How long after the context-menu key the browser's own menu is refused (it follows the key). */
const CONTEXT_KEY_MS = 1000;

export function useCodeInput({
  lines,
  word,
  caret,
  hover,
  scrollRef,
  onNavigate,
}: {
  lines: readonly string[];
  /** The name at the caret ('' when none). */
  word: string;
  caret: CaretApi;
  hover: ReturnType<typeof useHover>;
  scrollRef: RefObject<HTMLElement | null>;
  onNavigate?: (name: string, action: NavAction) => void;
}) {
  const [menu, setMenu] = useState<WordMenuState | null>(null);
  /** Ctrl+K was pressed: the next key completes a chord. */
  const chord = useRef(false);
  const contextKeyAt = useRef(0);
  /** The code has the focus (or had it when its file was left): a new file's code takes it. */
  const wantsFocus = useRef(false);
  const focusCode = () => scrollRef.current?.focus({ preventScroll: true });

  const closeMenu = () => {
    const byKey = menu?.byKey;
    setMenu(null);
    if (byKey) focusCode();
  };
  const lookUp = (name: string, action: NavAction) => {
    if (menu?.byKey) focusCode();
    setMenu(null);
    hover.close();
    caret.flush(); // the place a jump leaves is in the history, so Back lands on it
    onNavigate?.(name, action);
  };

  /** The menu at the caret (the context-menu key): false when the caret is not on a name. */
  const menuAtCaret = (): boolean => {
    const mark = scrollRef.current?.querySelector('.caret');
    const viewer = scrollRef.current?.closest('.viewer');
    if (!word || !mark || !viewer) return false;
    const at = mark.getBoundingClientRect();
    const box = viewer.getBoundingClientRect();
    hover.close();
    setMenu({ name: word, x: at.left - box.left, y: at.top - box.top + 4, byKey: true });
    return true;
  };

  const onCodeClick = (e: React.MouseEvent<HTMLDivElement>) => {
    const click = clickedAt(e, lines);
    if (!click) return;
    hover.close();
    caret.place({ line: click.line, col: click.col });
    if (!click.name) setMenu(null);
    else if (e.ctrlKey || e.metaKey) lookUp(click.name, 'definition');
    else {
      const box = (e.currentTarget.closest('.viewer') as HTMLElement).getBoundingClientRect();
      setMenu({ name: click.name, x: e.clientX - box.left, y: e.clientY - box.top, byKey: false });
    }
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLDivElement>) => {
    const mod = e.ctrlKey || e.metaKey;
    if (chord.current && !MODIFIERS.has(e.key)) {
      chord.current = false;
      if (e.key.toLowerCase() === 'i' && !e.altKey && !e.shiftKey) {
        e.preventDefault();
        if (caret.shown) hover.showAt(caret.caret.line, caret.caret.col);
        return;
      }
    }
    if (mod && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 'k') {
      e.preventDefault();
      chord.current = true;
      return;
    }
    if (e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10')) {
      contextKeyAt.current = e.timeStamp;
      if (menuAtCaret()) e.preventDefault();
      return;
    }
    if (e.key === 'Escape' && (menu || hover.card)) {
      setMenu(null);
      hover.close();
      return;
    }
    if (caret.onKey(e)) {
      setMenu(null);
      hover.close();
    }
  };

  return {
    menu,
    closeMenu,
    lookUp,
    onCodeClick,
    onKeyDown,
    /** The browser's own menu right after the context-menu key: ours is open instead. */
    onContextMenu: (e: React.MouseEvent) => {
      if (e.timeStamp - contextKeyAt.current < CONTEXT_KEY_MS) e.preventDefault();
    },
    onFocus: () => {
      wantsFocus.current = true;
    },
    onBlur: (e: React.FocusEvent) => {
      caret.flush();
      const to = e.relatedTarget as HTMLElement | null;
      if (to && !to.closest('.viewer')) wantsFocus.current = false;
    },
    onScroll: () => {
      setMenu(null);
      hover.close();
    },
    wantsFocus,
  };
}

/**
 * Where a click in the code landed: its line, the caret's column (past the end of the text: its
 * end) and the name clicked ('' off a name); null off the text (a line number, a drag that selected text).
 */
function clickedAt(
  e: React.MouseEvent<HTMLElement>,
  lines: readonly string[],
): { line: number; col: number; name: string } | null {
  const target = e.target as HTMLElement;
  const row = target.closest<HTMLElement>('.code-line');
  const code = row?.querySelector<HTMLElement>('.code');
  if (!row || !code || target.closest('.ln')) return null;
  const sel = window.getSelection();
  if (sel && !sel.isCollapsed && sel.toString()) return null;
  const line = Number(row.dataset.line);
  const text = lines[line - 1] ?? '';
  const onText = code.contains(target);
  const col = onText ? columnAtPoint(code, e.clientX, e.clientY) : -1;
  const hit = onText ? identifierAtPoint(code, text, e.clientX, e.clientY) : null;
  return { line, col: col < 0 ? text.length : col, name: hit?.name ?? '' };
}
