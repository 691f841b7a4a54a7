/**
 * The code index's status line: while building, its phase, counts and a Cancel button; when
 * ready, files, chunks, refresh mode (cache_hit / incremental / full) and the last build time,
 * with "Rebuild index" (a full build) and, for folders Quarry can re-read, "Refresh". Before all
 * that, quietly, "Checking for changes (n of N)" while a reopened folder is compared with what
 * was stored.
 */
import { INDEX_MAX_TEXT_BYTES } from '../core/limits';
import {
  coverageSentence,
  textOnlyCount,
  textOnlyReasons,
  unparsedExtensions,
} from '../core/rank/coverage-text';
import type { IndexStats } from '../worker/protocol';
import { formatCount } from './format';
import { useProgress, type ProgressSource } from './progress-store';

export interface IndexUiState {
  state: 'none' | 'building' | 'ready' | 'failed' | 'cancelled';
  last: IndexStats | null;
  error?: string;
  /** Bumped after each completed build. */
  version: number;
  /** A root opened from its stored listing is being compared with its folder: its progress. */
  checking?: ProgressSource | null;
}

const PHASE: Record<string, string> = {
  grammars: 'loading grammars',
  scanning: 'scanning files',
  indexing: 'indexing text',
  parsing: 'parsing symbols (text search is already indexed)',
  saving: 'saving',
};

export function IndexStatusLine({
  index,
  progress,
  canRefresh,
  onRebuild,
  onRefresh,
  onCancel,
}: {
  index: IndexUiState;
  progress: ProgressSource;
  canRefresh: boolean;
  onRebuild: () => void;
  onRefresh: () => void;
  onCancel: () => void;
}) {
  const p = useProgress(progress);
  const last = index.last;
  const built = last ? new Date(last.builtAt).toLocaleTimeString() : '';
  return (
    <div
      className="index-status"
      data-testid="index-status"
      data-state={index.state}
      data-mode={last?.refreshMode ?? ''}
    >
      {index.checking && <CheckingNote progress={index.checking} />}
      {index.state === 'building' ? (
        <>
          <span>
            Indexing: {p ? (PHASE[p.phase] ?? p.phase) : 'starting'}
            {p && p.files > 0
              ? ` ${formatCount(p.files)}${p.totalFiles ? ` of ${formatCount(p.totalFiles)}` : ''} files`
              : ''}
            …
          </span>
          <span
            className="progress index-progress"
            role="progressbar"
            aria-label="Indexing"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={p && p.totalFiles ? Math.round((p.files / p.totalFiles) * 100) : undefined}
          >
            <span
              className={`progress-fill${p && p.totalFiles ? '' : ' indeterminate'}`}
              style={{ transform: p && p.totalFiles ? `scaleX(${p.files / p.totalFiles})` : undefined }}
            />
          </span>
          <button type="button" className="link" onClick={onCancel}>
            Cancel indexing
          </button>
        </>
      ) : index.state === 'failed' ? (
        <span className="index-error">Index failed: {index.error}. Text and Regex search still work.</span>
      ) : index.state === 'cancelled' && !last ? (
        <span>Indexing cancelled: Ranked search and related code need the index.</span>
      ) : last ? (
        <span title={`${last.filesChanged} changed, ${last.filesRemoved} removed`}>
          Index:{' '}
          {last.coverage ? (
            <span data-testid="index-ranked" title={coverageSentence(last.coverage)}>
              {formatCount(last.filesScanned)} of {formatCount(last.coverage.textFiles)} files ranked
            </span>
          ) : (
            `${formatCount(last.filesScanned)} files`
          )}{' '}
          · {formatCount(last.chunksIndexed)} chunks ·{' '}
          <span data-testid="refresh-mode">{last.refreshMode}</span> · built {built} in{' '}
          {Math.round(last.elapsedMs)} ms
          {last.saveError ? ` · not saved: ${last.saveError}` : ''}
          {last.overBudget ? (
            <span
              data-testid="over-budget"
              title={`The index holds the first ${Math.round(INDEX_MAX_TEXT_BYTES / 1048576)} MiB of text; Text and Regex search scan the rest, Ranked search and related code do not see it.`}
            >
              {' '}
              · {formatCount(last.overBudget)} files over the index budget
            </span>
          ) : null}
          {last.coverage ? <CoverageNote coverage={last.coverage} /> : null}
        </span>
      ) : (
        <span>Index: not built</span>
      )}
      {index.state !== 'building' && (
        <>
          <button type="button" className="link" onClick={onRebuild}>
            Rebuild index
          </button>
          {canRefresh && (
            <button
              type="button"
              className="link"
              onClick={onRefresh}
              title="Read the folder again and refresh the index with what changed"
            >
              Refresh
            </button>
          )}
        </>
      )}
    </div>
  );
}

/**
 * Quiet, while a root opened from its stored listing is compared with its folder: what is shown
 * is the listing's until then, and every view asks again if anything changed.
 */
function CheckingNote({ progress }: { progress: ProgressSource }) {
  const p = useProgress(progress);
  return (
    <span
      data-testid="reconcile-status"
      className="index-checking"
      style={{ whiteSpace: 'nowrap' }}
      title="Shown from what was stored at the last visit; the folder is being read again and anything that changed is refreshed"
    >
      Checking for changes
      {p && p.files > 0
        ? ` (${formatCount(p.files)}${p.totalFiles ? ` of ${formatCount(p.totalFiles)}` : ''})`
        : ''}
      …
    </span>
  );
}

/** What the ranked index does not parse: files as blocks (no parser) and text-only files, with why. */
function CoverageNote({ coverage: c }: { coverage: NonNullable<IndexStats['coverage']> }) {
  const textOnly = textOnlyCount(c);
  if (!c.blocks && !textOnly) return null;
  return (
    <span data-testid="index-coverage" title={coverageSentence(c)}>
      {c.blocks ? ` · ${formatCount(c.blocks)} as blocks (no parser for ${unparsedExtensions(c, 3)})` : ''}
      {textOnly ? ` · ${formatCount(textOnly)} text only (${textOnlyReasons(c)})` : ''}
    </span>
  );
}
