/**
 * The find box of the drawn graphs: selects a node by name without the canvas (keyboard users;
 * e2e types a name and presses Enter). Names reach the DOM only as React text.
 */
import { useId, useMemo, useState } from 'react';
import { plural } from '../../format';
import { VisibleText } from '../../VisibleText';

export interface FinderItem {
  /** What onPick receives. */
  id: string;
  /** The short name matched first (a file's base name, a URL segment). */
  name: string;
  /** The full text matched and shown (a path, a URL). */
  full: string;
}

const SHOWN_MATCHES = 8;

/** Items matching `query`: an exact name first, then names that start with it, contain it, then full texts that contain it. */
export function rankMatches(items: readonly FinderItem[], query: string): FinderItem[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const scored: Array<[number, FinderItem]> = [];
  for (const it of items) {
    const name = it.name.toLowerCase();
    const full = it.full.toLowerCase();
    const score =
      name === q || full === q
        ? 0
        : name.startsWith(q)
          ? 1
          : name.includes(q)
            ? 2
            : full.includes(q)
              ? 3
              : -1;
    if (score >= 0) scored.push([score, it]);
  }
  scored.sort(
    ([a, x], [b, y]) =>
      a - b || x.full.length - y.full.length || (x.full < y.full ? -1 : x.full > y.full ? 1 : 0),
  );
  return scored.map(([, it]) => it);
}

/** A search box over the nodes: Enter picks the best match; the matches are buttons too. */
export function NodeFinder({
  items,
  onPick,
  label,
  placeholder,
}: {
  items: readonly FinderItem[];
  onPick: (id: string) => void;
  label: string;
  placeholder: string;
}) {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const listId = useId();
  const matches = useMemo(() => rankMatches(items, query), [items, query]);
  const pick = (it: FinderItem) => {
    setOpen(false);
    onPick(it.id);
  };
  const shown = open && query.trim() !== '';
  return (
    <div className="graph-find" role="search" aria-label={label}>
      <input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        value={query}
        spellCheck={false}
        autoComplete="off"
        aria-controls={shown ? listId : undefined}
        aria-expanded={shown}
        data-testid="graph-find"
        onChange={(e) => {
          setQuery(e.target.value);
          setOpen(true);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && matches.length) {
            e.preventDefault();
            pick(matches[0]);
          } else if (e.key === 'Escape' && shown) {
            e.preventDefault();
            setOpen(false);
          }
        }}
      />
      {shown && (
        <ul id={listId} className="graph-find-list" aria-label="Matches">
          {matches.slice(0, SHOWN_MATCHES).map((it) => (
            <li key={it.id}>
              <button type="button" data-testid="graph-find-match" onClick={() => pick(it)}>
                <VisibleText text={it.full} />
              </button>
            </li>
          ))}
          {matches.length === 0 && <li className="muted">No match</li>}
          {matches.length > SHOWN_MATCHES && (
            <li className="muted">
              {plural(matches.length - SHOWN_MATCHES, 'more match', 'more matches')}; type more of the name
            </li>
          )}
        </ul>
      )}
      <span className="visually-hidden" aria-live="polite">
        {shown
          ? matches.length
            ? `${plural(matches.length, 'match', 'matches')}; Enter selects the first`
            : 'No match'
          : ''}
      </span>
    </div>
  );
}
