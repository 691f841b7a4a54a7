/**
 * Keys in the symbol and history result lists: the focusable rows carry `data-qnav`; ArrowDown
 * from the search box enters the list, Up/Down/Home/End move, Up from the first row goes back to
 * the box (as in the Text/Regex list). Enter and Space are the rows' own (they are buttons).
 */
import { useRef, type KeyboardEvent, type RefObject } from 'react';

const ROWS = '[data-qnav]';

export function useListKeys(searchInputRef: RefObject<HTMLInputElement | null>) {
  const listRef = useRef<HTMLDivElement>(null);
  const rows = () => [...(listRef.current?.querySelectorAll<HTMLElement>(ROWS) ?? [])];
  const focusFirst = () => rows()[0]?.focus();
  const onKeyDown = (e: KeyboardEvent) => {
    const list = rows();
    const at = list.indexOf(document.activeElement as HTMLElement);
    if (at < 0) return;
    const to: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: list.length - 1 };
    const next = to[e.key];
    if (next === undefined) return;
    e.preventDefault();
    if (next < 0) searchInputRef.current?.focus();
    else list[Math.min(next, list.length - 1)]?.focus();
  };
  return { listRef, focusFirst, onKeyDown };
}
