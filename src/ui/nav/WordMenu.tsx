/**
 * The small menu a click on a name (or the context-menu key, Shift+F10, at the caret) opens in
 * the viewer: Go to definition, Find references. Opened from the keyboard it takes the focus;
 * ↑/↓ move between its items, Esc closes it.
 */
import { useEffect, useRef } from 'react';

export type NavAction = 'definition' | 'references';

export function WordMenu({
  name,
  x,
  y,
  onChoose,
  onClose,
  autoFocus,
}: {
  name: string;
  x: number;
  y: number;
  onChoose: (a: NavAction) => void;
  onClose: () => void;
  /** Opened from the keyboard: its first item takes the focus. */
  autoFocus?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (autoFocus) ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [autoFocus]);
  useEffect(() => {
    const away = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node) && !(e.target as HTMLElement).closest?.('.code'))
        onClose();
    };
    const esc = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('mousedown', away);
    window.addEventListener('keydown', esc);
    return () => {
      window.removeEventListener('mousedown', away);
      window.removeEventListener('keydown', esc);
    };
  }, [onClose]);
  return (
    <div
      ref={ref}
      className="word-menu"
      role="menu"
      aria-label={`Look up ${name}`}
      style={{ left: x, top: y + 14 }}
      data-testid="word-menu"
      onKeyDown={(e) => {
        if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
        e.preventDefault();
        const items = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
        const at = items.indexOf(document.activeElement as HTMLElement);
        items[(at + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
      }}
    >
      <button type="button" role="menuitem" onClick={() => onChoose('definition')}>
        Go to definition <kbd>F12</kbd>
      </button>
      <button type="button" role="menuitem" onClick={() => onChoose('references')}>
        Find references <kbd>⇧F12</kbd>
      </button>
    </div>
  );
}
