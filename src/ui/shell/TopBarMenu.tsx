/**
 * The top bar's actions folded into one menu button when the window is too narrow for them
 * (TopBar.tsx): a WAI-ARIA menu button. Enter, Space or ArrowDown opens it on the first item
 * (ArrowUp on the last); ArrowUp/ArrowDown move (wrapping), Home/End jump, Escape closes it and
 * returns to the button, Tab or a click elsewhere closes it.
 */
import {
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';

export interface MenuAction {
  key: string;
  label: ReactNode;
  onSelect: () => void;
  testId?: string;
  title?: string;
  /** Starts a group under this heading (Recent folders). */
  group?: string;
}

const MenuIcon = () => (
  <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
    <path d="M2 3.5h12v1.5H2zM2 7.25h12v1.5H2zM2 11h12v1.5H2z" />
  </svg>
);

/** `buttonRef`: the menu button (focused again after a dialog an item opened closes). */
export function TopBarMenu({
  actions,
  buttonRef,
}: {
  actions: MenuAction[];
  buttonRef?: RefObject<HTMLButtonElement | null>;
}) {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const ownButton = useRef<HTMLButtonElement | null>(null);
  const button = buttonRef ?? ownButton;
  const items = () => [...(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  // focus the first (or last) item when the menu opens
  useEffect(() => {
    if (!open) return;
    const list = items();
    (open === 'last' ? list[list.length - 1] : list[0])?.focus();
  }, [open]);

  // a click outside closes it
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  const onButtonKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(e.key === 'ArrowUp' ? 'last' : 'first');
    }
  };

  const onMenuKey = (e: KeyboardEvent<HTMLUListElement>) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const move = (i: number) => {
      e.preventDefault();
      list[(i + list.length) % list.length]?.focus();
    };
    if (e.key === 'ArrowDown') move(at + 1);
    else if (e.key === 'ArrowUp') move(at < 0 ? list.length - 1 : at - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(list.length - 1);
    else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close(true);
    } else if (e.key === 'Tab') setOpen(false);
  };

  return (
    <div className="topbar-menu" ref={root}>
      <button
        type="button"
        ref={button}
        aria-haspopup="menu"
        aria-expanded={!!open}
        aria-controls={open ? id : undefined}
        data-testid="topbar-menu"
        onClick={() => (open ? close(false) : setOpen('first'))}
        onKeyDown={onButtonKey}
      >
        <MenuIcon /> Menu
      </button>
      {open && (
        <ul id={id} role="menu" aria-label="Menu" className="topbar-menu-list" onKeyDown={onMenuKey}>
          {actions.map((a) => (
            <li key={a.key} role="none" className={a.group ? 'menu-group-start' : undefined}>
              {a.group && (
                <span className="menu-group-label" aria-hidden="true">
                  {a.group}
                </span>
              )}
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                title={a.title}
                data-testid={a.testId}
                onClick={() => {
                  close(true);
                  a.onSelect();
                }}
              >
                {a.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
