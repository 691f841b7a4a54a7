/** The middle column for the analysis views (the Search view keeps its own SearchPanel). */
import type { ViewState } from '../url-state';
import type { UpdateView } from '../use-view-state';
import { ComponentsView } from './ComponentsView';
import { ExploreView } from './ExploreView';
import { FeaturesView } from './FeaturesView';
import { HistoryView } from './HistoryView';
import { RoutesView } from './RoutesView';
import './views.css';

/**
 * Every view takes the whole area right of the tree (shell/WorkspaceLayout.tsx), above the file
 * when one is open; `wide`: no file is open (Explore marks itself so).
 */
export function ViewPanel({
  view,
  update,
  repoKey,
  wide,
}: {
  view: ViewState;
  update: UpdateView;
  repoKey: string;
  wide?: boolean;
}) {
  const props = { view, update, repoKey };
  if (view.view === 'explore') return <ExploreView {...props} wide={wide} />;
  if (view.view === 'components') return <ComponentsView {...props} />;
  if (view.view === 'routes') return <RoutesView {...props} />;
  if (view.view === 'features') return <FeaturesView {...props} />;
  if (view.view === 'history') return <HistoryView {...props} />;
  return null;
}
