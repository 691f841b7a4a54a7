/**
 * The viewer's column: what the open file is shown as (its text, a diff, blame, a rendered
 * Markdown page, an image) and the panels beside it (related code, navigation results).
 * Which one is chosen by the address (ViewState), so a link restores it. Under a view, or
 * showing a diff, the column takes the whole width right of the tree (shell/WorkspaceLayout.tsx)
 * and the Related panel folds away: the code gets the room. Where the panes stack in one
 * scrolling column (a narrow window), opening a file scrolls the column into view.
 */
import { useEffect, useRef } from 'react';
import type { FileHighlight } from '../../worker/protocol';
import { FileViewer } from '../FileViewer';
import { RecentFiles } from './RecentFiles';
import { RelatedPane, SidePaneSplitter } from './RelatedPane';
import { RenderedFile, useRendering } from './RenderedFile';
import { NavPanel } from '../nav/NavPanel';
import { useNavigation } from '../nav/use-navigation';
import { useFileGit } from './use-file-git';
import type { ViewState } from '../url-state';
import type { UpdateView } from '../use-view-state';

/** Where the workspace's panes stack in one scrolling column (workspace.css). */
const NARROW = '(max-width: 900px)';

export interface ViewerColumnProps {
  view: ViewState;
  update: UpdateView;
  repoKey: string;
  highlight: FileHighlight | null;
  indexReady: boolean;
  indexVersion: number;
  /** F12 with no name chosen opens the file's symbols. */
  onSymbolPicker?: () => void;
}

export function ViewerColumn({
  view,
  update,
  repoKey,
  highlight,
  indexReady,
  indexVersion,
  onSymbolPicker,
}: ViewerColumnProps) {
  const navigate = useNavigation(view, update);
  // a Markdown page or a picture, or the text (with the Preview / Source switch in its bar)
  const rendering = useRendering(view, update);
  // a diff or blame in the file's place, the File history panel beside it, their toggles in the bar
  const fileGit = useFileGit(view, update, repoKey);
  // Related code beside a file seen from Search; not beside a view or a diff
  const related = view.view === 'search' && !view.diff;
  const column = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = column.current;
    if (el && window.matchMedia(NARROW).matches) el.scrollIntoView({ block: 'start' });
  }, [view.file, view.diff]);
  return (
    <div className="viewer-column" ref={column}>
      <div className="viewer-main">
        <RecentFiles
          repoKey={repoKey}
          current={view.file}
          onOpen={(file) => update({ file, line: 0, diff: '', blame: false }, { push: true })}
        />
        {fileGit.main ??
          (rendering.rendered ? (
            <RenderedFile
              view={view}
              update={update}
              repoKey={repoKey}
              toolbar={
                <>
                  {rendering.toolbar}
                  {fileGit.toggles}
                </>
              }
            />
          ) : (
            <FileViewer
              path={view.file}
              line={view.line}
              col={view.col}
              highlight={highlight}
              repoKey={repoKey}
              onLine={(line, o) => update({ line, col: o?.col ?? 0 }, { push: o?.push })}
              indexVersion={indexVersion}
              onNavigate={navigate.lookUp}
              onSymbolPicker={onSymbolPicker}
              toolbar={
                <>
                  {rendering.toolbar}
                  {fileGit.toggles}
                </>
              }
            />
          ))}
      </div>
      {((view.sym && view.nav) || fileGit.side) && <SidePaneSplitter />}
      {fileGit.side ??
        (view.sym && view.nav ? (
          <NavPanel
            sym={view.sym}
            nav={view.nav}
            from={navigate.from}
            current={{ path: view.file, line: view.line }}
            indexVersion={indexVersion}
            repoKey={repoKey}
            onOpen={(file, line) => update({ file, line, diff: '', blame: false }, { push: true })}
            onClose={() => update({ sym: '', nav: '' })}
            onSwitch={(nav) => update({ nav })}
          />
        ) : (
          related && (
            <RelatedPane
              path={view.file}
              line={view.line}
              indexReady={indexReady}
              indexVersion={indexVersion}
              onOpen={(file, line) => update({ file, line }, { push: true })}
            />
          )
        ))}
    </div>
  );
}
