/**
 * `type:commit` and `type:diff` results (issue 35): the history search's progress ("Searched
 * 420 of 10,000 commits") with Cancel, then commit rows (subject, id, author, date; the hits
 * marked in the message and the author) or, for diffs, each commit with its matching added and
 * removed lines per file (hits marked; + and − on the diff view's colours). A commit opens its
 * changes (the first changed file's diff, the others listed under it); a diff line opens that
 * file's diff in the commit at the line. At the end a shallow log says how far back it reached.
 */
import { useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { toQuarryError } from '../../core/errors';
import type { HitRange } from '../../core/grep/types';
import type { CommitResult, DiffFileResult, DiffResult, HistoryResult } from '../../core/query/results';
import type { EngineClient } from '../../worker/client';
import type { CommitChangesView } from '../../worker/protocol';
import { CodeText } from '../CodeText';
import { useEngine } from '../engine';
import { plural } from '../format';
import { languageOf } from '../highlight';
import { SearchStatus } from '../SearchStatus';
import { FileIcon } from '../shell/FileIcon';
import type { UpdateView } from '../use-view-state';
import { VisibleText } from '../VisibleText';
import { historySummary, shallowNote } from './history-summary';
import { useHistorySearch, type HistoryRequest } from './use-history-search';
import '../views/history.css';
import '../viewer/diff.css';

const DATE_FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
/** Lines of a commit's message body shown under its subject (those with hits). */
const BODY_LINES = 3;

const CHANGE_TEXT: Record<string, string> = { add: 'added', modify: 'modified', delete: 'deleted' };

type Changes =
  { state: 'loading' } | { state: 'ready'; value: CommitChangesView } | { state: 'error'; message: string };

/** A commit's changed files, from whichever open root has the commit. */
async function changesOf(engine: EngineClient, oid: string): Promise<CommitChangesView> {
  try {
    return await engine.commitChanges({ oid });
  } catch (first) {
    for (const root of (await engine.roots()).slice(1)) {
      try {
        return await engine.commitChanges({ oid, root: root.key });
      } catch {
        // not this root's commit
      }
    }
    throw first;
  }
}

/** Ranges of `[from, to)` of a text, moved to start at `from`. */
function rangesIn(ranges: readonly HitRange[], from: number, to: number): HitRange[] {
  return ranges
    .filter(([s, e]) => e > from && s < to)
    .map(([s, e]) => [Math.max(s, from) - from, Math.min(e, to) - from] as HitRange);
}

/** Text with its hits in <mark>s (as text: repository content never becomes markup). */
function Marked({ text, ranges }: { text: string; ranges: readonly HitRange[] }) {
  return ranges.length ? <CodeText text={text} lang="plain" hits={ranges} /> : <VisibleText text={text} />;
}

/** The lines of a message with offsets; the subject and the body lines holding a hit. */
function messageLines(c: CommitResult) {
  const lines: { text: string; ranges: HitRange[] }[] = [];
  let at = 0;
  for (const text of c.message.split('\n')) {
    lines.push({ text, ranges: rangesIn(c.messageRanges, at, at + text.length) });
    at += text.length + 1;
  }
  const body = lines.slice(1).filter((l) => l.ranges.length);
  return { subject: lines[0], body: body.slice(0, BODY_LINES), more: Math.max(0, body.length - BODY_LINES) };
}

function CommitMeta({ r, authorRanges }: { r: HistoryResult; authorRanges: readonly HitRange[] }) {
  const who = authorRanges.length ? `${r.author} <${r.email}>` : r.author;
  return (
    <span className="commit-meta">
      <span className="mono">{r.oid.slice(0, 7)}</span> · <Marked text={who} ranges={authorRanges} /> ·{' '}
      <time dateTime={new Date(r.date).toISOString()}>{DATE_FORMAT.format(r.date)}</time>
    </span>
  );
}

function ChangedList({
  changes,
  oid,
  open,
}: {
  changes: Changes;
  oid: string;
  open: (path: string) => void;
}) {
  if (changes.state === 'loading') return <p className="muted qh-note">Reading the changed files…</p>;
  if (changes.state === 'error')
    return <p className="form-error qh-note">Could not read the changed files: {changes.message}</p>;
  if (changes.value.parentMissing)
    return <p className="muted qh-note">This commit&apos;s parent was not fetched (a shallow clone).</p>;
  if (!changes.value.files.length) return <p className="muted qh-note">No files changed.</p>;
  return (
    <ul className="changed-files qh-changed" aria-label={`Files changed in ${oid.slice(0, 7)}`}>
      {changes.value.files.map((f) => (
        <li key={f.path}>
          <button
            type="button"
            className="link qh-file-link"
            tabIndex={-1}
            data-qnav
            onClick={() => open(f.path)}
          >
            <VisibleText text={f.path} />
          </button>{' '}
          <span className="muted">{CHANGE_TEXT[f.type] ?? f.type}</span>
        </li>
      ))}
    </ul>
  );
}

function CommitItem({
  r,
  first,
  changes,
  onOpen,
  openFile,
}: {
  r: CommitResult;
  first: boolean;
  changes: Changes | undefined;
  onOpen: () => void;
  openFile: (path: string) => void;
}) {
  const { subject, body, more } = messageLines(r);
  return (
    <li className="commit qh-item" data-testid="commit-result" data-oid={r.oid}>
      <button type="button" className="commit-head" tabIndex={first ? 0 : -1} data-qnav onClick={onOpen}>
        <span className="commit-subject">
          <Marked text={subject.text} ranges={subject.ranges} />
        </span>
        <CommitMeta r={r} authorRanges={r.authorRanges} />
      </button>
      {body.length > 0 && (
        <pre className="commit-message qh-body">
          {body.map((l, i) => (
            <span key={i} className="qh-body-line">
              <Marked text={l.text} ranges={l.ranges} />
            </span>
          ))}
          {more > 0 && <span className="qh-body-line muted">…and {plural(more, 'more line')}</span>}
        </pre>
      )}
      {changes && <ChangedList changes={changes} oid={r.oid} open={openFile} />}
    </li>
  );
}

function DiffFile({ f, open }: { f: DiffFileResult; open: (line: number) => void }) {
  const lang = languageOf(f.path);
  // the hunk: its first added line (the commit's numbering), else its first removed one
  const at = (f.lines.find((l) => l.side === '+') ?? f.lines[0])?.line ?? 0;
  return (
    <div className="qh-file" data-testid="diff-result-file" data-path={f.path}>
      <button type="button" className="qh-path" tabIndex={-1} data-qnav onClick={() => open(at)}>
        <FileIcon path={f.path} />
        <VisibleText text={f.path} />
        <span className="qh-change">{CHANGE_TEXT[f.change]}</span>
      </button>
      {f.lines.map((l, i) => (
        <button
          key={i}
          type="button"
          className={`result-line hit qh-line ${l.side === '+' ? 'is-insert' : 'is-delete'}`}
          tabIndex={-1}
          data-qnav
          data-testid="diff-result-line"
          data-side={l.side}
          data-line={l.line}
          aria-label={`${l.side === '+' ? 'added' : 'removed'} line ${l.line}: ${l.text.trim()}`}
          onClick={() => open(l.line)}
        >
          <span className="result-ln">{l.line}</span>
          <span className="diff-sign" aria-hidden="true">
            {l.side === '+' ? '+' : '−'}
          </span>
          <span className="result-text">
            {l.column > 0 && <span className="result-more">…</span>}
            <CodeText text={l.text} lang={lang} hits={l.ranges} />
          </span>
        </button>
      ))}
      {f.moreLines > 0 && (
        <p className="muted qh-note">
          {f.lines.length
            ? `…and ${plural(f.moreLines, 'more matching line')}`
            : plural(f.moreLines, 'matching line')}
        </p>
      )}
    </div>
  );
}

function DiffItem({
  r,
  first,
  openDiff,
}: {
  r: DiffResult;
  first: boolean;
  openDiff: (path: string, line: number) => void;
}) {
  const f0 = r.files[0];
  return (
    <li className="commit qh-item" data-testid="diff-result" data-oid={r.oid}>
      <button
        type="button"
        className="commit-head"
        tabIndex={first ? 0 : -1}
        data-qnav
        onClick={() =>
          f0 && openDiff(f0.path, (f0.lines.find((l) => l.side === '+') ?? f0.lines[0])?.line ?? 0)
        }
      >
        <span className="commit-subject">
          <VisibleText text={r.subject} />
        </span>
        <CommitMeta r={r} authorRanges={[]} />
      </button>
      {r.files.map((f) => (
        <DiffFile key={f.path} f={f} open={(line) => openDiff(f.path, line)} />
      ))}
    </li>
  );
}

/** Progress with Cancel while it runs; the shallow log's reach when done. */
function HistoryStatusLine({ note, onCancel }: { note: ReactNode; onCancel: (() => void) | null }) {
  if (!note && !onCancel) return null;
  return (
    <div className="history-progress qh-status" data-testid="history-search-status">
      {note}
      {onCancel && (
        <button type="button" onClick={onCancel} data-testid="history-search-cancel">
          Cancel
        </button>
      )}
    </div>
  );
}

export function HistoryResults({
  request,
  kind,
  repoKey,
  update,
  listRef,
  onKeyDown,
}: {
  request: HistoryRequest | null;
  kind: 'commit' | 'diff';
  repoKey: string;
  update: UpdateView;
  listRef: RefObject<HTMLDivElement | null>;
  onKeyDown: (e: KeyboardEvent) => void;
}) {
  const engine = useEngine();
  const { run, results, cancel } = useHistorySearch(request, repoKey);
  const [changes, setChanges] = useState<{ key: HistoryRequest | null; map: Map<string, Changes> }>({
    key: null,
    map: new Map(),
  });
  const shown = changes.key === request ? changes.map : new Map<string, Changes>();
  const setFor = (oid: string, c: Changes) =>
    setChanges((prev) => ({ key: request, map: new Map(prev.key === request ? prev.map : []).set(oid, c) }));
  const openDiff = (path: string, line: number, oid: string) =>
    update({ file: path, diff: oid, line, blame: false }, { push: true });
  const openCommit = (oid: string) => {
    if (shown.get(oid)?.state === 'ready') {
      const v = (shown.get(oid) as { value: CommitChangesView }).value;
      if (v.files[0]) openDiff(v.files[0].path, 0, oid);
      return;
    }
    setFor(oid, { state: 'loading' });
    changesOf(engine, oid).then(
      (value) => {
        setFor(oid, { state: 'ready', value });
        if (value.files[0] && !value.parentMissing) openDiff(value.files[0].path, 0, oid);
      },
      (err) => setFor(oid, { state: 'error', message: toQuarryError(err).message }),
    );
  };
  const done = run.state === 'done' ? run.stats : null;
  const note = done ? shallowNote(done) : null;
  return (
    <>
      <SearchStatus
        summary={historySummary(run, kind)}
        running={run.state === 'running'}
        error={run.state === 'error' ? run.error : null}
      />
      <HistoryStatusLine note={note} onCancel={run.state === 'running' ? cancel : null} />
      <div
        ref={listRef}
        className="results-scroll qh-scroll"
        data-testid="search-results"
        onKeyDown={onKeyDown}
      >
        {results.length > 0 && (
          <ol className="qh-list" aria-label={kind === 'diff' ? 'Matching changes' : 'Matching commits'}>
            {results.map((r, i) =>
              r.kind === 'commit' ? (
                <CommitItem
                  key={r.oid}
                  r={r}
                  first={i === 0}
                  changes={shown.get(r.oid)}
                  onOpen={() => openCommit(r.oid)}
                  openFile={(path) => openDiff(path, 0, r.oid)}
                />
              ) : (
                <DiffItem key={r.oid} r={r} first={i === 0} openDiff={(p, l) => openDiff(p, l, r.oid)} />
              ),
            )}
          </ol>
        )}
      </div>
    </>
  );
}
