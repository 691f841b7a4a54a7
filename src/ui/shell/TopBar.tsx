/**
 * The top bar: what is open (every root), the view switcher, and the ways to get a repository in.
 * Narrower than COMPACT, the actions fold into one Menu button (TopBarMenu.tsx); narrower still
 * (styles.css) the view switcher takes a row of its own.
 */
import type { RefObject } from 'react';
import type { LibraryEntry } from '../../worker/protocol';
import { formatBytes, plural } from '../format';
import { visibleText } from '../visible-text';
import { VisibleText } from '../VisibleText';
import type { UpdateView } from '../use-view-state';
import type { ViewState } from '../url-state';
import { ViewNav } from '../views/ViewNav';
import { rootTitle, type OpenRoot } from '../workspace/controller';
import { TopBarMenu, type MenuAction } from './TopBarMenu';
import { useMediaQuery } from './use-media-query';

/** Below this width the actions do not fit beside the views (with Recent and a repository's name). */
export const COMPACT = '(max-width: 1365px)';

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
  const compact = useMediaQuery(COMPACT);
  const folderInput = <FolderInput fileInput={fileInput} folded={compact} onFilesChosen={onFilesChosen} />;
  if (compact)
    return (
      <header className="topbar compact">
        <Brand />
        {roots.length > 0 && (
          <RepoBadge title={title} shownTitle={shownTitle} files={files} bytes={bytes} roots={roots.length} />
        )}
        {roots.length > 0 && <ViewNav view={view} update={update} />}
        <nav className="actions" aria-label="Repository">
          {folderInput}
          <TopBarMenu
            actions={menuActions({
              open: roots.length > 0,
              folders,
              onQuickOpen,
              onOpenFolder,
              onAddFolder,
              onChooseFolder: () => fileInput.current?.click(),
              onLibrary,
              onDemo,
              onFolder,
            })}
            buttonRef={libraryButton}
          />
        </nav>
      </header>
    );
  return (
    <header className="topbar">
      <Brand />
      {roots.length > 0 && (
        <RepoBadge title={title} shownTitle={shownTitle} files={files} bytes={bytes} roots={roots.length} />
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
          {folderInput}
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

/** The actions as the menu's items, in the bar's order, then the recent folders. */
function menuActions(p: {
  /** Something is open. */
  open: boolean;
  folders: LibraryEntry[];
  onQuickOpen: () => void;
  onOpenFolder: () => void;
  onAddFolder: () => void;
  onChooseFolder: () => void;
  onLibrary: () => void;
  onDemo: () => void;
  onFolder: (entry: LibraryEntry) => void;
}): MenuAction[] {
  return [
    ...(p.open
      ? [{ key: 'goto', label: 'Go to file', onSelect: p.onQuickOpen, title: 'Quick open (Ctrl/⌘+P)' }]
      : []),
    { key: 'open', label: 'Open folder', onSelect: p.onOpenFolder, testId: 'open-folder' },
    ...(p.open ? [{ key: 'add', label: 'Add folder', onSelect: p.onAddFolder, testId: 'add-folder' }] : []),
    { key: 'choose', label: 'Choose folder…', onSelect: p.onChooseFolder },
    { key: 'library', label: 'Repositories', onSelect: p.onLibrary, testId: 'open-library' },
    { key: 'demo', label: 'Demo', onSelect: p.onDemo, testId: 'open-demo' },
    ...p.folders.map((r, i) => ({
      key: `recent-${r.id}`,
      label: <VisibleText text={r.name} />,
      onSelect: () => p.onFolder(r),
      group: i === 0 ? 'Recent folders' : undefined,
    })),
  ];
}

/** The directory input (a snapshot of a folder); `folded`: in the menu, whose item opens it. */
function FolderInput({
  fileInput,
  folded,
  onFilesChosen,
}: Pick<TopBarProps, 'fileInput' | 'onFilesChosen'> & { folded: boolean }) {
  return (
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
      tabIndex={folded ? -1 : undefined}
      aria-hidden={folded || undefined}
      onChange={(e) => onFilesChosen(e.target.files)}
    />
  );
}

function Brand() {
  return (
    <div className="brand">
      <span className="logo" aria-hidden="true">
        ◆
      </span>{' '}
      Quarry
    </div>
  );
}

/** What is open: its name (every root's) and its size. */
function RepoBadge({
  title,
  shownTitle,
  files,
  bytes,
  roots,
}: {
  title: string;
  shownTitle: string;
  files: number;
  bytes: number;
  roots: number;
}) {
  return (
    <div className="repo-badge" data-testid="repo-name" title={shownTitle}>
      <strong>
        <VisibleText text={title} />
      </strong>
      <span>
        {roots > 1 && `${roots} roots · `}
        {plural(files, 'file')} · {formatBytes(bytes)}
      </span>
    </div>
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
