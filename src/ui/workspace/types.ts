/** The workspace's state as the UI reads it, and what the controller is given (controller.ts). */
import type { QuarryError } from '../../core/errors';
import type { EngineClient } from '../../worker/client';
import type { LibraryEntry, OpenSpec, RepoStats } from '../../worker/protocol';
import type { IndexUiState } from '../IndexStatusLine';
import type { ProgressStore } from '../progress-store';
import type { ViewState } from '../url-state';
import type { UpdateView } from '../use-view-state';

export const DEMO_TITLE = 'quarry (demo)';

/** One open root, as the UI keeps it (for reloads after an engine restart). */
export interface OpenRoot {
  key: string;
  /** The root's unique name (the prefix of its paths when several roots are open). */
  name: string;
  stats: RepoStats;
  spec: OpenSpec;
  /** A clone's URL and ref (they go into the address). */
  clone?: { url: string; ref: string };
}

export interface Opening {
  name: string;
  progress: ProgressStore;
  cancel: () => void;
}

export interface CloneJobView {
  url: string;
  progress: ProgressStore;
  cancel: () => void;
}

export type Notice =
  | { kind: 'error'; title: string; message: string }
  | { kind: 'permission'; folder: LibraryEntry }
  | { kind: 'snapshot-lost'; name: string }
  /** A link to a clone this browser does not have: offer to clone it, then restore the view. */
  | { kind: 'clone-offer'; url: string; ref: string };

export interface WorkspaceState {
  roots: OpenRoot[];
  /** Bumped on every (re)load so views re-query. */
  generation: number;
  opening: Opening | null;
  notice: Notice | null;
  index: IndexUiState;
  /** Opened folders the library still has handles for (Recent), newest first. */
  folders: LibraryEntry[];
  cloning: CloneJobView | null;
  cloneError: QuarryError | null;
}

export interface OpenOptions {
  /** Add as one more root instead of replacing the workspace. */
  add?: boolean;
  /** Close the open file (a different repository). */
  resetFile?: boolean;
  clone?: { url: string; ref: string };
  /** Restoring the address: its file path already names its root. */
  restoring?: boolean;
}

export type WorkspaceEngine = Pick<
  EngineClient,
  'openRepo' | 'closeRoot' | 'roots' | 'indexRepo' | 'indexStatus' | 'library' | 'recentFolders' | 'cloneRepo'
> &
  /** A root opened from its stored listing is reconciled with it (engines without a store never open one). */
  Partial<Pick<EngineClient, 'reconcileRepo'>>;

export interface WorkspaceDeps {
  engine: WorkspaceEngine;
  /** The address: the view state and its updater. */
  view: { get(): ViewState; update: UpdateView };
  /** Runs a state change as a low-priority render (React's startTransition); immediate elsewhere. */
  transition?: (fn: () => void) => void;
  /** Runs `fn` once the main thread is idle after a swap; returns a cancel. */
  whenIdle?: (fn: () => void) => () => void;
  /** File System Access permission for a stored folder handle (asking needs a user gesture). */
  ensureReadPermission?: (handle: FileSystemDirectoryHandle, request: boolean) => Promise<boolean>;
  /** User-timing marks for profiles. */
  mark?: (name: string) => void;
  /** The folder `quarry serve --root` names in the page (adapters/browser/served-source.ts): opened instead of the demo. */
  servedRoot?: string | null;
}

export const INITIAL_STATE: WorkspaceState = {
  roots: [],
  generation: 0,
  opening: null,
  notice: null,
  index: { state: 'none', last: null, version: 0 },
  folders: [],
  cloning: null,
  cloneError: null,
};

export function rootTitle(root: Pick<OpenRoot, 'spec' | 'stats'>): string {
  return root.spec.kind === 'demo' ? DEMO_TITLE : root.stats.name;
}
