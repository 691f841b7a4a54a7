/**
 * "+ Filter" (issue 35): the filters that were separate fields (include, exclude, extensions)
 * and the query's kinds as a menu that writes into the query: the filter's text goes at the end
 * and the box takes the focus, the caret after a key so its values are offered. A WAI-ARIA menu
 * button: Enter, Space or ArrowDown opens it; arrows move, Escape closes it.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { filterSpec } from '../../core/query/filters';
import './query.css';

export interface FilterChoice {
  text: string;
  description: string;
}

export const FILTER_CHOICES: readonly FilterChoice[] = [
  { text: 'file:', description: filterSpec('file').description },
  { text: '-file:', description: 'Leave out files whose path matches this glob or path fragment' },
  { text: 'lang:', description: filterSpec('lang').description },
  { text: 'case:yes', description: 'Match upper and lower case exactly' },
  { text: 'type:symbol', description: 'Search symbol names (functions, classes, …)' },
  { text: 'type:commit', description: 'Search commit messages (and author:)' },
  { text: 'type:diff', description: 'Search the lines commits added and removed' },
];

/** `query` with `filter` at its end (a space between), and where the caret goes. */
export function appendFilter(query: string, filter: string): { text: string; caret: number } {
  const head = query.replace(/\s+$/, '');
  // a whole filter is followed by a space, so the next word starts at once; a key waits for its value
  const text = `${head ? `${head} ` : ''}${filter}${filter.endsWith(':') ? '' : ' '}`;
  return { text, caret: text.length };
}

export function FilterMenu({ onChoose }: { onChoose: (filter: string) => void }) {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const items = () => [...(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  useEffect(() => {
    if (!open) return;
    const list = items();
    (open === 'last' ? list[list.length - 1] : list[0])?.focus();
  }, [open]);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);

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
      setOpen(false);
      button.current?.focus();
    } else if (e.key === 'Tab') setOpen(false);
  };

  return (
    <div className="topbar-menu filter-menu" ref={root}>
      <button
        type="button"
        ref={button}
        className="toggle"
        aria-haspopup="menu"
        aria-expanded={!!open}
        aria-controls={open ? id : undefined}
        data-testid="filter-menu"
        onClick={() => setOpen(open ? false : 'first')}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setOpen(e.key === 'ArrowUp' ? 'last' : 'first');
          }
        }}
      >
        + Filter
      </button>
      {open && (
        <ul
          id={id}
          role="menu"
          aria-label="Add a filter"
          className="topbar-menu-list filter-menu-list"
          onKeyDown={onMenuKey}
        >
          {FILTER_CHOICES.map((c) => (
            <li key={c.text} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                onClick={() => {
                  setOpen(false);
                  onChoose(c.text);
                }}
              >
                <span className="filter-menu-text">{c.text}</span>
                <span className="filter-menu-desc">{c.description}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
