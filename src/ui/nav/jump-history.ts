/**
 * Back and Forward over jumps, as in VS Code: Alt+← / Alt+→ and the mouse's back and forward
 * buttons. Every jump (a definition, a reference, a search result, Go to file, the outline, Go
 * to line) pushes the address with its file, line and caret column (url-state.ts), so the jump
 * history IS the browser's history: the browser's own Back button agrees with Alt+←, and a
 * reload keeps it. The caret's place is written into the address a moment after it stops
 * moving; BEFORE_JUMP asks it to be written now, before the history moves.
 */
import { useEffect } from 'react';

/** Dispatched on window just before a jump or a Back/Forward: the viewer writes its caret's place now. */
export const BEFORE_JUMP = 'quarry:before-jump';

export type JumpDirection = 'back' | 'forward';

/** What a key or mouse event asks of the history, or null. */
export function jumpDirection(
  e:
    | { type: 'keydown'; key: string; altKey: boolean; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }
    | { type: 'mouseup'; button: number },
): JumpDirection | null {
  if (e.type === 'mouseup') return e.button === 3 ? 'back' : e.button === 4 ? 'forward' : null;
  if (!e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return null;
  return e.key === 'ArrowLeft' ? 'back' : e.key === 'ArrowRight' ? 'forward' : null;
}

function isEditable(target: EventTarget | null): boolean {
  const t = target as HTMLElement | null;
  return !!t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable);
}

/** Ask the viewer to write its caret's place into the address now (before a jump). */
export function beforeJump(): void {
  window.dispatchEvent(new Event(BEFORE_JUMP));
}

/** Go back or forward in the jump history (the browser's), the caret's place written first. */
export function jump(direction: JumpDirection): void {
  beforeJump();
  if (direction === 'back') history.back();
  else history.forward();
}

/**
 * Page-wide Alt+←/→ and mouse buttons 3/4. The browser's own handling of these is cancelled
 * (Chromium lets a page cancel the back/forward buttons on mouseup) so a jump is never made twice.
 */
export function useJumpKeys(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const dir = jumpDirection({
        type: 'keydown',
        key: e.key,
        altKey: e.altKey,
        ctrlKey: e.ctrlKey,
        metaKey: e.metaKey,
        shiftKey: e.shiftKey,
      });
      // in a text field Alt/Option+arrows edit (macOS moves by words): the browser's own handling stays
      if (!dir || e.defaultPrevented || isEditable(e.target)) return;
      e.preventDefault();
      jump(dir);
    };
    const onMouseUp = (e: MouseEvent) => {
      const dir = jumpDirection({ type: 'mouseup', button: e.button });
      if (!dir) return;
      e.preventDefault();
      jump(dir);
    };
    // a press of the side buttons must not start anything else (a drag, a focus change)
    const onMouseDown = (e: MouseEvent) => {
      if (e.button === 3 || e.button === 4) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('mouseup', onMouseUp);
    window.addEventListener('mousedown', onMouseDown);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('mouseup', onMouseUp);
      window.removeEventListener('mousedown', onMouseDown);
    };
  }, []);
}
