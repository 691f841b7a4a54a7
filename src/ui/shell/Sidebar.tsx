/** The sidebar: the open roots, the file tree (skipped entries shown or not) and the open file's outline. */
import { FileTree } from '../FileTree';
import { OutlinePanel } from '../nav/OutlinePanel';
import type { ViewState } from '../url-state';
import type { UpdateView } from '../use-view-state';
import type { OpenRoot } from '../workspace/controller';
import { RootList } from './TopBar';

/** The sidebar's switches (kept by the shell, so they outlast closing every root). */
export interface SidebarToggles {
  /** The tree shows skipped entries (greyed, with their reason). */
  skippedInTree: boolean;
  setSkippedInTree: (show: boolean) => void;
  outlineOpen: boolean;
  setOutlineOpen: (update: (open: boolean) => boolean) => void;
}

/** The open file's outline, folded or not. */
function OutlineSection({
  view,
  update,
  repoKey,
  indexVersion,
  outlineOpen,
  setOutlineOpen,
}: {
  view: ViewState;
  update: UpdateView;
  repoKey: string;
  indexVersion: number;
  outlineOpen: boolean;
  setOutlineOpen: (update: (open: boolean) => boolean) => void;
}) {
  return (
    <section className="outline-section" aria-label="Outline">
      <h2 className="sidebar-subhead">
        <button
          type="button"
          aria-expanded={outlineOpen}
          onClick={() => setOutlineOpen((o) => !o)}
          data-testid="outline-toggle"
        >
          <span aria-hidden="true">{outlineOpen ? '▾' : '▸'}</span> Outline
        </button>
      </h2>
      {outlineOpen && (
        <OutlinePanel
          path={view.file}
          line={view.line}
          repoKey={repoKey}
          indexVersion={indexVersion}
          onOpen={(line) => update({ line }, { push: true })}
        />
      )}
    </section>
  );
}

export function Sidebar({
  roots,
  view,
  update,
  repoKey,
  indexVersion,
  onOpenFile,
  onRemoveRoot,
  toggles: { skippedInTree, setSkippedInTree, outlineOpen, setOutlineOpen },
}: {
  roots: OpenRoot[];
  view: ViewState;
  update: UpdateView;
  repoKey: string;
  indexVersion: number;
  onOpenFile: (path: string) => void;
  onRemoveRoot: (key: string) => void;
  toggles: SidebarToggles;
}) {
  return (
    <aside className="sidebar" aria-label="Explorer">
      <div className="sidebar-head">
        <h2>Files</h2>
        <label className="check">
          <input
            type="checkbox"
            checked={skippedInTree}
            onChange={(e) => setSkippedInTree(e.target.checked)}
          />{' '}
          Show skipped
        </label>
      </div>
      <RootList roots={roots} onRemove={onRemoveRoot} />
      <FileTree repoKey={repoKey} selected={view.file} onOpen={onOpenFile} showSkipped={skippedInTree} />
      {view.file && !view.diff && (
        <OutlineSection
          view={view}
          update={update}
          repoKey={repoKey}
          indexVersion={indexVersion}
          outlineOpen={outlineOpen}
          setOutlineOpen={setOutlineOpen}
        />
      )}
    </aside>
  );
}
