/**
 * What the viewer's column shows while no file is open: a short Explore report of the
 * repository (shallow: the summary and the key files, in well under a second) with a link to
 * the full Explore view, instead of an empty pane.
 */
import { serializeViewState, type ViewState } from '../url-state';
import type { UpdateView } from '../use-view-state';
import { VisibleText } from '../VisibleText';
import { FileLink } from './parts';
import { useExplore } from './use-explore';

const OVERVIEW_ARGS = { path: '.', depth: 'shallow' };
const SHOWN_KEY_FILES = 8;

export function ExploreOverview({
  view,
  update,
  repoKey,
}: {
  view: ViewState;
  update: UpdateView;
  repoKey: string;
}) {
  const [state] = useExplore(OVERVIEW_ARGS, repoKey);
  const report = state.state === 'done' ? state.report : null;
  return (
    <section
      className="viewer empty explore-overview"
      aria-labelledby="overview-title"
      data-testid="explore-overview"
    >
      <div className="panel-note">
        <h2 id="overview-title">No file open</h2>
        <p>Pick a file in the tree, open a search result, or press Ctrl/⌘+P to find a file by name.</p>
        {report && (
          <>
            <p className="explore-summary">
              <VisibleText text={report.summary} />
            </p>
            {report.key_files.length > 0 && (
              <ul className="explore-list" aria-label="Key files">
                {report.key_files.slice(0, SHOWN_KEY_FILES).map((k) => (
                  <li key={k.path}>
                    <FileLink view={view} update={update} path={k.path}>
                      <VisibleText text={k.path} />
                    </FileLink>{' '}
                    <span className="muted">
                      — <VisibleText text={k.role} />
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
        <p>
          <a
            href={`${location.pathname}${serializeViewState({ ...view, view: 'explore' })}`}
            onClick={(e) => {
              e.preventDefault();
              update({ view: 'explore' }, { push: true });
            }}
          >
            Explore this repository
          </a>{' '}
          <span className="muted">— patterns, the import graph drawn, history</span>
        </p>
      </div>
    </section>
  );
}
