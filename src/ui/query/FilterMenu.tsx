/**
 * "+ Filter" (issue 35): the filters that were separate fields (include, exclude, extensions)
 * and the query's kinds as a menu that writes into the query: the filter's text goes at the end
 * and the box takes the focus, the caret after a key so its values are offered. A WAI-ARIA menu
 * button (use-menu-button.ts): Enter, Space or ArrowDown opens it; arrows move, Escape closes it.
 */
import { filterSpec } from '../../core/query/filters';
import { useMenuButton } from '../use-menu-button';
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
  const { open, close, rootRef, buttonRef: button, buttonProps, listProps } = useMenuButton();
  return (
    <div className="topbar-menu filter-menu" ref={rootRef}>
      <button type="button" className="toggle" data-testid="filter-menu" ref={button} {...buttonProps}>
        + Filter
      </button>
      {open && (
        <ul aria-label="Add a filter" className="topbar-menu-list filter-menu-list" {...listProps}>
          {FILTER_CHOICES.map((c) => (
            <li key={c.text} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                onClick={() => {
                  // (the query box takes the focus)
                  close(false);
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
