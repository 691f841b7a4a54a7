/**
 * The open file as a diff (the address's `diff`: a commit against its first parent, or
 * 'worktree' for uncommitted changes against HEAD), side by side or inline (`dview`), with
 * changed words marked, unchanged stretches folded, and F7 / Shift+F7 (as in VS Code's diff
 * editor) or the bar's buttons moving between changes. The diff is computed in the worker;
 * the rows are built here from its edit script (a few ms even for a large file).
 */
import { useEffect, useEffectEvent, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { QuarryError, toQuarryError } from '../../core/errors';
import { displayLine, splitLines } from '../../core/diff/lines';
import { buildRows, type DiffLayout, type DiffRow } from '../../core/diff/rows';
import type { DiffSide, FileDiffResult } from '../../worker/protocol';
import { useEngine } from '../engine';
import { formatBytes, formatCount, plural } from '../format';
import { languageOf } from '../highlight';
import type { UpdateView } from '../use-view-state';
import { visibleText } from '../visible-text';
import { VisibleText } from '../VisibleText';
import { DiffRowsView, type DiffRowsHandle } from './DiffRows';
import { lineRow } from './diff-line';
import { fullDate, relativeTime, shortOid } from './git-format';
import './diff.css';

type Loaded =
  { state: 'loading' } | { state: 'ready'; result: FileDiffResult } | { state: 'error'; error: QuarryError };

const linesOf = (s: DiffSide) => (s.kind === 'text' ? splitLines(s.text) : { lines: [], noEol: false });

/** "in abc1234 vs parent def5678", "uncommitted, vs HEAD abc1234". */
function comparison(r: FileDiffResult): string {
  if (!r.commit)
    return r.base
      ? `uncommitted changes vs HEAD ${shortOid(r.base.oid)}`
      : 'uncommitted changes (no commits yet)';
  const parent = r.commit.parents[0];
  return parent
    ? `in ${shortOid(r.commit.oid)} vs parent ${shortOid(parent)}`
    : `in ${shortOid(r.commit.oid)} (the first commit)`;
}

function sideText(s: DiffSide): string {
  return s.kind === 'absent'
    ? 'absent'
    : s.kind === 'text'
      ? formatBytes(s.bytes)
      : `${s.kind === 'binary' ? 'binary' : 'too large'}, ${formatBytes(s.bytes)}`;
}

/** Why there are no lines to show, or null when there are. */
function bodyNote(r: FileDiffResult, path: string): ReactNode {
  if (r.status === 'parentMissing') {
    return (
      <p>
        The parent of {shortOid(r.target)} was not fetched (a shallow clone), so this commit&apos;s change to
        the file cannot be shown. Fetch more history in the History view, then open it again.
      </p>
    );
  }
  if (r.before.kind === 'binary' || r.after.kind === 'binary') {
    return (
      <p>
        <strong>Binary file:</strong> not shown as text. Before: {sideText(r.before)}; after:{' '}
        {sideText(r.after)}.
      </p>
    );
  }
  if (r.before.kind === 'tooLarge' || r.after.kind === 'tooLarge') {
    return (
      <p>
        <strong>Too large to compare:</strong> before {sideText(r.before)}, after {sideText(r.after)}. Open
        the file itself to read it.
      </p>
    );
  }
  if (r.status === 'unchanged' || (r.diff && r.diff.added + r.diff.removed === 0)) {
    return (
      <p>
        {r.commit
          ? `${visibleText(path)} did not change in ${shortOid(r.commit.oid)}.`
          : 'No uncommitted changes to this file.'}
      </p>
    );
  }
  return null;
}

/** What is compared: the two sides, the change counts, the commit, and notes on alignment and line endings. */
function DiffInfo({ result }: { result: FileDiffResult }) {
  const commit = result.commit;
  return (
    <p className="git-bar-info" data-testid="diff-info">
      <span className="mono">{comparison(result)}</span>
      {result.status === 'added' && <strong>added</strong>}
      {result.status === 'deleted' && <strong>deleted</strong>}
      {result.diff && (
        <span
          aria-label={`${plural(result.diff.added, 'line')} added, ${formatCount(result.diff.removed)} removed`}
        >
          <span className="diff-stat-add">+{formatCount(result.diff.added)}</span>{' '}
          <span className="diff-stat-del">−{formatCount(result.diff.removed)}</span>
        </span>
      )}
      {commit && (
        <>
          <span className="git-summary" title={commit.summary}>
            {commit.summary}
          </span>
          <span>
            {commit.author} · <time title={fullDate(commit.date)}>{relativeTime(commit.date)}</time>
          </span>
        </>
      )}
      {result.diff?.approximate && (
        <span title="The files differ too much to align every line exactly">approximate alignment</span>
      )}
      {result.diff &&
        result.diff.aEndings !== result.diff.bEndings &&
        result.diff.aEndings !== 'none' &&
        result.diff.bEndings !== 'none' && (
          <span>
            line endings: {result.diff.aEndings.toUpperCase()} → {result.diff.bEndings.toUpperCase()}
          </span>
        )}
    </p>
  );
}

/** Side by side or inline. */
function DiffLayoutToggle({ layout, update }: { layout: DiffLayout; update: UpdateView }) {
  return (
    <div className="diff-layout" role="group" aria-label="Diff layout">
      <button
        type="button"
        className="toggle"
        aria-pressed={layout === 'split'}
        onClick={() => layout !== 'split' && update({ dview: 'split' })}
      >
        Side by side
      </button>
      <button
        type="button"
        className="toggle"
        aria-pressed={layout === 'inline'}
        onClick={() => layout !== 'inline' && update({ dview: 'inline' })}
      >
        Inline
      </button>
    </div>
  );
}

/** Previous / next change, and which of the `count` changes is current (block: -1 for none yet). */
function DiffNav({ count, block, step }: { count: number; block: number; step: (dir: 1 | -1) => void }) {
  return (
    <span className="diff-nav">
      <button type="button" onClick={() => step(-1)} disabled={!count} title="Previous change (Shift+F7)">
        Previous change
      </button>
      <button type="button" onClick={() => step(1)} disabled={!count} title="Next change (F7)">
        Next change
      </button>
      {count > 0 && (
        <span role="status">
          {block >= 0 ? `${block + 1} of ` : ''}
          {plural(count, 'change')}
        </span>
      )}
    </span>
  );
}

/** F7 / Shift+F7 anywhere but in a text field or a dialog: the next / previous change. */
function useChangeKeys(step: (dir: 1 | -1) => void): void {
  const onKey = useEffectEvent((e: KeyboardEvent) => {
    const t = e.target as HTMLElement | null;
    if (
      t &&
      (t.tagName === 'INPUT' ||
        t.tagName === 'TEXTAREA' ||
        t.isContentEditable ||
        t.closest('[role="dialog"]'))
    )
      return;
    if (e.key === 'F7' && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      step(e.shiftKey ? -1 : 1);
    }
  });
  useEffect(() => {
    const handler = (e: KeyboardEvent) => onKey(e);
    window.addEventListener('keydown', handler);
    return () => window.removeEventListener('keydown', handler);
  }, []);
}

/** A diff that could not be computed: try again, or show the file. */
function DiffError({
  message,
  onRetry,
  onClose,
}: {
  message: string;
  onRetry: () => void;
  onClose: () => void;
}) {
  return (
    <div className="git-note" role="alert">
      <p>
        <strong>Cannot show this diff.</strong> <VisibleText text={message} multiline />
      </p>
      <p>
        <button type="button" onClick={onRetry}>
          Try again
        </button>{' '}
        <button type="button" onClick={onClose}>
          Show the file
        </button>
      </p>
    </div>
  );
}

/**
 * A link to a line (the address's `line` with `diff`, e.g. a type:diff result; 1-based, the
 * commit's side, else the parent's; 0: the top): its change scrolled to and made current, once
 * per diff and line.
 */
function useLineFocus(
  rows: readonly DiffRow[] | null,
  line: number,
  diffKey: string,
  setBlock: (block: number) => void,
  rowsHandle: RefObject<DiffRowsHandle | null>,
) {
  const done = useRef('');
  useEffect(() => {
    const key = `${diffKey}:${line}`;
    if (!rows || !line || done.current === key) return;
    done.current = key;
    const at = lineRow(rows, line);
    if (at < 0) return;
    const row = rows[at];
    if (row.kind === 'line' && row.block >= 0) setBlock(row.block);
    rowsHandle.current?.scrollToRow(at);
  }, [rows, line, diffKey, setBlock, rowsHandle]);
}

/** Whether the rows show under the note: there is none, or it says the sides are the same. */
function rowsShown(result: FileDiffResult, note: ReactNode): boolean {
  return (
    !note || result.status === 'unchanged' || (!!result.diff && result.diff.added + result.diff.removed === 0)
  );
}

export function DiffView({
  path,
  target,
  layout,
  repoKey,
  update,
  toolbar,
  line = 0,
}: {
  path: string;
  /** A commit oid, or 'worktree'. */
  target: string;
  line?: number;
  layout: DiffLayout;
  repoKey: string;
  update: UpdateView;
  /** Blame / File history toggles. */
  toolbar?: ReactNode;
}) {
  const engine = useEngine();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const [block, setBlock] = useState(-1);
  const rowsHandle = useRef<DiffRowsHandle | null>(null);

  useEffect(() => {
    let live = true;
    setLoaded({ state: 'loading' });
    setExpanded(new Set());
    setBlock(-1);
    engine.fileDiff({ path, commit: target }).then(
      (result) => live && setLoaded({ state: 'ready', result }),
      (err) => live && setLoaded({ state: 'error', error: toQuarryError(err) }),
    );
    return () => {
      live = false;
    };
  }, [engine, path, target, repoKey, attempt]);

  const result = loaded.state === 'ready' ? loaded.result : null;
  const lines = useMemo(() => {
    if (!result) return null;
    const a = linesOf(result.before);
    const b = linesOf(result.after);
    return { a: a.lines.map(displayLine), b: b.lines.map(displayLine), aNoEol: a.noEol, bNoEol: b.noEol };
  }, [result]);
  const built = useMemo(
    () => (result?.diff ? buildRows(result.diff.ops, result.diff.words, layout, { expanded }) : null),
    [result, layout, expanded],
  );
  const blocks = built?.blockStarts ?? [];

  useLineFocus(built?.rows ?? null, line, `${path}@${target}`, setBlock, rowsHandle);
  const step = (dir: 1 | -1) => {
    if (!blocks.length) return;
    const next =
      block < 0 ? (dir === 1 ? 0 : blocks.length - 1) : (block + dir + blocks.length) % blocks.length;
    setBlock(next);
    rowsHandle.current?.scrollToRow(blocks[next]);
  };
  useChangeKeys(step);

  const note = result ? bodyNote(result, path) : null;
  const showRows = result && built && lines && rowsShown(result, note);
  return (
    <section
      className="viewer diff-view"
      role="region"
      aria-label={`Diff of ${visibleText(path)}`}
      data-testid="diff-view"
    >
      <header className="viewer-bar">
        <h2 className="viewer-path" title={visibleText(path)}>
          <VisibleText text={path} />
        </h2>
        {result && <DiffInfo result={result} />}
        <DiffLayoutToggle layout={layout} update={update} />
        <DiffNav count={blocks.length} block={block} step={step} />
        <button
          type="button"
          onClick={() => update({ diff: '' }, { push: true })}
          title="Show the file as it is now"
        >
          Close diff
        </button>
        {toolbar}
      </header>
      {loaded.state === 'loading' && (
        <p className="panel-note" role="status">
          Comparing <VisibleText text={path} />…
        </p>
      )}
      {loaded.state === 'error' && (
        <DiffError
          message={loaded.error.message}
          onRetry={() => setAttempt((a) => a + 1)}
          onClose={() => update({ diff: '' }, { push: true })}
        />
      )}
      {note && (
        <div className="git-note" data-testid="diff-note">
          {note}
        </div>
      )}
      {showRows && (
        <DiffRowsView
          rows={built.rows}
          lines={lines}
          layout={layout}
          lang={languageOf(path)}
          currentBlock={block}
          onExpand={(id) => setExpanded((prev) => new Set(prev).add(id))}
          label={`Changes to ${visibleText(path)}`}
          handle={rowsHandle}
        />
      )}
    </section>
  );
}
