/** The small menu a click on a name opens in the viewer: Go to definition, Find references. */
import { useEffect, useRef } from 'react';

export type NavAction = 'definition' | 'references';

export function WordMenu({
  name,
  x,
  y,
  onChoose,
  onClose,
}: {
  name: string;
  x: number;
  y: number;
  onChoose: (a: NavAction) => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
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
