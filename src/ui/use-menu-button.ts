/**
 * A WAI-ARIA menu button's behaviour, for every menu of the app (the top bar's folded actions,
 * "+ Filter"): Enter, Space or a click opens it on the first item, ArrowDown too (ArrowUp on the
 * last); in the menu ArrowUp/ArrowDown move (wrapping), Home/End jump, Escape closes it and
 * returns to the button, Tab or a click elsewhere closes it. The component renders the button
 * and the list with the props given here; items are the list's `[role="menuitem"]` elements.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react';

export interface MenuButton {
  open: boolean;
  /** Close it, giving the focus back to the button when `refocus`. */
  close: (refocus: boolean) => void;
  /** The wrapper holding the button and the list (a press outside it closes the menu). */
  rootRef: RefObject<HTMLDivElement | null>;
  buttonRef: RefObject<HTMLButtonElement | null>;
  buttonProps: {
    'aria-haspopup': 'menu';
    'aria-expanded': boolean;
    'aria-controls': string | undefined;
    onClick: () => void;
    onKeyDown: (e: KeyboardEvent<HTMLButtonElement>) => void;
  };
  listProps: {
    id: string;
    role: 'menu';
    onKeyDown: (e: KeyboardEvent<HTMLUListElement>) => void;
  };
}

/** `buttonRef`: the button's ref when the caller needs it too (to focus it after a dialog). */
export function useMenuButton(buttonRef?: RefObject<HTMLButtonElement | null>): MenuButton {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  const id = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const ownButton = useRef<HTMLButtonElement | null>(null);
  const button = buttonRef ?? ownButton;
  const items = () => [...(rootRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  // the first (or last) item takes the focus when the menu opens
  useEffect(() => {
    if (!open) return;
    const list = items();
    (open === 'last' ? list[list.length - 1] : list[0])?.focus();
  }, [open]);

  // a press outside closes it
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
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

  return {
    open: !!open,
    close,
    rootRef,
    buttonRef: button,
    buttonProps: {
      'aria-haspopup': 'menu',
      'aria-expanded': !!open,
      'aria-controls': open ? id : undefined,
      onClick: () => (open ? close(false) : setOpen('first')),
      onKeyDown: (e) => {
        if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
          e.preventDefault();
          setOpen(e.key === 'ArrowUp' ? 'last' : 'first');
        }
      },
    },
    listProps: { id, role: 'menu', onKeyDown: onMenuKey },
  };
}
