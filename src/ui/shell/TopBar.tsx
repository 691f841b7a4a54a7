/** The top bar: what is open (every root), the view switcher, and the ways to get a repository in. */
import type { RefObject } from 'react';
import type { LibraryEntry } from '../../worker/protocol';
import { formatBytes, plural } from '../format';
import { visibleText } from '../visible-text';
import { VisibleText } from '../VisibleText';
import type { UpdateView } from '../use-view-state';
import type { ViewState } from '../url-state';
import { ViewNav } from '../views/ViewNav';
import { rootTitle, type OpenRoot } from '../workspace/controller';

export interface TopBarProps {
  roots: OpenRoot[];
  view: ViewState;
  update: UpdateView;
  folders: LibraryEntry[];
  fileInput: RefObject<HTMLInputElement | null>;
  libraryButton: RefObject<HTMLButtonElement | null>;
  onQuickOpen: () => void;
  onOpenFolder: () => void;
  onAddFolder: () => void;
  onFilesChosen: (files: FileList | null) => void;
  onLibrary: () => void;
  onDemo: () => void;
  onFolder: (entry: LibraryEntry) => void;
}

export function TopBar(props: TopBarProps) {
  // each prop by name: the refs among them are only handed to elements, never read while rendering
  const {
    roots,
    view,
    update,
    folders,
    fileInput,
    libraryButton,
    onQuickOpen,
    onOpenFolder,
    onAddFolder,
    onFilesChosen,
    onLibrary,
    onDemo,
    onFolder,
  } = props;
  const files = roots.reduce((n, r) => n + r.stats.files, 0);
  const bytes = roots.reduce((n, r) => n + r.stats.bytes, 0);
  const title = roots.map(rootTitle).join(' + ');
  const shownTitle = visibleText(title);
  return (
    <header className="topbar">
      <div className="brand">
        <span className="logo" aria-hidden="true">
          ◆
        </span>{' '}
        Quarry
      </div>
      {roots.length > 0 && (
        <div className="repo-badge" data-testid="repo-name" title={shownTitle}>
          <strong>
            <VisibleText text={title} />
          </strong>
          <span>
            {roots.length > 1 && `${roots.length} roots · `}
            {plural(files, 'file')} · {formatBytes(bytes)}
          </span>
        </div>
      )}
      {roots.length > 0 && <ViewNav view={view} update={update} />}
      <nav className="actions" aria-label="Repository">
        <button type="button" onClick={onQuickOpen} disabled={!roots.length} title="Quick open (Ctrl/⌘+P)">
          Go to file <kbd>Ctrl P</kbd>
        </button>
        <button type="button" className="primary" onClick={onOpenFolder} data-testid="open-folder">
          Open folder
        </button>
        {roots.length > 0 && (
          <button
            type="button"
            onClick={onAddFolder}
            data-testid="add-folder"
            title="Open a folder beside what is open: search and every view span all roots"
          >
            Add folder
          </button>
        )}
        <label className="button-like">
          <input
            ref={fileInput}
            type="file"
            className="visually-hidden"
            data-testid="folder-input"
            aria-label="Choose a folder (snapshot)"
            webkitdirectory=""
            multiple
            // not kept in the page's saved form state (with a folder: every file's path and name)
            autoComplete="off"
            onChange={(e) => onFilesChosen(e.target.files)}
          />
          <span aria-hidden="true">Choose folder…</span>
        </label>
        <button
          type="button"
          ref={libraryButton}
          onClick={onLibrary}
          data-testid="open-library"
          title="Clone a git repository; your cloned repositories and opened folders"
        >
          Repositories
        </button>
        <button type="button" onClick={onDemo} data-testid="open-demo">
          Demo
        </button>
        {folders.length > 0 && (
          <details className="recent">
            <summary>Recent</summary>
            <ul aria-label="Recent folders">
              {folders.map((r) => (
                <li key={r.id}>
                  <button type="button" onClick={() => onFolder(r)}>
                    <VisibleText text={r.name} />
                  </button>
                </li>
              ))}
            </ul>
          </details>
        )}
      </nav>
    </header>
  );
}

/** With several roots: each root with a button that removes it from the workspace. */
export function RootList({ roots, onRemove }: { roots: OpenRoot[]; onRemove: (key: string) => void }) {
  if (roots.length < 2) return null;
  return (
    <ul className="root-list" aria-label="Roots" data-testid="root-list">
      {roots.map((r) => (
        <li key={r.key}>
          <span className="mono" title={`${visibleText(rootTitle(r))}: ${plural(r.stats.files, 'file')}`}>
            <VisibleText text={r.name} />
          </span>
          <button
            type="button"
            className="link"
            onClick={() => onRemove(r.key)}
            aria-label={`Remove ${visibleText(r.name)} from the workspace`}
            title="Remove from the workspace"
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
