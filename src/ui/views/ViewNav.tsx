/** The view switcher: Search, Explore, Components, Routes, Features, History. Real links, so each view has an address. */
import type { MouseEvent } from 'react';
import { serializeViewState, type ViewKey, type ViewState } from '../url-state';
import type { UpdateView } from '../use-view-state';

export const VIEW_TABS: ReadonlyArray<{ key: ViewKey; label: string }> = [
  { key: 'search', label: 'Search' },
  { key: 'explore', label: 'Explore' },
  { key: 'components', label: 'Components' },
  { key: 'routes', label: 'Routes' },
  { key: 'features', label: 'Features' },
  { key: 'history', label: 'History' },
];

export function ViewNav({ view, update }: { view: ViewState; update: UpdateView }) {
  return (
    <nav className="view-nav" aria-label="Views" data-testid="view-nav">
      <ul>
        {VIEW_TABS.map((t) => {
          const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
            if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
            e.preventDefault();
            if (view.view !== t.key) update({ view: t.key }, { push: true });
          };
          return (
            <li key={t.key}>
              <a
                href={`${location.pathname}${serializeViewState({ ...view, view: t.key })}`}
                aria-current={view.view === t.key ? 'page' : undefined}
                onClick={onClick}
              >
                {t.label}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
