/** The middle column for the analysis views (the Search view keeps its own SearchPanel). */
import type { ViewState } from '../url-state';
import type { UpdateView } from '../use-view-state';
import { ComponentsView } from './ComponentsView';
import { FeaturesView } from './FeaturesView';
import { HistoryView } from './HistoryView';
import { RoutesView } from './RoutesView';
import './views.css';

export function ViewPanel({ view, update, repoKey }: { view: ViewState; update: UpdateView; repoKey: string }) {
  const props = { view, update, repoKey };
  if (view.view === 'components') return <ComponentsView {...props} />;
  if (view.view === 'routes') return <RoutesView {...props} />;
  if (view.view === 'features') return <FeaturesView {...props} />;
  if (view.view === 'history') return <HistoryView {...props} />;
  return null;
}
