/**
 * What the viewer's column shows for the open file's git views, from the address: `diff` ->
 * DiffView instead of the file, `blame` -> BlameView, `fhist` -> the File history panel beside
 * it; and the Blame / File history toggles for the viewer's bar, offered when the file's root
 * has git data (asked of the engine once per file).
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useEngine } from '../engine';
import type { ViewState } from '../url-state';
import type { UpdateView } from '../use-view-state';
import { BlameView } from './BlameView';
import { DiffView } from './DiffView';
import { FileHistoryPanel } from './FileHistoryPanel';

export interface FileGitParts {
  /** The Blame and File history toggles (null when the file has no git history). */
  toggles: ReactNode;
  /** A diff or blame in place of the file, or null to show the file. */
  main: ReactNode;
  /** The File history panel, or null. */
  side: ReactNode;
}

export function GitToggles({ view, update }: { view: ViewState; update: UpdateView }) {
  return (
    <span className="git-toggles" role="group" aria-label="Git">
      <button
        type="button"
        className="toggle"
        aria-pressed={view.blame}
        title={view.blame ? 'Hide blame' : "Show each line's last commit"}
        onClick={() => update({ blame: !view.blame, diff: '' }, { push: true })}
      >
        Blame
      </button>
      <button
        type="button"
        className="toggle"
        aria-pressed={view.fhist}
        title={view.fhist ? 'Hide the file history' : 'List the commits that changed this file'}
        onClick={() => update({ fhist: !view.fhist }, { push: true })}
      >
        File history
      </button>
    </span>
  );
}

export function useFileGit(view: ViewState, update: UpdateView, repoKey: string): FileGitParts {
  const engine = useEngine();
  const key = `${repoKey}\n${view.file}`;
  const [status, setStatus] = useState<{ key: string; available: boolean } | null>(null);
  useEffect(() => {
    if (!view.file) return;
    let live = true;
    engine.fileGitStatus(view.file).then(
      (s) => live && setStatus({ key, available: s.available }),
      () => live && setStatus({ key, available: false }),
    );
    return () => {
      live = false;
    };
  }, [engine, key, view.file]);

  if (!view.file) return { toggles: null, main: null, side: null };
  // a link may ask for a diff or blame before the answer: the views say themselves if there is no git
  const available = (status?.key === key && status.available) || view.blame || view.fhist || !!view.diff;
  const toggles = available ? <GitToggles view={view} update={update} /> : null;
  const main = view.diff ? (
    <DiffView
      path={view.file}
      target={view.diff}
      line={view.line}
      layout={view.dview}
      repoKey={repoKey}
      update={update}
      toolbar={toggles}
    />
  ) : view.blame ? (
    <BlameView path={view.file} line={view.line} repoKey={repoKey} update={update} toolbar={toggles} />
  ) : null;
  const side = view.fhist ? (
    <FileHistoryPanel
      path={view.file}
      repoKey={repoKey}
      selected={view.diff}
      onOpen={(oid) => update({ diff: oid, blame: false }, { push: true })}
      onClose={() => update({ fhist: false }, { push: true })}
    />
  ) : null;
  return { toggles, main, side };
}
