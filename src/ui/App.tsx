/**
 * The app shell, a thin composition: the workspace controller (workspace/controller.ts) runs
 * the open repositories' lifecycle; this file lays out the top bar, the panels above the
 * workspace, the workspace (tree | search or a view | file viewer) and the dialogs. The URL
 * holds the view state; the engine holds the repositories in a worker.
 */
import { toQuarryError } from '../core/errors';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { filesFromInput } from '../adapters/browser/files';
import { hasDirectoryPicker, pickDirectory } from '../adapters/browser/fs-access';
import type { EngineClient } from '../worker/client';
import type { FileHighlight } from '../worker/protocol';
import { createAppEngine, EngineContext } from './engine';
import { FileTree } from './FileTree';
import { formatCount, plural } from './format';
import { textOnlyCount } from '../core/rank/coverage-text';
import { GitProgressBar } from './git/GitProgress';
import { LibraryDialog } from './git/LibraryDialog';
import { IndexStatusLine } from './IndexStatusLine';
import { QuickOpen } from './QuickOpen';
import { OutlinePanel } from './nav/OutlinePanel';
import { SymbolPicker } from './nav/SymbolPicker';
import { SearchPanel } from './SearchPanel';
import { NoticePanel, OpeningPanel } from './shell/Panels';
import { RootList, TopBar } from './shell/TopBar';
import { useFolderDrop, useGlobalShortcuts } from './shell/use-global-events';
import { SkippedDialog } from './SkippedDialog';
import { useViewState } from './use-view-state';
import { ViewPanel } from './views/ViewPanel';
import { ViewerColumn } from './viewer/ViewerColumn';
import { OverviewColumn } from './viewer/OverviewColumn';
import { useWorkspaceLayout, WorkspaceSplitters } from './shell/WorkspaceLayout';
import { VisibleText } from './VisibleText';
import type { OpenOptions } from './workspace/controller';
import { useWorkspace } from './workspace/use-workspace';

export function App() {
  const engine = useMemo(() => createAppEngine(), []);
  return (
    <EngineContext.Provider value={engine}>
      <Shell engine={engine} />
    </EngineContext.Provider>
  );
}

function Shell({ engine }: { engine: EngineClient }) {
  const [view, update, getView, overlong, dismissOverlong] = useViewState();
  // the pane sizes (resizable, remembered) applied to the workspace element
  const workspaceRef = useWorkspaceLayout();
  const [ws, controller] = useWorkspace(engine, getView, update);
  const [quickOpen, setQuickOpen] = useState(false);
  const [symbols, setSymbols] = useState<'workspace' | 'file' | null>(null);
  const [outlineOpen, setOutlineOpen] = useState(true);
  const [showSkipped, setShowSkipped] = useState(false);
  const [skippedInTree, setSkippedInTree] = useState(true);
  const [host, setHost] = useState('');
  const [library, setLibrary] = useState<{ prefill?: { url: string; ref: string } } | null>(null);
  const libraryButton = useRef<HTMLButtonElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const searchInput = useRef<HTMLInputElement>(null);
  /** Whether the folder chosen next in the directory input joins the workspace (Add folder) or replaces it. */
  const addChosenFiles = useRef(false);
  const { roots, index } = ws;
  const open = roots.length > 0;

  useEffect(() => {
    void controller.restore();
    void engine.host().then(setHost, () => setHost(''));
    // The engine restarts itself when a job ignores cancel; the new engine is empty: reopen every root.
    return engine.addRestartListener(() => void controller.recover());
  }, [engine, controller]);

  const pickFolder = useCallback(
    async (options: OpenOptions = {}) => {
      if (!hasDirectoryPicker()) {
        // no File System Access: the directory input (a snapshot), added or not as asked
        addChosenFiles.current = !!options.add;
        fileInput.current?.click();
        return;
      }
      try {
        const handle = await pickDirectory();
        if (handle) await controller.openHandle(handle, options);
      } catch (err) {
        controller.setNotice({
          kind: 'error',
          title: 'Could not open the folder',
          message: toQuarryError(err).message,
        });
      }
    },
    [controller],
  );

  // A closed file dialog (no folder chosen) forgets the Add intent.
  useEffect(() => {
    const input = fileInput.current;
    if (!input) return;
    const forget = () => {
      addChosenFiles.current = false;
    };
    input.addEventListener('cancel', forget);
    return () => input.removeEventListener('cancel', forget);
  }, []);

  const onFilesChosen = (list: FileList | null) => {
    const add = addChosenFiles.current && controller.state.roots.length > 0;
    addChosenFiles.current = false;
    if (!list || !list.length) return;
    // Leave the task that delivered the files at once; the work happens in short tasks after it.
    performance.mark('quarry:files-received');
    // The input lets go of the list at once (an empty list in its place; ours stays whole, where
    // `value = ''` would empty it in place): the browser saves a file input's every path and name
    // in the page's history state, again after every address change, which for a folder of
    // thousands of files was a main-thread task of 100-400 ms a second after each one (trace:
    // RenderFrameImpl's delayed state sync). Choosing the same folder again still fires change.
    const input = fileInput.current;
    if (input && input.files === list) input.files = new DataTransfer().files;
    // The FileList itself goes to filesFromInput: touching list[i] creates that File's JS wrapper,
    // so 10,000 wrappers appear a slice at a time (spreading the GC work) rather than all at once.
    setTimeout(() => {
      void filesFromInput(list).then((folder) => controller.openSnapshot(folder.name, folder.files, { add }));
    }, 0);
  };

  const dragging = useFolderDrop(controller);
  const showQuickOpen = useCallback(() => {
    if (controller.state.roots.length) setQuickOpen(true);
  }, [controller]);
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
    if (view.view !== 'search' || !focusSearchWhenShown.current) return;
    focusSearchWhenShown.current = false;
    searchInput.current?.focus();
  }, [view.view]);
  const showSymbols = useCallback(
    (mode: 'workspace' | 'file') => {
      if (controller.state.roots.length && (mode === 'workspace' || getView().file)) setSymbols(mode);
    },
    [controller, getView],
  );
  useGlobalShortcuts({ quickOpen: showQuickOpen, focusSearch, symbols: showSymbols });
  // A failed clone is announced above the workspace only while the dialog (which shows it) is closed.
  const libraryShown = useRef(false);
  useEffect(() => {
    libraryShown.current = !!library;
  }, [library]);

  const openFile = useCallback(
    (path: string) => update({ file: path, line: 0, diff: '', blame: false }, { push: true }),
    [update],
  );
  const closeLibrary = () => {
    setLibrary(null);
    libraryButton.current?.focus();
  };

  const highlight: FileHighlight | null =
    view.q && view.mode !== 'ranked'
      ? {
          pattern: view.q,
          mode: view.mode === 'regex' ? 'regex' : 'literal',
          caseMode: view.caseSensitive ? 'sensitive' : 'insensitive',
          wholeWord: view.wholeWord,
        }
      : null;
  // the walk's skips, and the files the ranked index leaves to text search (the dialog lists both)
  const coverage = index.last?.coverage;
  const skippedTotal =
    roots.reduce((n, r) => n + Object.values(r.stats.skippedByReason).reduce((a, b) => a + b, 0), 0) +
    (coverage ? textOnlyCount(coverage) + coverage.overBudget : 0);
  const repoKey = open ? `${roots.map((r) => r.key).join('|')}#${ws.generation}` : '';
  const files = roots.reduce((n, r) => n + r.stats.files, 0);
  const readMs = roots.reduce((n, r) => n + r.stats.elapsedMs, 0);
  const indexReady = controller.indexReady;

  return (
    <div className="app">
      <TopBar
        roots={roots}
        view={view}
        update={update}
        folders={ws.folders}
        fileInput={fileInput}
        libraryButton={libraryButton}
        onQuickOpen={() => setQuickOpen(true)}
        onOpenFolder={() => void pickFolder()}
        onAddFolder={() => void pickFolder({ add: true })}
        onFilesChosen={onFilesChosen}
        onLibrary={() => setLibrary({})}
        onDemo={() => void controller.openDemo()}
        onFolder={(entry) => void controller.openFolder(entry, true)}
      />

      {overlong.length > 0 && (
        <div className="notice error" role="alert" data-testid="address-too-long">
          {overlong.map((o) => (
            <p key={o.field}>{o.message}</p>
          ))}
          <button type="button" onClick={dismissOverlong}>
            Dismiss
          </button>
        </div>
      )}

      {roots.some((r) => r.spec.kind === 'files') && (
        <p className="snapshot-note" role="note" data-testid="snapshot-note">
          This folder is a snapshot: the browser gave Quarry a copy of its files once, so changes on disk will
          not show up. Choose the folder again to refresh
          {hasDirectoryPicker() ? ', or use “Open folder” for a live folder.' : '.'}
        </p>
      )}

      {ws.notice && (
        <NoticePanel
          notice={ws.notice}
          onOpenFolder={() => void pickFolder()}
          onDemo={() => void controller.openDemo()}
          onReopen={(folder) => void controller.openFolder(folder, true)}
          onClone={(url, ref) => setLibrary({ prefill: { url, ref } })}
        />
      )}

      {ws.cloning && !library && (
        <div className="opening" data-testid="cloning">
          <div className="opening-head">
            <strong>
              Cloning <VisibleText text={ws.cloning.url} />
            </strong>
          </div>
          <GitProgressBar verb="Cloning" store={ws.cloning.progress} onCancel={ws.cloning.cancel} />
        </div>
      )}

      {ws.opening && <OpeningPanel opening={ws.opening} />}

      <main
        ref={workspaceRef}
        className={`workspace${ws.opening && !open ? ' hidden' : ''}`}
        aria-busy={!!ws.opening}
      >
        {open ? (
          <>
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
              <RootList roots={roots} onRemove={(key) => void controller.closeRoot(key)} />
              <FileTree
                repoKey={repoKey}
                selected={view.file}
                onOpen={openFile}
                showSkipped={skippedInTree}
              />
              {view.file && !view.diff && (
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
                      indexVersion={index.version}
                      onOpen={(line) => update({ line })}
                    />
                  )}
                </section>
              )}
            </aside>
            {view.view === 'search' ? (
              <SearchPanel
                view={view}
                update={update}
                repoKey={repoKey}
                fileCount={files}
                searchInputRef={searchInput}
                indexReady={indexReady}
                indexVersion={index.version}
              />
            ) : (
              <ViewPanel
                view={view}
                update={update}
                repoKey={repoKey}
                wide={view.view === 'explore' && !view.file}
              />
            )}
            {view.view === 'explore' && !view.file ? null : view.file ? (
              <ViewerColumn
                view={view}
                update={update}
                repoKey={repoKey}
                highlight={highlight}
                indexReady={indexReady}
                indexVersion={index.version}
                onSymbolPicker={() => showSymbols('file')}
              />
            ) : (
              <OverviewColumn view={view} update={update} repoKey={repoKey} />
            )}
            <WorkspaceSplitters
              viewer={!(view.view === 'explore' && !view.file)}
              middle={view.view === 'search' ? 'search panel' : `${view.view} view`}
            />
          </>
        ) : (
          !ws.opening &&
          !ws.notice && (
            <div className="home">
              <h1>Explore a code repository, entirely in your browser</h1>
              <p>Nothing is uploaded. Open a folder, clone a git repository, or look around the demo.</p>
              <p>
                <button type="button" className="primary" onClick={() => setLibrary({})}>
                  Clone a repository
                </button>
              </p>
            </div>
          )
        )}
      </main>

      <footer className="statusbar">
        <span>{host ? `Engine: ${host === 'worker' ? 'web worker' : host}` : 'Starting engine…'}</span>
        {open && (
          <>
            <span>
              {formatCount(files)} files read in {Math.round(readMs)} ms
            </span>
            <IndexStatusLine
              index={index}
              progress={controller.indexProgress}
              canRefresh={!roots.some((r) => r.spec.kind === 'files')}
              onRebuild={() => controller.buildIndex(true)}
              onRefresh={() => void controller.refresh()}
              onCancel={() => controller.cancelIndex()}
            />
            {skippedTotal > 0 && (
              <button
                type="button"
                className="link"
                onClick={() => setShowSkipped(true)}
                data-testid="show-skipped"
              >
                {plural(skippedTotal, 'entry', 'entries')} skipped
              </button>
            )}
          </>
        )}
      </footer>

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
          indexVersion={index.version}
          onOpen={(file, line) =>
            update({ file, line, diff: '', blame: false }, { push: file !== view.file })
          }
          onClose={() => setSymbols(null)}
        />
      )}
      {showSkipped && <SkippedDialog onClose={() => setShowSkipped(false)} />}
      {library && (
        <LibraryDialog
          onClose={closeLibrary}
          cloning={ws.cloning}
          startClone={(request) =>
            void controller
              .startClone(request, { announceFailure: () => !libraryShown.current })
              .then((opened) => {
                if (opened) setLibrary(null);
              })
          }
          cloneError={ws.cloneError}
          prefill={library.prefill}
          currentKeys={roots.map((r) => r.key)}
          onOpen={(entry) => void controller.openLibraryEntry(entry)}
          onAdd={(entry) => void controller.openLibraryEntry(entry, { add: true })}
          onFetched={(entry) => controller.onFetched(entry)}
          onDeleted={(entry) => controller.onDeleted(entry)}
        />
      )}
    </div>
  );
}
