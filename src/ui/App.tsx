/**
 * The app shell, a thin composition: the workspace controller (workspace/controller.ts) runs
 * the open repositories' lifecycle; this file lays out the top bar, the panels above the
 * workspace, the workspace (tree | search or a view | file viewer) and the dialogs. The URL
 * holds the view state; the engine holds the repositories in a worker.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { textOnlyCount } from '../core/rank/coverage-text';
import type { EngineClient } from '../worker/client';
import type { FileHighlight } from '../worker/protocol';
import { createAppEngine, EngineContext } from './engine';
import { LibraryDialog } from './git/LibraryDialog';
import { QuickOpen } from './QuickOpen';
import { SymbolPicker } from './nav/SymbolPicker';
import { SkipLink } from './nav/SkipLink';
import { useJumpKeys } from './nav/jump-history';
import { SearchPanel } from './SearchPanel';
import { queryHighlight } from './query/use-query-plan';
import { AddressTooLong, CloningPanel, NoticePanel, OpeningPanel, SnapshotNote } from './shell/Panels';
import { Sidebar } from './shell/Sidebar';
import { StatusBar } from './shell/StatusBar';
import { TopBar } from './shell/TopBar';
import { useFolderDrop, useGlobalShortcuts } from './shell/use-global-events';
import { useFolderPicker } from './shell/use-folder-picker';
import { SkippedDialog } from './SkippedDialog';
import type { Overlong, ViewState } from './url-state';
import { useViewState, type UpdateView } from './use-view-state';
import { ViewPanel } from './views/ViewPanel';
import { ViewerColumn } from './viewer/ViewerColumn';
import { OverviewColumn } from './viewer/OverviewColumn';
import { useWorkspaceLayout, workspaceArrangement, WorkspaceSplitters } from './shell/WorkspaceLayout';
import type { OpenRoot, WorkspaceController, WorkspaceState } from './workspace/controller';
import { useWorkspace } from './workspace/use-workspace';

export function App() {
  const engine = useMemo(() => createAppEngine(), []);
  return (
    <EngineContext.Provider value={engine}>
      <Shell engine={engine} />
    </EngineContext.Provider>
  );
}

/** The current search's hits to mark in the file viewer (none for an empty query or Ranked). */
function searchHighlight(view: ViewState): FileHighlight | null {
  // the query's patterns, not its filters (query/use-query-plan.ts)
  return queryHighlight(view);
}

/** The walk's skips, and the files the ranked index leaves to text search (the dialog lists both). */
function skippedCount(roots: OpenRoot[], index: WorkspaceState['index']): number {
  const coverage = index.last?.coverage;
  return (
    roots.reduce((n, r) => n + Object.values(r.stats.skippedByReason).reduce((a, b) => a + b, 0), 0) +
    (coverage ? textOnlyCount(coverage) + coverage.overBudget : 0)
  );
}

/**
 * Focus the search box: from another view, switch to Search first (a transition), then focus
 * its box once it has rendered. `searchInput` is the box.
 */
function useSearchFocus(shownView: ViewState['view'], getView: () => ViewState, update: UpdateView) {
  const searchInput = useRef<HTMLInputElement>(null);
  /** Set when Search was asked for from another view: its box takes focus once it is on screen. */
  const focusSearchWhenShown = useRef(false);
  const focusSearch = useCallback(() => {
    // From another view: switch to Search first (a transition), then focus its box once it has rendered.
    if (getView().view !== 'search') {
      focusSearchWhenShown.current = true;
      update({ view: 'search' }, { push: true });
    } else setTimeout(() => searchInput.current?.focus(), 0);
  }, [getView, update]);
  useEffect(() => {
    if (shownView !== 'search' || !focusSearchWhenShown.current) return;
    focusSearchWhenShown.current = false;
    searchInput.current?.focus();
  }, [shownView]);
  return { searchInput, focusSearch };
}

/** The workspace beside the sidebar: Search or another view, and the file viewer or the overview. */
function WorkspaceColumns({
  view,
  update,
  repoKey,
  fileCount,
  searchInput,
  indexReady,
  indexVersion,
  onSymbolPicker,
}: {
  view: ViewState;
  update: UpdateView;
  repoKey: string;
  fileCount: number;
  searchInput: RefObject<HTMLInputElement | null>;
  indexReady: boolean;
  indexVersion: number;
  onSymbolPicker: () => void;
}) {
  return (
    <>
      {view.view === 'search' ? (
        <SearchPanel
          view={view}
          update={update}
          repoKey={repoKey}
          fileCount={fileCount}
          searchInputRef={searchInput}
          indexReady={indexReady}
          indexVersion={indexVersion}
        />
      ) : (
        <ViewPanel view={view} update={update} repoKey={repoKey} wide={!view.file} />
      )}
      {view.view !== 'search' && !view.file ? null : view.file ? (
        <ViewerColumn
          view={view}
          update={update}
          repoKey={repoKey}
          highlight={searchHighlight(view)}
          indexReady={indexReady}
          indexVersion={indexVersion}
          onSymbolPicker={onSymbolPicker}
        />
      ) : (
        <OverviewColumn view={view} update={update} repoKey={repoKey} />
      )}
      <WorkspaceSplitters
        arrangement={workspaceArrangement(view)}
        middle={view.view === 'search' ? 'search panel' : `${view.view} view`}
      />
    </>
  );
}

/** Nothing open (`?repo=none`, or a first open cancelled): what Quarry does, and the ways in. */
function HomeIntro({
  ws,
  controller,
  pickFolder,
  onClone,
}: {
  ws: WorkspaceState;
  controller: WorkspaceController;
  pickFolder: () => Promise<void>;
  onClone: () => void;
}) {
  // an open under way, or a notice saying what happened, takes the place instead
  if (ws.opening || ws.notice) return null;
  return (
    <div className="home" data-testid="home">
      <h1>Explore a code repository, entirely in your browser</h1>
      <p>Nothing is uploaded. Open a folder, clone a git repository, or look around the demo.</p>
      <p>
        <button type="button" className="primary" onClick={() => void pickFolder()}>
          Open a folder
        </button>{' '}
        <button type="button" onClick={onClone}>
          Clone a repository
        </button>{' '}
        <button type="button" onClick={() => void controller.openDemo()}>
          Open the demo
        </button>
      </p>
    </div>
  );
}

/**
 * The Repositories dialog on the workspace: a clone started here closes it once the clone is in
 * (`onCloned`); a failed one is announced above the workspace only if `announceFailure` says so.
 */
function RepositoriesDialog({
  ws,
  controller,
  prefill,
  onClose,
  onCloned,
  announceFailure,
}: {
  ws: WorkspaceState;
  controller: WorkspaceController;
  prefill?: { url: string; ref: string };
  onClose: () => void;
  onCloned: () => void;
  announceFailure: () => boolean;
}) {
  return (
    <LibraryDialog
      onClose={onClose}
      cloning={ws.cloning}
      startClone={(request) =>
        void controller.startClone(request, { announceFailure }).then((opened) => {
          if (opened) onCloned();
        })
      }
      cloneError={ws.cloneError}
      prefill={prefill}
      currentKeys={ws.roots.map((r) => r.key)}
      onOpen={(entry) => void controller.openLibraryEntry(entry)}
      onAdd={(entry) => void controller.openLibraryEntry(entry, { add: true })}
      onFetched={(entry) => controller.onFetched(entry)}
      onDeleted={(entry) => controller.onDeleted(entry)}
    />
  );
}

type SymbolsMode = 'workspace' | 'file';

/** The shell's pickers and dialogs: Go to file, a symbol picker (the workspace's or the file's), the skipped entries. */
function useShellDialogs(controller: WorkspaceController, getView: () => ViewState) {
  const [quickOpen, setQuickOpen] = useState(false);
  const [symbols, setSymbols] = useState<SymbolsMode | null>(null);
  const [showSkipped, setShowSkipped] = useState(false);
  const showQuickOpen = useCallback(() => {
    if (controller.state.roots.length) setQuickOpen(true);
  }, [controller]);
  const showSymbols = useCallback(
    (mode: SymbolsMode) => {
      if (controller.state.roots.length && (mode === 'workspace' || getView().file)) setSymbols(mode);
    },
    [controller, getView],
  );
  return {
    quickOpen,
    setQuickOpen,
    symbols,
    setSymbols,
    showSkipped,
    setShowSkipped,
    showQuickOpen,
    showSymbols,
  };
}

/**
 * The Repositories dialog: open or not (with a clone's URL and ref filled in), the button that
 * opens it (focused again when it closes), and whether a failed clone is announced above the
 * workspace (only while the dialog, which shows it, is closed).
 */
function useLibraryDialog() {
  const [library, setLibrary] = useState<{ prefill?: { url: string; ref: string } } | null>(null);
  const libraryButton = useRef<HTMLButtonElement>(null);
  const libraryShown = useRef(false);
  useEffect(() => {
    libraryShown.current = !!library;
  }, [library]);
  const closeLibrary = () => {
    setLibrary(null);
    libraryButton.current?.focus();
  };
  const announceFailure = () => !libraryShown.current;
  return { library, setLibrary, libraryButton, closeLibrary, announceFailure };
}

/** The drop overlay, and the pickers and dialogs over the workspace (with something open). */
function ShellDialogs({
  dialogs: { quickOpen, setQuickOpen, symbols, setSymbols, showSkipped, setShowSkipped },
  dragging,
  open,
  view,
  update,
  repoKey,
  indexVersion,
  openFile,
}: {
  dialogs: ReturnType<typeof useShellDialogs>;
  /** A folder is dragged over the page. */
  dragging: boolean;
  /** Something is open. */
  open: boolean;
  view: ViewState;
  update: UpdateView;
  repoKey: string;
  indexVersion: number;
  openFile: (path: string) => void;
}) {
  return (
    <>
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          Drop a folder to open it
        </div>
      )}
      {quickOpen && open && (
        <QuickOpen
          onOpen={openFile}
          onClose={() => setQuickOpen(false)}
          onSymbols={() => setSymbols('workspace')}
        />
      )}
      {symbols && open && (
        <SymbolPicker
          mode={symbols}
          path={view.file}
          repoKey={repoKey}
          indexVersion={indexVersion}
          onOpen={(file, line) => update({ file, line, diff: '', blame: false }, { push: true })}
          onClose={() => setSymbols(null)}
        />
      )}
      {showSkipped && <SkippedDialog onClose={() => setShowSkipped(false)} />}
    </>
  );
}

/** The sidebar's switches: the outline shown or folded, skipped entries in the tree or not. */
function useSidebarToggles() {
  const [outlineOpen, setOutlineOpen] = useState(true);
  const [skippedInTree, setSkippedInTree] = useState(true);
  return { outlineOpen, setOutlineOpen, skippedInTree, setSkippedInTree };
}

/**
 * Restores the workspace the address names, and reopens every root when the engine restarts;
 * returns where the engine runs ('' until it says).
 */
function useStartWorkspace(engine: EngineClient, controller: WorkspaceController): string {
  const [host, setHost] = useState('');
  useEffect(() => {
    void controller.restore();
    void engine.host().then(setHost, () => setHost(''));
    // The engine restarts itself when a job ignores cancel; the new engine is empty: reopen every root.
    return engine.addRestartListener(() => void controller.recover());
  }, [engine, controller]);
  return host;
}

/** The panels above the workspace: an address cut short, a snapshot's note, notices, a clone or an open in progress. */
function AboveWorkspace({
  ws,
  controller,
  overlong,
  onDismissOverlong,
  libraryOpen,
  onOpenFolder,
  onClone,
}: {
  ws: WorkspaceState;
  controller: WorkspaceController;
  overlong: Overlong[];
  onDismissOverlong: () => void;
  /** The Repositories dialog is open (it shows a running clone itself). */
  libraryOpen: boolean;
  onOpenFolder: () => void;
  onClone: (url: string, ref: string) => void;
}) {
  return (
    <>
      {overlong.length > 0 && <AddressTooLong overlong={overlong} onDismiss={onDismissOverlong} />}
      {ws.roots.some((r) => r.spec.kind === 'files') && <SnapshotNote />}
      {ws.notice && (
        <NoticePanel
          notice={ws.notice}
          onOpenFolder={onOpenFolder}
          onDemo={() => void controller.openDemo()}
          onReopen={(folder) => void controller.openFolder(folder, true)}
          onClone={onClone}
        />
      )}
      {ws.cloning && !libraryOpen && <CloningPanel cloning={ws.cloning} />}
      {ws.opening && <OpeningPanel opening={ws.opening} />}
    </>
  );
}

function Shell({ engine }: { engine: EngineClient }) {
  const [view, update, getView, overlong, dismissOverlong] = useViewState();
  // the pane sizes (resizable, remembered) applied to the workspace element
  const workspaceRef = useWorkspaceLayout();
  const [ws, controller] = useWorkspace(engine, getView, update);
  const dialogs = useShellDialogs(controller, getView);
  const { library, setLibrary, libraryButton, closeLibrary, announceFailure } = useLibraryDialog();
  const sidebar = useSidebarToggles();
  const { roots, index } = ws;
  const open = roots.length > 0;
  const host = useStartWorkspace(engine, controller);
  const { fileInput, pickFolder, onFilesChosen } = useFolderPicker(controller);

  const dragging = useFolderDrop(controller);
  const { searchInput, focusSearch } = useSearchFocus(view.view, getView, update);
  const { showQuickOpen, showSymbols } = dialogs;
  useGlobalShortcuts({ quickOpen: showQuickOpen, focusSearch, symbols: showSymbols });
  useJumpKeys();

  const openFile = useCallback(
    (path: string) => update({ file: path, line: 0, diff: '', blame: false }, { push: true }),
    [update],
  );
  const repoKey = open ? `${roots.map((r) => r.key).join('|')}#${ws.generation}` : '';

  return (
    <div className="app">
      <SkipLink hasFile={open && !!view.file} />
      <TopBar
        roots={roots}
        view={view}
        update={update}
        folders={ws.folders}
        fileInput={fileInput}
        libraryButton={libraryButton}
        onQuickOpen={() => dialogs.setQuickOpen(true)}
        onOpenFolder={() => void pickFolder()}
        onAddFolder={() => void pickFolder({ add: true })}
        onFilesChosen={onFilesChosen}
        onLibrary={() => setLibrary({})}
        onDemo={() => void controller.openDemo()}
        onFolder={(entry) => void controller.openFolder(entry, true)}
      />
      <AboveWorkspace
        ws={ws}
        controller={controller}
        overlong={overlong}
        onDismissOverlong={dismissOverlong}
        libraryOpen={!!library}
        onOpenFolder={() => void pickFolder()}
        onClone={(url, ref) => setLibrary({ prefill: { url, ref } })}
      />

      <main
        ref={workspaceRef}
        className={`workspace${ws.opening && !open ? ' hidden' : ''}`}
        data-layout={open ? workspaceArrangement(view) : undefined}
        aria-busy={!!ws.opening}
      >
        {open ? (
          <>
            <Sidebar
              roots={roots}
              view={view}
              update={update}
              repoKey={repoKey}
              indexVersion={index.version}
              onOpenFile={openFile}
              onRemoveRoot={(key) => void controller.closeRoot(key)}
              toggles={sidebar}
            />
            <WorkspaceColumns
              view={view}
              update={update}
              repoKey={repoKey}
              fileCount={roots.reduce((n, r) => n + r.stats.files, 0)}
              searchInput={searchInput}
              indexReady={controller.indexReady}
              indexVersion={index.version}
              onSymbolPicker={() => showSymbols('file')}
            />
          </>
        ) : (
          <HomeIntro ws={ws} controller={controller} pickFolder={pickFolder} onClone={() => setLibrary({})} />
        )}
      </main>

      <StatusBar
        host={host}
        roots={roots}
        index={index}
        controller={controller}
        skippedTotal={skippedCount(roots, index)}
        onShowSkipped={() => dialogs.setShowSkipped(true)}
      />

      <ShellDialogs
        dialogs={dialogs}
        dragging={dragging}
        open={open}
        view={view}
        update={update}
        repoKey={repoKey}
        indexVersion={index.version}
        openFile={openFile}
      />
      {library && (
        <RepositoriesDialog
          ws={ws}
          controller={controller}
          prefill={library.prefill}
          onClose={closeLibrary}
          onCloned={() => setLibrary(null)}
          announceFailure={announceFailure}
        />
      )}
    </div>
  );
}
