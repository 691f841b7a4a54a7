/**
 * The app shell: getting a repository in (File System Access + Recent, webkitdirectory,
 * drag-and-drop, the built-in demo), the streamed open with progress and cancel, and the
 * workspace (tree | search | viewer). The URL holds the view state; the engine holds the
 * repository in a worker.
 */
import { startTransition, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { QuarryError } from '../core/errors';
import { filesFromInput, folderFromDrop } from '../adapters/browser/files';
import { ensureReadPermission, hasDirectoryPicker, pickDirectory } from '../adapters/browser/fs-access';
import { forgetRecent, getRecent, listRecent, rememberRecent, type RecentRepo } from '../adapters/browser/recent';
import type { EngineClient } from '../worker/client';
import { libraryKey, type CloneRequest, type FileHighlight, type LibraryEntry, type OpenSpec, type Progress, type RepoStats } from '../worker/protocol';
import { LibraryDialog, type CloneJobView } from './git/LibraryDialog';
import { GitProgressBar, ProgressStore } from './git/GitProgress';
import { createAppEngine, EngineContext } from './engine';
import { FileTree } from './FileTree';
import { FileViewer } from './FileViewer';
import { IndexStatusLine, type IndexUiState } from './IndexStatusLine';
import { RelatedPanel } from './RelatedPanel';
import { formatBytes, formatCount, plural } from './format';
import { QuickOpen } from './QuickOpen';
import { SearchPanel } from './SearchPanel';
import { SkippedDialog } from './SkippedDialog';
import { useViewState } from './use-view-state';
import { ViewNav } from './views/ViewNav';
import { ViewPanel } from './views/ViewPanel';

interface LoadedRepo {
  key: string;
  spec: OpenSpec;
  stats: RepoStats;
  /** A clone's URL and ref (they go into the address), kept for reloads after a worker restart. */
  clone?: { url: string; ref: string };
  /** Bumped on every (re)load so views re-query. */
  generation: number;
}

type Opening = { name: string; progress: ProgressStore; cancel: () => void };

type Notice =
  | { kind: 'error'; title: string; message: string }
  | { kind: 'permission'; recent: RecentRepo }
  | { kind: 'snapshot-lost'; name: string }
  /** A link to a clone this browser does not have: offer to clone it, then restore the view. */
  | { kind: 'clone-offer'; url: string; ref: string };

export function App() {
  const restartRef = useRef<() => void>(() => {});
  const engine = useMemo(() => createAppEngine(() => restartRef.current()), []);
  return (
    <EngineContext.Provider value={engine}>
      <Shell engine={engine} restartRef={restartRef} />
    </EngineContext.Provider>
  );
}

function Shell({ engine, restartRef }: { engine: EngineClient; restartRef: React.MutableRefObject<() => void> }) {
  const [view, update] = useViewState();
  const [repo, setRepo] = useState<LoadedRepo | null>(null);
  const [opening, setOpening] = useState<Opening | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [recent, setRecent] = useState<RecentRepo[]>([]);
  const [quickOpen, setQuickOpen] = useState(false);
  const [showSkipped, setShowSkipped] = useState(false);
  const [skippedInTree, setSkippedInTree] = useState(true);
  const [dragging, setDragging] = useState(false);
  const [host, setHost] = useState('');
  const [libraryOpen, setLibraryOpen] = useState(false);
  const [clonePrefill, setClonePrefill] = useState<{ url: string; ref: string } | undefined>(undefined);
  const [cloning, setCloning] = useState<CloneJobView | null>(null);
  const [cloneError, setCloneError] = useState<QuarryError | null>(null);
  const libraryButton = useRef<HTMLButtonElement>(null);
  const libraryOpenRef = useRef(false);
  libraryOpenRef.current = libraryOpen;
  const fileInput = useRef<HTMLInputElement>(null);
  const searchInput = useRef<HTMLInputElement>(null);
  const generation = useRef(0);
  /** The generation of a swapped-in snapshot whose index build has not started yet. */
  const pendingIndex = useRef<number | null>(null);
  const repoRef = useRef<LoadedRepo | null>(null);
  repoRef.current = repo;
  const viewRef = useRef(view);
  viewRef.current = view;
  const [index, setIndex] = useState<IndexUiState>({ state: 'none', last: null, version: 0 });
  const indexProgress = useMemo(() => new ProgressStore(), []);
  const indexJob = useRef<{ key: string; cancel: () => void } | null>(null);

  /**
   * Build or refresh the code index of the open repository in the background (the worker
   * loads the stored index for `key` and re-indexes only what changed). Search scans meanwhile.
   */
  const buildIndex = useCallback(
    (key: string, force = false) => {
      const previousKey = indexJob.current?.key;
      indexJob.current?.cancel();
      pendingIndex.current = null; // a rebuild asked for meanwhile replaces the deferred start
      indexProgress.value = null;
      const job = engine.indexRepo({ key, force }, (p) => indexProgress.set(p));
      const mine = { key, cancel: job.cancel };
      indexJob.current = mine;
      setIndex((prev) => ({ ...prev, state: 'building', error: undefined, last: prev.last && previousKey === key ? prev.last : null }));
      job.done.then(
        (end) => {
          if (indexJob.current !== mine) return;
          if (end.stats.ending !== 'complete') setIndex((prev) => ({ ...prev, state: prev.last ? 'ready' : 'cancelled' }));
          else setIndex((prev) => ({ state: 'ready', last: end.stats, version: prev.version + 1 }));
        },
        (err) => {
          if (indexJob.current !== mine) return;
          if (err instanceof QuarryError && err.data?.reason === 'engineRestarted') return;
          setIndex((prev) => ({ ...prev, state: 'failed', error: err instanceof Error ? err.message : String(err) }));
        },
      );
    },
    [engine, indexProgress],
  );

  const refreshRecent = useCallback(() => {
    listRecent().then(setRecent, () => setRecent([]));
  }, []);

  useEffect(() => {
    refreshRecent();
    void engine.host().then(setHost, () => setHost(''));
  }, [engine, refreshRecent]);

  /** Read a repository into the engine; the previous one stays until the new one is complete. */
  const open = useCallback(
    async (spec: OpenSpec, key: string, options: { resetFile?: boolean; clone?: { url: string; ref: string } } = {}) => {
      const name = spec.kind === 'demo' ? 'quarry (demo)' : spec.name;
      const progress = new ProgressStore();
      const job = engine.openRepo(spec, (p) => progress.set(p));
      setOpening({ name, progress, cancel: job.cancel });
      setNotice(null);
      let swapped = false;
      try {
        const end = await job.done;
        if (end.stats.ending !== 'complete') return; // cancelled: keep what was open
        swapped = true;
        performance.mark('quarry:opened'); // user timing marks of the swap and the index start, for profiles
        // A transition: React renders the new workspace in time slices instead of one long task.
        // Every state change of the swap is in it: one outside would re-render the shell at once.
        startTransition(() => {
          setRepo({ key, spec, stats: end.stats, clone: options.clone, generation: ++generation.current });
          const clone = options.clone ?? { url: '', ref: '' };
          update(options.resetFile ? { repo: key, clone: clone.url, cref: clone.ref, file: '', line: 0 } : { repo: key, clone: clone.url, cref: clone.ref }, { push: options.resetFile });
          // A new snapshot starts without an index: Ranked and Related wait for this build,
          // which starts once the new workspace is on screen (see the effect below). The previous
          // snapshot's build stops now: its answer must never land on this one.
          indexJob.current?.cancel();
          indexJob.current = null;
          setIndex((prev) => ({ ...prev, state: 'building', error: undefined, last: null }));
          pendingIndex.current = generation.current;
          setOpening(null);
        });
      } catch (err) {
        const e = err instanceof QuarryError ? err : new QuarryError('Internal', String(err));
        if (e.data?.reason === 'engineRestarted') return; // the restart handler reopens
        setNotice({ kind: 'error', title: `Could not open ${name}`, message: e.message });
      } finally {
        if (!swapped) setOpening(null);
      }
    },
    [engine, update],
  );

  // The index build of a newly opened snapshot waits until the main thread is idle after the
  // swap: building is the worker's heaviest work, and on a machine with few cores it would take
  // CPU from the frames that first lay out the new workspace.
  useEffect(() => {
    if (!repo || pendingIndex.current !== repo.generation) return;
    const { key, generation: gen } = repo;
    const start = () => {
      if (pendingIndex.current !== gen) return;
      pendingIndex.current = null;
      performance.mark('quarry:index-start');
      buildIndex(key);
    };
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(start, { timeout: 1000 });
      return () => cancelIdleCallback(handle);
    }
    const handle = setTimeout(start, 100);
    return () => clearTimeout(handle);
  }, [repo, buildIndex]);

  // After a worker restart the new engine is empty: read the repository again.
  restartRef.current = () => {
    pendingIndex.current = null; // the reopen schedules the build again, on the new engine
    const current = repoRef.current;
    if (current) void open(current.spec, current.key, { clone: current.clone });
  };

  const openHandle = useCallback(
    async (handle: FileSystemDirectoryHandle) => {
      let key = `handle:${handle.name}`;
      try {
        const entry = await rememberRecent(handle);
        key = `recent:${entry.id}`;
        refreshRecent();
      } catch {
        // IndexedDB unavailable (private mode): the folder still opens, it just is not remembered
      }
      await open({ kind: 'handle', name: handle.name, handle, libraryId: key.startsWith('recent:') ? key : undefined }, key, { resetFile: true });
    },
    [open, refreshRecent],
  );

  const openRecent = useCallback(
    async (entry: RecentRepo, requestPermission: boolean) => {
      const granted = await ensureReadPermission(entry.handle, requestPermission).catch(() => false);
      if (!granted) {
        setNotice({ kind: 'permission', recent: entry });
        return;
      }
      await rememberRecent(entry.handle).catch(() => {});
      refreshRecent();
      const key = `recent:${entry.id}`;
      await open({ kind: 'handle', name: entry.name, handle: entry.handle, libraryId: key }, key, { resetFile: !!repoRef.current && repoRef.current.key !== key });
    },
    [open, refreshRecent],
  );

  const openFolder = useCallback(async () => {
    if (!hasDirectoryPicker()) {
      fileInput.current?.click();
      return;
    }
    try {
      const handle = await pickDirectory();
      if (handle) await openHandle(handle);
    } catch (err) {
      setNotice({ kind: 'error', title: 'Could not open the folder', message: err instanceof Error ? err.message : String(err) });
    }
  }, [openHandle]);

  const openDemo = useCallback(() => open({ kind: 'demo' }, 'demo', { resetFile: !!repoRef.current && repoRef.current.key !== 'demo' }), [open]);

  /** Open a clone from the library (its URL and ref go into the address, so the link can be shared). */
  const openClone = useCallback(
    (entry: LibraryEntry) => {
      const key = libraryKey(entry);
      return open({ kind: 'git', id: entry.id, name: entry.name }, key, {
        resetFile: !!repoRef.current && repoRef.current.key !== key && viewRef.current.repo !== key,
        clone: { url: entry.url, ref: entry.ref ?? '' },
      });
    },
    [open],
  );

  const openLibraryEntry = useCallback(
    (entry: LibraryEntry) => {
      if (entry.source === 'clone') return void openClone(entry);
      void getRecent(entry.id.replace(/^recent:/, '')).then(
        (r) => (r ? openRecent(r, true) : setNotice({ kind: 'error', title: `${entry.name} is not in Recent any more`, message: 'Open the folder again with "Open folder".' })),
        () => setNotice({ kind: 'error', title: 'Recent folders are unavailable', message: 'IndexedDB could not be opened. Open the folder again.' }),
      );
    },
    [openClone, openRecent],
  );

  /**
   * Clone in the worker. The progress shows in the dialog (or above the workspace when it is
   * closed); when the clone is in, the dialog closes and the clone opens; a failure is kept in
   * `cloneError` (the dialog shows it, also after being closed and reopened).
   */
  const startClone = useCallback(
    (request: CloneRequest) => {
      const progress = new ProgressStore();
      const job = engine.cloneRepo(request, (p) => progress.set(p));
      setCloning({ url: request.url, progress, cancel: job.cancel });
      setCloneError(null);
      job.done.then(
        (end) => {
          setCloning(null);
          if (end.stats.ending !== 'complete' || !end.stats.repo) return;
          setLibraryOpen(false);
          void openClone(end.stats.repo);
        },
        (err) => {
          setCloning(null);
          const e = err instanceof QuarryError ? err : new QuarryError('Internal', String(err));
          setCloneError(e);
          if (!libraryOpenRef.current) setNotice({ kind: 'error', title: `Could not clone ${request.url}`, message: e.message });
        },
      );
    },
    [engine, openClone],
  );

  const showLibrary = useCallback((prefill?: { url: string; ref: string }) => {
    setClonePrefill(prefill);
    setLibraryOpen(true);
  }, []);

  // First load: restore what the URL names, or open the demo on a first visit.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const key = view.repo;
    if (!key || key === 'demo') {
      void open({ kind: 'demo' }, 'demo');
    } else if (key.startsWith('git:')) {
      const id = key.slice(4);
      void engine.library().then(
        (lib) => {
          const entry = lib.repos.find((r) => r.id === id && r.source === 'clone');
          if (entry) void openClone(entry);
          else if (view.clone) setNotice({ kind: 'clone-offer', url: view.clone, ref: view.cref });
          else setNotice({ kind: 'error', title: 'This repository is not in the library', message: 'It may have been deleted. Clone it again from Repositories.' });
        },
        (err) => setNotice({ kind: 'error', title: 'The repository library is unavailable', message: err instanceof Error ? err.message : String(err) }),
      );
    } else if (key.startsWith('recent:')) {
      void getRecent(key.slice(7)).then(
        (entry) => (entry ? openRecent(entry, false) : setNotice({ kind: 'error', title: 'This folder is not in Recent any more', message: 'Open the folder again with "Open folder".' })),
        () => setNotice({ kind: 'error', title: 'Recent folders are unavailable', message: 'IndexedDB could not be opened. Open the folder again.' }),
      );
    } else {
      setNotice({ kind: 'snapshot-lost', name: key.replace(/^[a-z]+:/, '') });
    }
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  const onFilesChosen = (list: FileList | null) => {
    if (!list || !list.length) return;
    // Leave the task that delivered the files at once; the work happens in short tasks after it.
    performance.mark('quarry:files-received');
    // The FileList itself goes to filesFromInput: touching list[i] creates that File's JS wrapper,
    // so 10,000 wrappers appear a slice at a time (spreading the GC work) rather than all at once.
    // The input is reset only afterwards (choosing the same folder again then fires change again).
    setTimeout(() => {
      void filesFromInput(list).then((folder) => {
        if (fileInput.current) fileInput.current.value = '';
        return open({ kind: 'files', name: folder.name, files: folder.files }, `snapshot:${folder.name}`, { resetFile: true });
      });
    }, 0);
  };

  // Drag and drop a folder anywhere on the page.
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => [...(e.dataTransfer?.types ?? [])].includes('Files');
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth++;
      setDragging(true);
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (!depth) setDragging(false);
    };
    const over = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      if (!e.dataTransfer || !hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      void folderFromDrop(e.dataTransfer).then(
        (folder) => {
          if (!folder) setNotice({ kind: 'error', title: 'Nothing to open', message: 'Drop a folder (not single files) to open it.' });
          else if (folder.kind === 'handle') void openHandle(folder.handle);
          else void open({ kind: 'files', name: folder.name, files: folder.files }, `snapshot:${folder.name}`, { resetFile: true });
        },
        (err) => setNotice({ kind: 'error', title: 'Could not read the dropped folder', message: String(err) }),
      );
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [open, openHandle]);

  // Global shortcuts: Ctrl/Cmd+P quick open, Ctrl/Cmd+Shift+F search.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && !e.shiftKey && e.key.toLowerCase() === 'p') {
        e.preventDefault();
        if (repoRef.current) setQuickOpen(true);
      } else if (mod && e.shiftKey && e.key.toLowerCase() === 'f') {
        e.preventDefault();
        // From another view: switch to Search first, then focus its box once it has rendered.
        if (viewRef.current.view !== 'search') update({ view: 'search' }, { push: true });
        setTimeout(() => searchInput.current?.focus(), 0);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [update]);

  const openFile = useCallback((path: string) => update({ file: path, line: 0 }, { push: true }), [update]);

  const highlight: FileHighlight | null = view.q && view.mode !== 'ranked'
    ? { pattern: view.q, mode: view.mode === 'regex' ? 'regex' : 'literal', caseMode: view.caseSensitive ? 'sensitive' : 'insensitive', wholeWord: view.wholeWord }
    : null;

  const skippedTotal = repo ? Object.values(repo.stats.skippedByReason).reduce((a, b) => a + b, 0) : 0;
  const repoKey = repo ? `${repo.key}#${repo.generation}` : '';
  const isSnapshot = repo?.spec.kind === 'files';

  return (
    <div className="app">
      <header className="topbar">
        <div className="brand">
          <span className="logo" aria-hidden="true">◆</span> Quarry
        </div>
        {repo && (
          <div className="repo-badge" data-testid="repo-name" title={repo.stats.name}>
            <strong>{repo.spec.kind === 'demo' ? 'quarry (demo)' : repo.stats.name}</strong>
            <span>
              {plural(repo.stats.files, 'file')} · {formatBytes(repo.stats.bytes)}
            </span>
          </div>
        )}
        {repo && <ViewNav view={view} update={update} />}
        <nav className="actions" aria-label="Repository">
          <button type="button" onClick={() => setQuickOpen(true)} disabled={!repo} title="Quick open (Ctrl/⌘+P)">
            Go to file <kbd>Ctrl P</kbd>
          </button>
          <button type="button" className="primary" onClick={openFolder} data-testid="open-folder">
            Open folder
          </button>
          <label className="button-like">
            <input
              ref={fileInput}
              type="file"
              className="visually-hidden"
              data-testid="folder-input"
              aria-label="Choose a folder (snapshot)"
              webkitdirectory=""
              multiple
              onChange={(e) => onFilesChosen(e.target.files)}
            />
            <span aria-hidden="true">Choose folder…</span>
          </label>
          <button type="button" ref={libraryButton} onClick={() => showLibrary()} data-testid="open-library" title="Clone a git repository; your cloned repositories and opened folders">
            Repositories
          </button>
          <button type="button" onClick={openDemo} data-testid="open-demo">
            Demo
          </button>
          {recent.length > 0 && (
            <details className="recent">
              <summary>Recent</summary>
              <ul aria-label="Recent folders">
                {recent.map((r) => (
                  <li key={r.id}>
                    <button type="button" onClick={() => void openRecent(r, true)}>
                      {r.name}
                    </button>
                  </li>
                ))}
              </ul>
            </details>
          )}
        </nav>
      </header>

      {isSnapshot && (
        <p className="snapshot-note" role="note" data-testid="snapshot-note">
          This folder is a snapshot: the browser gave Quarry a copy of its files once, so changes on disk will not show up. Choose the folder again to
          refresh{hasDirectoryPicker() ? ', or use “Open folder” for a live folder.' : '.'}
        </p>
      )}

      {notice && (
        <NoticePanel
          notice={notice}
          onOpenFolder={openFolder}
          onDemo={openDemo}
          onReopen={(r) => void openRecent(r, true)}
          onClone={(url, ref) => showLibrary({ url, ref })}
        />
      )}

      {cloning && !libraryOpen && (
        <div className="opening" data-testid="cloning">
          <div className="opening-head">
            <strong>Cloning {cloning.url}</strong>
          </div>
          <GitProgressBar verb="Cloning" store={cloning.progress} onCancel={cloning.cancel} />
        </div>
      )}

      {opening && <OpeningPanel opening={opening} />}

      <main className={`workspace${opening && !repo ? ' hidden' : ''}`} aria-busy={!!opening}>
        {repo ? (
          <>
            <aside className="sidebar" aria-label="Explorer">
              <div className="sidebar-head">
                <h2>Files</h2>
                <label className="check">
                  <input type="checkbox" checked={skippedInTree} onChange={(e) => setSkippedInTree(e.target.checked)} /> Show skipped
                </label>
              </div>
              <FileTree repoKey={repoKey} selected={view.file} onOpen={openFile} showSkipped={skippedInTree} />
            </aside>
            {view.view === 'search' ? (
              <SearchPanel
                view={view}
                update={update}
                repoKey={repoKey}
                fileCount={repo.stats.files}
                searchInputRef={searchInput}
                indexReady={index.state === 'ready' || (index.state === 'building' && !!index.last)}
                indexVersion={index.version}
              />
            ) : (
              <ViewPanel view={view} update={update} repoKey={repoKey} />
            )}
            {view.file ? (
              <div className="viewer-column">
                <FileViewer path={view.file} line={view.line} highlight={highlight} repoKey={repoKey} onLine={(line) => update({ line })} />
                <RelatedPanel
                  path={view.file}
                  line={view.line}
                  indexReady={index.state === 'ready' || (index.state === 'building' && !!index.last)}
                  indexVersion={index.version}
                  onOpen={(file, line) => update({ file, line }, { push: true })}
                />
              </div>
            ) : (
              <section className="viewer empty" aria-label="No file open">
                <div className="panel-note">
                  <p>
                    <strong>No file open.</strong>
                  </p>
                  <p>Pick a file in the tree, open a search result, or press Ctrl/⌘+P to find a file by name.</p>
                </div>
              </section>
            )}
          </>
        ) : (
          !opening &&
          !notice && (
            <div className="home">
              <h1>Explore a code repository, entirely in your browser</h1>
              <p>Nothing is uploaded. Open a folder, clone a git repository, or look around the demo.</p>
              <p>
                <button type="button" className="primary" onClick={() => showLibrary()}>
                  Clone a repository
                </button>
              </p>
            </div>
          )
        )}
      </main>

      <footer className="statusbar">
        <span>{host ? `Engine: ${host === 'worker' ? 'web worker' : host}` : 'Starting engine…'}</span>
        {repo && (
          <>
            <span>
              {formatCount(repo.stats.files)} files read in {Math.round(repo.stats.elapsedMs)} ms
            </span>
            <IndexStatusLine
              index={index}
              progress={indexProgress}
              canRefresh={repo.spec.kind !== 'files'}
              onRebuild={() => buildIndex(repo.key, true)}
              onRefresh={() => void open(repo.spec, repo.key)}
              onCancel={() => {
                if (indexJob.current) indexJob.current.cancel();
                else if (pendingIndex.current !== null) {
                  // cancelled before its deferred start: nothing runs yet, so say so here
                  pendingIndex.current = null;
                  setIndex((prev) => ({ ...prev, state: prev.last ? 'ready' : 'cancelled' }));
                }
              }}
            />
            {skippedTotal > 0 && (
              <button type="button" className="link" onClick={() => setShowSkipped(true)} data-testid="show-skipped">
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
      {quickOpen && repo && <QuickOpen onOpen={openFile} onClose={() => setQuickOpen(false)} />}
      {showSkipped && <SkippedDialog onClose={() => setShowSkipped(false)} />}
      {libraryOpen && (
        <LibraryDialog
          onClose={() => {
            setLibraryOpen(false);
            libraryButton.current?.focus();
          }}
          cloning={cloning}
          startClone={startClone}
          cloneError={cloneError}
          prefill={clonePrefill}
          currentKey={repo?.key ?? ''}
          onOpen={openLibraryEntry}
          onFetched={(entry) => {
            // Re-read the updated working tree; the index refresh then re-indexes only the changed files.
            const current = repoRef.current;
            if (current && current.key === libraryKey(entry)) void open(current.spec, current.key, { clone: { url: entry.url, ref: entry.ref ?? '' } });
          }}
          onDeleted={(entry) => {
            if (entry.source === 'folder') void forgetRecent(entry.id.replace(/^recent:/, '')).finally(refreshRecent);
            if (repoRef.current?.key === libraryKey(entry)) void openDemo();
          }}
        />
      )}
    </div>
  );
}

function OpeningPanel({ opening }: { opening: Opening }) {
  const p = useSyncExternalStore(opening.progress.subscribe, () => opening.progress.value);
  const phase = !p ? 'Starting' : p.phase === 'listing' ? 'Listing files' : p.phase === 'reading' ? 'Reading files' : 'Indexing';
  const pct = p && p.totalFiles ? Math.round((p.files / p.totalFiles) * 100) : undefined;
  return (
    <div className="opening" data-testid="opening">
      <div className="opening-head">
        <strong>Opening {opening.name}</strong>
        <button type="button" onClick={opening.cancel}>
          Cancel
        </button>
      </div>
      <div
        className="progress"
        role="progressbar"
        aria-label={phase}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={p ? `${phase}: ${p.files} files` : phase}
      >
        {/* transform, not width: a compositor-only change, so progress never costs the main thread a layout */}
        <div className={`progress-fill${pct === undefined ? ' indeterminate' : ''}`} style={{ transform: pct === undefined ? undefined : `scaleX(${pct / 100})` }} />
      </div>
      <p className="opening-detail">
        {phase}
        {p && p.phase === 'listing' && ` · ${formatCount(p.files)} files found (${formatBytes(p.bytes)})`}
        {p && p.phase !== 'listing' && ` · ${formatCount(p.files)} of ${formatCount(p.totalFiles)} files · ${formatBytes(p.bytes)} of ${formatBytes(p.totalBytes)}`}
      </p>
    </div>
  );
}

function NoticePanel({
  notice,
  onOpenFolder,
  onDemo,
  onReopen,
  onClone,
}: {
  notice: Notice;
  onOpenFolder: () => void;
  onDemo: () => void;
  onReopen: (r: RecentRepo) => void;
  onClone: (url: string, ref: string) => void;
}) {
  if (notice.kind === 'clone-offer')
    return (
      <div className="notice" role="alert" data-testid="clone-offer">
        <p>
          This link points to the git repository <strong className="mono">{notice.url}</strong>
          {notice.ref && (
            <>
              {' '}
              at <strong>{notice.ref}</strong>
            </>
          )}
          , which is not in this browser yet. Clone it here to see the shared view.
        </p>
        <button type="button" className="primary" onClick={() => onClone(notice.url, notice.ref)}>
          Clone this repository
        </button>{' '}
        <button type="button" onClick={onDemo}>
          Open the demo
        </button>
      </div>
    );
  if (notice.kind === 'permission')
    return (
      <div className="notice" role="alert">
        <p>
          Quarry needs your permission to read <strong>{notice.recent.name}</strong> again.
        </p>
        <button type="button" className="primary" onClick={() => onReopen(notice.recent)}>
          Reopen {notice.recent.name}
        </button>
      </div>
    );
  if (notice.kind === 'snapshot-lost')
    return (
      <div className="notice" role="alert">
        <p>
          This link points to <strong>{notice.name}</strong>, a folder snapshot that cannot be re-read after a reload. Choose the folder again, or open the demo.
        </p>
        <button type="button" className="primary" onClick={onOpenFolder}>
          Choose the folder again
        </button>{' '}
        <button type="button" onClick={onDemo}>
          Open the demo
        </button>
      </div>
    );
  return (
    <div className="notice error" role="alert">
      <p>
        <strong>{notice.title}.</strong> {notice.message}
      </p>
      <button type="button" onClick={onOpenFolder}>
        Open another folder
      </button>{' '}
      <button type="button" onClick={onDemo}>
        Open the demo
      </button>
    </div>
  );
}
