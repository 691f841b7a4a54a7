/**
 * The viewer's column while no file is open: the short Explore overview, then the repository's
 * README rendered (text only) when its root has one, so the pane is worth looking at from the start.
 */
import { useDeferredValue, useEffect, useState } from 'react';
import { useEngine } from '../engine';
import type { ViewState } from '../url-state';
import type { UpdateView } from '../use-view-state';
import { ExploreOverview } from '../views/ExploreOverview';
import { pickReadme } from './file-kind';
import { ReadmePreview } from './MarkdownView';

/** The workspace path of the first root's README (null: none, or not known yet). */
function useReadmePath(repoKey: string): string | null {
  const engine = useEngine();
  const [path, setPath] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    setPath(null);
    void (async () => {
      try {
        const top = await engine.listDir('');
        // several roots: the top level is one folder per root; the first root's README
        const first = top.length && top.every((e) => e.root) ? top[0] : null;
        const entries = first ? await engine.listDir(first.path) : top;
        const name = pickReadme(entries);
        if (current) setPath(name ? (first ? `${first.path}/${name}` : name) : null);
      } catch {
        // no listing, no README: the overview alone
      }
    })();
    return () => {
      current = false;
    };
  }, [engine, repoKey]);
  return path;
}

export function OverviewColumn({
  view,
  update,
  repoKey,
}: {
  view: ViewState;
  update: UpdateView;
  repoKey: string;
}) {
  const readme = useReadmePath(repoKey);
  // The README's links carry the view (a link opened in a new tab keeps the query): it follows a
  // new view in a background render, not in the one the change asked for.
  const readmeView = useDeferredValue(view);
  return (
    <div className="overview-column" data-testid="overview-column">
      <ExploreOverview view={view} update={update} repoKey={repoKey} />
      {readme && <ReadmePreview path={readme} view={readmeView} update={update} repoKey={repoKey} />}
    </div>
  );
}
